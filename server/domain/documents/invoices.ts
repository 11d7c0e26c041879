import { pagedQuery, Queryable } from '../../db/index.js';
import { E, GatewayError, invalid } from '../../errors.js';
import { enqueue } from '../events/outbox.js';
import { EventType, emitEvent } from '../events/events.js';
import { InvoiceInput, applyCustomer, readFields } from './invoice-input.js';
import { Scope, newId } from '../merchant/keys.js';
import { dollars, escapeHtml } from './render.js';
import type { Page } from '../../lib/validate.js';
import type { Amount } from '../../schemas/fields.js';
import { INVOICE_COLUMNS, INVOICE_STATUSES, presentInvoice } from '../../schemas/invoices.js';
import type { InvoiceRow, InvoiceStatus, Payment, InvoiceView } from '../../schemas/invoices.js';
export type { InvoiceStatus, Payment, InvoiceRow, InvoiceView } from '../../schemas/invoices.js';

// Invoices (spec 4.11, state table of spec 3; docs/decisions/invoices.md). The body is read by
// InvoiceFields (schemas/invoices.ts); invoice-input.ts makes the columns of what it read, the
// total in integer cents; the email goes through the durable outbox in the transaction that
// creates or delivers the invoice, and every change emits its event in the same transaction.


/**
 * Every column of an invoice, named (no `*`), `i.` before each; due_date comes back as text: pg and
 * PGlite parse `date` into different Dates.
 */
const INVOICE = INVOICE_COLUMNS.map((c) => (c === 'due_date' ? 'i.due_date::text AS due_date' : `i.${c}`)).join(', ');
/** An invoice and its latest email in the outbox (InvoiceView). */
const SELECT = `SELECT ${INVOICE},
    o.payload->>'to' AS delivery_to, o.status AS delivery_status, o.attempts AS delivery_attempts,
    o.sent_at AS delivery_sent_at, o.last_error AS delivery_last_error
  FROM invoices i
  LEFT JOIN outbox o ON o.id = i.outbox_id AND o.merchant_id = i.merchant_id AND o.env = i.env`;


// --- the email ------------------------------------------------------------------------------

