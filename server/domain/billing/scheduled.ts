import { pagedQuery, Queryable } from '../../db/index.js';
import { E, GatewayError, invalid, tooLong } from '../../errors.js';
import type { Vault } from '../../vault.js';
import { PendingSale, RecurringDeps, chargeInTx, receiptWanted } from './billings.js';
import { type ChargeInput, type PayerField } from '../payments/charge-input.js';
import { requireChargeParams } from '../../schemas/transactions.js';
import { isCalendarDate, startOfDay, utcDate } from './calendar.js';
import { createCustomer, findChargeableMethod } from '../instruments/customers.js';
import { readCustomerInput } from '../instruments/customer-input.js';
import { emitEvent } from '../events/events.js';
import { namedTemplateId } from '../merchant/templates.js';
import { Scope, newId } from '../merchant/keys.js';
import type { Transaction } from '../payments/transactions.js';
import { isEmail, isScalar, type Page, parseAmount, readBool, readMetadata, text } from '../../lib/validate.js';
import { presentScheduled } from '../../schemas/scheduled.js';
import type { ScheduledStatus, ScheduledRow } from '../../schemas/scheduled.js';
export type { ScheduledStatus, ScheduledRow } from '../../schemas/scheduled.js';

export const ST = '*, bill_on::text AS bill_on_text';
const MAX_DAYS_AHEAD = 366 * 10;
/** Payer fields of 2.7 and the charge field each one fills. */
const PAYER: Record<string, { charge: PayerField; aliases: string[]; max: number }> = {
  company: { charge: 'company', aliases: [], max: 255 },
  website: { charge: 'website', aliases: [], max: 255 },
  address_1: { charge: 'address_1', aliases: [], max: 255 },
  address_2: { charge: 'address_2', aliases: [], max: 255 },
  city: { charge: 'city', aliases: [], max: 100 },
  state: { charge: 'state', aliases: [], max: 2 },
  zip: { charge: 'zip', aliases: [], max: 16 },
  phone_number: { charge: 'phone', aliases: ['phone'], max: 32 },
  fax_number: { charge: 'fax', aliases: ['fax'], max: 32 },
};

/** bill_on: a calendar date 'YYYY-MM-DD' (or an ISO date-time: its UTC date), today or later, at most ten years ahead. */
function readBillOn(raw: unknown, now: Date): string {
  let s = text(raw, 'bill_on');
  if (s !== null && /^\d{4}-\d{2}-\d{2}T/.test(s)) {
    const d = new Date(s);
    s = Number.isNaN(d.getTime()) ? s : utcDate(d);
  }
  if (s === null || !isCalendarDate(s)) throw invalid('bill_on', 'must be a date, YYYY-MM-DD');
  const today = utcDate(now);
  if (s < today) throw invalid('bill_on', `must be today (${today}, UTC) or later`);
  if (startOfDay(s).getTime() - startOfDay(today).getTime() > MAX_DAYS_AHEAD * 86_400_000) {
    throw invalid('bill_on', 'must be at most ten years ahead');
  }
  return s;
}

/** POST /scheduled_transactions' body, read and checked at the edge (readScheduledInput). */
export interface ScheduledInput {
  /** A stored customer's id, or null when a token is billed (then `token` is set). */
  customerId: string | null;
  token: string | null;
  /** The token's security code, as sent: checked with the token when it becomes a customer. */
  cvv: unknown;
  csc: unknown;
  methodId: string | null;
  chargeBankAccount: boolean | undefined;
  amount: number;
  billOn: string;
  description: string | null;
  metadata: Record<string, unknown>;
  sendReceipt: boolean | undefined;
  email: string | null;
  receiptTemplateId: string | null;
  /** The payer fields of spec 2.7, by their scheduled-transaction names. */
  payer: Record<string, string | null>;
}

/**
 * The whole body once, in the order its faults are answered: customer_id or token with amount
 * (48291, 69002, 99819, 59112), bill_on, description, metadata, the booleans, email_address
 * (69006), the payer fields. `now` decides which bill_on dates are still ahead.
 */
