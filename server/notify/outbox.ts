import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { Loop } from '../lib/loop.js';
import type { Scope } from '../domain/merchant/keys.js';
import { OUTBOX_COLUMNS } from '../schemas/outbox.js';
import type { EmailMessage, MessageKind, OutboxMessage, OutboxRow, SmsMessage } from '../domain/events/outbox.js';
import { CAPTURE_ALL, TestDelivery } from './test-delivery.js';

// The outbox worker: delivers the rows domain/events/outbox.ts queues, through the transports below.

/** What a transport knows about the row it delivers (for idempotency keys and headers). */
export interface Delivery {
  id: number;
  merchantId: string;
  env: string;
  attempt: number;
}

export interface Transport<M extends OutboxMessage = OutboxMessage> {
  /** Resolves when the message was accepted; throws otherwise (see SendError). */
  send(message: M, delivery: Delivery): Promise<void>;
  close?(): Promise<void> | void;
}

export interface Transports {
  email?: Transport<EmailMessage>;
  sms?: Transport<SmsMessage>;
  /**
   * Which test-mode messages these transports may carry (TESSERA_TEST_DELIVERY_TO); the others are
   * captured. Absent: none (test-delivery.ts).
   */
  testDelivery?: TestDelivery;
}

/** A send failure; `permanent` when retrying the same message would fail again (e.g. SMTP 550). */
export class SendError extends Error {
  constructor(message: string, readonly permanent = false) {
    super(message);
  }
}

/** Lets a request ask for prompt delivery of what it just enqueued (no-op without a worker). */
export interface Notifier {
  kick(): void;
}

// --- delivering --------------------------------------------------------------------------------

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const silent: Logger = { info() {}, warn() {}, error() {} };

export interface WorkerOptions {
  db: Db;
  clock: Clock;
  transports: Transports;
  /** Rows claimed per round. */
  batchSize?: number;
  /** After this many failed attempts a message is 'failed' (kept, never deleted). */
  maxAttempts?: number;
  /** Delay before attempt n+1 after n failed attempts. */
  backoff?: (failedAttempts: number) => number;
  /** While a message is being sent, other workers leave it alone this long (a crash retries after). */
  leaseMs?: number;
  /** Jobs run at the start of every round, e.g. sweeping receipts that a crash left unsent. */
  tasks?: Array<(now: Date) => Promise<unknown>>;
  log?: Logger;
}

export interface RoundResult {
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
  /** Test-mode messages kept in the outbox instead of being sent (status 'captured'). */
  captured: number;
}

const BASE_DELAY = 30_000;
const MAX_DELAY = 3600_000;
/** 30 s, 1 min, 2, 4, 8, 16, 32 min, then hourly. */
export const exponentialBackoff = (failed: number) => Math.min(MAX_DELAY, BASE_DELAY * 2 ** Math.max(0, failed - 1));

export class OutboxWorker implements Notifier {
  log: Logger;
  /** Ids of the messages this process is sending right now (claimed, outcome not yet recorded). */
  readonly sending = new Set<number>();
  private readonly opts: Required<Omit<WorkerOptions, 'log'>>;
  private readonly loop = new Loop(() => this.drain(), (err) => this.log.error({ err }, 'outbox round failed'));

  constructor(opts: WorkerOptions) {
    this.opts = {
      batchSize: 20, maxAttempts: 12, backoff: exponentialBackoff, leaseMs: 10 * 60_000, tasks: [], ...opts,
    };
    this.log = opts.log ?? silent;
  }

  /** The kinds this worker can deliver; messages of other kinds wait in the outbox. */
  get kinds(): MessageKind[] {
    return (['email', 'sms'] as const).filter((k) => this.opts.transports[k]);
  }

  /**
   * Claims up to batchSize due messages and delivers them. The claim is one statement with
   * FOR UPDATE SKIP LOCKED that counts the attempt and moves next_attempt_at past a lease, so
   * several workers on one PostgreSQL never take the same row, and a worker that dies mid-send
   * leaves the row to be retried when the lease ends (delivery is at least once).
   */
  async runOnce(now: Date = this.opts.clock.now(), scope?: Scope): Promise<RoundResult> {
    const result: RoundResult = { claimed: 0, sent: 0, retrying: 0, failed: 0, captured: 0 };
    const kinds = this.kinds;
    if (kinds.length === 0) return result;
    // `scope`: one merchant environment's messages only (a test-mode settle must not wait for others').
    const only = scope ? 'AND merchant_id = $5 AND env = $6' : '';
    const rows = await this.opts.db.query<OutboxRow>(
      `WITH due AS (
         SELECT id FROM outbox
          WHERE status = 'pending' AND next_attempt_at <= $1 AND kind IN (SELECT jsonb_array_elements_text($2::jsonb)) ${only}
          ORDER BY next_attempt_at, id LIMIT $3
          FOR UPDATE SKIP LOCKED)
       UPDATE outbox o SET attempts = o.attempts + 1, next_attempt_at = $4
         FROM due WHERE o.id = due.id RETURNING ${OUTBOX_COLUMNS.map((c) => `o.${c}`).join(', ')}`,
      [now, kinds, this.opts.batchSize, new Date(now.getTime() + this.opts.leaseMs), ...(scope ? [scope.merchantId, scope.env] : [])],
    );
    rows.sort((a, b) => a.id - b.id);
    result.claimed = rows.length;
    for (const row of rows) this.sending.add(row.id);
    try {
      for (const row of rows) {
        const outcome = await this.deliver(row, now);
        this.sending.delete(row.id);
        result[outcome]++;
      }
    } finally {
      for (const row of rows) this.sending.delete(row.id);
    }
    return result;
  }

