// An invoice (spec 4.11; its fields: docs/decisions/invoices.md).
import { badRequest, invalid, MUST, tooLong } from '../errors.js';
import { decodeJsonParam, isEmptyList } from '../lib/input.js';
import { isEmail, MAX_AMOUNT, text } from '../lib/validate.js';
import {
  At, Env, Int, Metadata, NullableAt, NullableInt, NullableStr as NStr, Str, Type, type Static, type TUnsafe, columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { MAX_LENGTH } from './customers.js';
import { type Input, amount, custom, fields, metadata, pageFields, sentText, text as textField } from './fields.js';
import { later } from './fields.js';

export type InvoiceStatus = 'unpaid' | 'partially_paid' | 'paid' | 'deleted';
export const INVOICE_STATUSES: readonly InvoiceStatus[] = ['unpaid', 'partially_paid', 'paid', 'deleted'];

/** A line item as stored in `items` and shown: cents, the line's amount computed (readItems). */
export const ItemSchema = Type.Object({
  description: Str({ examples: ['Consulting'] }), quantity: Int({ examples: [2] }), unit_amount: Int({ examples: [5000] }), amount: Int({ examples: [10000] }),
});
export type Item = Static<typeof ItemSchema>;
/** A payment recorded by mark_as_paid, as stored in `payments` and shown. */
export const PaymentSchema = Type.Object({
  id: Str(), amount: Int(), created_at: Str({ format: 'date-time', examples: ['2026-01-15T12:00:00.000Z'] }),
});
export type Payment = Static<typeof PaymentSchema>;

/** The customer fields of spec 4.11, each with the maximum length of its customer-record twin. */
export const CUSTOMER_FIELDS = ['first_name', 'last_name', 'email', 'address_1', 'address_2', 'city', 'state', 'zip',
  'company', 'phone', 'fax'] as const;
export type ContactField = (typeof CUSTOMER_FIELDS)[number];
export const invoiceField = (f: ContactField) => `customer_${f}` as const;
/** The invoice columns of those fields: customer_first_name, … */
export const CONTACT_COLUMNS = CUSTOMER_FIELDS.map(invoiceField);

const EXAMPLE: Record<string, string> = { customer_first_name: 'Ada', customer_last_name: 'Lovelace', customer_email: 'ada@example.com' };
/** The customer_* columns, each shown as stored. */
const contact = Object.fromEntries(CONTACT_COLUMNS.map((f) => [f, shown(NStr({ examples: [EXAMPLE[f] ?? null] }))])) as
  Record<(typeof CONTACT_COLUMNS)[number], ReturnType<typeof shown<ReturnType<typeof NStr>>>>;

/**
 * The stored row (010_invoices.sql), its columns in order (`seq`, the list's order, left out): its
 * type (InvoiceRow), its column list (INVOICE_COLUMNS: every statement reading a whole invoice
 * names them, domain/documents/invoices.ts) and, marked `shown`, the columns the answer shows as
 * stored. merchant_id, env, outbox_id and delivered_at stay inside the gateway (the answer's
 * `delivery` is made of the latter two and the outbox row they name).
 */
export const InvoiceRowSchema = Type.Object({
  merchant_id: Str(),
  env: Env(),
  id: shown(Str({ examples: ['inv_5e6f7a8b'] })),
  status: shown(Str({ description: 'unpaid, partially_paid, paid or deleted.', examples: ['unpaid'] }) as TUnsafe<InvoiceStatus>),
  customer_id: shown(NStr()),
  ...contact,
  items: shown(Type.Array(ItemSchema)),
  amount: shown(Int({ examples: [10000] })),
  amount_paid: shown(Int({ examples: [0] })),
  payments: shown(Type.Array(PaymentSchema)),
  /** 'YYYY-MM-DD', read as text (pg and PGlite parse `date` into different Dates): see invoiceColumns. */
  due_date: shown(NStr({ examples: ['2026-02-01'] })),
  memo: shown(NStr()),
  metadata: shown(Metadata()),
  /** The latest email queued for it (the outbox row), and when. */
  outbox_id: NullableInt(),
  delivered_at: NullableAt(),
  created_at: shown(At()),
  updated_at: shown(At()),
  paid_at: shown(NullableAt({ examples: [null] })),
  deleted_at: shown(NullableAt({ examples: [null] })),
});
export type InvoiceRow = Static<typeof InvoiceRowSchema>;
export const INVOICE_COLUMNS = columnsOf(InvoiceRowSchema);
/** An invoice as its answer reads it: the row and, joined, its latest email in the outbox. */
export type InvoiceView = InvoiceRow & {
  delivery_to: string | null;
  delivery_status: string | null;
  delivery_attempts: number | null;
  delivery_sent_at: Date | null;
  delivery_last_error: string | null;
};

export const InvoiceSchema = Type.Object({
  class: Str({ examples: ['invoice'] }),
  ...shownOf(InvoiceRowSchema),
  balance: Int({ examples: [10000] }),
  delivery: Type.Unsafe<{ email_address: string | null; status: string; attempts: number; queued_at: Date | string | null; sent_at: Date | string | null; last_error: string | null } | null>({
    type: ['object', 'null'],
    description: 'The email of the invoice, once queued.',
    properties: {
      email_address: { type: 'string' }, status: { type: 'string' }, attempts: { type: 'integer' },
      queued_at: { type: 'string', format: 'date-time' }, sent_at: { type: ['string', 'null'], format: 'date-time' }, last_error: { type: ['string', 'null'] },
    },
    required: ['email_address', 'status', 'attempts', 'queued_at', 'sent_at', 'last_error'],
    examples: [null],
  }),
});
export type InvoiceOut = Static<typeof InvoiceSchema>;
const PICK = shownPicker(InvoiceRowSchema, { class: 'invoice' });

/** The invoice as the API shows it (docs/decisions/invoices.md): amounts in cents, balance derived. */
export function presentInvoice(r: InvoiceView): InvoiceOut {
  const out = PICK(r) as InvoiceOut;
  out.balance = r.amount - r.amount_paid;
  out.delivery = r.outbox_id === null ? null : {
    email_address: r.delivery_to,
    status: r.delivery_status ?? 'pending',
    attempts: r.delivery_attempts ?? 0,
    queued_at: r.delivered_at,
    sent_at: r.delivery_sent_at,
    last_error: r.delivery_last_error,
  };
  return out;
}

export const MAX_ITEMS = 100;
export const MAX_QUANTITY = 1_000_000;
export const MAX_DESCRIPTION = 500;
export const MAX_MEMO = 2000;

/** A non-negative integer given as a number or a string of digits (no sign, spaces, point or exponent); NaN otherwise. */
function wholeNumber(v: unknown): number {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : NaN;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
  return NaN;
}

/**
 * Line items: a JSON array, an object keyed "0", "1", … (form encoding `items[0][description]=…`),
 * or either of them JSON-encoded. 1 to 100 items; quantity defaults to 1.
 */
export function readItems(raw: unknown): Item[] {
  let v = raw;
  if (typeof v === 'string') v = decodeJsonParam(v, 'items', () => invalid('items', 'must be a list of line items (or a JSON-encoded list)'));
  let list: unknown[];
  if (Array.isArray(v)) {
    list = v;
  } else if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    if (!keys.every((k) => /^(0|[1-9]\d{0,5})$/.test(k))) throw invalid('items', 'must be a list, or an object keyed "0", "1", …');
    list = keys.sort((a, b) => Number(a) - Number(b)).map((k) => (v as Record<string, unknown>)[k]);
  } else {
    throw invalid('items', 'must be a list of line items with description, quantity and unit_amount');
  }
  if (list.length < 1 || list.length > MAX_ITEMS) throw invalid('items', `must hold 1 to ${MAX_ITEMS} line items`);
  let total = 0n;
  const items = list.map((entry, i): Item => {
    const at = `items[${i}]`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw invalid(at, 'must be an object with description, quantity and unit_amount');
    const e = entry as Record<string, unknown>;
    const description = text(e.description, `${at}.description`);
    if (description === null) throw invalid(`${at}.description`, MUST.REQUIRED);
    if (description.length > MAX_DESCRIPTION) throw tooLong(`${at}.description`, MAX_DESCRIPTION);
    const quantity = e.quantity === undefined || e.quantity === null || e.quantity === '' ? 1 : wholeNumber(e.quantity);
    if (!(quantity >= 1 && quantity <= MAX_QUANTITY)) throw invalid(`${at}.quantity`, `must be an integer from 1 to ${MAX_QUANTITY}`);
    const unit = wholeNumber(e.unit_amount);
    if (e.unit_amount === undefined || e.unit_amount === null || e.unit_amount === '') throw invalid(`${at}.unit_amount`, 'is required (cents)');
    if (!(unit >= 0 && unit <= MAX_AMOUNT)) throw invalid(`${at}.unit_amount`, `must be an integer number of cents from 0 to ${MAX_AMOUNT}`);
    // BigInt: quantity × unit_amount can pass 2^53 before the cap below refuses it.
    const line = BigInt(quantity) * BigInt(unit);
    total += line;
    if (line > BigInt(MAX_AMOUNT) || total > BigInt(MAX_AMOUNT)) throw badRequest(`the invoice total must be at most ${MAX_AMOUNT} cents`);
    return { description, quantity, unit_amount: unit, amount: Number(line) };
  });
  if (total === 0n) throw badRequest('the invoice total must be above zero');
  return items;
}

