import type { Db, Queryable } from '../../db/index.js';
import { Lanes } from '../../lib/lanes.js';
import type { Clock } from '../../clock.js';
import type { LookupResult, ProcessorResult } from '../../processor/processor.js';
import { ResolveRuns, recordOutcome } from './charge-finish.js';
import { NO_RECORD, ask } from './charge-outcome.js';
import { ProcessorDeps, connectorFor } from '../merchant/connectors.js';
import type { Env, Scope } from '../merchant/keys.js';
import { recordRefundOutcome } from './refunds.js';
import type { Transaction } from './transactions.js';

// The reconciler: live charges and refunds whose outcome is not known (PENDING), and charges held
// for review (HELD), resolved by asking their processor (a lookup by the gateway's reference,
// never a second sale). Every node runs it (jobs/reconciler.ts) and `tessera processor reconcile`
// runs it once. One node at a time looks at a row: its claim is `reconcile_after` moved past the
// lease by the database's clock, taken with SKIP LOCKED; the outcome is recorded only on a row
// still unresolved (recordOutcome), so two answers never both count.

export interface ReconcileDeps extends ProcessorDeps {
  clock: Clock;
  /**
   * How long after it was recorded an operation the processor has no record of is taken as never
   * made (nothing charged or refunded): until then it may still be on its way (default 10 min).
   */
  notFoundAfterMs?: number;
  /** Told of a row whose lookup failed unexpectedly (the pass goes on with the next). */
  onError?: (err: unknown, id: string) => void;
  /** What else a charge's outcome resolves (the billing area's resolveRuns; charge-finish.ts). */
  resolveRuns: ResolveRuns;
  /**
   * Makes the receipt a settled charge asked for (the documents area's sendChargeReceipt), in the
   * transaction it is given. Documents sit above payments, so the caller passes it in.
   */
  sendReceipt: (q: Queryable, scope: Scope, txn: Transaction, now: Date) => Promise<unknown>;
}

export interface ReconcileFilter {
  merchantId?: string;
  env?: Env;
  /**
   * Look at every unresolved row now, not only those due (the command). It may look at a row a node
   * is asking about or whose sale is still on its way: harmless, since an outcome is recorded only
   * on a row still unresolved, and "no record" counts only past notFoundAfterMs.
   */
  all?: boolean;
}

/** What one pass did: operations examined and how each was resolved. */
export interface ReconcileSummary {
  examined: number;
  /** Found at the processor and recorded as what it says (approved, declined, voided; or a review that ended). */
  resolved: number;
  /** Not found at the processor long enough after it was recorded: recorded as failed (nothing moved). */
  not_found: number;
  /** Still unknown (the processor did not answer, or it is too early to call it not found), or still held for review. */
  unresolved: number;
}

/** How long a claim keeps other nodes off a row: past the lookup's deadline. */
const LEASE_MS = 60_000;
/** When an unresolved row is looked at again. */
const RETRY_MS = 60_000;
export const NOT_FOUND_AFTER_MS = 10 * 60_000;

type Table = 'transactions' | 'refunds';
interface Claimed {
  id: string; merchant_id: string; env: Env; created_at: Date; processor: Record<string, string | number | null> | null;
  kind?: 'refund' | 'void'; transaction_id?: string; amount?: number;
}

/** Claims the next unresolved row of `table` for this node (null when none is left). */
async function claim(db: Db, table: Table, filter: ReconcileFilter, seen: string[]): Promise<Claimed | null> {
  const extra = table === 'refunds' ? ', kind, transaction_id, amount' : '';
  const [row] = await db.query<Claimed>(
    `UPDATE ${table} SET reconcile_after = now() + $1 * interval '1 millisecond'
      WHERE id = (SELECT id FROM ${table}
                   WHERE pending_since IS NOT NULL AND ($2::boolean OR reconcile_after <= now())
                     AND ($3::text IS NULL OR merchant_id = $3) AND ($4::text IS NULL OR env = $4)
                     AND id NOT IN (SELECT jsonb_array_elements_text($5::jsonb))
                   ORDER BY reconcile_after LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, merchant_id, env, created_at, processor${extra}`,
    [LEASE_MS, !!filter.all, filter.merchantId ?? null, filter.env ?? null, JSON.stringify(seen)],
  );
  return row ?? null;
}

const later = (db: Db, table: Table, id: string) =>
  db.query(`UPDATE ${table} SET reconcile_after = now() + $2 * interval '1 millisecond' WHERE id = $1 AND pending_since IS NOT NULL`, [id, RETRY_MS]);

