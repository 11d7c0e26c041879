import { Queryable } from '../../db/index.js';
import { E, GatewayError } from '../../errors.js';
import { Vault } from '../../vault.js';
import { methodHome } from '../../vault-homes.js';
import { Scope, newId } from '../merchant/keys.js';
import { consumeToken } from './tokens.js';
import { type Holder, type PaymentInput, type PaymentSource, holdBy } from './payment-fields.js';
import type { MethodInput } from './method-input.js';
import { getSettings } from '../merchant/settings.js';
import { testOutcome, verifyCard } from './verification.js';
import { type MethodRow, type MethodType, type MethodView, methodViewColumns } from '../../schemas/methods.js';
import type { CustomerRow } from '../../schemas/customers.js';

export type { MethodRow, MethodType, MethodView };
export const METHOD_TYPES: readonly MethodType[] = ['credit_card', 'bank_account'];

/** A method's columns but the sealed number, and whether it holds one (MethodView). */
const VIEW_COLUMNS = methodViewColumns();

// Statuses the recurring-billing work must keep meaning the same: a subscription holds its method
// until it ends; a scheduled transaction holds it until billed, failed or cancelled.
const SUBSCRIPTION_ENDED = `('cancelled', 'unsubscribed', 'ended')`;
const SCHEDULED_UNBILLED = `('scheduled', 'pending')`;

/** The customer's head row, locked for the rest of the transaction (default_method_id stays consistent). */
const HEAD = ['id', 'company', 'zip', 'default_method_id', 'first_name', 'last_name'] as const satisfies readonly (keyof CustomerRow)[];
export type CustomerHead = Pick<CustomerRow, (typeof HEAD)[number]>;

/** The columns of CustomerHead, for the statements that read or return one. */
export const HEAD_COLUMNS = HEAD.join(', ');

export async function lockCustomer(q: Queryable, scope: Scope, customerId: string): Promise<CustomerHead> {
  const [row] = await q.query<CustomerHead>(
    `SELECT ${HEAD_COLUMNS} FROM customers
      WHERE merchant_id = $1 AND env = $2 AND id = $3 AND deleted_at IS NULL FOR UPDATE`,
    [scope.merchantId, scope.env, customerId],
  );
  if (!row) throw new GatewayError(E.CUSTOMER_NOT_FOUND);
  return row;
}

/** Live methods of the given customers, oldest first. */
export async function methodsOf(q: Queryable, scope: Scope, customerIds: string[]): Promise<MethodView[]> {
  if (customerIds.length === 0) return [];
  return q.query<MethodView>(
    `SELECT ${VIEW_COLUMNS} FROM payment_methods
      WHERE merchant_id = $1 AND env = $2 AND deleted_at IS NULL
        AND customer_id IN (SELECT jsonb_array_elements_text($3::jsonb))
      ORDER BY seq`,
    // A JSON array, not a SQL array: the adapters pass objects as JSON, the same on PGlite and pg.
    [scope.merchantId, scope.env, JSON.stringify(customerIds)],
  );
}

async function methodOf(q: Queryable, scope: Scope, customerId: string, methodId: string): Promise<MethodView> {
  const [row] = await q.query<MethodView>(
    `SELECT ${VIEW_COLUMNS} FROM payment_methods
      WHERE merchant_id = $1 AND env = $2 AND customer_id = $3 AND id = $4 AND deleted_at IS NULL`,
    [scope.merchantId, scope.env, customerId, methodId],
  );
  if (!row) throw new GatewayError(E.METHOD_NOT_FOUND);
  return row;
}

/**
 * One default_method_id, two kinds of payment: the default of a type is the customer's default
 * method when it has that type, else the newest method of that type holding details, else the
 * newest placeholder of that type. `withDetails` skips placeholders altogether (charging).
 */