export function readScheduledInput(body: Record<string, unknown>, now: Date): ScheduledInput {
  const customerId = text(body.customer_id, 'customer_id');
  const token = customerId === null ? text(body.token, 'token') : null;
  const a = parseAmount(body.amount);
  if (customerId !== null || token === null) {
    requireChargeParams(E.CUSTOMER_CHARGE_PARAMS_MISSING, ['customer_id', customerId], a);
    if (a === 'not_positive') throw new GatewayError(E.CUSTOMER_AMOUNT_INVALID);
  } else requireChargeParams(E.TOKEN_CHARGE_PARAMS_MISSING, ['token', token], a);
  if (typeof a !== 'number') throw new GatewayError(E.AMOUNT_INVALID);
  const billOn = readBillOn(body.bill_on, now);
  const description = text(body.description, 'description');
  if (description && description.length > 1000) throw tooLong('description', 1000);
  const metadata = readMetadata(body.metadata) ?? {};
  const sendReceipt = readBool(body.send_receipt, 'send_receipt');
  const chargeBankAccount = readBool(body.charge_bank_account, 'charge_bank_account');
  const email = text(body.email_address, 'email_address');
  if (email !== null && !isEmail(email)) throw new GatewayError(E.RECEIPT_EMAIL_INVALID);
  const payer: Record<string, string | null> = {};
  for (const [field, spec] of Object.entries(PAYER)) {
    const v = text(body[field] ?? spec.aliases.map((k) => body[k]).find((x) => x !== undefined), field);
    if (v !== null && v.length > spec.max) throw tooLong(field, spec.max);
    payer[field] = v;
  }
  return {
    customerId, token, cvv: body.cvv, csc: body.csc, methodId: text(body.method_id, 'method_id'), chargeBankAccount,
    amount: a, billOn, description, metadata, sendReceipt, email,
    receiptTemplateId: text(body.receipt_template_id, 'receipt_template_id'), payer,
  };
}

/**
 * POST /scheduled_transactions (our endpoint; spec 2.7 gives the record, not how to make one).
 * Bills a stored customer (`customer_id`, with `method_id` or `charge_bank_account` as in a charge
 * by customer) or a `token`. A token lasts 15 minutes, so it is stored now as a new customer
 * (`new_record: true`) whose method the schedule bills. The method is resolved now and kept, so
 * method deletion refuses it until the schedule has billed (17104).
 */
export async function createScheduled(
  q: Queryable, vault: Vault, scope: Scope, input: ScheduledInput, now: Date, ip: string | null,
): Promise<ScheduledRow> {
  const { customerId, token, amount, billOn, description, metadata, sendReceipt, email, payer } = input;
  const chargeBank = input.chargeBankAccount;
  const receiptTemplateId = await namedTemplateId(q, scope, input.receiptTemplateId);
  let customer = customerId;
  if (token !== null) {
    const created = await createCustomer(q, vault, scope, readCustomerInput({
      token, cvv: input.cvv, csc: input.csc, email: email ?? undefined, company: payer.company, website: payer.website,
      address_1: payer.address_1, address_2: payer.address_2, city: payer.city, state: payer.state, zip: payer.zip,
      phone: payer.phone_number, fax: payer.fax_number,
    }, 'create'), now);
    customer = created.id;
  }
  // Held: a deletion of the customer waits, then cancels this schedule with the others.
  const m = await findChargeableMethod(q, scope, customer!, input.methodId, chargeBank ?? null, { hold: true });
  if (sendReceipt === true && email === null && !isEmail(m.customer.email)) throw new GatewayError(E.RECEIPT_EMAIL_MISSING);
  const holder = m.method_type === 'bank_account';
  const row: Record<string, unknown> = {
    merchant_id: scope.merchantId, env: scope.env, id: newId(16), customer_id: customer, method_id: m.method_id,
    status: 'scheduled', bill_on: billOn, amount, token, new_record: token !== null,
    send_receipt: sendReceipt ?? null, receipt_template_id: receiptTemplateId, email_address: email,
    charge_bank_account: chargeBank ?? null, description, metadata, ip_address: ip, ...payer,
    card_owner_name: holder ? null : m.card_owner_name,
    bank_account_holder_first_name: holder ? m.bank_account_holder_first_name : null,
    bank_account_holder_last_name: holder ? m.bank_account_holder_last_name : null,
    created_at: now, updated_at: now,
  };
  const cols = Object.keys(row);
  const [saved] = await q.query<ScheduledRow>(
    `INSERT INTO scheduled_transactions (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${ST}`,
    Object.values(row),
  );
  return saved;
}

export async function getScheduled(q: Queryable, scope: Scope, id: string, opts: { lock?: boolean } = {}): Promise<ScheduledRow> {
  const [row] = await q.query<ScheduledRow>(
    `SELECT ${ST} FROM scheduled_transactions WHERE merchant_id = $1 AND env = $2 AND id = $3 AND amount IS NOT NULL
      ${opts.lock ? 'FOR UPDATE' : ''}`,
    [scope.merchantId, scope.env, id],
  );
  if (!row) throw new GatewayError(E.SCHEDULED_NOT_FOUND);
  return row;
}

