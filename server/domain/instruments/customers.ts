import { pagedQuery, Queryable } from '../../db/index.js';
import { E, GatewayError, invalid, MUST } from '../../errors.js';
import { Vault } from '../../vault.js';
import { emitEvent } from '../events/events.js';
import { namedTemplateId } from '../merchant/templates.js';
import { Scope, newId } from '../merchant/keys.js';
import type { Page } from '../../lib/validate.js';
import type { CustomerInput } from './customer-input.js';
import {
  CustomerHead, HEAD_COLUMNS, MethodRow, MethodType, MethodView, detailsFromToken, fillMethod, insertMethod, lockCustomer,
  methodsOf, placeholder, retireCustomerMethods, setDefaultMethod, typeDefault, type PaymentRequest,
} from './methods.js';
import { isEcho } from './payment-fields.js';
import { CUSTOMER_COLUMNS, type CustomerOut, type CustomerRow, RECORD_FIELDS, presentCustomer } from '../../schemas/customers.js';

/** A whole customer row, as loadCustomer and listCustomers read it. */
const CUSTOMER_SELECT = CUSTOMER_COLUMNS.join(', ');

/**
 * A charge's read of a customer (findChargeableMethod, and with the settings domain/payments/charge-read.ts):
 * the customer's columns, then each method's with details as `m_<column>`, one row per method.
 */
const METHOD_CHARGE_COLUMNS = ['id', 'method_type', 'card_type', 'last_4', 'card_exp_month', 'card_exp_year', 'card_owner_name', 'zip',
  'bank_account_holder_first_name', 'bank_account_holder_last_name', 'bank_routing_number', 'bank_account_type', 'secret_enc',
] as const satisfies readonly (keyof MethodRow)[];
type MethodChargeColumn = (typeof METHOD_CHARGE_COLUMNS)[number];
export const CHARGE_COLUMNS = [
  ...CUSTOMER_COLUMNS.map((col) => `c.${col}`),
  ...METHOD_CHARGE_COLUMNS.map((col) => `m.${col} AS m_${col}`),
].join(', ');
/** The customer a charge names, not deleted: merchant, env and id are $1..$3. */
export const CUSTOMER_MATCH = 'c.merchant_id = $1 AND c.env = $2 AND c.id = $3 AND c.deleted_at IS NULL';
export const METHODS_JOIN = `LEFT JOIN payment_methods m ON m.merchant_id = c.merchant_id AND m.env = c.env AND m.customer_id = c.id
  AND m.deleted_at IS NULL AND m.secret_enc IS NOT NULL`;
/** A row of CHARGE_COLUMNS: the customer's row, and a method's columns (null when the customer has none with details). */
export type ChargeableRow = CustomerRow & { [K in MethodChargeColumn as `m_${K}`]: MethodRow[K] | null };

/**
 * The customer's zip is an address field: the token's own billing zip comes first. Card or bank
 * fields (checked at the edge) stand for a token, held by the customer's names when they name no holder.
 */
function paymentRequest(input: CustomerInput, customerZip: string | null, holder: PaymentRequest['holder']): PaymentRequest {
  return { payment: input.payment, csc: input.csc, fallbackZip: customerZip, holder };
}

/** The body's default template, checked (10300) and kept by its canonical id. */
async function withTemplate(q: Queryable, scope: Scope, fields: CustomerInput['fields']): Promise<CustomerInput['fields']> {
  const named = fields.default_receipt_template_id;
  return named === undefined ? fields : { ...fields, default_receipt_template_id: await namedTemplateId(q, scope, named) };
}

/**
 * POST /customers. The id is the body's `id` when given (81608 when taken in this environment),
 * else 12 random hex characters. A token becomes the default method; a placeholder of the other
 * type is listed beside it, so every customer starts with one method of each type (spec 2.4).
 */
export async function createCustomer(q: Queryable, vault: Vault, scope: Scope, input: CustomerInput, now: Date) {
  const { customId } = input;
  const fields = await withTemplate(q, scope, input.fields);
  const payment = paymentRequest(input, fields.zip ?? null, fields as PaymentRequest['holder']);
  const row = { ...fields, merchant_id: scope.merchantId, env: scope.env, created_at: now, updated_at: now };
  const cols = Object.keys(row);
  const sql = `INSERT INTO customers (id, ${cols.join(', ')})
               VALUES ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')})
               ON CONFLICT (merchant_id, env, id) DO NOTHING RETURNING ${HEAD_COLUMNS}`;
  let head: CustomerHead | undefined;
  for (let i = 0; !head && i < 5; i++) {
    [head] = await q.query<CustomerHead>(sql, [customId ?? newId(6), ...Object.values(row)]);
    if (!head && customId) throw new GatewayError(E.CUSTOM_ID_TAKEN);
  }
  if (!head) throw new Error('could not draw a free customer id');
  let defaultId: string;
  if (input.payment.kind !== 'none') {
    const details = await detailsFromToken(q, vault, scope, payment, now);
    defaultId = await insertMethod(q, scope, head, details, now);
    const other: MethodType = details.method_type === 'credit_card' ? 'bank_account' : 'credit_card';
    await insertMethod(q, scope, head, placeholder(other), now);
  } else {
    defaultId = await insertMethod(q, scope, head, placeholder('credit_card'), now);
    await insertMethod(q, scope, head, placeholder('bank_account'), now);
  }
  await setDefaultMethod(q, scope, head.id, defaultId, now);
  const customer = await loadCustomer(q, scope, head.id);
  await emitEvent(q, scope, 'customer.created', customer, now);
  return customer;
}

