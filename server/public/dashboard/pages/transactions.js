// @ts-check
// The transactions list with its filters (kept in the location, so a filtered view is a link) and
// the CSV export of what the filters select.
import { api, listOf } from '../api.js';
import { errorBox, field, h, statusBox } from '../dom.js';
import { centsFrom, money, statusWord } from '../format.js';
import { hashFor, txnLink } from '../nav.js';
import { chargeState, dataTable, pager } from '../tables.js';
import { exportButton } from './export.js';

const PAGE_SIZE = 20;
const TXN_STATUSES = ['SETTLED', 'DECLINED', 'RETURNED'];
const FILTERS = ['status', 'amount_min', 'amount_max', 'created_from', 'created_to'];

/** @param {HTMLElement} view @param {URLSearchParams} params */
export async function renderTransactions(view, params) {
  const offset = Number(params.get('offset') ?? 0) || 0;
  const filters = new URLSearchParams();
  for (const k of FILTERS) if (params.get(k)) filters.set(k, /** @type {string} */ (params.get(k)));
  const query = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
  for (const [k, v] of filters) query.set(k, v);

  /** @param {string} name @param {string} label */
  const amountInput = (name, label) => field(label, h('input', {
    type: 'text', inputmode: 'decimal', name, id: `filter-${name}`, autocomplete: 'off', placeholder: '0.00',
    value: params.get(name) ? (Number(params.get(name)) / 100).toFixed(2) : '',
  }));
  const status = h('select', { id: 'filter-status', name: 'status' },
    h('option', { value: '' }, 'Any status'),
    TXN_STATUSES.map((s) => h('option', { value: s, selected: params.get('status') === s }, statusWord(s))));
  const from = h('input', { type: 'date', id: 'filter-from', name: 'created_from', value: params.get('created_from') ?? '' });
  const to = h('input', { type: 'date', id: 'filter-to', name: 'created_to', value: params.get('created_to') ?? '' });
  const formMsg = h('div');
  const form = h('form', { role: 'search', 'aria-label': 'Filter transactions', class: 'panel', novalidate: true },
    h('div', { class: 'fields' },
      field('Status', status), amountInput('amount_min', 'Minimum amount'), amountInput('amount_max', 'Maximum amount'),
      field('From (UTC date)', from), field('To (UTC date)', to)),
    formMsg,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Apply filters'),
      h('a', { class: 'button secondary', href: hashFor(['activity', 'transactions']) }, 'Clear filters')));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const p = new URLSearchParams();
    if (status.value) p.set('status', status.value);
    for (const name of ['amount_min', 'amount_max']) {
      const input = /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
      const c = centsFrom(input.value);
      if (Number.isNaN(c)) {
        formMsg.replaceChildren(statusBox('error', 'Amounts are numbers such as 19.99.'));
        input.focus();
        return;
      }
      if (c !== null) p.set(name, String(c));
    }
    if (from.value) p.set('created_from', from.value);
    if (to.value) p.set('created_to', to.value);
    location.hash = hashFor(['activity', 'transactions'], p);
  });
  view.append(form);

  const panel = h('section', { class: 'panel', 'aria-labelledby': 'transactions-title', 'data-testid': 'section-transactions' },
    h('div', { class: 'panel-head' }, h('h2', { id: 'transactions-title' }, 'Transactions'),
      exportButton('transactions', [...filters].length ? 'the filtered transactions' : 'transactions', filters)));
  let data;
  try {
    data = await api(`/dashboard/transactions?${query}`);
  } catch (e) {
    panel.append(errorBox(e));
    return view.append(panel);
  }
  const { list, meta } = listOf(data);
  if (!list.length) {
    panel.append(h('p', { class: 'empty' }, [...filters].length ? 'No transaction matches these filters.' : 'No transactions yet.'));
  } else {
    panel.append(dataTable(list, [
      { key: 'created_at', label: 'Date' },
      { key: 'amount', label: 'Amount', num: true, render: (t) => money(Math.max(t.amount_authorized, t.amount_failed)) },
      { key: 'status', label: 'Status', render: chargeState },
      { key: 'customer_name', label: 'Customer', render: customerOf },
      { key: 'customer_email', label: 'Email', render: (t) => t.customer_email ?? '—' },
      { key: 'card_number', label: 'Payment', render: paymentOf },
      { key: 'description', label: 'Description' },
      { key: 'id', label: 'Transaction', render: (t) => txnLink(t.id) },
    ], { caption: 'Transactions, newest first', testid: 'transactions-table' }));
  }
  panel.append(pager(meta, list.length, (o) => {
    const p = new URLSearchParams(params);
    p.set('offset', String(o));
    location.hash = hashFor(['activity', 'transactions'], p);
  }) ?? '');
  view.append(panel);
}

/** The customer's name (the dashboard API's customer_name) and, for a stored customer, its id. @param {any} t a listed transaction */
function customerOf(t) {
  if (!t.customer_name && !t.customer_id) return '—';
  return h('span', {}, t.customer_name ?? '', t.customer_name && t.customer_id ? h('br') : null,
    t.customer_id ? h('code', { class: 'hint' }, t.customer_id) : null);
}

/** "visa ****4242" or "Bank account ****6789". @param {any} t a transaction */
export function paymentOf(t) {
  return `${t.payment_method === 'bank_account' ? 'Bank account' : (t.card_type ?? 'Card')} ${t.card_number ?? ''}`.trim();
}