/** What the processor says of one claimed row: the answer to record, or null while it stays unknown. */
async function lookUp(db: Db, deps: ReconcileDeps, row: Claimed, now: Date): Promise<{ result: ProcessorResult; noRecord: boolean } | null> {
  const connector = await connectorFor(db, deps, { merchantId: row.merchant_id, env: row.env });
  if (!connector || connector.local) return null;
  const p = row.processor ?? {};
  // A void makes no operation of its own at a processor: it turns the sale's state to voided, so it is looked up on its sale.
  const voiding = row.kind === 'void' ? await saleOf(db, row.transaction_id!) : null;
  const found = await ask<LookupResult | null>((ctx) => connector.lookup(voiding ?? {
    reference: row.id, processorId: (p.id as string | null) ?? null, createdAt: new Date(row.created_at), amount: Number(row.amount ?? p.amount ?? 0),
  }, ctx), () => null);
  if (found === null) return null;
  if (voiding && found.found) {
    if (found.settlement === 'voided') return { result: { ...found.result, outcome: 'approved' }, noRecord: false };
  } else if (found.found) {
    // A sale voided at the processor (its review queue, its own interface) moved no money.
    if (found.settlement === 'voided') {
      return { result: { ...found.result, outcome: 'declined', message: found.result.message ?? 'voided at the processor' }, noRecord: false };
    }
    return { result: found.result, noRecord: false };
  }
  const age = now.getTime() - new Date(row.created_at).getTime();
  if (age < (deps.notFoundAfterMs ?? NOT_FOUND_AFTER_MS)) return null;
  // Sent under another account than the connection has now (the operator changed it): this one's
  // "no record" says nothing; it stays unresolved for the operator (logged by the caller).
  if ((voiding ? await accountOfSale(db, row.transaction_id!) : p.account ?? null) !== (connector.account ?? null)) {
    throw new Error(`operation ${row.id} was sent under another processor account than the connection now names; resolve it by hand`);
  }
  return { result: { ...NO_RECORD }, noRecord: true };
}

const accountOfSale = async (db: Db, transactionId: string) =>
  (await db.query<{ account: string | null }>("SELECT processor->>'account' AS account FROM transactions WHERE id = $1", [transactionId]))[0]?.account ?? null;

/** The lookup of the sale a void reverses. */
async function saleOf(db: Db, transactionId: string) {
  const [t] = await db.query<{ id: string; created_at: Date; amount_settled: number; pid: string | null }>(
    "SELECT id, created_at, amount_settled, processor->>'id' AS pid FROM transactions WHERE id = $1", [transactionId]);
  return { reference: t.id, processorId: t.pid, createdAt: new Date(t.created_at), amount: Number(t.amount_settled) };
}

/** Resolves one claimed row: asks its processor, records what it says, counts it in `out`. */
async function settleRow(db: Db, deps: ReconcileDeps, table: Table, row: Claimed, out: ReconcileSummary): Promise<void> {
  const now = deps.clock.now();
  const scope: Scope = { merchantId: row.merchant_id, env: row.env };
  try {
    const answer = await lookUp(db, deps, row, now);
    const recorded = answer && await db.tx<{ changed: boolean; txn: Transaction | null }>((q) => (table === 'transactions'
      ? recordOutcome(q, scope, row.id, answer.result, now, deps.resolveRuns)
      : recordRefundOutcome(q, scope, row.id, row.kind ?? 'refund', answer.result, now).then((changed) => ({ changed, txn: null }))));
    const changed = !!recorded && recorded.changed;
    // The receipt a charge asked for, now that it has settled (its own transaction: a failure
    // never undoes the outcome; the outbox sweep makes it within a day of the charge).
    if (changed && recorded.txn?.receipt_due && recorded.txn.successful) {
      const txn = recorded.txn;
      await db.tx((q) => deps.sendReceipt(q, scope, txn, now)).catch((err) => deps.onError?.(err, row.id));
    }
    if (changed) {
      out[answer.noRecord ? 'not_found' : 'resolved']++;
      return;
    }
    out.unresolved++;
    // An answer that changed nothing (a review still under way) has set its own next look.
    if (!answer) await later(db, table, row.id);
  } catch (err) {
    // One merchant's unreadable connection or failing lookup never stops the others' rows.
    out.unresolved++;
    deps.onError?.(err, row.id);
    await later(db, table, row.id).catch(() => {});
  }
}

/** Lookups under way at once in a pass: a processor that hangs holds a lane for its deadline, not the pass. */
const LANES = 8;

/**
 * One pass: every unresolved live charge, then every pending refund, of the filter's merchant and
 * environment that is due (or all of them with `all`), each asked of its processor once, up to
 * LANES at a time.
 */
export async function reconcilePending(db: Db, deps: ReconcileDeps, filter: ReconcileFilter): Promise<ReconcileSummary> {
  const out: ReconcileSummary = { examined: 0, resolved: 0, not_found: 0, unresolved: 0 };
  for (const table of ['transactions', 'refunds'] as const) {
    const seen: string[] = [];
    const lanes = new Lanes(LANES);
    try {
      for (;;) {
        await lanes.free();
        const row = await claim(db, table, filter, seen);
        if (!row) break;
        seen.push(row.id);
        out.examined++;
        lanes.add(settleRow(db, deps, table, row, out));
      }
    } finally {
      await lanes.idle();
    }
  }
  return out;
}