export function typeDefault<M extends { id: string; method_type: MethodType; has_details: boolean }>(
  methods: M[],
  defaultId: string | null,
  type: MethodType,
  withDetails = false,
): M | undefined {
  const ofType = methods.filter((m) => m.method_type === type && (m.has_details || !withDetails));
  const chosen = ofType.find((m) => m.id === defaultId);
  if (chosen) return chosen;
  const newest = [...ofType].reverse();
  return newest.find((m) => m.has_details) ?? newest[0];
}

/**
 * Columns a token fills in a method row. The number is not among them: `seal` encrypts it for the
 * row it goes to (a blob is bound to its row), once that row's id is known.
 */
type Details = Partial<Pick<MethodRow, DetailColumn>> & { method_type: MethodType; seal?: (methodId: string) => string };

const DETAIL_COLUMNS = ['token_id', 'card_type', 'card_owner_name', 'last_4', 'bin', 'card_exp_month',
  'card_exp_year', 'csc_check', 'bank_routing_number', 'bank_account_holder_first_name',
  'bank_account_holder_last_name', 'bank_account_type', 'address_1', 'address_2', 'city', 'state', 'zip',
  'country', 'secret_enc'] as const satisfies readonly (keyof MethodRow)[];
type DetailColumn = (typeof DETAIL_COLUMNS)[number];

/** What pays for a method, read at the edge, and what the method code adds to it. */
export interface PaymentRequest {
  payment: PaymentInput;
  csc: string | null;
  /** Zip for address verification, given with the card: wins over the token's billing zip. */
  zip?: string | null;
  /** Zip used when neither the request nor the token has one (the customer's address). */
  fallbackZip?: string | null;
  /** Who holds card or bank fields that name no holder (the customer). */
  holder: Holder;
}

/** The card or account a payment stands for: the token consumed, or the checked fields held by the holder. */
async function sourceOf(
  q: Queryable, vault: Vault, scope: Scope, input: PaymentRequest, now: Date, expectType?: MethodType,
): Promise<PaymentSource | null> {
  const { payment } = input;
  switch (payment.kind) {
    case 'none': return null;
    case 'token': return consumeToken(q, vault, scope, payment.token, now);
    case 'refused': throw payment.refusal;
    case 'fields':
      if (expectType && payment.type !== expectType) {
        throw new GatewayError(E.METHOD_TYPE_UNKNOWN, `method_type ${expectType} does not match the ${payment.type} fields sent`);
      }
      return holdBy(payment, input.holder);
  }
}

/**
 * Consumes the token (once, in the caller's transaction) or takes the fields checked at the edge,
 * checks the type, verifies a card as the merchant's settings require, and returns the columns of
 * the method row. The number is encrypted anew for the method row (the token's blob is sealed to
 * the token); the CVV is used for verification and then forgotten.
 */
export async function detailsFromToken(
  q: Queryable,
  vault: Vault,
  scope: Scope,
  input: PaymentRequest,
  now: Date,
  expectType?: MethodType,
): Promise<Details> {
  const token = await sourceOf(q, vault, scope, input, now, expectType);
  if (!token) throw new GatewayError(E.TOKEN_NOT_FOR_MERCHANT);
  if (expectType && token.token_type !== expectType) {
    throw new GatewayError(E.METHOD_TYPE_UNKNOWN, `method_type ${expectType} does not match the token type ${token.token_type}`);
  }
  const zip = input.zip || token.zip || input.fallbackZip || null; // verified, then stored on the method
  const common = {
    method_type: token.token_type, token_id: token.id, last_4: token.last_4,
    address_1: token.address_1, address_2: token.address_2, city: token.city, state: token.state, zip,
    country: token.country, seal: (methodId: string) => vault.encrypt(token.number, methodHome(scope, methodId)),
  };
  if (token.token_type === 'bank_account') {
    return {
      ...common, card_type: null, card_owner_name: null, bin: null, card_exp_month: null, card_exp_year: null,
      csc_check: null, bank_routing_number: token.bank_routing_number,
      bank_account_holder_first_name: token.bank_account_holder_first_name,
      bank_account_holder_last_name: token.bank_account_holder_last_name,
      bank_account_type: token.bank_account_type,
    };
  }
  const csc = input.csc || token.csc;
  const checked = verifyCard(await getSettings(q, scope), { outcome: testOutcome(token.number), csc, zip });
  return {
    ...common, card_type: token.card_type, card_owner_name: token.card_owner_name, bin: token.bin,
    card_exp_month: token.card_exp_month, card_exp_year: token.card_exp_year,
    // The transactions' vocabulary (charges.ts): checked and matched, given but not checked, or none.
    csc_check: checked.csc_check ?? (csc ? 'unchecked' : 'not_provided'),
    bank_routing_number: null, bank_account_holder_first_name: null, bank_account_holder_last_name: null,
    bank_account_type: null,
  };
}