/** A customer_* field: undefined when absent (an update leaves it), null when blank; the state's two letters in capitals. */
export function readContact(f: ContactField, v: unknown): string | null {
  const name = invoiceField(f);
  let s = text(v, name);
  if (s === null) return null;
  if (f === 'state') {
    if (!/^[A-Za-z]{2}$/.test(s)) throw invalid(name, 'must be the two-character state abbreviation');
    s = s.toUpperCase();
  }
  if (f === 'email' && !isEmail(s)) throw invalid(name, MUST.EMAIL);
  if (s.length > MAX_LENGTH[f]) throw tooLong(name, MAX_LENGTH[f]);
  return s;
}
const contactField = (f: ContactField) => custom(`The customer's ${f.replace('_', ' ')}, at most ${MAX_LENGTH[f]} characters (filled from customer_id when left out).`,
  { type: 'string', maxLength: MAX_LENGTH[f], ...(f === 'email' ? { format: 'email' } : {}), ...(EXAMPLE[invoiceField(f)] ? { examples: [EXAMPLE[invoiceField(f)]] } : {}) },
  (v): string | null | undefined => (v === undefined ? undefined : readContact(f, v)));
const contacts = Object.fromEntries(CUSTOMER_FIELDS.map((f) => [invoiceField(f), contactField(f)])) as
  Record<(typeof CONTACT_COLUMNS)[number], ReturnType<typeof contactField>>;

