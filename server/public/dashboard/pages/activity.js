// @ts-check
// Activity: what the gateway did, one section per resource. A section whose API answers 404
// NOTFOUND (this version lacks it) shows a "not available" state instead of an error.
import { api, isUnavailable, listOf } from '../api.js';
import { errorBox, h, pageHead, showDialog, unavailableSection } from '../dom.js';
import { display } from '../format.js';
import { hashFor, txnLink } from '../nav.js';
import { overview } from '../state.js';
import { dataTable, methodsSummary, pager, presentCustomer, renderRecord, statusPill } from '../tables.js';
import { exportButton } from './export.js';
import { renderTransaction } from './transaction.js';
import { renderTransactions } from './transactions.js';

const PAGE_SIZE = 20;

/**
 * @typedef {object} Section
 * @property {string} id
 * @property {string} title
 * @property {string} [path] the API list it reads
 * @property {string} [what] what the "not available" state names
 * @property {import('../tables.js').Column[]} [columns]
 * @property {(row: any) => any} [present] the row as the page shows it
 * @property {'customers' | 'invoices'} [exportAs] the export endpoint's resource, when there is one
 */


/** @type {Section[]} */
const SECTIONS = [
  { id: 'transactions', title: 'Transactions' },
  {
    id: 'customers', title: 'Customers', path: '/customers', what: 'customer', present: presentCustomer, exportAs: 'customers',
    columns: [{ key: 'id', label: 'Customer' }, { key: 'first_name', label: 'First name' }, { key: 'last_name', label: 'Last name' },
      { key: 'company', label: 'Company' }, { key: 'email', label: 'Email' },
      { key: 'methods', label: 'Payment methods', render: (c) => methodsSummary(c.methods) }, { key: 'created_at', label: 'Created' }],
  },
  {
    id: 'subscriptions', title: 'Subscriptions', path: '/subscriptions', what: 'subscription',
    columns: [{ key: 'id', label: 'Subscription' }, { key: 'plan_id', label: 'Plan' }, { key: 'customer_id', label: 'Customer' },
      { key: 'status', label: 'Status' }, { key: 'amount', label: 'Amount', num: true }, { key: 'frequency', label: 'Frequency' },
      { key: 'billings_count', label: 'Billings', num: true }, { key: 'next_billing', label: 'Next billing' },
      { key: 'last_billing', label: 'Last billing', render: (s) => (s.last_billing ? statusPill(s.last_billing.status) : '—') },
      { key: 'created_at', label: 'Created' }],
  },
  {
    id: 'billings', title: 'Billings', path: '/billings', what: 'billing list',
    columns: [{ key: 'id', label: 'Billing' }, { key: 'subscription_id', label: 'Subscription' }, { key: 'customer_display_name', label: 'Customer' },
      { key: 'amount', label: 'Amount', num: true }, { key: 'status', label: 'Status' }, { key: 'transaction_status', label: 'Charge' },
      { key: 'transaction_id', label: 'Transaction', render: (b) => txnLink(b.transaction_id) }, { key: 'created_at', label: 'Created' }],
  },
  {
    id: 'scheduled', title: 'Scheduled transactions', path: '/scheduled_transactions', what: 'scheduled transaction',
    columns: [{ key: 'id', label: 'Scheduled transaction' }, { key: 'status', label: 'Status' }, { key: 'bill_on', label: 'Bill on' },
      { key: 'amount', label: 'Amount', num: true }, { key: 'customer_id', label: 'Customer' },
      { key: 'transaction_id', label: 'Transaction', render: (s) => txnLink(s.transaction_id) }],
  },
  {
    id: 'invoices', title: 'Invoices', path: '/invoices', what: 'invoice', exportAs: 'invoices',
    columns: [{ key: 'id', label: 'Invoice' }, { key: 'status', label: 'Status' }, { key: 'customer_email', label: 'Customer email' },
      { key: 'amount', label: 'Amount', num: true }, { key: 'amount_paid', label: 'Paid', num: true }, { key: 'balance', label: 'Balance', num: true },
      { key: 'due_date', label: 'Due' }, { key: 'created_at', label: 'Created' }],
  },
  {
    id: 'deliveries', title: 'Webhook deliveries', path: '/webhooks/deliveries', what: 'webhook delivery',
    columns: [{ key: 'id', label: 'Delivery' }, { key: 'event_type', label: 'Event' }, { key: 'mode', label: 'Mode' }, { key: 'target', label: 'Target' },
      { key: 'status', label: 'Status' },
      { key: 'attempts', label: 'Attempts', num: true, render: (d) => (Array.isArray(d.attempts) ? d.attempts.length : display(d.attempt_count ?? d.attempts)) },
      { key: 'last_status_code', label: 'Last answer', num: true }, { key: 'created_at', label: 'Created' }],
  },
  {
    id: 'outbox', title: 'Email and SMS', path: '/outbox', what: 'outbox',
    columns: [{ key: 'id', label: 'Message' }, { key: 'kind', label: 'Kind' }, { key: 'to', label: 'To' }, { key: 'subject', label: 'Subject' },
      { key: 'status', label: 'Status' }, { key: 'attempts', label: 'Attempts', num: true }, { key: 'created_at', label: 'Queued' }],
  },
];

