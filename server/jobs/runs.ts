import { Db } from '../db/index.js';
import { PendingSale, RecurringDeps, billSubscription } from '../domain/billing/billings.js';
import { SEND_WITHIN_MS, completeCharge } from '../domain/payments/charge-finish.js';
import { Lanes } from '../lib/lanes.js';
import type { Scope } from '../domain/merchant/keys.js';
import { sendChargeReceipt } from '../domain/documents/receipts.js';
import { resolveRuns } from '../domain/billing/run-outcome.js';
import { ST, ScheduledRow, billScheduled, scheduledColumns } from '../domain/billing/scheduled.js';
import { SUB, SubscriptionRow, subscriptionColumns } from '../domain/billing/subscriptions.js';
import type { Transaction } from '../domain/payments/transactions.js';
import type { Notifier } from '../notify/outbox.js';
import type { CallbackDeps } from './callbacks.js';

// The runs of recurring work, for the scheduler loop (scheduler.ts) and test-clock advances
// (test-clock.ts). Each piece of due work (a subscription's run, a scheduled transaction) is
// claimed with SELECT … FOR UPDATE SKIP LOCKED in a transaction of its own, which also charges and
// records it and moves it on; so several processes on one PostgreSQL never bill the same run
// twice, and a crash anywhere before the commit leaves nothing to undo. Due-ness is judged per
// merchant environment: real time, plus the test clock's offset in test mode. After each run the
// event loop gets a turn (an embedded database runs its queries on this thread: without the turn a
// long series of runs would hold every other request of the process until it ends).

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface JobDeps extends RecurringDeps, Pick<CallbackDeps, 'fetch'> {
  db: Db;
  log?: Logger;
  /** The outbox worker, kicked when a run made a receipt. */
  notify?: Notifier;
}

export interface RunSummary {
  billings: number;
  failed_billings: number;
  scheduled_transactions: number;
  failed_scheduled_transactions: number;
  /** Runs that hit an unexpected error (rolled back, logged; retried next round). */
  errors: number;
}

export const emptySummary = (): RunSummary => ({ billings: 0, failed_billings: 0, scheduled_transactions: 0, failed_scheduled_transactions: 0, errors: 0 });

/**
 * Where to look: everything due at real time `realNow` (each test env at its own offset), or one
 * environment at `at`. `skip`: work that failed unexpectedly in this round (so one broken row
 * cannot starve the rest; it is tried again next round).
 */
type Target = ({ realNow: Date } | { scope: Scope; at: Date; number?: number }) & { skip?: Array<number | string> };

const skipped = (col: string, n: number) => `AND ${col}::text NOT IN (SELECT jsonb_array_elements_text($${n}::jsonb))`;

/** A run that failed unexpectedly: its transaction rolled back (no charge, no record). */
class RunError extends Error {
  constructor(readonly key: number | string, readonly cause: unknown) {
    super(`run of ${key} failed: ${String((cause as Error)?.message ?? cause)}`);
  }
}

const ENV_NOW = `($1::timestamptz + coalesce(c.offset_ms, 0)::float8 * interval '1 millisecond')`;
/** A test environment whose clock is being advanced is the advance's to run, each run at its own moment (test-clock.ts). */
const NOT_ADVANCING = `AND coalesce(c.advance_state, 'ready') = 'ready'`;

/** One round per process at a time: the loop's rounds take turns (other nodes are kept apart by the row locks). */
const turns = new WeakMap<Db, Promise<unknown>>();
export function serial<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const prev = turns.get(db) ?? Promise.resolve();
  const run = prev.catch(() => {}).then(fn);
  turns.set(db, run.catch(() => {}));
  return run;
}

/** Lets the event loop serve what is waiting (requests, timers) before the next run. */
export const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * After a run commits: a live charge recorded as pending is asked of its processor now, with no
 * transaction open, and its outcome recorded with the billing's or scheduled transaction's
 * (charge-finish.ts; a crash here leaves it to the reconciler). Then the receipt the charge asked
 * for (the outbox sweep covers a crash here). Returns the charge as it ended.
 */
