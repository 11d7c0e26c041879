// @ts-check
// One transaction: its facts, its refunds (with the refund form, which always asks first) and its
// receipt.
import { api, isUnavailable } from '../api.js';
import { announce, confirmDialog, errorBox, fact, field, h, statusBox } from '../dom.js';
import { centsFrom, money, statusWord, when } from '../format.js';
import { hashFor, refresh } from '../nav.js';
import { chargeState, dataTable, renderRecord, statusPill } from '../tables.js';
import { paymentOf } from './transactions.js';

/** @param {HTMLElement} view @param {string} id @param {() => boolean} alive */
export async function renderTransaction(view, id, alive) {
  const t = await api(`/charge/${encodeURIComponent(id)}`);
  const back = h('p', {}, h('a', { href: hashFor(['activity', 'transactions']) }, '← All transactions'));
  const amount = Math.max(t.amount_authorized, t.amount_failed);
  const summary = h('section', { class: 'panel', 'aria-labelledby': 'txn-title', 'data-testid': 'transaction-detail' },
    h('h2', { id: 'txn-title' }, 'Transaction ', h('code', {}, t.id)),
    h('dl', { class: 'facts' },
      ...fact('Status', [chargeState(t), t.successful ? '' : ' not successful']),
      ...fact('Amount', money(amount)),
      ...fact('Settled', money(t.amount_settled)),
      ...fact('Refunded', money(t.amount_refunded)),
      ...(t.amount_failed ? fact('Failed', money(t.amount_failed)) : []),
      ...fact('Payment', paymentOf(t)),
      ...fact('Name', t.card_owner_name || t.account_holder_name || '—'),
      ...fact('Customer', t.customer_id ? h('code', {}, t.customer_id) : '—'),
      ...fact('Description', t.description ?? '—'),
      ...fact('Date', when(t.created_at)),
      ...(t.payment_method === 'bank_account' ? [] : fact('CVV check', statusWord(t.csc_check))),
      ...(t.payment_method === 'bank_account' ? [] : fact('ZIP check', t.avs_address_check ? statusWord(t.avs_address_check) : 'not checked')),
      ...(t.error_code ? fact('Error', `${t.error_code}: ${t.error_message ?? ''}`) : []),
      ...fact('Reference', t.reference_number ?? '—'),
      ...fact('Source', t.source ?? '—'),
      ...(Object.keys(t.metadata ?? {}).length ? fact('Metadata', renderRecord(t.metadata)) : [])));

  const refunds = h('section', { class: 'panel', 'aria-labelledby': 'refunds-title', 'data-testid': 'refunds' }, h('h2', { id: 'refunds-title' }, 'Refunds'));
  refunds.append(t.refunds.length
    ? dataTable(t.refunds, [{ key: 'id', label: 'Refund' }, { key: 'amount', label: 'Amount', num: true }, { key: 'created_at', label: 'Date' }])
    : h('p', { class: 'empty' }, 'No refunds.'));
  const remaining = t.amount_settled - t.amount_refunded;
  if (t.successful && t.settled && remaining > 0) refunds.append(h('h3', {}, 'Refund'), refundForm(t, remaining));

  const receipt = await receiptPanel(t);
  if (!alive()) return;
  const raw = h('details', { class: 'panel' }, h('summary', {}, 'The transaction as the API returns it'), h('pre', {}, JSON.stringify(t, null, 2)));
  view.append(back, summary, h('div', { class: 'columns' }, refunds, receipt), raw);
}

/**
 * The refund form. Nothing moves until the merchant confirms in a dialog that names the amount and
 * what remains; an empty amount field is a full refund only once confirmed as one.
 * @param {any} t the transaction
 * @param {number} remaining refundable cents
 */
function refundForm(t, remaining) {
  const out = h('div', { 'aria-live': 'polite' });
  const input = h('input', { type: 'text', inputmode: 'decimal', id: 'refund-amount', autocomplete: 'off', placeholder: 'e.g. 5.00' });
  const button = h('button', { type: 'submit', class: 'danger' }, 'Refund');
  const form = h('form', { 'aria-label': 'Refund this charge' },
    field('Refund amount', input, `Up to ${money(remaining)} of ${money(t.amount_settled)}. Leave it empty for a full refund of what remains; you confirm either way.`),
    out, button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const cents = centsFrom(input.value);
    if (Number.isNaN(cents) || cents === 0) return out.replaceChildren(statusBox('error', 'The amount is a number such as 5.00.'));
    if (cents !== null && cents > remaining) return out.replaceChildren(statusBox('error', `At most ${money(remaining)} remains to refund.`));
    out.replaceChildren();
    const full = cents === null || cents === remaining;
    const refund = cents ?? remaining;
    const ok = await confirmDialog(full ? 'Refund everything that remains?' : `Refund ${money(refund)}?`,
      h('div', { 'data-testid': 'refund-confirm' },
        h('p', {}, full
          ? `This refunds ${money(refund)}, all that remains of ${money(t.amount_settled)} (${money(t.amount_refunded)} refunded before).`
          : `This refunds ${money(refund)} of ${money(t.amount_settled)}.`),
        h('p', {}, full ? 'Nothing will remain to refund.' : `${money(remaining - refund)} will remain refundable.`),
        h('p', { class: 'hint' }, 'The money goes back to the customer; this cannot be undone.')),
      full ? `Confirm full refund of ${money(refund)}` : `Refund ${money(refund)}`);
    if (!ok) {
      out.replaceChildren(statusBox('ok', 'Cancelled: nothing was refunded.'));
      input.focus();
      return;
    }
    button.disabled = true;
    try {
      // A full refund names its amount too: the one confirmed, not whatever remains by the time it lands.
      await api(`/charge/${encodeURIComponent(t.id)}/cancel`, { method: 'POST', body: { amount: refund } });
      announce(`Refunded ${money(refund)}`);
      await refresh();
    } catch (err) {
      out.replaceChildren(errorBox(err));
      button.disabled = false;
    }
  });
  return form;
}

/** @param {any} t the transaction */
async function receiptPanel(t) {
  const receipt = h('section', { class: 'panel', 'aria-labelledby': 'receipt-title', 'data-testid': 'receipt' }, h('h2', { id: 'receipt-title' }, 'Receipt'));
  const receiptId = t.receipt && t.receipt.receipt_id;
  if (!receiptId) {
    receipt.append(h('p', { class: 'empty' }, t.receipt && t.receipt.due ? 'A receipt is due and being prepared.' : 'No receipt was sent for this charge.'));
    return receipt;
  }
  try {
    const r = await api(`/receipts/${encodeURIComponent(receiptId)}`);
    receipt.append(h('dl', { class: 'facts' },
      ...fact('Receipt', String(r.id)),
      ...fact('Sent by', r.receipt_type ?? '—'),
      ...fact('To', r.email_address ?? r.phone_number ?? '—'),
      ...fact('Subject', r.subject ?? '—'),
      ...fact('Delivery', r.delivery ? [statusPill(r.delivery.status), ` ${r.delivery.attempts ?? 0} attempt(s)`, r.delivery.last_error ? ` · ${r.delivery.last_error}` : ''] : '—')),
    h('pre', { 'aria-label': 'Receipt text' }, r.receipt_text ?? ''));
  } catch (e) {
    receipt.append(isUnavailable(e) ? h('p', { class: 'empty' }, 'Receipts are not available in this version.') : errorBox(e));
  }
  return receipt;
}