/** GET /scheduled_transactions: most recently created first. */
export async function listScheduled(q: Queryable, scope: Scope, page: Page) {
  const where = 'merchant_id = $1 AND env = $2 AND amount IS NOT NULL';
  return pagedQuery<ScheduledRow>(q, page, `SELECT ${ST} FROM scheduled_transactions WHERE ${where} ORDER BY seq DESC`,
    `scheduled_transactions WHERE ${where}`, [scope.merchantId, scope.env]);
}

/**
 * POST /scheduled_transactions/:id/cancel: only before it bills. Cancelling a cancelled one
 * answers it unchanged; one that billed or failed is SCHED02. A run in progress holds the row
 * lock, so a cancel racing it waits and then sees `billed`.
 */
export async function cancelScheduled(q: Queryable, scope: Scope, id: string, now: Date): Promise<ScheduledRow> {
  const row = await getScheduled(q, scope, id, { lock: true });
  if (row.status === 'cancelled') return row;
  if (row.status !== 'scheduled') throw new GatewayError(E.SCHEDULED_NOT_CANCELLABLE, `scheduled transaction is ${row.status}; only one that has not billed can be cancelled`);
  const [updated] = await q.query<ScheduledRow>(
    `UPDATE scheduled_transactions SET status = 'cancelled', updated_at = $4
      WHERE merchant_id = $1 AND env = $2 AND id = $3 RETURNING ${ST}`,
    [scope.merchantId, scope.env, id, now],
  );
  await emitEvent(q, scope, 'scheduled_transaction.cancelled', presentScheduled(updated), now);
  return updated;
}

/**
 * Runs a due scheduled transaction inside the caller's transaction, which holds its row: charge,
 * then `billed` (with transaction_id) or `failed` (declined or returned: with the transaction;
 * no charge possible: error_code and message, transaction_id empty). No automatic retry.
 */
export async function billScheduled(
  q: Queryable, deps: RecurringDeps, row: ScheduledRow, now: Date,
): Promise<{ row: ScheduledRow; txn: Transaction | null; pending?: PendingSale }> {
  const scope: Scope = { merchantId: row.merchant_id, env: row.env };
  const payer: ChargeInput['payer'] = {};
  for (const [field, spec] of Object.entries(PAYER)) payer[spec.charge] = text((row as unknown as Record<string, unknown>)[field]);
  const input: ChargeInput = {
    shape: 'customer', customerId: row.customer_id, methodId: row.method_id, bankAccount: undefined, amount: row.amount,
    description: row.description, metadata: row.metadata ?? {}, payer,
    receipt: {
      send: row.send_receipt ?? (await receiptWanted(q, scope, row.customer_id)),
      email: row.email_address, templateId: row.receipt_template_id,
    },
  };
  const { txn, error, pending } = await chargeInTx(q, deps, scope, input, now, 'scheduled');
  const ok = !!txn?.successful;
  // A live charge's outcome is not known yet: `processing` until it is (resolveScheduled).
  const status = pending ? 'processing' : ok ? 'billed' : 'failed';
  const [updated] = await q.query<ScheduledRow>(
    `UPDATE scheduled_transactions SET status = $4, transaction_id = $5, error_code = $6, error_message = $7,
            billed_at = $8, updated_at = $8
      WHERE merchant_id = $1 AND env = $2 AND id = $3 AND status = 'scheduled' RETURNING ${ST}`,
    [scope.merchantId, scope.env, row.id, status, txn?.id ?? null,
      txn ? txn.error_code : error!.code, txn ? txn.error_message : error!.message, now],
  );
  if (!updated) throw new Error(`scheduled transaction ${row.id} changed during its run; rolled back`);
  if (pending) return { row: updated, txn, pending };
  await emitEvent(q, scope, ok ? 'scheduled_transaction.billed' : 'scheduled_transaction.failed', presentScheduled(updated), now);
  return { row: updated, txn };
}

/** A live scheduled transaction's charge has its outcome (charge-finish.ts): billed or failed, and its event. */
export async function resolveScheduled(q: Queryable, txn: Transaction, now: Date): Promise<void> {
  const ok = txn.successful;
  const [updated] = await q.query<ScheduledRow>(
    `UPDATE scheduled_transactions SET status = $4, error_code = $5, error_message = $6, updated_at = $7
      WHERE merchant_id = $1 AND env = $2 AND transaction_id = $3 AND status = 'processing' RETURNING ${ST}`,
    [txn.merchant_id, txn.env, txn.id, ok ? 'billed' : 'failed', txn.error_code, txn.error_message, now],
  );
  if (!updated) return;
  await emitEvent(q, { merchantId: txn.merchant_id, env: txn.env as Scope['env'] },
    ok ? 'scheduled_transaction.billed' : 'scheduled_transaction.failed', presentScheduled(updated), now);
}
