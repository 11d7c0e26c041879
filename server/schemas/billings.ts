// A billing (spec 2.8): one run of a subscription.
import { E, GatewayError, invalid } from '../errors.js';
import { isScalar, text as readText } from '../lib/validate.js';
import {
  At, Env, Int, Metadata, NullableInt, NullableStr as NStr, Str, Type, type Static, type TUnsafe, columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { type Input, custom, fields, pageFields, text } from './fields.js';

const time = (example = '2026-01-15 12:00:00') => Str({ description: 'UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1).', examples: [example] });

export type BillingStatus = 'pending' | 'success' | 'failed' | 'retried';

/**
 * The stored row (007_recurring.sql), its columns in order: its type (BillingRow), its column list
 * (BILLING_COLUMNS: every statement reading a whole billing names them) and, marked `shown`, the
 * columns the answer shows as stored (spec 2.8). Its timestamps and metadata are shown as text
 * (BillingSchema below); env stays inside the gateway.
 */
export const BillingRowSchema = Type.Object({
  id: shown(Int({ examples: [1] })),
  merchant_id: shown(Str()),
  env: Env(),
  plan_id: shown(Int({ examples: [1] })),
  subscription_id: shown(Int({ examples: [1] })),
  sequence: shown(Int({ examples: [1] })),
  customer_id: shown(Str({ examples: ['cus_1a2b3c4d'] })),
  transaction_id: shown(Str({ examples: ['f1a0b2c3d4e5f6a7'] })),
  transaction_status: shown(Str({ examples: ['SETTLED'] })),
  amount: shown(Int({ examples: [1999] })),
  customer_display_name: shown(Str({ examples: ['Ada Lovelace'] })),
  metadata: Metadata(),
  status: shown(Str({
    enum: ['pending', 'success', 'failed', 'retried'], description: 'pending: a live charge whose outcome is not recorded yet.', examples: ['success'],
  }) as TUnsafe<BillingStatus>),
  parent_id: shown(NullableInt({ description: 'The failed billing this one retried.' })),
  scheduled_for: At(),
  error_code: shown(NStr()),
  error_message: shown(NStr()),
  created_at: At(),
  updated_at: At(),
});
export type BillingRow = Static<typeof BillingRowSchema>;
export const BILLING_COLUMNS = columnsOf(BillingRowSchema);

/** Spec 2.8: timestamps are `YYYY-MM-DD HH:MM:SS` strings and metadata a JSON-encoded string. */
export const BillingSchema = Type.Object({
  class: Str({ examples: ['billing'] }),
  ...shownOf(BillingRowSchema),
  metadata: Str({ description: 'JSON-encoded.', examples: ['{}'] }),
  created_at: time(),
  updated_at: time(),
  scheduled_for: time(),
});
export type BillingOut = Static<typeof BillingSchema>;
const PICK = shownPicker(BillingRowSchema, { class: 'billing' });

/** Spec 2.1: billing timestamps are space-separated, `YYYY-MM-DD HH:MM:SS` (UTC). */
export function billingTime(d: Date): string {
  return new Date(d).toISOString().slice(0, 19).replace('T', ' ');
}

/** Spec 2.8, plus class, sequence, scheduled_for and the error of a failed run: the shown columns as stored, the times and metadata as text. */
export function presentBilling(b: BillingRow): BillingOut {
  const out = PICK(b) as BillingOut;
  out.metadata = JSON.stringify(b.metadata ?? {});
  out.created_at = billingTime(b.created_at);
  out.updated_at = billingTime(b.updated_at);
  out.scheduled_for = billingTime(b.scheduled_for);
  return out;
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