async function afterCommit(
  deps: JobDeps, scope: Scope, charged: Transaction | null, now: Date, pending: PendingSale | undefined, began: number,
): Promise<Transaction | null> {
  const txn = pending && charged
    ? await completeCharge(deps.db, pending.connector, scope, charged, pending.sale, now, resolveRuns,
      (err) => deps.log?.error({ err, transaction_id: charged.id }, 'run charge outcome not recorded; the reconciler will record it'),
      SEND_WITHIN_MS - (performance.now() - began))
    : charged;
  if (!txn?.receipt_due || !txn.successful) return txn;
  try {
    const out = await deps.db.tx((q) => sendChargeReceipt(q, scope, txn, now));
    if (out !== txn) deps.notify?.kick();
  } catch (err) {
    deps.log?.error({ err, transaction_id: txn.id }, 'receipt not made; the outbox sweep will retry');
  }
  return txn;
}

/** Claims, charges and records one due subscription run; null when nothing (unlocked) is due. */
export async function runOneSubscription(
  deps: JobDeps, target: Target, lanes?: Lanes, counted?: (ok: boolean) => void,
): Promise<{ ok: boolean | null; callback: boolean } | null> {
  const began = performance.now();
  const run = await deps.db.tx(async (q) => {
    const [sub] = 'realNow' in target
      ? await q.query<SubscriptionRow & { offset_ms: number }>(
        `SELECT ${subscriptionColumns('s')}, coalesce(c.offset_ms, 0) AS offset_ms
           FROM subscriptions s LEFT JOIN test_clocks c ON s.env = 'test' AND c.merchant_id = s.merchant_id
          WHERE s.status = 'active' AND s.next_billing <= ${ENV_NOW} ${skipped('s.number', 2)} ${NOT_ADVANCING}
          ORDER BY s.next_billing, s.number LIMIT 1
          FOR UPDATE OF s SKIP LOCKED`,
        [target.realNow, JSON.stringify(target.skip ?? [])],
      )
      : await q.query<SubscriptionRow & { offset_ms: number }>(
        `SELECT ${SUB}, 0 AS offset_ms FROM subscriptions
          WHERE merchant_id = $1 AND env = $2 AND status = 'active' AND next_billing <= $3
            AND ($4::bigint IS NULL OR number = $4) ${skipped('number', 5)}
          ORDER BY next_billing, number LIMIT 1
          FOR UPDATE SKIP LOCKED`,
        [target.scope.merchantId, target.scope.env, target.at, target.number ?? null, JSON.stringify(target.skip ?? [])],
      );
    if (!sub) return null;
    const now = 'realNow' in target ? new Date(target.realNow.getTime() + Number(sub.offset_ms)) : target.at;
    const { offset_ms: _o, ...row } = sub;
    try {
      return { now, scope: { merchantId: sub.merchant_id, env: sub.env } as Scope, ...(await billSubscription(q, deps, row, now)) };
    } catch (err) {
      throw new RunError(sub.number, err);
    }
  });
  if (!run) return null;
  if (run.pending && lanes) {
    // A live charge: asked of its processor beside the next runs (the round waits for it at its end).
    lanes.add(afterCommit(deps, run.scope, run.txn, run.now, run.pending, began).then((txn) => counted?.(!!txn?.successful)));
    return { ok: null, callback: true };
  }
  const txn = await afterCommit(deps, run.scope, run.txn, run.now, run.pending, began);
  return { ok: run.pending ? !!txn?.successful : run.billing.status === 'success', callback: run.callback || !!run.pending };
}

/**
 * bill_immediately: the new subscription's first run, now, through the same claim as the loop
 * (if the loop got there first, it bills it and this returns null).
 */
