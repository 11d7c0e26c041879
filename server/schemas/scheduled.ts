// A scheduled transaction (spec 2.7, 4.3): a charge billed on a given day.
import { E, GatewayError, invalid, tooLong } from '../errors.js';
import { SPEC_PAGE_CODES, text } from '../lib/validate.js';
import { Bool, NullableStr as NStr, Str, Timestamp, Type, type Static } from './common.js';
import { type Input, amount, bool, custom, email, fields, metadata, pageFields, text as textField } from './fields.js';
import { later, take } from './fields.js';
import { type PayerField, requireChargeParams } from './transactions.js';

// The stored shape (rows as the domain reads them); the presenter below turns it into the answer.
export type ScheduledStatus = 'scheduled' | 'billed' | 'failed' | 'cancelled';

export interface ScheduledRow {
  id: string;
  seq: number;
  merchant_id: string;
  env: 'test' | 'live';
  customer_id: string;
  method_id: string | null;
  status: ScheduledStatus;
  /** bill_on as 'YYYY-MM-DD' (selected as text: pg and PGlite parse `date` into different Dates). */
  bill_on_text: string;
  amount: number;
  transaction_id: string | null;
  token: string | null;
  new_record: boolean;
  send_receipt: boolean | null;
  receipt_template_id: string | null;
  email_address: string | null;
  charge_bank_account: boolean | null;
  description: string | null;
  metadata: Record<string, unknown>;
  ip_address: string | null;
  company: string | null; website: string | null; address_1: string | null; address_2: string | null;
  city: string | null; state: string | null; zip: string | null; phone_number: string | null; fax_number: string | null;
  card_owner_name: string | null;
  bank_account_holder_first_name: string | null;
  bank_account_holder_last_name: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  updated_at: Date | null;
  billed_at: Date | null;
}


const NULLABLE = ['zip', 'city', 'state', 'company', 'website', 'address_1', 'address_2', 'fax_number', 'description',
  'phone_number', 'email_address', 'card_owner_name', 'receipt_template_id', 'bank_account_holder_first_name',
  'bank_account_holder_last_name', 'customer_id', 'method_id', 'error_code', 'error_message'] as const;

/** Spec 2.7, with its types: amount, send_receipt and metadata are strings, new_record a boolean. */
export const ScheduledSchema = Type.Object({
  class: Str({ examples: ['scheduledtransaction'] }),
  id: Str({ examples: ['sch_3c4d5e6f'] }),
  status: Str({ enum: ['scheduled', 'processing', 'billed', 'failed', 'cancelled'], description: 'processing: a live charge whose outcome is not recorded yet.', examples: ['scheduled'] }),
  bill_on: Str({ description: 'YYYY-MM-DD.', examples: ['2026-02-01'] }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  transaction_id: Str({ description: "'' before billing.", examples: [''] }),
  token: Str({ examples: [''] }),
  amount: Str({ description: 'Cents, as text (spec 2.7).', examples: ['1999'] }),
  send_receipt: Str({ examples: [''] }),
  metadata: Str({ description: 'JSON-encoded.', examples: ['{}'] }),
  ip_address: Str({ examples: ['203.0.113.7'] }),
  new_record: Bool(),
  ...(Object.fromEntries(NULLABLE.map((k) => [k, NStr()])) as Record<(typeof NULLABLE)[number], ReturnType<typeof NStr>>),
  charge_bank_account: Type.Unsafe<boolean | null>({ type: ['boolean', 'null'] }),
});
export type ScheduledOut = Static<typeof ScheduledSchema>;

/** Spec 2.7 with its types: amount, send_receipt and metadata are strings; transaction_id is '' before billing. */
export function presentScheduled(r: ScheduledRow): ScheduledOut {
  return {
    class: 'scheduledtransaction',
    id: r.id,
    status: r.status,
    bill_on: r.bill_on_text,
    created_at: r.created_at,
    updated_at: r.updated_at ?? r.created_at,
    transaction_id: r.transaction_id ?? '',
    token: r.token ?? '',
    amount: String(r.amount),
    send_receipt: r.send_receipt === null ? '' : String(r.send_receipt),
    metadata: JSON.stringify(r.metadata ?? {}),
    ip_address: r.ip_address ?? '',
    new_record: r.new_record,
    zip: r.zip, city: r.city, state: r.state, company: r.company, website: r.website,
    address_1: r.address_1, address_2: r.address_2, fax_number: r.fax_number, description: r.description,
    phone_number: r.phone_number, email_address: r.email_address, card_owner_name: r.card_owner_name,
    charge_bank_account: r.charge_bank_account, receipt_template_id: r.receipt_template_id,
    bank_account_holder_first_name: r.bank_account_holder_first_name,
    bank_account_holder_last_name: r.bank_account_holder_last_name,
    customer_id: r.customer_id,
    method_id: r.method_id,
    error_code: r.error_code,
    error_message: r.error_message,
  };
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
