import type { Scope } from '../domain/merchant/keys.js';
import { completeReview } from '../domain/instruments/updater.js';
import type { MessageKind } from '../domain/events/outbox.js';
import type { RoundResult } from '../notify/outbox.js';
import { DeliveryOptions, deliverCallbacks } from './callbacks.js';
import { dispatchLeftovers } from './dispatch.js';
import { JobDeps, RunSummary, Skips, emptySummary, runDueBetween } from './runs.js';

// Settle (POST /test_helpers/settle, `gateway.settle()` in the QA toolkit): returns when everything
// due for one merchant environment has been delivered or has failed: webhooks and billing
// callbacks POSTed (an event's deliveries are queued as it is recorded), email and SMS sent, due billings, scheduled
// transactions and account-updater reviews run. It does that work itself, for that merchant
// environment only (so another merchant's backlog or hanging endpoint never holds it), and reads
// the database for what other rounds or other nodes are doing meanwhile, so a settle on one node
// also waits for work another node claimed. Retries that are not due yet are reported, not waited
// for. Bounded by a timeout: then it says what is left.

export interface SettleWorkers {
  /** The process's outbox worker: its transports decide which messages can be sent at all. */
  outbox?: {
    readonly kinds: MessageKind[];
    readonly sending: ReadonlySet<number>;
    drain(now?: Date, scope?: Scope): Promise<RoundResult>;
  };
}

export interface SettleDeps extends JobDeps, SettleWorkers {
  delivery?: DeliveryOptions;
}

export const SETTLE_DEFAULT_MS = 10_000;
export const SETTLE_MAX_MS = 60_000;

/**
 * Deliveries of one kind in the merchant environment (since its last reset, which removes them):
 * `pending` are due or being sent (0 once settled).
 */
export interface DeliveryCounts {
  delivered: number;
  failed: number;
  /** Failed attempts whose retry is not due yet (not waited for). */
  pending_retry: number;
  pending: number;
}

export interface MessageCounts extends DeliveryCounts {
  /** Kept in the outbox: this gateway has no transport for the kind (SMTP_URL, SMS_WEBHOOK_URL). */
  queued: number;
}

export interface SettleSummary {
  class: 'test_settle';
  env: string;
  merchant_id: string;
  /** Nothing due is left (retries not yet due and messages without a transport do not count). */
  settled: boolean;
  took_ms: number;
  webhooks: DeliveryCounts;
  callbacks: DeliveryCounts;
  emails: MessageCounts;
  sms: MessageCounts;
  /**
   * Billings, scheduled transactions and account-updater reviews due and not yet run (0 when
   * settled); `errors`: runs of this call that failed unexpectedly (rolled back, left for the
   * scheduler); `advancing`: a test-clock advance holds the environment (settle waits for it).
   */
  scheduled: { due: number; errors: number; advancing: boolean };
  events: { undispatched: number };
  /** When the earliest pending retry falls due (real time), or null. */
  next_retry_at: Date | null;
}

const zero = (): DeliveryCounts => ({ delivered: 0, failed: 0, pending_retry: 0, pending: 0 });
const STATE_KEY: Record<string, keyof MessageCounts> = {
  sent: 'delivered', failed: 'failed', retry: 'pending_retry', due: 'pending', in_flight: 'pending', queued: 'queued',
};