export function runSubscriptionNow(deps: JobDeps, scope: Scope, number: number, at: Date) {
  return runOneSubscription(deps, { scope, at, number });
}

/** Claims, charges and records one due scheduled transaction; null when nothing (unlocked) is due. */
export async function runOneScheduled(
  deps: JobDeps, target: Target, lanes?: Lanes, counted?: (ok: boolean) => void,
): Promise<{ ok: boolean | null } | null> {
  const began = performance.now();
  const run = await deps.db.tx(async (q) => {
    const [st] = 'realNow' in target
      ? await q.query<ScheduledRow & { offset_ms: number }>(
        `SELECT ${scheduledColumns('st')}, coalesce(c.offset_ms, 0) AS offset_ms
           FROM scheduled_transactions st LEFT JOIN test_clocks c ON st.env = 'test' AND c.merchant_id = st.merchant_id
          WHERE st.status = 'scheduled' AND st.amount IS NOT NULL
            AND st.bill_on <= (${ENV_NOW} AT TIME ZONE 'UTC')::date ${skipped('st.id', 2)} ${NOT_ADVANCING}
          ORDER BY st.bill_on, st.seq LIMIT 1
          FOR UPDATE OF st SKIP LOCKED`,
        [target.realNow, JSON.stringify(target.skip ?? [])],
      )
      : await q.query<ScheduledRow & { offset_ms: number }>(
        `SELECT ${ST}, 0 AS offset_ms FROM scheduled_transactions
          WHERE merchant_id = $1 AND env = $2 AND status = 'scheduled' AND amount IS NOT NULL
            AND bill_on <= ($3::timestamptz AT TIME ZONE 'UTC')::date ${skipped('id', 4)}
          ORDER BY bill_on, seq LIMIT 1
          FOR UPDATE SKIP LOCKED`,
        [target.scope.merchantId, target.scope.env, target.at, JSON.stringify(target.skip ?? [])],
      );
    if (!st) return null;
    const now = 'realNow' in target ? new Date(target.realNow.getTime() + Number(st.offset_ms)) : target.at;
    const { offset_ms: _o, ...row } = st;
    try {
      return { now, scope: { merchantId: st.merchant_id, env: st.env } as Scope, ...(await billScheduled(q, deps, row, now)) };
    } catch (err) {
      throw new RunError(st.id, err);
    }
  });
  if (!run) return null;
  if (run.pending && lanes) {
    lanes.add(afterCommit(deps, run.scope, run.txn, run.now, run.pending, began).then((txn) => counted?.(!!txn?.successful)));
    return { ok: null };
  }
  const txn = await afterCommit(deps, run.scope, run.txn, run.now, run.pending, began);
  return { ok: run.pending ? !!txn?.successful : run.row.status === 'billed' };
}

/**
 * Everything due at real time `realNow` (a test environment at realNow + its clock offset): every
 * missed run of every subscription (catch-up: one billing per run), then every due scheduled
 * transaction. Tests call this instead of sleeping. `maxRuns` bounds one call; the rest waits.
 */
export async function runDue(deps: JobDeps, realNow: Date = deps.clock.now(), opts: { maxRuns?: number } = {}): Promise<RunSummary> {
  const max = opts.maxRuns ?? 10_000;
  const out = emptySummary();
  const subSkip: number[] = [];
  const stSkip: string[] = [];
  const lanes = new Lanes(LIVE_LANES);
  try {
    for (let n = 0; n < max && (await drainOne(deps, out, 'sub', { realNow, skip: subSkip }, lanes)); n++);
    for (let n = 0; n < max && (await drainOne(deps, out, 'st', { realNow, skip: stSkip }, lanes)); n++);
  } finally {
    await lanes.idle();
  }
  return out;
}

/** How many live runs' processor calls one round has under way at once. */
const LIVE_LANES = 8;

