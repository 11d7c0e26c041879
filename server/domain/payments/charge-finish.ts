import type { Db, Queryable } from '../../db/index.js';
import { E, ErrorCode, GatewayError } from '../../errors.js';
import { Connector, PROCESSOR_DEADLINE_MS, ProcessorResult, SaleRequest } from '../../processor/processor.js';
import { presentTransaction } from '../../schemas/transactions.js';
import { answerRecord, ask, avsCheck, cscCheck, outcomeColumns, unknownFrom } from './charge-outcome.js';
import { EventType, emitEvent } from '../events/events.js';
import type { Scope } from '../merchant/keys.js';
import { TRANSACTION_SELECT, Transaction, TransactionRow, getTransaction } from './transactions.js';

// Steps 2 and 3 of a live charge (step 1, the pending row, is createCharge's): ask the processor
// with no transaction open, then record its outcome and its events in a transaction of their own.
// The reconciler (reconcile.ts) records what a lookup found through the same recordOutcome.

const EVENT_OF: Record<string, EventType> = {
  SETTLED: 'transaction.created', DECLINED: 'transaction.failed', RETURNED: 'transaction.failed', FAILED: 'transaction.failed',
  HELD: 'transaction.held',
};

/** The least time worth sending a sale with: below it the answer could not arrive before the request's deadline. */
const MIN_CALL_MS = 3_000;

/**
 * A pending sale is sent only this soon after its recording began, counted by the caller on its
 * monotonic clock: well before the reconciler first looks at it (RECONCILE_FIRST_MS, 60 s), so a
 * node that stalled can never send a sale the reconciler has already called never sent. A request's
 * own deadline (40 s) is shorter still.
 */
export const SEND_WITHIN_MS = 45_000;

/** How often a held charge is looked at again (its review may take hours). */
export const HELD_RECHECK_MS = 15 * 60_000;

/**
 * What else a charge's final outcome resolves, in the transaction that records it: the run of a
 * billing or a scheduled transaction that made the charge. It is the billing area's (run-outcome.ts,
 * resolveRuns), above payments, so whoever records an outcome is handed it by its caller.
 */
export type ResolveRuns = (q: Queryable, txn: Transaction, now: Date) => Promise<void>;

/**
 * Records a processor's answer on a charge that is still unresolved (PENDING, or HELD for review),
 * with its event, and what depends on the charge (`resolveRuns`: a billing's or a scheduled
 * transaction's run). An unknown answer changes nothing. Returns the charge as it stands, and
 * whether this call changed it (another node's or the reconciler's answer may have come first:
 * then nothing is written twice).
 */
export async function recordOutcome(
  q: Queryable, scope: Scope, id: string, result: ProcessorResult, now: Date, resolveRuns: ResolveRuns,
): Promise<{ txn: Transaction; changed: boolean }> {
  if (result.outcome === 'unknown') return { txn: await getTransaction(q, scope, id), changed: false };
  const [row] = await q.query<TransactionRow & { amount: number; given_csc: boolean }>(
    `SELECT ${TRANSACTION_SELECT}, (processor->>'amount')::bigint AS amount, csc_check <> 'not_provided' AS given_csc FROM transactions t
      WHERE id = $1 AND merchant_id = $2 AND env = $3 AND pending_since IS NOT NULL FOR UPDATE`,
    [id, scope.merchantId, scope.env],
  );
  if (!row) return { txn: await getTransaction(q, scope, id), changed: false };
  // A held charge's review that has not ended is no news.
  if (row.status === 'HELD' && result.outcome === 'held') {
    await q.query('UPDATE transactions SET reconcile_after = $2 WHERE id = $1', [id, new Date(now.getTime() + HELD_RECHECK_MS)]);
    return { txn: await getTransaction(q, scope, id), changed: false };
  }
  const cols = outcomeColumns(result, Number(row.amount), row.payment_method === 'bank_account');
  const held = result.outcome === 'held';
  const set = {
    ...cols, system_trace: result.processorId ?? row.system_trace,
    csc_check: row.payment_method === 'credit_card' ? cscCheck(result, row.given_csc) : row.csc_check,
    avs_address_check: avsCheck(result) ?? row.avs_address_check, processed_at: now,
    pending_since: held ? row.pending_since : null, reconcile_after: held ? new Date(now.getTime() + HELD_RECHECK_MS) : null,
  };
  const names = Object.keys(set);
  const [updated] = await q.query<TransactionRow>(
    `UPDATE transactions SET ${names.map((n, i) => `${n} = $${i + 2}`).join(', ')},
            processor = processor || $${names.length + 2}::jsonb
      WHERE id = $1 RETURNING *`,
    [id, ...Object.values(set), answerRecord(result)],
  );
  // An unresolved charge has no refunds (only a settled one can be refunded).
  const txn = { ...updated, refunds: [] } as Transaction;
  await emitEvent(q, scope, EVENT_OF[txn.status], presentTransaction(txn), now);
  if (!held) await resolveRuns(q, txn, now);
  return { txn, changed: true };
}

/**
 * Steps 2 and 3: asks the processor for the pending sale (no transaction open), then records the
 * outcome. An outcome that is not known — no answer within the deadline, a dropped connection, an
 * answer that cannot be read — or one that could not be recorded (the database away) leaves the
 * charge pending for the reconciler: it is never asked again blindly.
 */
export async function completeCharge(
  db: Db, connector: Connector, scope: Scope, txn: Transaction, sale: SaleRequest, now: Date, resolveRuns: ResolveRuns,
  log?: (err: unknown) => void, deadlineMs = PROCESSOR_DEADLINE_MS,
): Promise<Transaction> {
  // Too little time left to hear an answer (the caller's budget, counted on this process's monotonic
  // clock since before the charge was recorded): not sent at all (the reconciler finds no record: PROC04).
  if (deadlineMs < MIN_CALL_MS) return txn;
  const result = await ask((ctx) => connector.sale(sale, ctx), unknownFrom, Math.min(deadlineMs, PROCESSOR_DEADLINE_MS));
  if (result.outcome === 'unknown') return txn;
  try {
    return (await db.tx((q) => recordOutcome(q, scope, txn.id, result, now, resolveRuns))).txn;
  } catch (err) {
    log?.(err);
    return txn;
  }
}

/** The error a charge's answer is, if any: its decline or refusal, or its unknown outcome (PROC02). */
export function chargeFailure(txn: Transaction): GatewayError | null {
  if (txn.status === 'PENDING') {
    return new GatewayError(E.PROCESSOR_OUTCOME_UNKNOWN,
      `the processor's answer on transaction ${txn.id} did not arrive: it is pending and is resolved by asking the processor; do not charge again, read GET /charge/${txn.id}`,
      { transaction_id: txn.id });
  }
  if (!txn.error_code) return null;
  return new GatewayError(txn.error_code as ErrorCode, txn.error_message ?? undefined, { transaction_id: txn.id });
}