/** The state of the merchant environment's work now (`now`: real time, as the delivery queues use). */
async function measure(deps: SettleDeps, scope: Scope, skip: Skips, now: Date) {
  const { db } = deps;
  const p = [scope.merchantId, scope.env, now];
  const callbacks = await db.query<{ webhook: boolean; state: string; n: number; next_at: Date | null }>(
    `SELECT billing_id IS NULL AS webhook,
            CASE WHEN status <> 'pending' THEN status
                 WHEN next_attempt_at <= $3 THEN 'due'
                 WHEN attempts > 0 AND NOT EXISTS (
                   SELECT 1 FROM callback_attempts a WHERE a.callback_id = c.id AND a.attempt = c.attempts) THEN 'in_flight'
                 ELSE 'retry' END AS state,
            count(*)::int AS n, min(next_attempt_at) AS next_at
       FROM callbacks c WHERE merchant_id = $1 AND env = $2 GROUP BY 1, 2`,
    p,
  );
  // An outbox message being sent has its attempt counted and next_attempt_at pushed past a lease:
  // by this process (known), or by another one (its first attempt: no error recorded yet).
  const messages = await db.query<{ kind: MessageKind; state: string; n: number; next_at: Date | null }>(
    `SELECT kind,
            CASE WHEN status <> 'pending' THEN status
                 WHEN kind NOT IN (SELECT jsonb_array_elements_text($4::jsonb)) THEN 'queued'
                 WHEN next_attempt_at <= $3 THEN 'due'
                 WHEN id::text IN (SELECT jsonb_array_elements_text($5::jsonb)) OR (attempts > 0 AND last_error IS NULL) THEN 'in_flight'
                 ELSE 'retry' END AS state,
            count(*)::int AS n, min(next_attempt_at) AS next_at
       FROM outbox WHERE merchant_id = $1 AND env = $2 GROUP BY 1, 2`,
    [...p, JSON.stringify(deps.outbox?.kinds ?? []), JSON.stringify([...(deps.outbox?.sending ?? [])].map(String))],
  );
  const { envNow, advancing } = await envClock(deps, scope, now);
  const [{ events, due }] = await db.query<{ events: number; due: number }>(
    `SELECT (SELECT count(*)::int FROM events WHERE merchant_id = $1 AND env = $2 AND dispatched_at IS NULL) AS events,
            (SELECT count(*)::int FROM subscriptions WHERE merchant_id = $1 AND env = $2 AND status = 'active' AND next_billing <= $3
                AND number::text NOT IN (SELECT jsonb_array_elements_text($4::jsonb)))
          + (SELECT count(*)::int FROM scheduled_transactions WHERE merchant_id = $1 AND env = $2 AND status = 'scheduled'
                AND amount IS NOT NULL AND bill_on <= ($3::timestamptz AT TIME ZONE 'UTC')::date
                AND id::text NOT IN (SELECT jsonb_array_elements_text($5::jsonb)))
          + (SELECT count(*)::int FROM account_updates WHERE merchant_id = $1 AND env = $2 AND status = 'received'
                AND review_at <= $3) AS due`,
    [scope.merchantId, scope.env, envNow, JSON.stringify(skip.sub.map(String)), JSON.stringify(skip.st.map(String))],
  );
  const out = { webhooks: zero(), callbacks: zero(), emails: { ...zero(), queued: 0 }, sms: { ...zero(), queued: 0 } };
  let nextRetry: Date | null = null;
  const add = (counts: DeliveryCounts | MessageCounts, state: string, n: number, nextAt: Date | null) => {
    (counts as MessageCounts)[STATE_KEY[state]] += n;
    if (state === 'retry' && nextAt && (!nextRetry || new Date(nextAt) < nextRetry)) nextRetry = new Date(nextAt);
  };
  for (const r of callbacks) add(r.webhook ? out.webhooks : out.callbacks, r.state, r.n, r.next_at);
  for (const r of messages) add(r.kind === 'email' ? out.emails : out.sms, r.state, r.n, r.next_at);
  const busy = events + due + (advancing ? 1 : 0)
    + out.webhooks.pending + out.callbacks.pending + out.emails.pending + out.sms.pending;
  return { ...out, events, due, advancing, nextRetry: nextRetry as Date | null, busy };
}