/** Runs one piece of work and counts it; false when nothing was due. An unexpected error is logged and skipped. */
async function drainOne(deps: JobDeps, out: RunSummary, kind: 'sub' | 'st', target: Target, lanes?: Lanes): Promise<boolean> {
  await yieldTurn();
  await lanes?.free();
  try {
    // A live run's outcome is counted when its processor has answered (`counted`, before the round ends).
    if (kind === 'sub') {
      const count = (ok: boolean) => out[ok ? 'billings' : 'failed_billings']++;
      const r = await runOneSubscription(deps, target, lanes, count);
      if (r && r.ok !== null) count(r.ok);
      return !!r;
    }
    const count = (ok: boolean) => out[ok ? 'scheduled_transactions' : 'failed_scheduled_transactions']++;
    const r = await runOneScheduled(deps, target, lanes, count);
    if (r && r.ok !== null) count(r.ok);
    return !!r;
  } catch (err) {
    if (!(err instanceof RunError)) throw err;
    (target.skip as Array<number | string>).push(err.key);
    out.errors++;
    deps.log?.error({ err: err.cause, [kind === 'sub' ? 'subscription_id' : 'scheduled_transaction_id']: err.key },
      'recurring run failed and was rolled back; it is tried again next round');
    return true;
  }
}

/** The earliest due moment of unlocked work in one environment, up to `to`. */
async function earliestDue(db: Db, scope: Scope, to: Date, subSkip: number[], stSkip: string[]): Promise<Date | null> {
  const [row] = await db.query<{ due: Date | null }>(
    `SELECT min(due) AS due FROM (
       SELECT min(next_billing) AS due FROM subscriptions
        WHERE merchant_id = $1 AND env = $2 AND status = 'active' AND next_billing <= $3 ${skipped('number', 4)}
       UNION ALL
       SELECT min(bill_on)::timestamp AT TIME ZONE 'UTC' FROM scheduled_transactions
        WHERE merchant_id = $1 AND env = $2 AND status = 'scheduled' AND amount IS NOT NULL
          AND bill_on <= ($3::timestamptz AT TIME ZONE 'UTC')::date ${skipped('id', 5)}) d`,
    [scope.merchantId, scope.env, to, JSON.stringify(subSkip), JSON.stringify(stSkip)],
  );
  return row?.due ? new Date(row.due) : null;
}

/** Work that failed unexpectedly during one advance: skipped for the rest of it (see drainOne). */
export interface Skips {
  sub: number[];
  st: string[];
}

export interface Step {
  ran: RunSummary;
  /** Everything due up to here has run (the clock of the advance may show this time). */
  reached: Date;
  /** Nothing due is left up to `to` (or what is left is held by another node's run). */
  done: boolean;
}

/**
 * A test clock moving one environment from `from` to `to`: the due work runs in time order, each
 * run stamped with the moment it fell due (a billing of Feb 1 says Feb 1), as if the clock had
 * passed through. Work overdue before `from` runs at `from`. At most `maxRuns` runs per call: a
 * call that stops early says how far it got, and the next call goes on from there.
 */
export async function runDueBetween(
  deps: JobDeps, scope: Scope, from: Date, to: Date, opts: { maxRuns?: number; skip?: Skips } = {},
): Promise<Step> {
  const ran = emptySummary();
  const skip = opts.skip ?? { sub: [], st: [] };
  const max = opts.maxRuns ?? Infinity;
  let runs = 0;
  for (;;) {
    const due = await earliestDue(deps.db, scope, to, skip.sub, skip.st);
    if (!due) return { ran, reached: to, done: true };
    const at = due < from ? from : due;
    let n = 0;
    while (runs + n < max && (await drainOne(deps, ran, 'sub', { scope, at, skip: skip.sub }))) n++;
    while (runs + n < max && (await drainOne(deps, ran, 'st', { scope, at, skip: skip.st }))) n++;
    runs += n;
    if (runs >= max) return { ran, reached: at, done: false };
    if (n === 0) return { ran, reached: to, done: true }; // what is due is held by another node's run
  }
}
