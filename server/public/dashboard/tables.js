// @ts-check
// Records and lists on the page: status pills, label/value lists, tables and the pager.
import { h } from './dom.js';
import { display, money, statusTone, statusWord, when } from './format.js';

/** @typedef {import('./dom.js').Child} Child */
/** @typedef {{ key: string, label: string, render?: (row: any) => Child, num?: boolean }} Column */

/**
 * A status as a word in a coloured pill; `label` overrides the word.
 * @param {unknown} status
 * @param {string} [label]
 */
export function statusPill(status, label) {
  if (status === null || status === undefined || status === '') return '—';
  return h('span', { class: `pill ${statusTone(status)}`, 'data-code': String(status) }, label ?? statusWord(status));
}

/**
 * A charge's state, the same in the list, its page and the search: its status pill, then
 * " · partly refunded $5.00" while part of it is refunded; a "refunded" pill alone once refunded whole.
 * @param {{ status: unknown, refunded?: boolean, amount_refunded?: number }} t
 * @returns {Child}
 */
export function chargeState(t) {
  if (t.refunded) return h('span', { class: 'charge-state' }, statusPill('refunded'));
  return h('span', { class: 'charge-state' }, statusPill(t.status),
    t.amount_refunded ? h('span', { class: 'hint' }, ` · partly refunded ${money(t.amount_refunded)}`) : null);
}

const ID_KEYS = /(^id$|_id$)/;
const TIME_KEYS = /(_at$|^bill_on$|^next_billing$|^date$|^due_date$)/;
const MONEY_KEYS = /(^amount|amount$|^total|_total$|^balance)/;
const STATUS_KEYS = /(^status$|_status$|^csc_check$|^avs_address_check$)/;

/** @param {string} key @param {unknown} v @returns {Child} */
export function renderValue(key, v) {
  if (v !== null && v !== undefined && v !== '') {
    if (STATUS_KEYS.test(key)) return statusPill(v);
    if (TIME_KEYS.test(key)) return when(v);
    if (MONEY_KEYS.test(key) && /^-?\d+$/.test(String(v))) return money(v);
    if (ID_KEYS.test(key)) return h('code', {}, String(v));
  }
  return display(v);
}

/**
 * Any record as label/value pairs; arrays of objects become tables (payment methods, attempts, refunds).
 * @param {Record<string, any>} obj
 * @returns {HTMLDListElement}
 */
export function renderRecord(obj) {
  const dl = h('dl', { class: 'facts' });
  for (const [k, v] of Object.entries(obj ?? {})) {
    /** @type {Child} */
    let dd;
    if (Array.isArray(v) && v.length && v.every((x) => x && typeof x === 'object' && !Array.isArray(x))) dd = autoTable(v, k);
    else if (Array.isArray(v)) dd = v.length ? v.map(display).join(', ') : 'none';
    else if (v && typeof v === 'object') dd = Object.keys(v).length ? renderRecord(v) : 'none';
    else dd = renderValue(k, v);
    dl.append(h('dt', {}, k), h('dd', {}, dd));
  }
  return dl;
}

/**
 * A table with a column for each scalar field of the rows (nested arrays shown as a count).
 * @param {Record<string, any>[]} rows
 * @param {string} caption
 */
export function autoTable(rows, caption) {
  /** @type {string[]} */
  const keys = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k) && keys.length < 8 && typeof r[k] !== 'object') keys.push(k);
  return dataTable(rows, keys.map((k) => ({ key: k, label: k })), { caption });
}

/**
 * @param {any[]} rows
 * @param {Column[]} columns
 * @param {{ caption?: string, testid?: string }} [options]
 */
export function dataTable(rows, columns, { caption, testid } = {}) {
  const table = h('table', { class: 'table', 'data-testid': testid });
  if (caption) table.append(h('caption', {}, caption));
  table.append(h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : null }, c.label)))));
  const body = h('tbody');
  for (const row of rows) {
    body.append(h('tr', {}, columns.map((c) => h('td', { 'data-label': c.label, class: c.num ? 'num' : null },
      c.render ? c.render(row) : renderValue(c.key, row[c.key])))));
  }
  table.append(body);
  return table;
}

/**
 * Previous/next page buttons under a list.
 * @param {{ limit: number, offset: number, total_results: number } | null} meta
 * @param {number} count rows on this page
 * @param {(offset: number) => void} go
 */
export function pager(meta, count, go) {
  if (!meta) return null;
  const { limit, offset, total_results: total } = meta;
  const first = total === 0 ? 0 : offset + 1;
  const nav = h('nav', { class: 'pager', 'aria-label': 'Pages' }, h('p', {}, `${first}–${offset + count} of ${total}`));
  if (offset > 0) nav.append(h('button', { type: 'button', class: 'secondary small', onclick: () => go(Math.max(0, offset - limit)) }, 'Previous page'));
  if (offset + count < total) nav.append(h('button', { type: 'button', class: 'secondary small', onclick: () => go(offset + limit) }, 'Next page'));
  return nav;
}

/**
 * A payment method holding no card or bank details: what a customer created without payment data
 * lists (spec 2.4), not a method anyone could charge.
 * @param {any} m
 */
export const isPlaceholder = (m) => !(m && (m.method_type === 'bank_account' ? m.bank_account_number_last_4 : m.last_4));

/** The real methods of a list, e.g. "visa 4242, checking 6789"; "none" without any. @param {unknown} methods */
export function methodsSummary(methods) {
  const real = Array.isArray(methods) ? methods.filter((m) => !isPlaceholder(m)) : [];
  if (!real.length) return 'none';
  return real.map((m) => m.method_type === 'bank_account'
    ? `${m.bank_account_type ?? 'bank account'} ${m.bank_account_number_last_4}`
    : `${m.card_type ?? 'card'} ${m.last_4}`).join(', ');
}

/** A customer's fields copied from its default method (spec 2.4). */
const DEFAULT_METHOD_FIELDS = ['card_owner_name', 'card_type', 'last_4', 'card_exp_month', 'card_exp_year', 'bank_account_number_last_4',
  'bank_routing_number', 'bank_account_holder_first_name', 'bank_account_holder_last_name', 'bank_account_type'];

/**
 * A customer as the page shows it: its real methods only, and without the default method's empty
 * fields (card type "other" and no number) when that default is a placeholder.
 * @param {any} c
 */
export function presentCustomer(c) {
  const out = { ...c };
  if (Array.isArray(c.methods)) out.methods = c.methods.filter((/** @type {any} */ m) => !isPlaceholder(m));
  if (!c.last_4 && !c.bank_account_number_last_4) {
    for (const k of DEFAULT_METHOD_FIELDS) delete out[k];
    if ('default_method_id' in out) out.default_method_id = null;
  }
  return out;
}
