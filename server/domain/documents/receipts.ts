import { Queryable } from '../../db/index.js';
import { E, GatewayError, invalid, MUST } from '../../errors.js';
import { OutboxMessage, enqueue } from '../events/outbox.js';
import type { Scope } from '../merchant/keys.js';
import { DEFAULT_SMS_TEMPLATE, DEFAULT_TEMPLATE, ReceiptData, TemplateSource, renderTemplate } from './render.js';
import { MerchantSettings, getSettings } from '../merchant/settings.js';
import { findTemplate, getTemplate } from '../merchant/templates.js';
import { TRANSACTION_SELECT, Transaction, TransactionRow, getTransaction } from '../payments/transactions.js';
import { isEmail, isScalar, normalisePhone } from '../../lib/validate.js';
import { RECEIPT_COLUMNS, type Receipt, type ReceiptInput, type ReceiptType } from '../../schemas/receipts.js';
import { take } from '../../schemas/fields.js';

// Receipts (spec 2.6, 4.4). One path for every receipt: POST /charge/:id/receipt and the receipt
// a charge asks for (send_receipt, customer or merchant default). Each receipt is rendered,
// recorded and queued in the outbox in one small transaction of its own; a charge's receipt is
// made after the charge has committed, never inside the money transaction.

interface Target { type: ReceiptType; to: string }
interface Chosen { id: string | null; source: TemplateSource }

/** How long a due receipt may wait for its request before the sweep makes it, and how far back the sweep looks. */
export const SWEEP_GRACE_MS = 60_000;
export const SWEEP_WINDOW_MS = 24 * 3600_000;

/** What the tags of a template read from a transaction. */
function receiptData(t: TransactionRow, merchantName: string | null): ReceiptData {
  return {
    id: t.id, description: t.description as string | null,
    // The amount asked for: settled for a payment, failed for a decline or return.
    amount: Math.max(t.amount_authorized, t.amount_settled, t.amount_failed),
    card_number: t.card_number, customer_id: t.customer_id,
    first_name: t.first_name as string | null, last_name: t.last_name as string | null, company: t.company as string | null,
    card_owner_name: t.card_owner_name, account_holder_name: t.account_holder_name,
    metadata: t.metadata, created_at: t.created_at, merchant_name: merchantName,
  };
}

/**
 * The template of a receipt when the request names none: the transaction's, the customer's
 * default, the merchant's default, then the built-in one. A default naming a template that no
 * longer exists is skipped. SMS receipts without an explicit template use the short SMS default.
 */
async function chooseTemplate(q: Queryable, scope: Scope, txn: TransactionRow, type: ReceiptType): Promise<Chosen> {
  if (type === 'sms') return { id: null, source: DEFAULT_SMS_TEMPLATE };
  const candidates: unknown[] = [txn.receipt_template_id];
  if (txn.customer_id) {
    const [c] = await q.query<{ default_receipt_template_id: string | null }>(
      'SELECT default_receipt_template_id FROM customers WHERE merchant_id = $1 AND env = $2 AND id = $3',
      [scope.merchantId, scope.env, txn.customer_id],
    );
    candidates.push(c?.default_receipt_template_id);
  }
  candidates.push((await getSettings(q, scope)).default_receipt_template_id);
  for (const id of candidates) {
    const t = id ? await findTemplate(q, scope, id) : null;
    if (t) return { id: String(t.id), source: t };
  }
  return { id: null, source: DEFAULT_TEMPLATE };
}