/** @type {import('../router.js').Page} */
export async function renderActivity(view, segs, params, alive) {
  const section = SECTIONS.find((s) => s.id === segs[0]) ?? SECTIONS[0];
  view.append(...pageHead('Activity', `What the gateway did in ${overview().env} mode.`));
  view.append(h('nav', { class: 'tabs', 'aria-label': 'Activity sections' }, h('ul', {}, SECTIONS.map((s) =>
    h('li', {}, h('a', { href: hashFor(['activity', s.id]), 'aria-current': s.id === section.id ? 'page' : null }, s.title))))));
  if (section.id === 'transactions') {
    if (segs[1]) return renderTransaction(view, segs[1], alive);
    return renderTransactions(view, params);
  }
  return renderList(view, section, params);
}

/** @param {HTMLElement} view @param {Section} section @param {URLSearchParams} params */
async function renderList(view, section, params) {
  const offset = Number(params.get('offset') ?? 0) || 0;
  const panel = h('section', { class: 'panel', 'aria-labelledby': `${section.id}-title`, 'data-testid': `section-${section.id}` },
    h('div', { class: 'panel-head' }, h('h2', { id: `${section.id}-title` }, section.title),
      section.exportAs ? exportButton(section.exportAs, section.title.toLowerCase(), new URLSearchParams()) : null));
  let data;
  try {
    data = await api(`${section.path}?limit=${PAGE_SIZE}&offset=${offset}`);
  } catch (e) {
    if (isUnavailable(e)) return view.append(unavailableSection(section.title, section.what ?? section.title));
    panel.append(errorBox(e));
    return view.append(panel);
  }
  const present = section.present ?? ((/** @type {any} */ r) => r);
  const list = listOf(data).list.map(present);
  const { meta } = listOf(data);
  if (!list.length) {
    panel.append(h('p', { class: 'empty' }, `No ${section.title.toLowerCase()} yet.`));
  } else {
    let cols = (section.columns ?? []).filter((c) => (c.render && c.key === 'methods' ? true : list.some((r) => r[c.key] !== undefined)));
    cols = cols.filter((c, i) => cols.findIndex((d) => d.label === c.label) === i); // one "Event" column
    if (!cols.length) cols = Object.keys(list[0]).filter((k) => typeof list[0][k] !== 'object').slice(0, 6).map((k) => ({ key: k, label: k }));
    cols.push({
      key: '', label: 'Details',
      render: (row) => h('button', { type: 'button', class: 'small', 'aria-label': `Details of ${section.title.toLowerCase()} ${row.id ?? ''}`.trim(),
        onclick: () => showDialog(`${section.title}: ${row.id ?? ''}`, renderRecord(row)) }, 'Details'),
    });
    panel.append(dataTable(list, cols, { caption: `${section.title}, newest first`, testid: `${section.id}-table` }));
  }
  panel.append(pager(meta, list.length, (o) => {
    const p = new URLSearchParams(params);
    p.set('offset', String(o));
    location.hash = hashFor(['activity', section.id], p);
  }) ?? '');
  view.append(panel);
}