/** Inserts a method (details from a token, or a placeholder) and returns its 32-hex id. */
export async function insertMethod(
  q: Queryable,
  scope: Scope,
  customer: CustomerHead,
  details: Details,
  now: Date,
): Promise<string> {
  const { seal, ...columns } = details;
  const id = newId(16); // 128 random bits: no retry needed
  const row: Partial<MethodRow> = {
    ...columns, merchant_id: scope.merchantId, env: scope.env, customer_id: customer.id,
    company: customer.company, created_at: now, updated_at: now,
    ...(seal ? { secret_enc: seal(id) } : {}),
  };
  const cols = Object.keys(row);
  await q.query(
    `INSERT INTO payment_methods (id, ${cols.join(', ')}) VALUES ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')})`,
    [id, ...Object.values(row)],
  );
  return id;
}

export function placeholder(type: MethodType): Details {
  return { method_type: type };
}

/** Replaces a method's details (same id, so subscriptions and schedules naming it keep working). */
export async function fillMethod(q: Queryable, scope: Scope, methodId: string, details: Details, now: Date) {
  const row: Record<string, unknown> = Object.fromEntries(DETAIL_COLUMNS.map((c) => [c, details[c] ?? null]));
  row.secret_enc = details.seal ? details.seal(methodId) : null;
  row.updated_at = now;
  const cols = Object.keys(row);
  await q.query(
    `UPDATE payment_methods SET ${cols.map((c, i) => `${c} = $${i + 4}`).join(', ')}
      WHERE merchant_id = $1 AND env = $2 AND id = $3`,
    [scope.merchantId, scope.env, methodId, ...Object.values(row)],
  );
}

export async function setDefaultMethod(q: Queryable, scope: Scope, customerId: string, methodId: string, now: Date) {
  await methodOf(q, scope, customerId, methodId); // 82002 unless it is this customer's live method
  await q.query(
    `UPDATE customers SET default_method_id = $4, updated_at = $5
      WHERE merchant_id = $1 AND env = $2 AND id = $3`,
    [scope.merchantId, scope.env, customerId, methodId, now],
  );
}

/**
 * POST /customers/:customer_id/methods, from a token or card or bank fields; method_type defaults to their type. The new method
 * becomes the default when the current default holds no details (a placeholder).
 */
export async function createMethod(q: Queryable, vault: Vault, scope: Scope, customerId: string, input: MethodInput, now: Date) {
  const customer = await lockCustomer(q, scope, customerId);
  const type = input.method_type || undefined;
  if (type !== undefined && !METHOD_TYPES.includes(type as MethodType)) throw new GatewayError(E.METHOD_TYPE_UNKNOWN);
  const details = await detailsFromToken(q, vault, scope, { ...input, holder: customer }, now, type as MethodType | undefined);
  const id = await insertMethod(q, scope, customer, details, now);
  const current = customer.default_method_id
    ? (await methodsOf(q, scope, [customerId])).find((m) => m.id === customer.default_method_id)
    : undefined;
  if (!current?.has_details) await setDefaultMethod(q, scope, customerId, id, now);
  return methodOf(q, scope, customerId, id);
}

