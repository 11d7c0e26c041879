import type { Clock } from '../clock.js';
import { Db } from '../db/index.js';
import type { Scope } from '../domain/merchant/keys.js';
import { signCallback, webhookSecret } from '../domain/merchant/signing.js';
import type { Vault } from '../vault.js';
import { OutboundError, OutboundPolicy, post } from '../net/outbound.js';

// Billing callbacks (spec 6: "plans accept a callback_url; what is sent and when: not shown").
// After every run of a subscription (and every retry) the billing is POSTed as JSON to the plan's
// callback_url, signed with the merchant environment's secret. Rows are queued in the billing's
// own transaction (webhook deliveries in their event's: domain/events/dispatch.ts); any node delivers
// them, claiming with FOR UPDATE SKIP LOCKED and a lease, so delivery is at least once (the
// Tessera-Callback-Id header lets a receiver drop duplicates). Each process's deliverer
// (deliverer.ts) sends them continuously; deliverCallbacks is one bounded round of the same claim
// and attempt, for a test-mode settle (settle.ts) and tests.

export const SIGNATURE_HEADER = 'tessera-signature';

export interface CallbackDeps {
  db: Db;
  vault: Vault;
  clock: Clock;
  /**
   * Not used: every request goes through server/net/outbound.ts (address checks, deadline, answer
   * cap). Kept only because jobs/scheduler.ts picks this key for its JobDeps; remove with that.
   */
  fetch?: unknown;
  /** The address policy and resolver of outbound requests; the process's (configureOutbound) otherwise. */
  outbound?: OutboundPolicy;
  log?: { warn(obj: object, msg?: string): void };
}

/** Options of one round (deliverCallbacks); the attempt options are the deliverer's too. */
export interface DeliveryOptions {
  /** Callbacks claimed at a time (default 32), at most `perScope` of each merchant environment. */
  batchSize?: number;
  /** After a full batch another is claimed while the round is younger than this (default 5 s). */
  roundBudgetMs?: number;
  /** Requests in flight at once (default 16). */
  concurrency?: number;
  /** Callbacks of one merchant environment claimed per batch, so in flight at once (default 2). */
  perScope?: number;
  maxAttempts?: number;
  /** The deadline of one attempt, all of it: DNS, connect, TLS, answer, body (default 5 s). */
  timeoutMs?: number;
  leaseMs?: number;
  backoff?: (failedAttempts: number) => number;
  /** Only this merchant environment's callbacks (a test-mode settle, jobs/settle.ts); default all. */
  scope?: Scope;
}

/** 30 s, 1, 2, 4, 8, 16, 32 min, then hourly; the 10th failed attempt marks the callback `failed`. */
export const callbackBackoff = (failed: number) => Math.min(3600_000, 30_000 * 2 ** Math.max(0, failed - 1));
export const MAX_CALLBACK_ATTEMPTS = 10;

export interface CallbackRow {
  id: number;
  merchant_id: string;
  env: 'test' | 'live';
  billing_id: number | null;
  url: string;
  body: string;
  attempts: number;
  /** Webhook deliveries carry their own budget (about a day of attempts); null: the worker's default. */
  max_attempts: number | null;
}

