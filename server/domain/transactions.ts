import { pagedQuery, Queryable } from '../db/index.js';
import type { Page } from './validate.js';
import { E, GatewayError } from '../errors.js';
import { Processor, processorFor } from '../processor/processor.js';
import { emitEvent } from './events.js';
import { Scope, newId } from './keys.js';
import { presentTransaction } from '../schemas/transactions.js';
import type { TransactionRow, RefundRow, Transaction } from '../schemas/transactions.js';
export type { TransactionRow, RefundRow, Transaction } from '../schemas/transactions.js';

export const PAYER_FIELDS = ['company', 'website', 'email', 'first_name', 'last_name', 'address_1', 'address_2',
  'city', 'state', 'zip', 'country', 'phone', 'fax'] as const;

async function withRefunds(q: Queryable, rows: TransactionRow[]): Promise<Transaction[]> {
  if (rows.length === 0) return [];
  const refunds = await q.query<RefundRow & { transaction_id: string }>(
    `SELECT id, transaction_id, amount, created_at FROM refunds
      WHERE transaction_id IN (SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY seq`,
    [rows.map((r) => r.id)],
  );
  return rows.map((r) => ({ ...r, refunds: refunds.filter((f) => f.transaction_id === r.id) }));
}

export async function getTransaction(q: Queryable, scope: Scope, id: string): Promise<Transaction> {
  const rows = await q.query<TransactionRow>(
    'SELECT * FROM transactions WHERE id = $1 AND merchant_id = $2 AND env = $3',
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
  const { list, total } = await pagedQuery<TransactionRow>(q, page, `SELECT * FROM transactions WHERE ${cond} ORDER BY seq DESC`,
    `transactions WHERE ${cond}`, params);
  return { list: await withRefunds(q, list), total };
}

/**
 * Refunds part or all of a settled charge. The row lock serialises concurrent refunds, so the sum
 * of refunds can never pass the settled amount. Without an amount, the whole remainder is refunded.
 */
export async function refundCharge(
  q: Queryable,
  scope: Scope,
  id: string,
  /** Cents, read by readRefundAmount; null refunds what remains. */
  requested: number | null,
  now: Date,
  live?: Processor,
): Promise<Transaction> {
  const [txn] = await q.query<TransactionRow>(
    'SELECT * FROM transactions WHERE id = $1 AND merchant_id = $2 AND env = $3 FOR UPDATE',
    [id, scope.merchantId, scope.env],
  );
  if (!txn) throw new GatewayError(E.CHARGE_NOT_FOUND);
  if (!txn.successful || !txn.settled) throw new GatewayError(E.REFUND_NOT_SETTLED);
  const remaining = txn.amount_settled - txn.amount_refunded;
  const amount = requested ?? remaining;
  if (amount > remaining || remaining === 0) {
    throw new GatewayError(E.REFUND_TOO_LARGE, `refund amount ${amount} exceeds the refundable ${remaining} cents`);
  }
  await processorFor(scope.env, live).refund({ env: scope.env, transactionId: id, amount });
  await q.query(
    'INSERT INTO refunds (id, transaction_id, merchant_id, env, amount, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [newId(16), id, scope.merchantId, scope.env, amount, now],
  );
  await q.query(
    `UPDATE transactions SET amount_refunded = amount_refunded + $2,
            refunded = (amount_refunded + $2 = amount_settled)
      WHERE id = $1`,
    [id, amount],
  );
  const updated = await getTransaction(q, scope, id);
  await emitEvent(q, scope, 'transaction.refunded', presentTransaction(updated), now);
  return updated;
}
