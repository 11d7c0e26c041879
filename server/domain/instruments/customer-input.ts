// POST /customers and POST /customers/:id's body, read and checked once at the edge (spec 4.5):
// the route turns a body into a CustomerInput before it opens its transaction; createCustomer and
// updateCustomer work on that typed input only. Pure: nothing here reads the database. Card or
// bank fields sent instead of a token are checked here too (payment-fields.ts), their refusal
// carried to where the transaction has always answered it (after the customer's own row), the
// customer's names filling in a holder the body does not name; a token is looked up in the transaction.
import { type CustomerCreate, CustomerCreateFields, type CustomerRow, type CustomerUpdate, CustomerUpdateFields } from '../../schemas/customers.js';
import { storedOf } from '../../schemas/fields.js';
import { type Edge, type PaymentInput, readPayment } from './payment-fields.js';
import { text } from '../../lib/validate.js';

/** The customer record's columns a body sets. */
export type CustomerFields = Partial<Omit<CustomerRow, 'merchant_id' | 'env' | 'id' | 'default_method_id' | 'created_at' | 'updated_at' | 'deleted_at'>>;

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
 * The record's columns from what the table read (CustomerCreateFields: each field's type, limit
 * and code): its `stored` fields as read, state upper-cased, then metadata and the receipt fields.
 * On update an absent field is left alone and an empty one is cleared (country falls back to USA);
 * on create absent means empty. A new stored field of the tables is a new column written here.
 */
function recordOf(input: CustomerCreate | CustomerUpdate, update: boolean): CustomerFields {
  const out: Record<string, unknown> = {};
  // The tables' `stored` fields, written as read (null when absent on create).
  const stored = update ? storedOf(CustomerUpdateFields, input as CustomerUpdate) : storedOf(CustomerCreateFields, input as CustomerCreate);
  for (const [f, v] of Object.entries(stored)) if (!update || v !== undefined) out[f] = v ?? null;
  if (!update || input.state !== undefined) out.state = input.state?.toUpperCase() ?? null;
  if (!update || input.country !== undefined) out.country = input.country ?? 'USA';
  if (!update || input.metadata !== undefined) out.metadata = input.metadata ?? {};
  if (!update || input.default_receipts !== undefined) out.default_receipts = input.default_receipts ?? false;
  if (!update || input.default_receipt_template_id !== undefined) out.default_receipt_template_id = input.default_receipt_template_id ?? null;
  return out as CustomerFields;
}

/**
 * A create ('create', CustomerCreateFields) or update ('update', CustomerUpdateFields) as the
 * commands take it: the record's columns, the custom id (create) or `default_method_id` (update),
 * the token and security code, then the payment. `edge` (the merchant
 * and the request's time) checks card or bank fields; a body the server makes itself, a token at
 * most, needs none.
 */
export function readCustomerInput(input: CustomerCreate, mode: 'create', edge?: Edge): CustomerInput;
export function readCustomerInput(input: CustomerUpdate, mode: 'update', edge?: Edge): CustomerInput;
export function readCustomerInput(input: CustomerCreate | CustomerUpdate, mode: 'create' | 'update', edge?: Edge): CustomerInput {
  const update = mode === 'update';
  const fields = recordOf(input, update);
  const customId = 'id' in input && !update ? input.id : null;
  const defaultMethodId = 'default_method_id' in input && update ? input.default_method_id : null;
  const csc = text(input.cvv ?? input.csc, 'csc');
  return { fields, customId, defaultMethodId, payment: readPayment(input, input.token, edge), csc };
}
