import { Queryable } from '../../db/index.js';
import { badRequest, E, GatewayError, invalid, tooLong } from '../../errors.js';
import { CONTACT_COLUMNS, CUSTOMER_FIELDS, ContactField, type InvoiceInput, MAX_DESCRIPTION, invoiceField } from '../../schemas/invoices.js';
import { take } from '../../schemas/fields.js';
import { Scope } from '../merchant/keys.js';
import { MAX_AMOUNT } from '../../lib/validate.js';
import type { Item } from '../../schemas/invoices.js';
export type { Item, InvoiceInput } from '../../schemas/invoices.js';
export { MAX_DESCRIPTION, MAX_ITEMS, MAX_MEMO, MAX_QUANTITY, readItems } from '../../schemas/invoices.js';

// The lines and columns of POST /invoices and POST /invoices/:id (spec 4.11), from what
// InvoiceFields read (schemas/invoices.ts): the line items and their total in integer cents, the
// customer_* fields (filled from a linked customer), due date, memo and metadata. invoices.ts
// writes what this returns.

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
  let amount: number | null = null;
  if (input.amount !== 'missing') {
    if (typeof input.amount !== 'number') throw invalid('amount', `must be a positive integer number of cents, at most ${MAX_AMOUNT}`);
    amount = input.amount;
  }
  if (input.items !== undefined && input.items !== null) {
    const items = take(input.items)!;
    if (amount !== null && amount !== itemsTotal(items)) {
      throw badRequest(`amount ${amount} is not the items' total (${itemsTotal(items)}): send items, or amount alone`);
    }
    return items;
  }
  if (amount === null) throw badRequest('items (at least one line item) or amount required');
  const description = take(input.description) ?? AMOUNT_LINE;
  if (description.length > MAX_DESCRIPTION) throw tooLong('description', MAX_DESCRIPTION);
  return [{ description, quantity: 1, unit_amount: amount, amount }];
}

/**
 * The columns a create or update sets, its faults answered in this order: the customer_* fields
 * (read by the table), the lines, due_date, memo. On update an absent field is left alone and an
 * empty one cleared; on create absent means empty. `customer_id` is resolved by the caller.
 */
/** The invoice columns a create or an update writes, by name (the insert and the update list them as they are). */
export type InvoiceColumns = Partial<Record<string, string | number | null | object>>;

export function readFields(input: InvoiceInput, update: boolean): InvoiceColumns {
  const out: InvoiceColumns = {};
  for (const column of CONTACT_COLUMNS) {
    if (!update || input[column] !== undefined) out[column] = input[column] ?? null;
  }
  if (update && input.items === undefined && input.amount === 'missing' && take(input.description) !== null) {
    // It describes the line an amount alone makes: alone it would change nothing, silently.
    throw badRequest('description is the line of an amount: send it with amount (or send items)');
  }
  if (!update || input.items !== undefined || input.amount !== 'missing') {
    const items = readLines(input);
    out.items = items;
    out.amount = itemsTotal(items);
  }
  if (!update || input.due_date !== undefined) out.due_date = take(input.due_date) ?? null;
  if (!update || input.memo !== undefined) out.memo = take(input.memo) ?? null;
  if (!update || input.metadata !== undefined) out.metadata = input.metadata ?? {};
  return out;
}

/**
 * `customer_id` links a stored customer (34798 when it is not one of this environment's live
 * customers) and fills every customer_* field the body leaves out or empty from that customer.
 * On update an empty customer_id unlinks; an absent one leaves the link as it is.
 */
export async function applyCustomer(q: Queryable, scope: Scope, input: InvoiceInput, fields: InvoiceColumns, update: boolean) {
  if (update && input.customer_id === undefined) return;
  const id = take(input.customer_id) ?? null;
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