/** POST /customers/:customer_id/methods/:method_id: new details from a token (or card or bank fields) of the method's type. */
export async function updateMethod(
  q: Queryable, vault: Vault, scope: Scope, customerId: string, methodId: string, input: MethodInput, now: Date,
) {
  const customer = await lockCustomer(q, scope, customerId);
  const method = await methodOf(q, scope, customerId, methodId);
  const details = await detailsFromToken(q, vault, scope, { ...input, holder: customer }, now, method.method_type);
  await fillMethod(q, scope, methodId, details, now);
  return methodOf(q, scope, customerId, methodId);
}

export async function getMethod(q: Queryable, scope: Scope, customerId: string, methodId: string) {
  await requireCustomer(q, scope, customerId);
  return methodOf(q, scope, customerId, methodId);
}

export async function listMethods(q: Queryable, scope: Scope, customerId: string) {
  await requireCustomer(q, scope, customerId);
  return methodsOf(q, scope, [customerId]);
}

async function requireCustomer(q: Queryable, scope: Scope, customerId: string) {
  const [row] = await q.query(
    'SELECT 1 FROM customers WHERE merchant_id = $1 AND env = $2 AND id = $3 AND deleted_at IS NULL',
    [scope.merchantId, scope.env, customerId],
  );
  if (!row) throw new GatewayError(E.CUSTOMER_NOT_FOUND);
}

/**
 * Deletion refuses the default method (82003), one an active subscription bills (10208) and one
 * with unbilled scheduled payments (17104). It is soft: the row stays for the history of charges
 * that name it, but the encrypted number is wiped.
 */
export async function deleteMethod(q: Queryable, scope: Scope, customerId: string, methodId: string, now: Date) {
  const customer = await lockCustomer(q, scope, customerId);
  await methodOf(q, scope, customerId, methodId);
  if (customer.default_method_id === methodId) throw new GatewayError(E.DEFAULT_METHOD_UNDELETABLE);
  const params = [scope.merchantId, scope.env, methodId];
  const [sub] = await q.query(
    `SELECT 1 FROM subscriptions WHERE merchant_id = $1 AND env = $2 AND method_id = $3
        AND status NOT IN ${SUBSCRIPTION_ENDED} LIMIT 1`,
    params,
  );
  if (sub) throw new GatewayError(E.METHOD_IN_SUBSCRIPTION);
  const [scheduled] = await q.query(
    `SELECT 1 FROM scheduled_transactions WHERE merchant_id = $1 AND env = $2 AND method_id = $3
        AND status IN ${SCHEDULED_UNBILLED} LIMIT 1`,
    params,
  );
  if (scheduled) throw new GatewayError(E.METHOD_HAS_SCHEDULED);
  await q.query(
    `UPDATE payment_methods SET deleted_at = $4, updated_at = $4, secret_enc = NULL
      WHERE merchant_id = $1 AND env = $2 AND id = $3`,
    [...params, now],
  );
}

/** Ends what a deleted customer leaves behind: methods wiped, subscriptions and schedules cancelled. */
export async function retireCustomerMethods(q: Queryable, scope: Scope, customerId: string, now: Date) {
  const params = [scope.merchantId, scope.env, customerId];
  await q.query(
    `UPDATE payment_methods SET deleted_at = $4, updated_at = $4, secret_enc = NULL
      WHERE merchant_id = $1 AND env = $2 AND customer_id = $3 AND deleted_at IS NULL`,
    [...params, now],
  );
  await q.query(
    `UPDATE subscriptions SET status = 'cancelled'
      WHERE merchant_id = $1 AND env = $2 AND customer_id = $3 AND status NOT IN ${SUBSCRIPTION_ENDED}`,
    params,
  );
  await q.query(
    `UPDATE scheduled_transactions SET status = 'cancelled'
      WHERE merchant_id = $1 AND env = $2 AND customer_id = $3 AND status IN ${SCHEDULED_UNBILLED}`,
    params,
  );
}