/** due_date: YYYY-MM-DD, a real calendar date; undefined when absent, null when blank. */
function readDueDate(v: unknown, name: string): string | null | undefined {
  if (v === undefined) return undefined;
  const s = text(v, name);
  if (s === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  const d = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : null;
  if (!d || d.toISOString().slice(0, 10) !== s) throw invalid(name, 'must be a date as YYYY-MM-DD');
  return s;
}

const item = {
  type: 'object', required: ['description', 'unit_amount'], additionalProperties: false,
  properties: {
    description: { type: 'string', minLength: 1, maxLength: MAX_DESCRIPTION },
    quantity: { type: 'integer', minimum: 1, maximum: MAX_QUANTITY, default: 1 },
    unit_amount: { type: 'integer', minimum: 0, maximum: MAX_AMOUNT, description: 'Cents.' },
  },
};

/**
 * POST /invoices and POST /invoices/{id} (spec 4.11), in the order their faults are answered:
 * metadata, the customer_* fields; then, read `later` and taken by the domain
 * (domain/documents/invoice-input.ts readFields), the lines (amount, items, description), due_date,
 * memo, and customer_id (on update, after the invoice is found and unpaid). On update an absent
 * field is left alone and a blank one cleared.
 */
export const InvoiceFields = fields({
  metadata: metadata(),
  ...contacts,
  items: later(custom(`Line items (1 to ${MAX_ITEMS}), or the same JSON-encoded (a form sends items[0][description]=…).`,
    { type: 'array', minItems: 1, maxItems: MAX_ITEMS, items: item },
    // PHP encodes an empty array as [] (json_encode): no items, as null or blank.
    (v): Item[] | null | undefined => (v === undefined ? undefined : v === null || v === '' || isEmptyList(v) ? null : readItems(v)))),
  amount: amount('Cents, for an invoice of one line (or the items\' total).', { example: 5000 }),
  description: later(textField('The one line of an invoice given by amount (default: "Amount due").')),
  due_date: later(custom('YYYY-MM-DD.', { type: 'string', format: 'date' }, readDueDate, { example: '2026-02-15' })),
  memo: later(sentText(`At most ${MAX_MEMO} characters.`, { max: MAX_MEMO })),
  customer_id: later(sentText('Links a stored customer, filling the customer_* fields left out; blank unlinks (update).')),
}, { examples: [{ customer_email: 'ada@example.com', items: [{ description: 'Consulting', quantity: 2, unit_amount: 5000 }] }] });
export type InvoiceInput = Input<typeof InvoiceFields>;

/** POST /invoices/{id}/mark_as_paid: without an amount, the balance. */
export const MarkPaidFields = fields({ amount: amount('Cents paid (default: the balance).', { example: 5000 }) }, { examples: [{ amount: 5000 }] });

/** GET /invoices. */
export const InvoicesQuery = fields({
  ...pageFields(),
  status: textField('Only invoices in this status (deleted ones only by asking for them).', { doc: { enum: [...INVOICE_STATUSES] } }),
});