/** Renders, records and queues one receipt inside `q`; returns its id. */
async function recordReceipt(q: Queryable, scope: Scope, txn: TransactionRow, target: Target, tpl: Chosen, now: Date): Promise<number> {
  const [m] = await q.query<{ name: string }>('SELECT name FROM merchants WHERE id = $1', [scope.merchantId]);
  const merchantName = m?.name ?? null;
  const r = renderTemplate(tpl.source, receiptData(txn, merchantName));
  const email = target.type === 'email';
  const [{ id }] = await q.query<{ id: number }>(
    `INSERT INTO receipts (merchant_id, env, transaction_id, receipt_type, email_address, phone_number,
                           receipt_template_id, subject, receipt_text, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [scope.merchantId, scope.env, txn.id, target.type, email ? target.to : null, email ? null : target.to,
      tpl.id, email ? r.subject : null, r.text, now],
  );
  const message: OutboxMessage = email
    ? { kind: 'email', to: target.to, subject: r.subject, text: r.text, html: r.html, ...(merchantName ? { from_name: merchantName } : {}) }
    : { kind: 'sms', to: target.to, text: r.text };
  const outboxId = await enqueue(q, scope, message, now, `receipt:${id}`);
  await q.query('UPDATE receipts SET outbox_id = $4 WHERE id = $1 AND merchant_id = $2 AND env = $3',
    [id, scope.merchantId, scope.env, outboxId]);
  return id;
}

/**
 * The target of POST /charge/:id/receipt (ReceiptFields), taken in the order of its error codes. Without
 * `email_address` an email receipt goes to the charge's customer's email, as a customer charge's
 * own receipt does; 69005 when there is neither.
 */
function readTarget(input: ReceiptInput, customerEmail: string | null): Target {
  const type = (take(input.receipt_type) ?? 'email').toLowerCase();
  if (type === 'sms') {
    const raw = take(input.phone_number);
    if (raw === null) throw new GatewayError(E.RECEIPT_FIELD_MISSING, 'phone_number required for an SMS receipt');
    const phone = normalisePhone(raw);
    if (!phone) throw invalid('phone_number', MUST.PHONE);
    return { type, to: phone };
  }
  if (type !== 'email') throw invalid('receipt_type', 'must be email or sms');
  const email = take(input.email_address) ?? customerEmail;
  if (email === null) throw new GatewayError(E.RECEIPT_EMAIL_MISSING);
  if (!isEmail(email)) throw new GatewayError(E.RECEIPT_EMAIL_INVALID);
  return { type, to: email };
}

/**
 * Where a receipt goes without email_address: the charge's customer's email as it is now, else the
 * email recorded on the charge itself (a deleted customer, or a payer email given with the charge).
 */
async function customerEmail(q: Queryable, scope: Scope, txn: TransactionRow): Promise<string | null> {
  const recorded = ((txn as { email?: string | null }).email) || null;
  if (!txn.customer_id) return recorded;
  const [c] = await q.query<{ email: string | null }>(
    'SELECT email FROM customers WHERE merchant_id = $1 AND env = $2 AND id = $3 AND deleted_at IS NULL',
    [scope.merchantId, scope.env, txn.customer_id],
  );
  return c?.email || recorded;
}

/** POST /charge/:id/receipt: 69404, then 69005/69006 (email) or 10302 (sms), then 10300 for a named template. */
export async function sendReceipt(q: Queryable, scope: Scope, txnId: string, input: ReceiptInput, now: Date): Promise<Receipt> {
  const txn = await getTransaction(q, scope, txnId);
  const target = readTarget(input, await customerEmail(q, scope, txn));
  const named = take(input.receipt_template_id);
  let tpl: Chosen;
  if (named !== null) {
    const t = await getTemplate(q, scope, named);
    tpl = { id: String(t.id), source: t };
  } else {
    tpl = await chooseTemplate(q, scope, txn, target.type);
  }
  const id = await recordReceipt(q, scope, txn, target, tpl, now);
  return getReceipt(q, scope, id);
}

/**
 * Before a charge runs (outside its transaction): a template named in the body must exist
 * (10300, so nothing is charged on a typo), and the merchant's `default_receipts` counts as
 * `send_receipt: true` when the charge does not say; the charge then applies its own rules
 * (69005 without an address). Returns the fields the charge should see.
 */
export async function applyReceiptDefaults<F extends { receipt_template_id: string | null; send_receipt: boolean | undefined }>(
  q: Queryable, scope: Scope, f: F, settings: MerchantSettings): Promise<F> {
  if (f.receipt_template_id !== null) await getTemplate(q, scope, f.receipt_template_id);
  if (f.send_receipt !== undefined) return f;
  return settings.default_receipts ? { ...f, send_receipt: true } : f;
}

/**
 * Makes the receipt a successful charge asked for, once: the transaction row is locked and
 * `receipt_id` is set in the same transaction, so the request and the sweep can never both send
 * it. Returns the receipt id and template, or null when none is due (or one was made already).
 */
export async function sendDueReceipt(q: Queryable, scope: Scope, txnId: string, now: Date) {
  const [txn] = await q.query<TransactionRow>(
    `SELECT ${TRANSACTION_SELECT} FROM transactions t WHERE id = $1 AND merchant_id = $2 AND env = $3 FOR UPDATE`,
    [txnId, scope.merchantId, scope.env],
  );
  if (!txn || !txn.receipt_due || !txn.successful || txn.receipt_id != null || !txn.receipt_email) return null;
  const tpl = await chooseTemplate(q, scope, txn, 'email');
  const id = await recordReceipt(q, scope, txn, { type: 'email', to: txn.receipt_email }, tpl, now);
  await q.query(
    'UPDATE transactions SET receipt_id = $4, receipt_template_id = $5 WHERE id = $1 AND merchant_id = $2 AND env = $3',
    [txn.id, scope.merchantId, scope.env, id, tpl.id],
  );
  return { receipt_id: id, receipt_template_id: tpl.id };
}

/** After a charge committed: its due receipt, and the transaction as it now reads. */
export async function sendChargeReceipt(q: Queryable, scope: Scope, txn: Transaction, now: Date): Promise<Transaction> {
  if (!txn.receipt_due || !txn.successful) return txn;
  const made = await sendDueReceipt(q, scope, txn.id, now);
  return made ? { ...txn, ...made } : txn;
}

/**
 * For the sweep (jobs/sweeps.ts): due receipts of the last day that no request made (the process
 * stopped between the charge's commit and its receipt), across merchants, oldest first.
 */
export async function listDueReceipts(q: Queryable, now: Date): Promise<{ id: string; merchant_id: string; env: 'test' | 'live' }[]> {
  return q.query(
    `SELECT id, merchant_id, env FROM transactions
      WHERE receipt_due AND successful AND receipt_id IS NULL AND created_at <= $1 AND created_at > $2
      ORDER BY created_at LIMIT 100`,
    [new Date(now.getTime() - SWEEP_GRACE_MS), new Date(now.getTime() - SWEEP_WINDOW_MS)],
  );
}

export async function getReceipt(q: Queryable, scope: Scope, rawId: unknown): Promise<Receipt> {
  const s = isScalar(rawId) ? String(rawId) : '';
  const rows = /^\d{1,15}$/.test(s)
    ? await q.query<Receipt>(
      `SELECT ${RECEIPT_COLUMNS.map((c) => `r.${c}`).join(', ')}, o.status AS delivery_status, o.attempts, o.sent_at, o.last_error
         FROM receipts r LEFT JOIN outbox o ON o.id = r.outbox_id AND o.merchant_id = r.merchant_id AND o.env = r.env
        WHERE r.id = $1 AND r.merchant_id = $2 AND r.env = $3`,
      [Number(s), scope.merchantId, scope.env],
    )
    : [];
  if (!rows[0]) throw new GatewayError(E.RECEIPT_NOT_FOUND);
  return rows[0];
}
