// A billing (spec 2.8): one run of a subscription.
import type { BillingRow } from '../domain/billing/billing-record.js';
import { E, GatewayError, invalid } from '../errors.js';
import { isScalar, text as readText } from '../lib/validate.js';
import { Int, NullableInt, NullableStr as NStr, Str, Type, type Static } from './common.js';
import { type Input, custom, fields, pageFields, text } from './fields.js';

const time = (example = '2026-01-15 12:00:00') => Str({ description: 'UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1).', examples: [example] });

/** Spec 2.8: timestamps are `YYYY-MM-DD HH:MM:SS` strings and metadata a JSON-encoded string. */
export const BillingSchema = Type.Object({
  class: Str({ examples: ['billing'] }),
  id: Int({ examples: [1] }),
  plan_id: Int({ examples: [1] }),
  subscription_id: Int({ examples: [1] }),
  merchant_id: Str(),
  customer_id: Str({ examples: ['cus_1a2b3c4d'] }),
  transaction_id: Str({ examples: ['f1a0b2c3d4e5f6a7'] }),
  transaction_status: Str({ examples: ['SETTLED'] }),
  amount: Int({ examples: [1999] }),
  customer_display_name: Str({ examples: ['Ada Lovelace'] }),
  metadata: Str({ description: 'JSON-encoded.', examples: ['{}'] }),
  created_at: time(),
  updated_at: time(),
  status: Str({ enum: ['pending', 'success', 'failed', 'retried'], description: 'pending: a live charge whose outcome is not recorded yet.', examples: ['success'] }),
  parent_id: NullableInt({ description: 'The failed billing this one retried.' }),
  sequence: Int({ examples: [1] }),
  scheduled_for: time(),
  error_code: NStr(),
  error_message: NStr(),
});
export type BillingOut = Static<typeof BillingSchema>;

/** Spec 2.1: billing timestamps are space-separated, `YYYY-MM-DD HH:MM:SS` (UTC). */
export function billingTime(d: Date): string {
  return new Date(d).toISOString().slice(0, 19).replace('T', ' ');
}

/** Spec 2.8, plus class, sequence, scheduled_for and the error of a failed run. */
export function presentBilling(b: BillingRow): BillingOut {
  return {
    class: 'billing',
    id: b.id,
    plan_id: b.plan_id,
    subscription_id: b.subscription_id,
    merchant_id: b.merchant_id,
    customer_id: b.customer_id,
    transaction_id: b.transaction_id,
    transaction_status: b.transaction_status,
    amount: b.amount,
    customer_display_name: b.customer_display_name,
    metadata: JSON.stringify(b.metadata ?? {}),
    created_at: billingTime(b.created_at),
    updated_at: billingTime(b.updated_at),
    status: b.status,
    parent_id: b.parent_id,
    sequence: b.sequence,
    scheduled_for: billingTime(b.scheduled_for),
    error_code: b.error_code,
    error_message: b.error_message,
  };
}

/** An integer id from a path, a query or a body; anything else can name no record. */
export function readIntId(v: unknown): number | null {
  const s = isScalar(v) ? String(v).trim() : '';
  return /^\d{1,15}$/.test(s) ? Number(s) : null;
}

/** A filter by a record's integer id: null when absent, REQ01 "<name> must be an integer" when sent and not one. */
const idFilter = (description: string) => custom(description, { type: 'integer', minimum: 0 }, (v, name) => {
  if (v === undefined) return null;
  const id = readIntId(v);
  if (id === null) throw invalid(name, 'must be an integer');
  return id;
});

/** GET /billings: a page (PAGE01), then the filters in this order. */
export const BillingsQuery = fields({
  ...pageFields(),
  subscription_id: idFilter('Only this subscription’s billings.'),
  plan_id: idFilter('Only this plan’s billings.'),
  customer_id: text('Only this customer’s billings.'),
  status: text('Only billings in this status.', { doc: { enum: ['pending', 'success', 'failed', 'retried'] } }),
});
export type BillingsFilter = Omit<Input<typeof BillingsQuery>, 'limit' | 'offset'>;

/** POST /billings/retry: the failed billing, by its transaction id (11001 without one). */
export const RetryFields = fields({
  id: custom("The failed billing's transaction_id.", { type: 'string', minLength: 1 }, (v, name) => {
    const id = readText(v, name);
    if (id === null) throw new GatewayError(E.BILLING_TXN_NOT_FOUND, 'id (the billing\'s transaction_id) is required');
    return id;
  }, { required: true, example: 'f1a0b2c3d4e5f6a7' }),
}, { examples: [{ id: 'f1a0b2c3d4e5f6a7' }] });
