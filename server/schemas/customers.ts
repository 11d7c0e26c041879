// A customer (spec 2.4, 4.5): the stored shape, the wire shape and its presenter, the bodies. Which
// card and bank account are the customer's defaults is the domain's rule (typeDefault): the
// presenter is handed them.
import { E, type ErrorCode, GatewayError, invalid, MUST, tooLong } from '../errors.js';
import { isEmail, isScalar, text, wrongType } from '../lib/validate.js';
import { type MethodView, MethodSchema, presentMethod } from './methods.js';
import {
  At, Bool, Env, List, Metadata, NullableAt, NullableInt, NullableStr as NStr, Str, Type, type Static, columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { type Fields, type Input, bool, custom, fields, metadata, pageFields, scalar, sentText, text as textField } from './fields.js';
import { paymentFields } from './tokens.js';

/** Maximum lengths the spec leaves open (docs/decisions/customers-and-methods.md); the five with a spec code use it. */
export const MAX_LENGTH = {
  first_name: 100, last_name: 100, company: 255, email: 254, phone: 32, fax: 32, website: 255,
  address_1: 255, address_2: 255, city: 100, state: 2, zip: 16, country: 3,
} as const;

/** The customer's own record fields, each a text column (null when unset). */
export type RecordField = keyof typeof MAX_LENGTH;
export const RECORD_FIELDS = Object.keys(MAX_LENGTH) as RecordField[];

/**
 * The stored row (003_customers.sql), its columns in order: its type (CustomerRow), its column list
 * (CUSTOMER_COLUMNS) and, marked `shown`, the columns the answer shows as stored. The record fields
 * are shown as text ("" when unset, below); merchant, env and deleted_at stay inside the gateway.
 */
export const CustomerRowSchema = Type.Object({
  merchant_id: Str(),
  env: Env(),
  id: shown(Str({ examples: ['cus_1a2b3c4d'] })),
  first_name: NStr(), last_name: NStr(), company: NStr(), email: NStr(), phone: NStr(), fax: NStr(), website: NStr(),
  address_1: NStr(), address_2: NStr(), city: NStr(), state: NStr(), zip: NStr(),
  country: Str(),
  metadata: shown(Metadata()),
  default_receipts: shown(Bool()),
  default_receipt_template_id: shown(NStr()),
  default_method_id: shown(NStr()),
  created_at: shown(At()),
  updated_at: shown(At()),
  deleted_at: NullableAt(),
});
export type CustomerRow = Static<typeof CustomerRowSchema>;
export const CUSTOMER_COLUMNS = columnsOf(CustomerRowSchema);
const PICK = shownPicker(CustomerRowSchema, { class: 'customer' });
const EXAMPLE: Partial<Record<keyof typeof MAX_LENGTH, string>> = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

// The shown columns in the answer's order: these four first, the others (a column shown later too) after the card's and bank's details.
const { id, created_at, updated_at, metadata: metadataColumn, ...SHOWN_AFTER } = shownOf(CustomerRowSchema);
/** The allow-list of a customer: card and bank details are last-four and names only. */
export const CustomerSchema = Type.Object({
  class: Str({ examples: ['customer'] }),
  id,
  created_at,
  updated_at,
  // Spec 2.4 types the record fields as plain strings: unset is "" (strict decoders refuse null).
  ...(Object.fromEntries(RECORD_FIELDS.map((k) => [k, Str({ examples: [EXAMPLE[k] ?? ''] })])) as Record<RecordField, ReturnType<typeof Str>>),
  metadata: metadataColumn,
  card_owner_name: NStr(),
  card_type: Str({ examples: ['Visa'] }),
  last_4: NStr({ examples: ['1111'] }),
  card_exp_month: NullableInt(),
  card_exp_year: NullableInt(),
  bank_account_number_last_4: NStr(),
  bank_routing_number: NStr(),
  bank_account_holder_first_name: NStr(),
  bank_account_holder_last_name: NStr(),
  bank_account_type: NStr(),
  ...SHOWN_AFTER,
  methods: Type.Array(MethodSchema),
});
export type CustomerOut = Static<typeof CustomerSchema>;
export const CustomerList = List(CustomerSchema);

/** Spec 2.4: the record, the default card's and bank account's details on top, and every method. */
export function presentCustomer(c: CustomerRow, methods: MethodView[], defaults: { card?: MethodView; bank?: MethodView }): CustomerOut {
  const { card, bank } = defaults;
  const out = PICK(c) as CustomerOut;
  // Spec 2.4 types these as plain strings: unset is "", never null.
  for (const f of RECORD_FIELDS) out[f] = c[f] ?? '';
  out.metadata = c.metadata ?? {};
  out.card_owner_name = card?.card_owner_name ?? null;
  out.card_type = card?.card_type ?? 'other';
  out.last_4 = card?.last_4 ?? null;
  out.card_exp_month = card?.card_exp_month ?? null;
  out.card_exp_year = card?.card_exp_year ?? null;
  out.bank_account_number_last_4 = bank?.last_4 ?? null;
  out.bank_routing_number = bank?.bank_routing_number ?? null;
  out.bank_account_holder_first_name = bank?.bank_account_holder_first_name ?? null;
  out.bank_account_holder_last_name = bank?.bank_account_holder_last_name ?? null;
  out.bank_account_type = bank?.bank_account_type ?? null;
  out.methods = methods.map((m) => presentMethod(m, 'payment_method'));
  return out;
}

// --- requests ---------------------------------------------------------------------------------

const TOO_LONG: Partial<Record<RecordField, ErrorCode>> = {
  fax: E.FAX_TOO_LONG, first_name: E.FIRST_NAME_TOO_LONG, last_name: E.LAST_NAME_TOO_LONG, phone: E.PHONE_TOO_LONG, website: E.WEBSITE_TOO_LONG,
};
/**
 * A record field: undefined when not sent (an update leaves it alone), null when blank (cleared),
 * else the trimmed text within its limit: its spec code when it has one (the five above), REQ01
 * otherwise. email and state answer 81609 when malformed; state is kept as sent (the customer's
 * record upper-cases it; a card sent beside it keeps it as given); country is upper-cased, USA when blank.
 * The others are `stored`: written as read into the customer's column of the same name (recordOf).
 */
function recordField(f: RecordField) {
  const doc = { type: 'string', ...(f === 'email' ? { format: 'email' } : {}), maxLength: MAX_LENGTH[f] };
  return custom(`At most ${MAX_LENGTH[f]} characters.`, { ...doc, ...(EXAMPLE[f] ? { examples: [EXAMPLE[f]] } : {}) }, (v, name): string | null | undefined => {
    if (v === undefined) return undefined;
    const s = text(v, name);
    if (f === 'country') {
      const c = (s ?? 'USA').toUpperCase();
      if (!/^[A-Z]{3}$/.test(c)) throw invalid('country', MUST.COUNTRY);
      return c;
    }
    if (s === null) return null;
    if (f === 'state') {
      if (!/^[A-Za-z]{2}$/.test(s)) throw new GatewayError(E.CUSTOMER_EMAIL_OR_STATE_INVALID, 'use the two-character state abbreviation');
      return s;
    }
    if (s.length > MAX_LENGTH[f]) throw new GatewayError(TOO_LONG[f] ?? E.INVALID_REQUEST, `${f} must be at most ${MAX_LENGTH[f]} characters`);
    if (f === 'email' && !isEmail(s)) throw new GatewayError(E.CUSTOMER_EMAIL_OR_STATE_INVALID, 'customer email invalid');
    return s;
  }, { stored: f !== 'state' && f !== 'country' });
}
const recordFields = Object.fromEntries(RECORD_FIELDS.map((f) => [f, recordField(f)])) as Record<RecordField, ReturnType<typeof recordField>>;

// The card or bank account sent instead of a token: the customer's own address fields are read as
// the record's (above), the rest as the tokenizer reads them (each a string or a number).
const { address_1: _a1, address_2: _a2, city: _c, state: _s, zip: _z, country: _co, ...cardOrBank } = paymentFields;

/**
 * The fields create and update share, in the order their faults are answered: metadata, the
 * record, receipts, then `between` (the custom id or default_method_id), the token, then the card
 * or bank fields (their checks answer in the transaction, after the customer: payment-fields.ts).
 */
const customerFields = <B extends Fields>(between: B) => ({
  metadata: metadata(),
  ...recordFields,
  default_receipts: bool('Email a receipt for every charge.'),
  default_receipt_template_id: sentText("The template of this customer's receipts."),
  ...between,
  token: textField('A one-time token: becomes the default method.', { example: 'tok_4f3c2b1a0e9d8c7b' }),
  ...cardOrBank,
  cvv: scalar('Security code of the token or card (verified, then forgotten).'),
  csc: scalar('Security code (the same as cvv).'),
});
const CUSTOM_ID = /^[A-Za-z0-9_-]{6,64}$/;
// POST /customers/search is a route of its own, so a customer called "search" could never be updated.
const RESERVED_IDS = new Set(['search']);
const CUSTOMER_EXAMPLE = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', token: 'tok_4f3c2b1a0e9d8c7b' };

/** POST /customers. */
export const CustomerCreateFields = fields(customerFields({
  id: custom('Your own id for the customer: 6 to 64 letters, digits, _ or - (not "search"); random when absent.',
    { type: 'string', pattern: CUSTOM_ID.source }, (v, name) => {
      const id = text(v, name);
      if (id !== null && (!CUSTOM_ID.test(id) || RESERVED_IDS.has(id))) {
        throw invalid('id', 'must be 6 to 64 characters of A-Z, a-z, 0-9, _ and - (and not "search")');
      }
      return id;
    }),
}), { examples: [CUSTOMER_EXAMPLE] });
/** POST /customers/{id}: only the fields sent change; a blank one is cleared. */
export const CustomerUpdateFields = fields(customerFields({
  default_method_id: textField('Which method a charge by customer uses.'),
}), { examples: [{ email: 'ada@example.com' }] });
export type CustomerCreate = Input<typeof CustomerCreateFields>;
export type CustomerUpdate = Input<typeof CustomerUpdateFields>;

/** GET /customers. */
export const CustomersQuery = fields(pageFields());

const PAGE_LIMIT = { minimum: 1, maximum: 100, default: 10 };
const PAGE_OFFSET = { minimum: 0, default: 0 };
/** A page value sent in the body: undefined when not sent; a string or number (or null) else REQ01; read with the query's (CustomerSearchPage). */
const sentPage = (description: string, doc: Record<string, unknown>) => custom(description, { type: 'integer', ...doc }, (v, name): string | number | null | undefined => {
  if (v === undefined || v === null) return v;
  if (!isScalar(v)) throw wrongType(name);
  return v;
});
/** POST /customers/search: limit and offset may come in the body or the query string (the body's win). */
export const CustomerSearchFields = fields({
  search_term: custom('Matches first and last name, company and id (case-insensitive).', { type: 'string', minLength: 1, maxLength: 255 },
    (v, name) => {
      if (v === undefined) throw invalid(name, MUST.REQUIRED);
      const s = text(v, name);
      if (s !== null && s.length > 255) throw tooLong(name, 255);
      return s;
    }, { required: true, example: 'Lovelace' }),
  limit: sentPage('Rows per page, 1 to 100 (default 10); or in the query string.', PAGE_LIMIT),
  offset: sentPage('Rows to skip (default 0); or in the query string.', PAGE_OFFSET),
}, { examples: [{ search_term: 'Lovelace' }] });
/** POST /customers/search's query string: limit and offset, the body's in their place when sent. */
export const CustomerSearchQuery = fields({
  limit: sentPage('Rows per page, 1 to 100 (default 10); the body\'s wins.', PAGE_LIMIT),
  offset: sentPage('Rows to skip (default 0); the body\'s wins.', PAGE_OFFSET),
});

/** The page of a search: the query string's limit and offset, the body's in their place when sent. */
export const CustomerSearchPage = fields(pageFields());

/** DELETE /customers: the customer named by `id` here or in the body. */
export const DeleteCustomerQuery = fields({
  id: sentText('The customer to delete (or id in the body).'),
});
