// @ts-check
// Home: the last day, week and month at a glance (GET /dashboard/summary, grouped by the server in
// SQL), a chart of charges per day with the declines, and the newest events. The chart is uPlot
// (served from the gateway); the same numbers are in a table for screen readers and keyboards.
import { api } from '../api.js';
import { h, pageHead } from '../dom.js';
import { money, plural, statusWord, when } from '../format.js';
import { hashFor } from '../nav.js';
import { overview } from '../state.js';
import { dataTable } from '../tables.js';
import { drawChart } from './chart.js';

// The answer's types come from the OpenAPI document (api-types.d.ts; npm run dashboard:types).
/** @typedef {import('../api-types').Answer<'/dashboard/summary'>} Summary */
/** @typedef {Summary['totals']['period']} Totals */
/** @typedef {Summary['series'][number]} Day */
/** @typedef {Summary['recent_events'][number]} GatewayEvent */

/** The periods: their id (in the location), label and UTC days (the chart and its table show as many). */
const PERIODS = /** @type {const} */ ([['today', 'Today', 1], ['last_7_days', '7 days', 7], ['last_30_days', '30 days', 30]]);

/** @type {import('../router.js').Page} */
export async function renderHome(view, _segs, params, alive) {
  view.append(...pageHead('Home', `Your ${overview().env} payments at a glance. Days are UTC days${overview().env === 'test' ? ' of the test clock' : ''}.`));
  const period = PERIODS.find(([id]) => id === params.get('period')) ?? PERIODS[1];
  /** @type {Summary} */
  const summary = await api(`/dashboard/summary?days=${period[2]}`);
  if (!alive()) return;
  view.append(totalsPanel(summary, period[0]), chartPanel(summary.series, period[1]), eventsPanel(summary.recent_events));
  const box = /** @type {HTMLElement} */ (view.querySelector('[data-chart]'));
  drawChart(box, summary.series).catch((e) => {
    // The numbers stay readable in the caption and the table.
    box.replaceChildren(h('p', { class: 'hint' }, `The chart could not be drawn (${e instanceof Error ? e.message : e}); the table below has its numbers.`));
  });
}

/** @param {Summary} summary @param {string} chosen */
function totalsPanel(summary, chosen) {
  const t = summary.totals.period;
  const tabs = h('div', { class: 'period', role: 'group', 'aria-label': 'Period' }, PERIODS.map(([id, label]) =>
    h('a', { class: 'button small secondary', href: hashFor(['home'], new URLSearchParams({ period: id })), 'aria-current': id === chosen ? 'true' : null }, label)));
  /** @param {string} label @param {string} value @param {string} [note] @param {string} [tone] */
  const stat = (label, value, note, tone) => h('div', { class: `stat ${tone ?? ''}`, 'data-testid': `stat-${label.toLowerCase().replace(/ /g, '-')}` },
    h('dt', {}, label), h('dd', {}, h('strong', {}, value), note ? h('span', { class: 'hint' }, note) : null));
  return h('section', { class: 'panel', 'aria-labelledby': 'totals-title', 'data-testid': 'totals' },
    h('div', { class: 'panel-head' }, h('h2', { id: 'totals-title' }, `${PERIODS.find(([id]) => id === chosen)?.[1]}`), tabs),
    h('dl', { class: 'stats' },
      stat('Gross volume', money(t.gross_volume), 'settled by successful charges'),
      stat('Successful', String(t.successful), 'charges'),
      stat('Declined', String(t.declined), 'charges declined or returned', t.declined ? 'bad' : ''),
      stat('Refunds', money(t.refunded), plural(t.refunds, 'refund')),
      stat('New customers', String(t.new_customers))));
}

/** @param {Day[]} series the chosen period's days @param {string} label the period's name */
function chartPanel(series, label) {
  const sum = (/** @type {keyof Totals} */ k) => series.reduce((n, d) => n + d[k], 0);
  const busiest = series.reduce((a, d) => (d.gross_volume > a.gross_volume ? d : a), series[0]);
  const text = `${series.length === 1 ? 'Today' : `Over the last ${series.length} days`}: ${money(sum('gross_volume'))} gross volume, ${plural(sum('successful'), 'successful charge')}, `
    + `${plural(sum('declined'), 'declined charge')}, ${money(sum('refunded'))} refunded.`
    + (busiest && busiest.gross_volume > 0 ? ` The busiest day was ${busiest.day} (${money(busiest.gross_volume)}).` : '');
  const table = dataTable([...series].reverse(), [
    { key: 'day', label: 'Day' },
    { key: 'gross_volume', label: 'Gross volume', num: true, render: (d) => money(d.gross_volume) },
    { key: 'successful', label: 'Successful', num: true },
    { key: 'declined', label: 'Declined', num: true },
    { key: 'refunded', label: 'Refunded', num: true, render: (d) => money(d.refunded) },
    { key: 'new_customers', label: 'New customers', num: true },
  ], { caption: `Per day, newest first (${label.toLowerCase()})`, testid: 'chart-table' });
  return h('section', { class: 'panel', 'aria-labelledby': 'chart-title', 'data-testid': 'chart' },
    h('h2', { id: 'chart-title' }, `Charges per day · ${label}`),
    h('figure', { class: 'chart' },
      h('div', { 'data-chart': '', 'aria-hidden': 'true' }),
      h('figcaption', { id: 'chart-summary', 'data-testid': 'chart-summary' }, text)),
    h('details', {}, h('summary', {}, 'The chart as a table'), table));
}

/** @param {GatewayEvent[]} events */
function eventsPanel(events) {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'events-title', 'data-testid': 'recent-events' }, h('h2', { id: 'events-title' }, 'Latest events'));
  if (!events.length) {
    panel.append(h('p', { class: 'empty' }, 'No events yet.'));
    return panel;
  }
  panel.append(h('ol', { class: 'events' }, events.slice(0, 8).map((e) => h('li', {},
    h('span', { class: 'event-type' }, statusWord(e.type.replace(/[._]/g, ' '))), ' ',
    eventLink(e), ' ',
    h('span', { class: 'hint' }, when(e.created_at))))));
  return panel;
}

/** What the event is about, linked when the dashboard has a page for it. @param {GatewayEvent} e */
function eventLink(e) {
  const d = e.data ?? {};
  // A charge's amount is what was asked for: authorized, or failed when declined.
  const amounts = [d.amount_authorized, d.amount_failed, d.amount_settled, d.amount].filter((x) => typeof x === 'number');
  const amount = /refund/.test(e.type) && typeof d.amount_refunded === 'number' ? `${money(d.amount_refunded)} refunded in all`
    : amounts.length ? money(Math.max(...amounts)) : '';
  if (e.resource === 'transaction' && d.id) {
    return h('a', { href: hashFor(['activity', 'transactions', String(d.id)]) }, amount || 'transaction');
  }
  return h('span', {}, [amount, d.email ?? d.name ?? ''].filter(Boolean).join(' · '));
}