function contactLines(inv: InvoiceRow): string[] {
  const name = [inv.customer_first_name, inv.customer_last_name].filter(Boolean).join(' ');
  const cityLine = [inv.customer_city, [inv.customer_state, inv.customer_zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [name, inv.customer_company, inv.customer_address_1, inv.customer_address_2, cityLine].filter((l): l is string => !!l);
}

/** Subject, text and HTML of the invoice email; every value is escaped in the HTML part. */
export function renderInvoiceEmail(inv: InvoiceRow, merchantName: string | null) {
  const from = merchantName || 'your supplier';
  const balance = inv.amount - inv.amount_paid;
  const owed = balance > 0 ? `${dollars(balance)} due${inv.due_date ? ` by ${inv.due_date}` : ''}` : 'paid in full';
  const subject = `Invoice ${inv.id} from ${from}: ${owed}`
    .replace(/[\s\u0000-\u001f\u007f]+/g, ' ').slice(0, 255);
  const totals: [string, string][] = [['Total', dollars(inv.amount)]];
  if (inv.amount_paid > 0) totals.push(['Paid', dollars(inv.amount_paid)]);
  totals.push(['Balance due', dollars(balance)]);
  if (inv.due_date) totals.push(['Due date', inv.due_date]);
  const billTo = contactLines(inv);

  const text = [
    `Invoice ${inv.id} from ${from}`,
    ...(billTo.length ? ['', 'Bill to:', ...billTo] : []),
    '',
    ...inv.items.map((i) => `${i.description}: ${i.quantity} × ${dollars(i.unit_amount)} = ${dollars(i.amount)}`),
    '',
    ...totals.map(([k, v]) => `${k}: ${v}`),
    ...(inv.memo ? ['', inv.memo] : []),
  ].join('\n');

  const e = escapeHtml;
  const cell = 'style="padding:4px 8px;border-bottom:1px solid #ddd"';
  const num = 'style="padding:4px 8px;border-bottom:1px solid #ddd;text-align:right"';
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;line-height:1.5;color:#222">
<h1 style="font-size:20px">Invoice ${e(inv.id)} from ${e(from)}</h1>
${billTo.length ? `<p>Bill to:<br>\n${billTo.map(e).join('<br>\n')}</p>\n` : ''}<table style="border-collapse:collapse">
<tr><th ${cell}>Description</th><th ${num}>Quantity</th><th ${num}>Unit price</th><th ${num}>Amount</th></tr>
${inv.items.map((i) => `<tr><td ${cell}>${e(i.description)}</td><td ${num}>${i.quantity}</td><td ${num}>${e(dollars(i.unit_amount))}</td><td ${num}>${e(dollars(i.amount))}</td></tr>`).join('\n')}
</table>
<p>${totals.map(([k, v]) => `${e(k)}: <strong>${e(v)}</strong>`).join('<br>\n')}</p>
${inv.memo ? `<p>${inv.memo.split(/\r\n|\n|\r/).map(e).join('<br>\n')}</p>\n` : ''}</body></html>
`;
  return { subject, text, html };
}

// --- the operations -------------------------------------------------------------------------

async function load(q: Queryable, scope: Scope, id: string, lock = false): Promise<InvoiceView> {
  const [row] = await q.query<InvoiceView>(
    `${SELECT} WHERE i.merchant_id = $1 AND i.env = $2 AND i.id = $3${lock ? ' FOR UPDATE OF i' : ''}`,
    [scope.merchantId, scope.env, id],
  );
  if (!row) throw new GatewayError(E.INVOICE_NOT_FOUND);
  return row;
}

/** Emits the event with the invoice as it now reads, and returns that row. */
async function emit(q: Queryable, scope: Scope, type: EventType, id: string, now: Date): Promise<InvoiceView> {
  const row = await load(q, scope, id);
  await emitEvent(q, scope, type, presentInvoice(row), now);
  return row;
}

/** Queues the invoice email to customer_email (92002 without one, or for a deleted invoice). */
async function deliver(q: Queryable, scope: Scope, inv: InvoiceView, now: Date): Promise<InvoiceView> {
  if (inv.status === 'deleted') throw new GatewayError(E.INVOICE_UNDELIVERABLE, 'a deleted invoice cannot be delivered');
  if (!inv.customer_email) throw new GatewayError(E.INVOICE_UNDELIVERABLE, 'the invoice has no customer_email to deliver to');
  const [m] = await q.query<{ name: string }>('SELECT name FROM merchants WHERE id = $1', [scope.merchantId]);
  const merchantName = m?.name ?? null;
  const r = renderInvoiceEmail(inv, merchantName);
  const outboxId = await enqueue(q, scope, {
    kind: 'email', to: inv.customer_email, subject: r.subject, text: r.text, html: r.html,
    ...(merchantName ? { from_name: merchantName } : {}),
  }, now, `invoice:${inv.id}`);
  await q.query('UPDATE invoices SET outbox_id = $4, delivered_at = $5 WHERE merchant_id = $1 AND env = $2 AND id = $3',
    [scope.merchantId, scope.env, inv.id, outboxId, now]);
  return emit(q, scope, 'invoice.delivered', inv.id, now);
}

/**
 * POST /invoices: the invoice is created `unpaid` and, when it has a customer_email, its email is
 * queued in the same transaction (an invoice without one is created and not sent).
 */
export async function createInvoice(q: Queryable, scope: Scope, input: InvoiceInput, now: Date) {
  const fields = readFields(input, false);
  await applyCustomer(q, scope, input, fields, false);
  const id = newId(8);
  const row = { ...fields, merchant_id: scope.merchantId, env: scope.env, status: 'unpaid', created_at: now, updated_at: now };
  const cols = Object.keys(row);
  await q.query(
    `INSERT INTO invoices (id, ${cols.join(', ')}) VALUES ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')})`,
    [id, ...Object.values(row)],
  );
  const inv = await emit(q, scope, 'invoice.created', id, now);
  return inv.customer_email ? deliver(q, scope, inv, now) : inv;
}

export async function getInvoice(q: Queryable, scope: Scope, id: string) {
  return load(q, scope, id);
}

/** GET /invoices: newest first; deleted invoices only when `status=deleted` asks for them. */
export async function listInvoices(q: Queryable, scope: Scope, page: Page, status?: string) {
  const params: unknown[] = [scope.merchantId, scope.env];
  let where = 'i.merchant_id = $1 AND i.env = $2';
  if (status !== undefined) {
    if (!INVOICE_STATUSES.includes(status as InvoiceStatus)) throw invalid('status', `must be one of ${INVOICE_STATUSES.join(', ')}`);
    params.push(status);
    where += ' AND i.status = $3';
  } else {
    where += " AND i.status <> 'deleted'";
  }
  return pagedQuery<InvoiceView>(q, page, `${SELECT} WHERE ${where} ORDER BY i.seq DESC`, `invoices i WHERE ${where}`, params);
}

/** POST /invoices/:id: only while `unpaid` (INV01 otherwise); the email is not sent again (deliver does that). */
export async function updateInvoice(q: Queryable, scope: Scope, id: string, input: InvoiceInput, now: Date) {
  const fields = readFields(input, true);
  const inv = await load(q, scope, id, true);
  if (inv.status !== 'unpaid') throw new GatewayError(E.INVOICE_NOT_UNPAID, `only an unpaid invoice can be updated; this one is ${inv.status}`);
  await applyCustomer(q, scope, input, fields, true);
  const cols = [...Object.keys(fields), 'updated_at'];
  await q.query(
    `UPDATE invoices SET ${cols.map((c, i) => `${c} = $${i + 4}`).join(', ')} WHERE merchant_id = $1 AND env = $2 AND id = $3`,
    [scope.merchantId, scope.env, id, ...Object.values(fields), now],
  );
  return emit(q, scope, 'invoice.updated', id, now);
}

/** POST /invoices/:id/deliver: queues the email again (92002 when it cannot be delivered). */
export async function deliverInvoice(q: Queryable, scope: Scope, id: string, now: Date) {
  const inv = await deliver(q, scope, await load(q, scope, id, true), now);
  return inv;
}

/**
 * POST /invoices/:id/mark_as_paid: `amount` cents paid outside the service, the balance when
 * absent. Paying the balance makes the invoice `paid`, less makes it `partially_paid`; more is
 * INV03. Only an invoice with a balance due (unpaid, partially_paid) can be marked (INV02).
 */
export async function markInvoicePaid(q: Queryable, scope: Scope, id: string, sent: Amount, now: Date) {
  const inv = await load(q, scope, id, true);
  if (inv.status !== 'unpaid' && inv.status !== 'partially_paid') {
    throw new GatewayError(E.INVOICE_NOT_PAYABLE, `only an unpaid or partially paid invoice can be marked as paid; this one is ${inv.status}`);
  }
  const balance = inv.amount - inv.amount_paid;
  const amount = sent === 'missing' ? balance : sent;
  if (typeof amount !== 'number') throw invalid('amount', 'must be a positive integer number of cents');
  if (amount > balance) throw new GatewayError(E.INVOICE_OVERPAID, `amount ${amount} exceeds the balance of the invoice (${balance})`);
  const paid = amount === balance;
  const payment: Payment = { id: newId(8), amount, created_at: now.toISOString() };
  await q.query(
    `UPDATE invoices SET amount_paid = amount_paid + $4, status = $5, payments = payments || $6::jsonb,
            paid_at = $7, updated_at = $8
      WHERE merchant_id = $1 AND env = $2 AND id = $3`,
    [scope.merchantId, scope.env, id, amount, paid ? 'paid' : 'partially_paid', [payment], paid ? now : null, now],
  );
  return emit(q, scope, paid ? 'invoice.paid' : 'invoice.partially_paid', id, now);
}

/** DELETE /invoices/:id: only an unpaid invoice; 92007 when paid, 92008 when partially paid or deleted already. */
export async function deleteInvoice(q: Queryable, scope: Scope, id: string, now: Date) {
  const inv = await load(q, scope, id, true);
  if (inv.status === 'paid') throw new GatewayError(E.INVOICE_PAID_UNDELETABLE);
  if (inv.status === 'partially_paid') throw new GatewayError(E.INVOICE_UNDELETABLE, 'a partially paid invoice cannot be deleted');
  if (inv.status === 'deleted') throw new GatewayError(E.INVOICE_UNDELETABLE, 'the invoice is deleted already');
  await q.query(
    `UPDATE invoices SET status = 'deleted', deleted_at = $4, updated_at = $4 WHERE merchant_id = $1 AND env = $2 AND id = $3`,
    [scope.merchantId, scope.env, id, now],
  );
  await emit(q, scope, 'invoice.deleted', id, now);
}