/** One round of this merchant environment's work; whether it did anything. */
async function round(deps: SettleDeps, scope: Scope, skip: Skips, ran: RunSummary, budgetMs: number): Promise<boolean> {
  // Events an older gateway version left undispatched (every merchant's: there are none after the first round).
  const d = await dispatchLeftovers(deps.db, deps.clock.now());
  let runs = 0;
  const before = await envClock(deps, scope, deps.clock.now());
  if (!before.advancing) {
    // Due recurring work, stamped at the environment's "now", as the scheduler loop does.
    const step = await runDueBetween(deps, scope, before.envNow, before.envNow, { skip });
    for (const k of Object.keys(ran) as Array<keyof RunSummary>) ran[k] += step.ran[k];
    runs = Object.values(step.ran).reduce((a, b) => a + b, 0);
  }
  // Account-updater reviews that fell due (the outbox loop's task does every merchant's).
  const reviews = await deps.db.query<{ id: string }>(
    `SELECT id FROM account_updates WHERE merchant_id = $1 AND env = $2 AND status = 'received' AND review_at <= $3
      ORDER BY review_at LIMIT 100`, [scope.merchantId, scope.env, before.envNow]);
  for (const r of reviews) if (await deps.db.tx((q) => completeReview(q, scope, r.id, before.envNow))) runs++;
  const cb = await deliverCallbacks(deps, deps.clock.now(), {
    ...deps.delivery, scope, batchSize: 16, perScope: 16, roundBudgetMs: Math.max(0, budgetMs),
  });
  const msgs = deps.outbox ? await deps.outbox.drain(deps.clock.now(), scope) : { claimed: 0 };
  return d.events + runs + cb.claimed + msgs.claimed > 0;
}

/** The environment's "now" (real time plus its test clock's offset) and whether an advance holds it. */
async function envClock(deps: SettleDeps, scope: Scope, now: Date): Promise<{ envNow: Date; advancing: boolean }> {
  if (scope.env !== 'test') return { envNow: now, advancing: false };
  const [c] = await deps.db.query<{ offset_ms: number; advance_state: string }>(
    'SELECT offset_ms, advance_state FROM test_clocks WHERE merchant_id = $1', [scope.merchantId]);
  return { envNow: new Date(now.getTime() + Number(c?.offset_ms ?? 0)), advancing: !!c && c.advance_state !== 'ready' };
}

/** Resolves after `ms` (or at once for 0 or less); the timer never keeps the process alive. */
const pause = (ms: number) => new Promise<void>((resolve) => {
  if (ms <= 0) return resolve();
  setTimeout(resolve, ms).unref();
});

/**
 * Settles one merchant environment: rounds of its own work until nothing is due or `timeoutMs`
 * (real time) has passed; 0 only reports the state. A round still running at the deadline goes on in the background (a
 * hanging endpoint has its own 5 s deadline); the answer then counts it as pending.
 */
export async function settle(deps: SettleDeps, scope: Scope, opts: { timeoutMs?: number } = {}): Promise<SettleSummary> {
  const started = Date.now();
  const limit = Math.min(SETTLE_MAX_MS, Math.max(0, opts.timeoutMs ?? SETTLE_DEFAULT_MS));
  const deadline = started + limit;
  const skip: Skips = { sub: [], st: [] };
  const ran = emptySummary();
  let wait = 2;
  let running: Promise<boolean> | null = null;
  for (;;) {
    // timeout_ms 0 only looks: no round is started.
    if (limit > 0) {
      running ??= round(deps, scope, skip, ran, deadline - Date.now()).catch((err) => {
        deps.log?.error({ err }, 'settle round failed');
        return false;
      });
    }
    const progress = running ? await Promise.race([running, pause(deadline - Date.now()).then(() => null)]) : false;
    if (progress !== null) running = null;
    const state = await measure(deps, scope, skip, deps.clock.now());
    const over = Date.now() >= deadline;
    if (state.busy === 0 || over) {
      return {
        class: 'test_settle',
        env: scope.env,
        merchant_id: scope.merchantId,
        settled: state.busy === 0,
        took_ms: Date.now() - started,
        webhooks: state.webhooks,
        callbacks: state.callbacks,
        emails: state.emails,
        sms: state.sms,
        scheduled: { due: state.due, errors: ran.errors, advancing: state.advancing },
        events: { undispatched: state.events },
        next_retry_at: state.nextRetry,
      };
    }
    // Work held by another round or node: look again soon, a little later each time.
    if (progress) wait = 2;
    else {
      await pause(Math.min(wait, deadline - Date.now()));
      wait = Math.min(wait * 2, 100);
    }
  }
}
