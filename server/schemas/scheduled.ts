// A scheduled transaction (spec 2.7, 4.3): a charge billed on a given day.
import { E, GatewayError, invalid, tooLong } from '../errors.js';
import { SPEC_PAGE_CODES, text } from '../lib/validate.js';
import {
  At, Bool, Env, Int, Metadata, NullableAt, NullableStr as NStr, Str, Type, type Static, type TUnsafe, columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { type Input, amount, bool, custom, email, fields, metadata, pageFields, text as textField } from './fields.js';
import { later, take } from './fields.js';
import { type PayerField, requireChargeParams } from './transactions.js';

/** processing: a live charge whose outcome is not recorded yet. */
export type ScheduledStatus = 'scheduled' | 'processing' | 'billed' | 'failed' | 'cancelled';

/**
 * The stored row (003_customers.sql, extended by 007_recurring.sql), its columns in order: its type
 * (ScheduledRow), its column list (SCHEDULED_COLUMNS: every statement reading a whole scheduled
 * transaction names them, domain/billing/scheduled.ts) and, marked `shown`, the columns the answer
 * shows as stored. Spec 2.7's text forms (amount, send_receipt, metadata; '' for a transaction_id,
 * token or ip_address not there) are made by presentScheduled; merchant_id, env and billed_at stay
 * inside the gateway. `seq` (the list's order) is read by no row. The 007 columns are typed as a
 * schedule made by POST /scheduled_transactions has them: only those are read (amount not null).
 */
export const ScheduledRowSchema = Type.Object({
  merchant_id: Str(),
  env: Env(),
  id: shown(Str({ examples: ['sch_3c4d5e6f'] })),
  customer_id: shown(Str()),
  method_id: shown(NStr()),
  status: shown(Str({
    enum: ['scheduled', 'processing', 'billed', 'failed', 'cancelled'], description: 'processing: a live charge whose outcome is not recorded yet.', examples: ['scheduled'],
  }) as TUnsafe<ScheduledStatus>),
  /** 'YYYY-MM-DD', read as text (pg and PGlite parse `date` into different Dates): see scheduledColumns. */
  bill_on: shown(Str({ description: 'YYYY-MM-DD.', examples: ['2026-02-01'] })),
  created_at: shown(At()),
  amount: Int(),
  transaction_id: NStr(),
  token: NStr(),
  new_record: shown(Bool()),
  send_receipt: Type.Unsafe<boolean | null>({ type: ['boolean', 'null'] }),
  receipt_template_id: shown(NStr()),
  email_address: shown(NStr()),
  charge_bank_account: shown(Type.Unsafe<boolean | null>({ type: ['boolean', 'null'] })),
  description: shown(NStr()),
  metadata: Metadata(),
  ip_address: NStr(),
  company: shown(NStr()), website: shown(NStr()), address_1: shown(NStr()), address_2: shown(NStr()),
  city: shown(NStr()), state: shown(NStr()), zip: shown(NStr()), phone_number: shown(NStr()), fax_number: shown(NStr()),
  card_owner_name: shown(NStr()),
  bank_account_holder_first_name: shown(NStr()),
  bank_account_holder_last_name: shown(NStr()),
  error_code: shown(NStr()),
  error_message: shown(NStr()),
  updated_at: NullableAt(),
  billed_at: NullableAt(),
});
export type ScheduledRow = Static<typeof ScheduledRowSchema>;
export const SCHEDULED_COLUMNS = columnsOf(ScheduledRowSchema);

/** Spec 2.7, with its types: amount, send_receipt and metadata are strings, new_record a boolean. */
export const ScheduledSchema = Type.Object({
  class: Str({ examples: ['scheduledtransaction'] }),
  ...shownOf(ScheduledRowSchema),
  // Always set on a schedule, shown nullable as spec 2.7's other ids are.
  customer_id: NStr(),
  updated_at: At(),
  transaction_id: Str({ description: "'' before billing.", examples: [''] }),
  token: Str({ examples: [''] }),
  amount: Str({ description: 'Cents, as text (spec 2.7).', examples: ['1999'] }),
  send_receipt: Str({ examples: [''] }),
  metadata: Str({ description: 'JSON-encoded.', examples: ['{}'] }),
  ip_address: Str({ examples: ['203.0.113.7'] }),
});
export type ScheduledOut = Static<typeof ScheduledSchema>;
const PICK = shownPicker(ScheduledRowSchema, { class: 'scheduledtransaction' });

/** Spec 2.7 with its types: amount, send_receipt and metadata are strings; transaction_id is '' before billing. */
export function presentScheduled(r: ScheduledRow): ScheduledOut {
  const out = PICK(r) as ScheduledOut;
  out.updated_at = r.updated_at ?? r.created_at;
  out.transaction_id = r.transaction_id ?? '';
  out.token = r.token ?? '';
  out.amount = String(r.amount);
  out.send_receipt = r.send_receipt === null ? '' : String(r.send_receipt);
  out.metadata = JSON.stringify(r.metadata ?? {});
  out.ip_address = r.ip_address ?? '';
  return out;
}

/** A real calendar date 'YYYY-MM-DD' (no Feb 30)? */
export function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** bill_on's form: a calendar date 'YYYY-MM-DD', or an ISO date-time (its UTC date). Whether it is ahead is the domain's check (it knows the time). */
function readBillOn(v: unknown, name: string): string {
  let s = text(v, name);
  if (s !== null && /^\d{4}-\d{2}-\d{2}T/.test(s)) {
    const d = new Date(s);
    s = Number.isNaN(d.getTime()) ? s : d.toISOString().slice(0, 10);
  }
  if (s === null || !isCalendarDate(s)) throw invalid(name, 'must be a date, YYYY-MM-DD');
  return s;
}

/** The payer fields of spec 2.7, the charge field each fills, the older name a body may use instead, and their lengths. */
export const SCHEDULED_PAYER = {
  company: { charge: 'company', alias: null, max: 255 },
  website: { charge: 'website', alias: null, max: 255 },
  address_1: { charge: 'address_1', alias: null, max: 255 },
  address_2: { charge: 'address_2', alias: null, max: 255 },
  city: { charge: 'city', alias: null, max: 100 },
  state: { charge: 'state', alias: null, max: 2 },
  zip: { charge: 'zip', alias: null, max: 16 },
  phone_number: { charge: 'phone', alias: 'phone', max: 32 },
  fax_number: { charge: 'fax', alias: 'fax', max: 32 },
} as const satisfies Record<string, { charge: PayerField; alias: string | null; max: number }>;
export type ScheduledPayerField = keyof typeof SCHEDULED_PAYER;

/**
 * A payer field, named `field` in its refusal (an alias is refused by the 2.7 name it stands for):
 * undefined when absent or null (so the alias is read instead), else text of at most its length.
 */
function payer(field: ScheduledPayerField, description: string) {
  const { max } = SCHEDULED_PAYER[field];
  return later(custom(description, { type: 'string', maxLength: max }, (v) => {
    if (v === undefined || v === null) return undefined;
    const s = text(v, field);
    if (s !== null && s.length > max) throw tooLong(field, max);
    return s;
  }));
}

/** A security code passed on as sent: the customer a token becomes reads it (cvv, else csc), only when a token is billed. */
const securityCode = (description: string) => custom<unknown>(description, { type: 'string', maxLength: 4 }, (v) => v);

/**
 * POST /scheduled_transactions (our endpoint; spec 2.7 gives the record), in the order its faults
 * are answered: customer_id or token with amount (48291, 69002, 99819, 59112, as a charge), the
 * form of bill_on; then, read `later` and taken by the domain once it has checked that bill_on is
 * ahead (readScheduledInput), description, metadata, the booleans, email_address (69006), the
 * payer fields, method_id and receipt_template_id.
 */
export const ScheduledFields = fields({
  customer_id: textField("Bill this stored customer's method."),
  token: later(textField('Or a one-time token: kept until the day as a new customer (new_record: true).')),
  amount: amount('Cents, above zero (a form body sends it as text).', { required: true, example: 1999 }),
  bill_on: custom('The day to bill, YYYY-MM-DD (an ISO date-time: its UTC date): today (UTC) or later, at most ten years ahead.',
    { type: 'string', format: 'date' }, readBillOn, { required: true, example: '2026-02-01' }),
  description: later(textField('At most 1000 characters.', { max: 1000 })),
  metadata: later(metadata()),
  send_receipt: later(bool("Email a receipt when it bills (default: the customer's setting).")),
  charge_bank_account: later(bool("true: the customer's default bank account; false: their default card.")),
  email_address: later(email('Where the receipt goes.', { code: E.RECEIPT_EMAIL_INVALID })),
  company: payer('company', 'Payer company.'),
  website: payer('website', 'Payer website.'),
  address_1: payer('address_1', 'Billing address.'),
  address_2: payer('address_2', 'Billing address.'),
  city: payer('city', 'City.'),
  state: payer('state', 'Two-letter state.'),
  zip: payer('zip', 'ZIP code.'),
  phone_number: payer('phone_number', "Payer's phone."),
  fax_number: payer('fax_number', "Payer's fax."),
  phone: payer('phone_number', 'phone_number, by the name a charge uses.'),
  fax: payer('fax_number', 'fax_number, by the name a charge uses.'),
  method_id: later(textField("Which of the customer's methods (default: the customer's default method).")),
  receipt_template_id: later(textField('The receipt template to use.')),
  cvv: securityCode("The token's security code, checked when the token becomes a customer."),
  csc: securityCode('Security code (cvv is read first).'),
}, {
  examples: [{ bill_on: '2026-02-01', amount: 1999, customer_id: 'cus_1a2b3c4d' }],
  rules: [{
    after: 'amount',
    check(c) {
      const customerId = c.customer_id ?? null;
      const token = customerId === null ? take(c.token ?? null) : null;
      const a = c.amount!;
      if (customerId !== null || token === null) {
        requireChargeParams(E.CUSTOMER_CHARGE_PARAMS_MISSING, ['customer_id', customerId], a);
        if (a === 'not_positive') throw new GatewayError(E.CUSTOMER_AMOUNT_INVALID);
      } else requireChargeParams(E.TOKEN_CHARGE_PARAMS_MISSING, ['token', token], a);
      if (typeof a !== 'number') throw new GatewayError(E.AMOUNT_INVALID);
    },
  }],
});
export type ScheduledFieldsInput = Input<typeof ScheduledFields>;

/** GET /scheduled_transactions: a page, refused with the spec's codes (1800 limit, 1802 above 100, 1801 offset). */
export const ScheduledQuery = fields(pageFields(SPEC_PAGE_CODES));