/**
 * POST /customers/:id. Any create field; a token replaces the details of the default method of its
 * type (same method id) and makes it the default; `default_method_id` picks the default explicitly
 * and wins over the token's.
 */
export async function updateCustomer(q: Queryable, vault: Vault, scope: Scope, id: string, input: CustomerInput, now: Date) {
  const { defaultMethodId: defaultId } = input;
  const fields = await withTemplate(q, scope, input.fields);
  const head = await lockCustomer(q, scope, id);
  const cols = Object.keys(fields);
  await q.query(
    `UPDATE customers SET ${[...cols, 'updated_at'].map((c, i) => `${c} = $${i + 4}`).join(', ')}
      WHERE merchant_id = $1 AND env = $2 AND id = $3`,
    [scope.merchantId, scope.env, id, ...Object.values(fields), now],
  );
  const names = { ...head, ...fields } as PaymentRequest['holder'];
  const payment = paymentRequest(input, fields.zip === undefined ? head.zip : fields.zip, names);
  if (input.payment.kind !== 'none' && !(await echoed(q, scope, head, input))) {
    const details = await detailsFromToken(q, vault, scope, payment, now);
    const methods = await methodsOf(q, scope, [id]);
    const target = typeDefault(methods, head.default_method_id, details.method_type);
    const methodId = target ? target.id : await insertMethod(q, scope, head, details, now);
    if (target) await fillMethod(q, scope, target.id, details, now);
    await setDefaultMethod(q, scope, id, methodId, now);
  }
  if (defaultId) await setDefaultMethod(q, scope, id, defaultId, now);
  const customer = await loadCustomer(q, scope, id);
  await emitEvent(q, scope, 'customer.updated', customer, now);
  return customer;
}

/** Whether the body's card and bank details, sent without numbers, are the customer's as presented (isEcho). */
async function echoed(q: Queryable, scope: Scope, head: { id: string; default_method_id: string | null }, input: CustomerInput) {
  const p = input.payment;
  if ((p.kind !== 'fields' && p.kind !== 'refused') || !p.echo) return false;
  const methods = await methodsOf(q, scope, [head.id]);
  const card = typeDefault(methods, head.default_method_id, 'credit_card', true);
  const bank = typeDefault(methods, head.default_method_id, 'bank_account', true);
  return isEcho(p, { card_exp_month: card?.card_exp_month, card_exp_year: card?.card_exp_year, bank_routing_number: bank?.bank_routing_number });
}

/**
 * DELETE /customers/:id. Soft: the record leaves every read and its id stays taken; its methods
 * are deleted (encrypted numbers wiped), its subscriptions and unbilled scheduled payments cancelled.
 */
export async function deleteCustomer(q: Queryable, scope: Scope, id: string, now: Date) {
  await lockCustomer(q, scope, id);
  const customer = await loadCustomer(q, scope, id);
  await q.query(
    'UPDATE customers SET deleted_at = $4, updated_at = $4 WHERE merchant_id = $1 AND env = $2 AND id = $3',
    [scope.merchantId, scope.env, id, now],
  );
  await retireCustomerMethods(q, scope, id, now);
  await emitEvent(q, scope, 'customer.deleted', { ...customer, deleted: true }, now);
}

export async function loadCustomer(q: Queryable, scope: Scope, id: string) {
  const [row] = await q.query<CustomerRow>(
    `SELECT ${CUSTOMER_SELECT} FROM customers WHERE merchant_id = $1 AND env = $2 AND id = $3 AND deleted_at IS NULL`,
    [scope.merchantId, scope.env, id],
  );
  if (!row) throw new GatewayError(E.CUSTOMER_NOT_FOUND);
  return present(row, await methodsOf(q, scope, [id]));
}