export interface DeliveryResult {
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Claims due callbacks in batches of one statement each (FOR UPDATE SKIP LOCKED, attempt counted,
 * next_attempt_at pushed past a lease): at most `perScope` of each merchant environment, taken
 * round-robin across them, so one merchant's backlog or hanging endpoint cannot hold up another's;
 * another batch follows a full one while the round is younger than `roundBudgetMs`. They are POSTed
 * `concurrency` at a time, each attempt under one deadline, and each signed when its connection is
 * ready (a slow DNS answer or connect does not age the timestamp). 2xx is delivered; anything
 * else, a timeout or a network error is retried with backoff until the row's attempts are spent,
 * then `failed` (kept). Times are real.
 */
export async function deliverCallbacks(deps: CallbackDeps, now: Date = deps.clock.now(), opts: DeliveryOptions = {}): Promise<DeliveryResult> {
  const { batchSize = 32, roundBudgetMs = 5_000 } = opts;
  const total: DeliveryResult = { claimed: 0, sent: 0, retrying: 0, failed: 0 };
  const started = Date.now();
  for (;;) {
    const r = await deliverBatch(deps, now, opts);
    for (const k of Object.keys(total) as (keyof DeliveryResult)[]) total[k] += r[k];
    // A full batch may have more behind it: claim again while the round is young.
    if (r.claimed < batchSize || Date.now() - started >= roundBudgetMs) return total;
  }
}

/**
 * The merchant environments with pending callbacks, one index probe each (a loose scan of
 * callbacks_pending_scope), for `ranked` to read each one's first `perScope` due: a batch costs
 * the number of environments waiting, not the number of callbacks waiting.
 */
const PENDING_SCOPES = `scopes AS (
       (SELECT merchant_id, env FROM callbacks WHERE status = 'pending' ORDER BY merchant_id, env LIMIT 1)
       UNION ALL
       SELECT n.merchant_id, n.env FROM scopes s CROSS JOIN LATERAL (
         SELECT c.merchant_id, c.env FROM callbacks c
          WHERE c.status = 'pending' AND (c.merchant_id, c.env) > (s.merchant_id, s.env)
          ORDER BY c.merchant_id, c.env LIMIT 1) n)`;
/** Only the merchant environment at $5, $6 (a test-mode settle). */
const ONE_SCOPE = 'scopes AS (SELECT $5::text AS merchant_id, $6::text AS env)';

/**
 * One batch's claim: $1 now, $2 batch size, $3 the lease's end, $4 per merchant environment, and
 * with `scoped` that environment's merchant and env at $5, $6. Each environment's first $4 due
 * callbacks, round by round across environments, locked (SKIP LOCKED) and leased. They are
 * picked, then updated, through id arrays, so both read them by primary key (a join let the
 * planner hash the whole table, twice). With `busy` (the deliverer's claim, never scoped), $5 is
 * a JSON object of the requests each environment has in flight (`{"<merchant>/<env>": n}`): an
 * environment takes $4 less those.
 */
export const claimSql = (scoped: boolean, busy = false): string =>
  `WITH RECURSIVE ${scoped ? ONE_SCOPE : PENDING_SCOPES},
     ranked AS (
       SELECT f.id, f.next_attempt_at, row_number() OVER (PARTITION BY s.merchant_id, s.env ORDER BY f.next_attempt_at, f.id) AS rn
         FROM scopes s CROSS JOIN LATERAL (
           SELECT c.id, c.next_attempt_at FROM callbacks c
            WHERE c.merchant_id = s.merchant_id AND c.env = s.env AND c.status = 'pending' AND c.next_attempt_at <= $1
            ORDER BY c.next_attempt_at, c.id
            LIMIT ${busy ? "greatest(0, $4 - coalesce(($5::jsonb ->> (s.merchant_id || '/' || s.env))::int, 0))" : '$4'}) f),
     picked AS (SELECT ARRAY(SELECT id FROM ranked ORDER BY rn, next_attempt_at, id) AS ids),
     due AS (
       SELECT c.id FROM callbacks c, picked
        WHERE c.id = ANY (picked.ids) AND c.status = 'pending' AND c.next_attempt_at <= $1
        ORDER BY array_position(picked.ids, c.id) LIMIT $2 FOR UPDATE OF c SKIP LOCKED)
     UPDATE callbacks c SET attempts = c.attempts + 1, next_attempt_at = $3
      WHERE c.id = ANY (ARRAY(SELECT id FROM due))
     RETURNING c.id, c.merchant_id, c.env, c.billing_id, c.url, c.body, c.attempts, c.max_attempts`;

const CLAIM_ALL = claimSql(false);
const CLAIM_ONE = claimSql(true);
const CLAIM_ROOM = claimSql(false, true);

/** The key of a merchant environment in the deliverer's counts and the claim's `busy` object. */
export const scopeKey = (row: Pick<CallbackRow, 'merchant_id' | 'env'>) => `${row.merchant_id}/${row.env}`;

/**
 * Claims (leases) due callbacks: at most `limit`, at most `perScope` of each merchant environment
 * less what `busy` says it has in flight, round-robin across environments, in the order to send them.
 */
export async function claimCallbacks(
  deps: Pick<CallbackDeps, 'db'>, now: Date, opts: { limit: number; perScope: number; leaseMs?: number; busy?: Record<string, number> },
): Promise<CallbackRow[]> {
  const lease = new Date(now.getTime() + (opts.leaseMs ?? 60_000));
  const rows = await deps.db.query<CallbackRow>(opts.busy ? CLAIM_ROOM : CLAIM_ALL,
    [now, opts.limit, lease, opts.perScope, ...(opts.busy ? [JSON.stringify(opts.busy)] : [])]);
  return roundRobin(rows);
}

async function deliverBatch(deps: CallbackDeps, now: Date, opts: DeliveryOptions): Promise<DeliveryResult> {
  const { batchSize = 32, concurrency = 16, perScope = 2, leaseMs = 60_000, scope } = opts;
  const claimed = scope
    ? await deps.db.query<CallbackRow>(CLAIM_ONE, [now, batchSize, new Date(now.getTime() + leaseMs), perScope, scope.merchantId, scope.env])
    : await claimCallbacks(deps, now, { limit: batchSize, perScope, leaseMs });
  const result: DeliveryResult = { claimed: claimed.length, sent: 0, retrying: 0, failed: 0 };
  const rows = roundRobin(claimed);
  let next = 0;
  const worker = async () => {
    while (next < rows.length) result[await deliverOne(deps, rows[next++], now, opts)]++;
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
  return result;
}

/** The first of each merchant environment, then the second of each, …; by id within one. */
function roundRobin(rows: CallbackRow[]): CallbackRow[] {
  const byScope = new Map<string, CallbackRow[]>();
  for (const r of [...rows].sort((a, b) => a.id - b.id)) {
    const key = scopeKey(r);
    byScope.set(key, [...(byScope.get(key) ?? []), r]);
  }
  const queues = [...byScope.values()].sort((a, b) => a[0].id - b[0].id);
  const out: CallbackRow[] = [];
  for (let i = 0; out.length < rows.length; i++) for (const q of queues) if (q[i]) out.push(q[i]);
  return out;
}

/** What a merchant is shown when something on our side failed before the request went out. */
const NOT_SENT = 'not sent: the gateway could not prepare the request; it is retried';

/** One attempt of a claimed callback, recorded with its outcome (used by deliverCallbacks and the deliverer). */
export async function deliverOne(deps: CallbackDeps, row: CallbackRow, now: Date, opts: DeliveryOptions): Promise<'sent' | 'retrying' | 'failed'> {
  const { maxAttempts = MAX_CALLBACK_ATTEMPTS, timeoutMs = 5_000, backoff = callbackBackoff } = opts;
  let status: number | null = null;
  let error: string | null = null;
  let detail: string | null = null;
  let duration: number | null = null;
  const started = Date.now();
  try {
    const scope = { merchantId: row.merchant_id, env: row.env };
    const { secret, previous } = await webhookSecret(deps.db, deps.vault, scope, deps.clock.now());
    const res = await post(row.url, {
      caller: row.env,
      policy: deps.outbound,
      timeoutMs,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Tessera-Callback/1',
        'tessera-callback-id': String(row.id),
        'tessera-attempt': String(row.attempts),
      },
      body: row.body,
      // Signed when the connection is ready: the timestamp is the time the request leaves.
      lateHeaders: () => {
        const sentAt = deps.clock.now();
        const also = previous && previous.expires_at > sentAt ? [previous.secret] : [];
        return { [SIGNATURE_HEADER]: signCallback(secret, Math.floor(sentAt.getTime() / 1000), row.body, also) };
      },
    });
    status = res.status;
    duration = Date.now() - started;
    if (status < 200 || status > 299) error = `HTTP ${status}`;
  } catch (err) {
    // No HTTP answer: one message whatever the cause, and no duration (see OutboundError).
    error = err instanceof OutboundError ? err.message : NOT_SENT;
    detail = err instanceof OutboundError ? `${err.kind}: ${err.detail}` : String((err as Error)?.message ?? err);
  }
  const done = new Date();
  // Every attempt is kept (GET /webhooks/deliveries shows them). The attempt and the delivery's new
  // state are written by one statement: a settle reading in between (jobs/settle.ts) would otherwise
  // see an attempt recorded on a delivery still pending and take it for a retry not yet due.
  const record = (update: string, params: unknown[]) => deps.db.query(
    `WITH attempt AS (
       INSERT INTO callback_attempts (callback_id, merchant_id, env, attempt, at, status_code, error, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8))
     ${update}`,
    [row.id, row.merchant_id, row.env, row.attempts, now, status, error, duration, ...params],
  );
  if (error === null) {
    await record("UPDATE callbacks SET status = 'sent', sent_at = $9, last_status = $6, last_error = NULL WHERE id = $1", [done]);
    return 'sent';
  }
  if (row.attempts >= (row.max_attempts ?? maxAttempts)) {
    await record("UPDATE callbacks SET status = 'failed', last_status = $6, last_error = $7 WHERE id = $1", []);
    deps.log?.warn({ callback_id: row.id, billing_id: row.billing_id, error, detail }, 'callback failed for good');
    return 'failed';
  }
  await record('UPDATE callbacks SET next_attempt_at = $9, last_status = $6, last_error = $7 WHERE id = $1', [
    new Date(now.getTime() + backoff(row.attempts)),
  ]);
  return 'retrying';
}
