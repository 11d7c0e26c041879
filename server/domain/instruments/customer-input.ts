// POST /customers and POST /customers/:id's body, read and checked once at the edge (spec 4.5):
// the route turns a body into a CustomerInput before it opens its transaction; createCustomer and
// updateCustomer work on that typed input only. Pure: nothing here reads the database. Card or
// bank fields sent instead of a token are checked here too (payment-fields.ts), their refusal
// carried to where the transaction has always answered it (after the customer's own row), the
// customer's names filling in a holder the body does not name; a token is looked up in the transaction.
import { E, ErrorCode, GatewayError, invalid, MUST } from '../../errors.js';
import { MAX_LENGTH } from '../../schemas/customers.js';
import { type Edge, type PaymentInput, readPayment } from './payment-fields.js';
import { isEmail, readBool, readMetadata, text } from '../../lib/validate.js';

type Body = Record<string, unknown>;
export type TextField = keyof typeof MAX_LENGTH;
export const TEXT_FIELDS = Object.keys(MAX_LENGTH) as TextField[];

const TOO_LONG: Partial<Record<TextField, ErrorCode>> = {
  fax: E.FAX_TOO_LONG, first_name: E.FIRST_NAME_TOO_LONG, last_name: E.LAST_NAME_TOO_LONG, phone: E.PHONE_TOO_LONG, website: E.WEBSITE_TOO_LONG,
};
const CUSTOM_ID = /^[A-Za-z0-9_-]{6,64}$/;
// POST /customers/search is a route of its own, so a customer called "search" could never be updated.
const RESERVED_IDS = new Set(['search']);

/** The customer record's columns a body sets. */
export type CustomerFields = Partial<Record<TextField, string | null>> & {
  metadata?: Record<string, unknown>;
  default_receipts?: boolean;
  default_receipt_template_id?: string | null;
};

export interface CustomerInput {
  /** On create every column (absent means empty); on update only the columns sent (empty clears). */
  fields: CustomerFields;
  /** Create only: the body's `id`, or null for a random one. */
  customId: string | null;
  /** Update only: `default_method_id`, or null. */
  defaultMethodId: string | null;
  /** A token, or card or bank fields (checked; held by the customer when they name no holder), or why they are refused. */
  payment: PaymentInput;
  /** cvv, else csc: verified with the card, then forgotten. */
  csc: string | null;
}

/**
 * The record fields of a create or update body, in the order their faults are answered. On update
 * an absent field is left alone and an empty one is cleared (country falls back to USA); on create
 * absent means empty.
 */
function readFields(body: Body, update: boolean): CustomerFields {
  const out: CustomerFields = {};
  // metadata first: the route read it before the other fields until now.
  const metadata = readMetadata(body.metadata);
  for (const f of TEXT_FIELDS) {
    if (update && body[f] === undefined) continue;
    let v = text(body[f], f);
    if (v !== null && v.length > MAX_LENGTH[f] && f !== 'state' && f !== 'country') {
      throw new GatewayError(TOO_LONG[f] ?? E.INVALID_REQUEST, `${f} must be at most ${MAX_LENGTH[f]} characters`);
    }
    if (f === 'state' && v !== null) {
      if (!/^[A-Za-z]{2}$/.test(v)) throw new GatewayError(E.CUSTOMER_EMAIL_OR_STATE_INVALID, 'use the two-character state abbreviation');
      v = v.toUpperCase();
    }
    if (f === 'email' && v !== null && !isEmail(v)) throw new GatewayError(E.CUSTOMER_EMAIL_OR_STATE_INVALID, 'customer email invalid');
    if (f === 'country') {
      v = (v ?? 'USA').toUpperCase();
      if (!/^[A-Z]{3}$/.test(v)) throw invalid('country', MUST.COUNTRY);
    }
    out[f] = v;
  }
  if (!update || metadata !== undefined) out.metadata = metadata ?? {};
  const receipts = readBool(body.default_receipts, 'default_receipts');
  if (!update || receipts !== undefined) out.default_receipts = receipts ?? false;
  if (!update || body.default_receipt_template_id !== undefined) {
    out.default_receipt_template_id = text(body.default_receipt_template_id, 'default_receipt_template_id');
  }
  return out;
}

function readCustomId(v: unknown): string | null {
  const id = text(v, 'id');
  if (id === null) return null;
  if (!CUSTOM_ID.test(id) || RESERVED_IDS.has(id)) {
    throw invalid('id', 'must be 6 to 64 characters of A-Z, a-z, 0-9, _ and - (and not "search")');
  }
  return id;
}

/**
 * The whole create ('create') or update ('update') body: metadata, the record fields, then the custom id
 * (create) or `default_method_id` (update), then the token and security code, then the payment.
 * metadata arrives as an object or a JSON-encoded string (readMetadata). `edge` (the merchant and
 * the request's time) checks card or bank fields; a body the server makes itself, a token at most,
 * needs none.
 */
export function readCustomerInput(body: Body | undefined | null, mode: 'create' | 'update', edge?: Edge): CustomerInput {
  const b = body ?? {};
  const update = mode === 'update';
  const fields = readFields(b, update);
  const customId = update ? null : readCustomId(b.id);
  const defaultMethodId = update ? text(b.default_method_id, 'default_method_id') : null;
  const token = text(b.token, 'token');
  const csc = text(b.cvv ?? b.csc, 'csc');
  return { fields, customId, defaultMethodId, payment: readPayment(b, token, edge), csc };
}
