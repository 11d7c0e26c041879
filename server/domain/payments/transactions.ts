import { pagedQuery, Queryable } from '../../db/index.js';
import type { Page } from '../../lib/validate.js';
import { E, GatewayError } from '../../errors.js';
import type { Connector } from '../../processor/processor.js';
import { emitEvent } from '../events/events.js';
import { Scope, newId } from '../merchant/keys.js';
import { TRANSACTION_COLUMNS, presentTransaction } from '../../schemas/transactions.js';
import type { TransactionRow, RefundRow, Transaction } from '../../schemas/transactions.js';
export type { TransactionRow, RefundRow, Transaction } from '../../schemas/transactions.js';

/** Every column of a transaction row (schemas/transactions.ts), `t.`-prefixed. */
export const TRANSACTION_SELECT = TRANSACTION_COLUMNS.map((c) => `t.${c}`).join(', ');

async function withRefunds(q: Queryable, rows: TransactionRow[]): Promise<Transaction[]> {
  if (rows.length === 0) return [];
  const refunds = await q.query<RefundRow & { transaction_id: string }>(
    `SELECT id, transaction_id, amount, status, kind, created_at FROM refunds
      WHERE transaction_id IN (SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY seq`,
    [rows.map((r) => r.id)],
  );
  return rows.map((r) => ({ ...r, refunds: refunds.filter((f) => f.transaction_id === r.id) }));
}

export async function getTransaction(q: Queryable, scope: Scope, id: string): Promise<Transaction> {
  const rows = await q.query<TransactionRow>(
    `SELECT ${TRANSACTION_SELECT} FROM transactions t WHERE id = $1 AND merchant_id = $2 AND env = $3`,
    [id, scope.merchantId, scope.env],
  );
  if (!rows[0]) throw new GatewayError(E.CHARGE_NOT_FOUND);
  return (await withRefunds(q, rows))[0];
}

/** Optional narrowing of a transaction list; every bound is inclusive except `createdBefore`. */
export interface TransactionFilter {
  status?: string;
  /** On the amount asked for: what was authorized, or what failed for a decline. */
  amountMin?: number;
  amountMax?: number;
  createdFrom?: Date;
  createdBefore?: Date;
}

export async function listTransactions(
  q: Queryable,
  scope: Scope,
  page: Page,
  filter: TransactionFilter = {},
) {
  const params: unknown[] = [scope.merchantId, scope.env];
  const where = ['merchant_id = $1', 'env = $2'];
  const add = (sql: string, value: unknown) => where.push(sql.replace('?', `$${params.push(value)}`));
  if (filter.status !== undefined) add('status = ?', filter.status);
  if (filter.amountMin !== undefined) add('GREATEST(amount_authorized, amount_failed) >= ?', filter.amountMin);
  if (filter.amountMax !== undefined) add('GREATEST(amount_authorized, amount_failed) <= ?', filter.amountMax);
  if (filter.createdFrom !== undefined) add('created_at >= ?', filter.createdFrom);
  if (filter.createdBefore !== undefined) add('created_at < ?', filter.createdBefore);
  const cond = where.join(' AND ');
  const { list, total } = await pagedQuery<TransactionRow>(q, page, `SELECT ${TRANSACTION_SELECT} FROM transactions t WHERE ${cond} ORDER BY seq DESC`,
    `transactions WHERE ${cond}`, params);
  return { list: await withRefunds(q, list), total };
}

/** A live refund recorded as pending (transaction 1): its processor is asked after the commit (refunds.ts). */
export interface PendingRefund {
  refundId: string;
  amount: number;
  /** The whole remainder of the charge: before settlement it is a void. */
  whole: boolean;
}

/**
 * Refunds part or all of a settled charge. The row lock serialises concurrent refunds, so the sum
 * of refunds (pending ones included) can never pass the settled amount. Without an amount, the
 * whole remainder is refunded. A local processor (the simulator) refunds at once; any other gets a
 * pending refund row here, and is asked with no transaction open (refunds.ts, completeRefund).
 */
export async function refundCharge(
  q: Queryable,
  scope: Scope,
  id: string,
  /** Cents, read by readRefundAmount; null refunds what remains. */
  requested: number | null,
  now: Date,
  /** Null for live mode without a processor: refused (PROC01) once the refund is otherwise valid. */
  connector: Connector | null,
): Promise<{ txn: Transaction; pending?: PendingRefund }> {
  const [txn] = await q.query<TransactionRow & { unresolved: number }>(
    `SELECT ${TRANSACTION_SELECT}, (SELECT coalesce(sum(amount), 0) FROM refunds r WHERE r.transaction_id = t.id AND r.status = 'pending')::bigint AS unresolved
       FROM transactions t WHERE id = $1 AND merchant_id = $2 AND env = $3 FOR UPDATE`,
    [id, scope.merchantId, scope.env],
  );
  if (!txn) throw new GatewayError(E.CHARGE_NOT_FOUND);
  if (!txn.successful || !txn.settled) throw new GatewayError(E.REFUND_NOT_SETTLED);
  const remaining = txn.amount_settled - txn.amount_refunded - Number(txn.unresolved);
  const amount = requested ?? remaining;
  if (amount > remaining || remaining === 0) {
    throw new GatewayError(E.REFUND_TOO_LARGE, `refund amount ${amount} exceeds the refundable ${remaining} cents`);
  }
  if (!connector) throw new GatewayError(E.NO_LIVE_PROCESSOR);
  const refundId = newId(16);
  if (!connector.local) {
    await q.query(
      `INSERT INTO refunds (id, transaction_id, merchant_id, env, amount, created_at, status, pending_since, reconcile_after, processor)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $6, $7, $8)`,
      [refundId, id, scope.merchantId, scope.env, amount, now, new Date(now.getTime() + 60_000), { connector: connector.name, account: connector.account ?? null, amount }],
    );
    return { txn: await getTransaction(q, scope, id), pending: { refundId, amount, whole: amount === txn.amount_settled } };
  }
  // The simulator settles at once and refunds whatever it is asked to.
  await q.query(
    'INSERT INTO refunds (id, transaction_id, merchant_id, env, amount, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [refundId, id, scope.merchantId, scope.env, amount, now],
  );
  await q.query(
    `UPDATE transactions SET amount_refunded = amount_refunded + $2,
            refunded = (amount_refunded + $2 = amount_settled)
      WHERE id = $1`,
    [id, amount],
  );
  const updated = await getTransaction(q, scope, id);
  await emitEvent(q, scope, 'transaction.refunded', presentTransaction(updated), now);
  return { txn: updated };
}