  /**
   * Runs rounds until nothing due at `now` is left (failed sends are due later, so this ends);
   * with `scope`, only that merchant environment's messages, and not the tasks (they serve every
   * merchant: a settle must not wait for others' work).
   */
  async drain(now: Date = this.opts.clock.now(), scope?: Scope): Promise<RoundResult> {
    const total: RoundResult = { claimed: 0, sent: 0, retrying: 0, failed: 0, captured: 0 };
    for (const task of scope ? [] : this.opts.tasks) {
      // A failing task (e.g. the receipt sweep) must not stop delivery.
      await task(now).catch((err) => this.log.error({ err }, 'outbox task failed'));
    }
    for (let i = 0; i < 1000; i++) {
      const r = await this.runOnce(now, scope);
      for (const k of Object.keys(total) as (keyof RoundResult)[]) total[k] += r[k];
      if (r.claimed < this.opts.batchSize) break;
    }
    return total;
  }

  /** What the transports may carry in test mode; everything else is captured. */
  get testDelivery(): TestDelivery {
    return this.opts.transports.testDelivery ?? CAPTURE_ALL;
  }

  private async deliver(row: OutboxRow, now: Date): Promise<Exclude<keyof RoundResult, 'claimed'>> {
    const transport = this.opts.transports[row.kind] as Transport | undefined;
    const key = [row.id, row.merchant_id, row.env];
    // The one place a message meets a transport: a test-mode one not allowed through is kept
    // ('captured', its claim's attempt taken back) and never handed to SMTP or the SMS bridge.
    if (row.env !== 'live' && !this.testDelivery.allows(row.kind, String(row.payload.to ?? ''))) {
      await this.opts.db.query(
        `UPDATE outbox SET status = 'captured', attempts = GREATEST(attempts - 1, 0), last_error = NULL
          WHERE id = $1 AND merchant_id = $2 AND env = $3`,
        key,
      );
      return 'captured';
    }
    try {
      if (!transport) throw new SendError(`no ${row.kind} transport`);
      await transport.send({ kind: row.kind, ...row.payload } as OutboxMessage,
        { id: row.id, merchantId: row.merchant_id, env: row.env, attempt: row.attempts });
    } catch (err) {
      const permanent = err instanceof SendError && err.permanent;
      const give = permanent || row.attempts >= this.opts.maxAttempts;
      const message = String((err as Error)?.message ?? err).slice(0, 1000);
      await this.opts.db.query(
        `UPDATE outbox SET status = $4, next_attempt_at = $5, last_error = $6
          WHERE id = $1 AND merchant_id = $2 AND env = $3`,
        [...key, give ? 'failed' : 'pending', new Date(now.getTime() + this.opts.backoff(row.attempts)), message],
      );
      this.log.warn({ outbox_id: row.id, kind: row.kind, attempt: row.attempts, permanent, err: message },
        give ? 'message failed; kept in the outbox' : 'send failed; will retry');
      return give ? 'failed' : 'retrying';
    }
    await this.opts.db.query(
      `UPDATE outbox SET status = 'sent', sent_at = $4, last_error = NULL WHERE id = $1 AND merchant_id = $2 AND env = $3`,
      [...key, now],
    );
    return 'sent';
  }

  /** Production loop: a round every intervalMs (and at once after kick()), never two at a time. */
  start(intervalMs = 5000): void {
    // Says at startup what happens to test-mode messages.
    const rule = this.testDelivery;
    this.log[rule.mode === 'all' ? 'warn' : 'info']({ test_delivery: rule.mode }, rule.summary);
    this.loop.start(intervalMs);
  }

  /** Asks for a round now (a request just queued a message); a round in progress is followed by another. */
  kick(): void {
    this.loop.kick();
  }

  /** Stops the loop and waits for a round in progress; closes the transports. */
  async stop(): Promise<void> {
    await this.loop.stop();
    for (const t of [this.opts.transports.email, this.opts.transports.sms]) await t?.close?.();
  }
}
