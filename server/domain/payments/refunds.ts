import type { Db, Queryable } from '../../db/index.js';
import { E, GatewayError } from '../../errors.js';
import type { Connector, LookupResult, ProcessorResult, ReverseRequest } from '../../processor/processor.js';
import { presentTransaction } from '../../schemas/transactions.js';
import { answerRecord, ask, unknownFrom } from './charge-outcome.js';
import { emitEvent } from '../events/events.js';
import type { Scope } from '../merchant/keys.js';
import { PendingRefund, Transaction, getTransaction } from './transactions.js';

// Steps 2 and 3 of a live refund (step 1, the pending refund row, is refundCharge's). Before its
// processor settles a sale, the money has not moved: the whole sale is voided instead, and a part
// of it cannot be given back until settlement (REFUND03). After settlement it is a refund.

/** What a reversal of this charge tells the processor about it (never the full card or account number). */
export function reverseRequest(txn: Transaction, reference: string, amount: number): ReverseRequest {
  const p = (txn.processor ?? {}) as Record<string, string | null>;
  const last4 = (txn.card_number ?? '').slice(-4);
  const instrument: ReverseRequest['sale']['instrument'] = txn.payment_method === 'bank_account'
    ? { kind: 'bank', last4, routing: p.routing ?? null, type: (p.account_type as 'checking' | 'savings' | 'business_checking' | null) ?? 'checking', holder: txn.account_holder_name ?? '' }
    : { kind: 'card', last4, expMonth: txn.card_exp_month ? Number(txn.card_exp_month) : null, expYear: txn.card_exp_year ? Number(txn.card_exp_year) : null };
  return {
    reference, amount, currency: 'USD',
    sale: { reference: txn.id, processorId: p.id ?? txn.system_trace ?? '', amount: txn.amount_settled, instrument },
  };
}

/**
 * Records a processor's answer on a refund still pending, in the caller's transaction: approved
 * moves the charge's refunded amount (voided too for a void) and emits transaction.refunded;
 * declined or invalid marks it failed. Unknown changes nothing. Returns whether it changed.
 */
export async function recordRefundOutcome(
  q: Queryable, scope: Scope, refundId: string, kind: 'refund' | 'void', result: ProcessorResult, now: Date,
): Promise<boolean> {
  if (result.outcome === 'unknown' || result.outcome === 'held') return false;
  const ok = result.outcome === 'approved';
  const [refund] = await q.query<{ transaction_id: string; amount: number }>(
    `UPDATE refunds SET status = $4, kind = $5, pending_since = NULL, reconcile_after = NULL,
            processor = coalesce(processor, '{}'::jsonb) || $6::jsonb
      WHERE id = $1 AND merchant_id = $2 AND env = $3 AND status = 'pending' RETURNING transaction_id, amount`,
    [refundId, scope.merchantId, scope.env, ok ? 'succeeded' : 'failed', kind,
      answerRecord(result)],
  );
  if (!refund || !ok) return !!refund;
  await q.query(
    `UPDATE transactions SET amount_refunded = amount_refunded + $2, refunded = (amount_refunded + $2 = amount_settled),
            voided = voided OR $3
      WHERE id = $1`,
    [refund.transaction_id, refund.amount, kind === 'void'],
  );
  await emitEvent(q, scope, 'transaction.refunded', presentTransaction(await getTransaction(q, scope, refund.transaction_id)), now);
  return true;
}

/** A refund that never reached the processor: failed, with nothing to undo. */
async function refuse(db: Db, scope: Scope, refundId: string, err: GatewayError): Promise<never> {
  await db.tx((q) => q.query(
    `UPDATE refunds SET status = 'failed', pending_since = NULL, reconcile_after = NULL, processor = coalesce(processor, '{}'::jsonb) || $4::jsonb
      WHERE id = $1 AND merchant_id = $2 AND env = $3 AND status = 'pending'`,
    [refundId, scope.merchantId, scope.env, { code: err.code, message: err.message }],
  ));
  throw err;
}

/**
 * Steps 2 and 3 of a live refund: asks the processor whether the sale has settled, then refunds it
 * (settled), voids it (not settled, refunded whole) or refuses (not settled, in part: REFUND03),
 * and records the answer. An unknown answer leaves the refund pending for the reconciler (PROC02).
 */
export async function completeRefund(
  db: Db, connector: Connector, scope: Scope, txn: Transaction, pending: PendingRefund, now: Date,
): Promise<Transaction> {
  const p = (txn.processor ?? {}) as Record<string, string | null>;
  const state = await ask<LookupResult | null>((ctx) => connector.lookup({ reference: txn.id, processorId: p.id ?? null, createdAt: txn.created_at, amount: txn.amount_settled }, ctx),
    () => null);
  // Where the processor could not say (its reporting off or away), the refund is tried, and a
  // refusal for a sale not settled yet (nothing happened) turns into a void of the whole.
  const settlement = state?.found ? state.settlement : null;
  if (settlement !== null && settlement !== 'settled' && settlement !== 'unsettled') {
    await refuse(db, scope, pending.refundId, new GatewayError(E.REFUND_NOT_SETTLED, `the processor says this charge is ${settlement}: it cannot be refunded`));
  }
  if (settlement === 'unsettled' && !pending.whole) await refuse(db, scope, pending.refundId, new GatewayError(E.REFUND_BEFORE_SETTLEMENT));
  const request = reverseRequest(txn, pending.refundId, pending.amount);
  let kind: 'refund' | 'void' = settlement === 'unsettled' ? 'void' : 'refund';
  let result = kind === 'refund' ? await ask((ctx) => connector.refund(request, ctx), unknownFrom) : null;
  if (result?.outcome === 'invalid' && result.notSettled) {
    if (!pending.whole) await refuse(db, scope, pending.refundId, new GatewayError(E.REFUND_BEFORE_SETTLEMENT));
    kind = 'void';
    result = null;
  }
  if (!result) {
    // Its kind before the call: a reconciler finds a void on its sale, a refund by its own reference.
    await db.query("UPDATE refunds SET kind = 'void' WHERE id = $1 AND status = 'pending'", [pending.refundId]);
    result = await ask((ctx) => connector.void(request, ctx), unknownFrom);
  }
  if (result.outcome === 'unknown') {
    // Which way it went is the processor's to say: the refund stays pending.
    throw new GatewayError(E.PROCESSOR_OUTCOME_UNKNOWN,
      `the processor's answer on refund ${pending.refundId} of transaction ${txn.id} did not arrive: it is pending and is resolved by asking the processor; do not refund again`,
      { transaction_id: txn.id, refund_id: pending.refundId });
  }
  await db.tx((q) => recordRefundOutcome(q, scope, pending.refundId, kind, result, now));
  if (result.outcome !== 'approved') {
    throw new GatewayError(E.REFUND_REFUSED, result.message ?? undefined, { transaction_id: txn.id, refund_id: pending.refundId });
  }
  return getTransaction(db, scope, txn.id);
}
