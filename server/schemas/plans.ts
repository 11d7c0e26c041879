// A plan (spec 2.10, 4.8): what a subscription bills, and how often.
import { E, badRequest, invalid, MUST } from '../errors.js';
import { isScalar, text } from '../lib/validate.js';
import {
  At, Env, Int, NullableAt, NullableInt, NullableStr as NStr, Str, Type, type Static, type TUnsafe, columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { type Input, amount, bool, custom, fields, later, metadata, optionalAmount, text as textField } from './fields.js';

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export function isFrequency(v: unknown): v is Frequency {
  return typeof v === 'string' && (FREQUENCIES as readonly string[]).includes(v);
}

/**
 * The stored row (007_recurring.sql), its columns in order: its type (PlanRow), its column list
 * (PLAN_COLUMNS: every statement reading a whole plan names them) and, marked `shown`, the columns
 * the answer shows as stored. A deleted plan's deleted_at stays inside the gateway.
 */
export const PlanRowSchema = Type.Object({
  id: shown(Int({ examples: [1] })),
  merchant_id: Str(),
  env: Env(),
  name: shown(Str({ examples: ['Gold monthly'] })),
  frequency: shown(Str({ enum: [...FREQUENCIES], examples: ['monthly'] }) as TUnsafe<Frequency>),
  day: shown(NullableInt({ examples: [1] })),
  amount: shown(Int({ examples: [1999] })),
  callback_url: shown(NStr({ examples: ['https://shop.example.com/billing'] })),
  created_at: shown(At()),
  updated_at: shown(At()),
  deleted_at: NullableAt(),
});
export type PlanRow = Static<typeof PlanRowSchema>;
export const PLAN_COLUMNS = columnsOf(PlanRowSchema);
/** A plan as its answer reads it: the row and how many subscriptions to it are active (counted, not stored). */
export type PlanView = PlanRow & { active_subscriptions?: number };

/** Spec 2.10 leaves the record open: docs/decisions/recurring-billing.md, Plans. */
export const PlanSchema = Type.Object({
  class: Str({ examples: ['plan'] }),
  ...shownOf(PlanRowSchema),
  active_subscriptions: Int({ examples: [0] }),
});
export type PlanOut = Static<typeof PlanSchema>;
const PICK = shownPicker(PlanRowSchema, { class: 'plan' });

/** Spec 2.10 leaves the record open: docs/decisions/recurring-billing.md, Plans. */
export function presentPlan(p: PlanView): PlanOut {
  const out = PICK(p) as PlanOut;
  out.active_subscriptions = p.active_subscriptions ?? 0;
  return out;
}

export const MAX_PLAN_NAME = 255;
export const MAX_CALLBACK_URL = 2048;
export const MAX_ENDS_AFTER = 100_000;

/**
 * A callback_url's form: http or https, no credentials, at most 2048 characters as stored (the URL
 * parser percent-encodes, up to 9 characters for one); null when absent or blank. That live mode
 * takes https only is the domain's check (it knows the environment): domain/billing/plans.ts.
 */
export function readCallbackUrl(v: unknown): string | null {
  const s = text(v);
  if (s === null) return null;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw invalid('callback_url', MUST.HTTP_URL);
  }
  if (u.toString().length > MAX_CALLBACK_URL || !['http:', 'https:'].includes(u.protocol) || u.username || u.password) {
    throw invalid('callback_url', `must be an http or https URL of at most ${MAX_CALLBACK_URL} characters, without credentials`);
  }
  return u.toString();
}

/**
 * POST /plans (spec 4.8). Its faults are answered in this order: callback_url (its form here, then
 * https in live and its host, domain/billing/plans.ts vetPlan, before the transaction), then
 * frequency, name, amount (59112) and day, which are read `later` and taken by createPlan.
 */
export const PlanFields = fields({
  name: later(custom(`At most ${MAX_PLAN_NAME} characters.`, { type: 'string', minLength: 1, maxLength: MAX_PLAN_NAME }, (v, name) => {
    const s = text(v, name);
    if (s === null || s.length > MAX_PLAN_NAME) throw invalid(name, `is required, at most ${MAX_PLAN_NAME} characters`);
    return s;
  }, { required: true, example: 'Gold monthly' })),
  frequency: later(custom('How often a subscription is billed.', { type: 'string', enum: FREQUENCIES }, (v, name) => {
    const f = text(v, name)?.toLowerCase();
    if (!isFrequency(f)) throw invalid(name, `must be one of ${FREQUENCIES.join(', ')}`);
    return f;
  }, { required: true, example: 'monthly' })),
  day: later(custom(
    'The day billed: a weekday 0 to 7 for a weekly plan (0 and 7: Sunday), a day of the month 1 to 31 otherwise (the last day of a shorter month); ignored for a daily plan.',
    { type: 'integer', minimum: 0, maximum: 31 },
    (v) => {
      if (v === undefined || v === null || v === '') return null;
      if (typeof v !== 'string' && typeof v !== 'number') throw badRequest('day must be a whole number');
      return String(v);
    }, { example: 1 })),
  amount: amount('Cents, above zero (a form body sends it as text).', { required: true, example: 1999 }),
  callback_url: custom('Told of each billing (a public https URL; http in test mode), signed as webhooks are.',
    { type: 'string', format: 'uri', maxLength: MAX_CALLBACK_URL }, (v) => readCallbackUrl(v), { example: 'https://shop.example.com/billing' }),
}, { examples: [{ name: 'Gold monthly', frequency: 'monthly', day: 1, amount: 1999 }] });
export type PlanInput = Input<typeof PlanFields>;

/** ends_after: absent is undefined; null, '' or 0 mean "until unsubscribed"; else 1 to MAX_ENDS_AFTER runs. */
function readEndsAfter(v: unknown, name: string): number | null | undefined {
  if (v === undefined) return undefined;
  if (v === null || v === '') return null;
  const s = isScalar(v) ? String(v).trim() : '';
  const n = /^\d{1,9}$/.test(s) ? Number(s) : NaN;
  if (!(n >= 0 && n <= MAX_ENDS_AFTER)) {
    throw invalid(name, `must be a whole number of billings from 1 to ${MAX_ENDS_AFTER} (0 or absent: no end)`);
  }
  return n === 0 ? null : n;
}

/**
 * POST /plans/{id}/subscription/{customer_id} and POST /subscriptions/{id}. Every field is read
 * `later`: the plan, the customer or the subscription is looked up first (subscribe,
 * updateSubscription in domain/billing/subscriptions.ts), and each takes the fields in its order.
 */
export const SubscribeFields = fields({
  amount: later(optionalAmount("Cents, overriding the plan's amount.", E.AMOUNT_INVALID, { example: 1999 })),
  method_id: later(textField("Which of the customer's methods pays (default: the customer's default).")),
  charge_bank_account: later(bool("true: the customer's default bank account; false: their default card.")),
  ends_after: later(custom(`Billings before the subscription ends, 1 to ${MAX_ENDS_AFTER} (0 or absent: until unsubscribed).`,
    { type: 'integer', minimum: 0, maximum: MAX_ENDS_AFTER }, readEndsAfter, { example: 12 })),
  bill_immediately: later(bool('Make the first billing now (on subscribing only).')),
  metadata: later(metadata()),
}, { examples: [{ bill_immediately: true }] });
export type SubscribeInput = Input<typeof SubscribeFields>;
