import { pagedQuery, Queryable } from '../../db/index.js';
import { E, GatewayError, invalid } from '../../errors.js';
import type { Vault } from '../../vault.js';
import { PendingSale, RecurringDeps, chargeInTx, receiptWanted } from './billings.js';
import { type ChargeInput } from '../payments/charge-input.js';
import { startOfDay, utcDate } from './calendar.js';
import { createCustomer, findChargeableMethod } from '../instruments/customers.js';
import { readCustomerInput } from '../instruments/customer-input.js';
import { CustomerCreateFields } from '../../schemas/customers.js';
import { emitEvent } from '../events/events.js';
import { namedTemplateId } from '../merchant/templates.js';
import { Scope, newId } from '../merchant/keys.js';
import type { Transaction } from '../payments/transactions.js';
import { isEmail, type Page, text } from '../../lib/validate.js';
import { cents } from '../../schemas/fields.js';
import { take } from '../../schemas/fields.js';
import { SCHEDULED_PAYER, type ScheduledFieldsInput, type ScheduledPayerField, presentScheduled } from '../../schemas/scheduled.js';
import { SCHEDULED_COLUMNS, type ScheduledRow } from '../../schemas/scheduled.js';
export type { ScheduledStatus, ScheduledRow } from '../../schemas/scheduled.js';

/**
 * Every column of a scheduled transaction, named (no `*`), `alias.` before each when the statement
 * joins; bill_on comes back as text: pg and PGlite parse `date` into different Dates.
 */
export function scheduledColumns(alias?: string): string {
  const p = alias ? `${alias}.` : '';
  return SCHEDULED_COLUMNS.map((c) => (c === 'bill_on' ? `${p}bill_on::text AS bill_on` : `${p}${c}`)).join(', ');
}
/** Every read of a scheduled transaction's row. */
export const ST = scheduledColumns();
const MAX_DAYS_AHEAD = 366 * 10;
/** bill_on (its form read by ScheduledFields): today or later, at most ten years ahead. */
function billOnAhead(s: string, now: Date): string {
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
 * POST /scheduled_transactions' fields as ScheduledFields read them (customer_id or token with
 * amount, bill_on's form), then, in the order their faults are answered: bill_on ahead of `now`,
 * description, metadata, the booleans, email_address (69006), the payer fields (each, when absent
 * or null, by its older name), method_id, receipt_template_id.
 */
export function readScheduledInput(f: ScheduledFieldsInput, now: Date): ScheduledInput {
  const customerId = f.customer_id;
  const token = customerId === null ? take(f.token) : null;
  const billOn = billOnAhead(f.bill_on, now);
  const description = take(f.description);
  const metadata = take(f.metadata) ?? {};
  const sendReceipt = take(f.send_receipt);
  const chargeBankAccount = take(f.charge_bank_account);
  const email = take(f.email_address);
  const payer: Record<string, string | null> = {};
  for (const field of Object.keys(SCHEDULED_PAYER) as ScheduledPayerField[]) {
    const alias = SCHEDULED_PAYER[field].alias;
    // Sent blank, the field is blank (null): its older name is read only when it was not sent at all.
    const own = take(f[field]);
    payer[field] = (own !== undefined || alias === null ? own : take(f[alias])) ?? null;
  }
  return {
    customerId, token, cvv: f.cvv, csc: f.csc, methodId: take(f.method_id), chargeBankAccount,
    amount: cents(f.amount), billOn, description, metadata, sendReceipt, email,
    receiptTemplateId: take(f.receipt_template_id), payer,
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
    // The customer is read as POST /customers reads its body; the security code as csc (cvv, else csc).
    const created = await createCustomer(q, vault, scope, readCustomerInput(CustomerCreateFields.read({
      token, csc: input.cvv ?? input.csc, email: email ?? undefined, company: payer.company, website: payer.website,
      address_1: payer.address_1, address_2: payer.address_2, city: payer.city, state: payer.state, zip: payer.zip,
      phone: payer.phone_number, fax: payer.fax_number,
    }), 'create'), now);
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
  for (const field of Object.keys(SCHEDULED_PAYER) as ScheduledPayerField[]) payer[SCHEDULED_PAYER[field].charge] = text(row[field]);
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
