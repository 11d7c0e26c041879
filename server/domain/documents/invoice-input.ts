import { Queryable } from '../../db/index.js';
import { badRequest, E, GatewayError, invalid, MUST, tooLong } from '../../errors.js';
import { decodeJsonParam, isEmptyList } from '../../lib/input.js';
import { MAX_LENGTH } from '../../schemas/customers.js';
import { CUSTOMER_FIELDS, ContactField, invoiceField } from '../../schemas/invoices.js';
import { Scope } from '../merchant/keys.js';
import { isEmail, MAX_AMOUNT, parseAmount, readMetadata, text } from '../../lib/validate.js';
import type { Item } from '../../schemas/invoices.js';
export type { Item } from '../../schemas/invoices.js';

// Reading the body of POST /invoices and POST /invoices/:id (spec 4.11): the line items and their
// total in integer cents, the customer_* fields (filled from a linked customer), due date, memo and
// metadata. invoices.ts writes what this returns.

export const MAX_ITEMS = 100;
export const MAX_QUANTITY = 1_000_000;
export const MAX_DESCRIPTION = 500;
export const MAX_MEMO = 2000;

export interface InvoiceInput {
  [field: string]: unknown;
  /** Already parsed by the route (object or JSON string); null clears it, undefined leaves it. */
  metadata?: Record<string, unknown> | null;
}


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

export const itemsTotal = (items: Item[]) => items.reduce((sum, i) => sum + i.amount, 0);

/** The description of the one line an `amount` alone makes. */
export const AMOUNT_LINE = 'Amount due';

/**
 * The lines of a create or update: `items`, or an `amount` alone (clients of this API family send
 * the customer fields and an amount), which is one line of that many cents described by
 * `description` or "Amount due". With both, the amount must be the items' total: the server
 * computes totals and never drops what the body says.
 */
function readLines(input: InvoiceInput): Item[] {
  // PHP encodes an empty array as [] (json_encode): no items, as absent.
  const hasItems = !(input.items === undefined || input.items === null || input.items === '' || isEmptyList(input.items));
  let amount: number | null = null;
  if (input.amount !== undefined) {
    const a = parseAmount(input.amount);
    if (typeof a !== 'number') throw invalid('amount', `must be a positive integer number of cents, at most ${MAX_AMOUNT}`);
    amount = a;
  }
  if (hasItems) {
    const items = readItems(input.items);
    if (amount !== null && amount !== itemsTotal(items)) {
      throw badRequest(`amount ${amount} is not the items' total (${itemsTotal(items)}): send items, or amount alone`);
    }
    return items;
  }
  if (amount === null) throw badRequest('items (at least one line item) or amount required');
  const description = text(input.description, 'description') ?? AMOUNT_LINE;
  if (description.length > MAX_DESCRIPTION) throw tooLong('description', MAX_DESCRIPTION);
  return [{ description, quantity: 1, unit_amount: amount, amount }];
}

/** YYYY-MM-DD, a real calendar date. */
function readDueDate(v: unknown): string | null {
  const s = text(v, 'due_date');
  if (s === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  const d = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : null;
  if (!d || d.toISOString().slice(0, 10) !== s) throw invalid('due_date', 'must be a date as YYYY-MM-DD');
  return s;
}

function readContact(f: ContactField, v: unknown): string | null {
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

/**
 * The columns a create or update body sets. On update an absent field is left alone and an
 * empty one cleared; on create absent means empty. `customer_id` is resolved by the caller.
 */
export function readFields(input: InvoiceInput, update: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const given = (f: string) => !update || input[f] !== undefined;
  for (const f of CUSTOMER_FIELDS) {
    const column = invoiceField(f);
    if (given(column)) out[column] = readContact(f, input[column]);
  }
  if (update && input.items === undefined && input.amount === undefined && text(input.description, 'description') !== null) {
    // It describes the line an amount alone makes: alone it would change nothing, silently.
    throw badRequest('description is the line of an amount: send it with amount (or send items)');
  }
  if (!update || input.items !== undefined || input.amount !== undefined) {
    const items = readLines(input);
    out.items = items;
    out.amount = itemsTotal(items);
  }
  if (given('due_date')) out.due_date = readDueDate(input.due_date);
  if (given('memo')) {
    const memo = text(input.memo, 'memo');
    if (memo !== null && memo.length > MAX_MEMO) throw tooLong('memo', MAX_MEMO);
    out.memo = memo;
  }
  if (given('metadata')) out.metadata = readMetadata(input.metadata) ?? {};
  return out;
}

/**
 * `customer_id` links a stored customer (34798 when it is not one of this environment's live
 * customers) and fills every customer_* field the body leaves out or empty from that customer.
 * On update an empty customer_id unlinks; an absent one leaves the link as it is.
 */
export async function applyCustomer(q: Queryable, scope: Scope, input: InvoiceInput, fields: Record<string, unknown>, update: boolean) {
  if (update && input.customer_id === undefined) return;
  const id = text(input.customer_id, 'customer_id');
  fields.customer_id = id;
  if (id === null) return;
  const [c] = await q.query<Record<ContactField, string | null>>(
    `SELECT ${CUSTOMER_FIELDS.join(', ')} FROM customers WHERE merchant_id = $1 AND env = $2 AND id = $3 AND deleted_at IS NULL`,
    [scope.merchantId, scope.env, id],
  );
  if (!c) throw new GatewayError(E.CUSTOMER_ID_REQUIRED, 'customer_id does not name a customer of this environment');
  for (const f of CUSTOMER_FIELDS) {
    fields[invoiceField(f)] ??= c[f];
  }
}