/** GET /customers and POST /customers/search: newest first, list envelope. */
export async function listCustomers(q: Queryable, scope: Scope, page: Page, searchTerm?: string) {
  const params: unknown[] = [scope.merchantId, scope.env];
  let where = 'merchant_id = $1 AND env = $2 AND deleted_at IS NULL';
  if (searchTerm !== undefined) {
    if (searchTerm.trim() === '') throw invalid('search_term', MUST.REQUIRED);
    params.push(`%${searchTerm.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where += ` AND (first_name ILIKE $3 OR last_name ILIKE $3 OR company ILIKE $3 OR id ILIKE $3
                OR coalesce(first_name, '') || ' ' || coalesce(last_name, '') ILIKE $3)`;
  }
  const { list: rows, total } = await pagedQuery<CustomerRow>(q, page,
    `SELECT ${CUSTOMER_SELECT} FROM customers WHERE ${where} ORDER BY seq DESC`, `customers WHERE ${where}`, params);
  const methods = await methodsOf(q, scope, rows.map((r) => r.id));
  return {
    list: rows.map((r) => present(r, methods.filter((m) => m.customer_id === r.id))),
    meta: { limit: page.limit, offset: page.offset, total_results: total },
  };
}

/** The customer's default card and bank account (typeDefault) are on top of its answer. */
function present(c: CustomerRow, methods: MethodView[]): CustomerOut {
  return presentCustomer(c, methods, {
    card: typeDefault(methods, c.default_method_id, 'credit_card', true),
    bank: typeDefault(methods, c.default_method_id, 'bank_account', true),
  });
}

/** The customer's columns a charge by customer reads: the payer's fields, metadata and receipts. */
const CHARGED_CUSTOMER = ['id', ...RECORD_FIELDS, 'metadata', 'default_receipts', 'default_receipt_template_id'] as const;

/** The method a charge by customer bills (its number still sealed), and its customer. */
export type ChargeableMethod = { method_id: string; secret_enc: string } & Pick<MethodRow, Exclude<MethodChargeColumn, 'id' | 'secret_enc'>> & {
  customer: Pick<CustomerRow, (typeof CHARGED_CUSTOMER)[number]>;
};

/**
 * What a charge by customer (spec 4.1 b) bills. Throws 34798 when the customer does not exist or
 * is deleted, 34792 when the chosen or default method does not exist or holds no details.
 * Without methodId: chargeBankAccount true/false takes the default bank-account/card method (see
 * typeDefault: the customer's default when it has that type, else the newest of that type with
 * details); null takes the customer's default method whatever its type.
 */
export async function findChargeableMethod(
  q: Queryable,
  scope: Scope,
  customerId: string,
  methodId: string | null,
  chargeBankAccount: boolean | null,
  opts: { hold?: boolean } = {},
): Promise<ChargeableMethod> {
  // hold: the customer row share-locked to the end of the caller's transaction, so its deletion
  // (lockCustomer, FOR UPDATE) waits; one committed first leaves no row to read (34798).
  const rows = await q.query<ChargeableRow>(
    `SELECT ${CHARGE_COLUMNS} FROM customers c ${METHODS_JOIN} WHERE ${CUSTOMER_MATCH} ORDER BY m.seq${opts.hold ? ' FOR SHARE OF c' : ''}`,
    [scope.merchantId, scope.env, customerId],
  );
  return chargeableOf(rows, methodId, chargeBankAccount);
}

/**
 * findChargeableMethod's choice among the rows of a statement selecting CHARGE_COLUMNS over
 * `customers c` and METHODS_JOIN (one row per method with details, one row of nulls for none; a
 * row whose customer id is null means no such customer).
 */
export function chargeableOf(rows: ChargeableRow[], methodId: string | null, chargeBankAccount: boolean | null): ChargeableMethod {
  const c = rows[0];
  if (!c || c.id === null) throw new GatewayError(E.CUSTOMER_ID_REQUIRED);
  // Each row's method, its columns unprefixed (a row joined to a method with details: id and secret_enc are set).
  const methods = c.m_id === null ? [] : rows.map((r) => ({
    ...Object.fromEntries(METHOD_CHARGE_COLUMNS.map((k) => [k, r[`m_${k}`]])) as Pick<MethodRow, MethodChargeColumn>,
    has_details: true,
  }));
  const m = methodId
    ? methods.find((x) => x.id === methodId)
    : chargeBankAccount === null
      ? methods.find((x) => x.id === c.default_method_id)
      : typeDefault(methods, c.default_method_id, chargeBankAccount ? 'bank_account' : 'credit_card', true);
  if (!m) throw new GatewayError(E.PAYMENT_TOKEN_NOT_FOUND);
  const customer = Object.fromEntries(CHARGED_CUSTOMER.map((k) => [k, c[k]])) as ChargeableMethod['customer'];
  customer.metadata = c.metadata ?? {};
  const { id, secret_enc, has_details: _, ...details } = m;
  return { method_id: id, ...details, secret_enc: secret_enc!, customer };
}
