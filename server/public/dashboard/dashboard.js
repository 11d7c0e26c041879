// Tessera merchant dashboard: a small single-page app over the JSON API, no framework, no build.
// The private key the merchant signs in with lives in sessionStorage only (this tab; never
// localStorage, never a cookie) and goes out as HTTP Basic, exactly like a merchant's server.
// Every value from the API reaches the page through textContent or an attribute, never as HTML.

const KEY_STORE = 'tessera.dashboard.key';
const PRIVATE_KEY = /^(test|live)_sk_[0-9a-f]{55}$/;
const PAGE_SIZE = 20;

const $ = (id) => document.getElementById(id);
const state = { key: sessionStorage.getItem(KEY_STORE), overview: null, renderSeq: 0 };

// ---------------------------------------------------------------------------------------------
// API

class ApiError extends Error {
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** An endpoint this gateway version does not have: the "not available" state, never an error. */
const isUnavailable = (err) => err instanceof ApiError && err.status === 404 && err.code === 'NOTFOUND';

async function api(path, { method = 'GET', body, key = state.key } = {}) {
  const headers = { accept: 'application/json', authorization: 'Basic ' + btoa(`${key}:`) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch('/api/v1' + path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store', credentials: 'omit',
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The gateway did not answer. Is it running?');
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const e = (data && data.errors && data.errors[0]) || {};
    const err = new ApiError(res.status, String(e.code ?? res.status), e.message ?? res.statusText, data);
    if (res.status === 401 && key === state.key && state.key) expireSession();
    throw err;
  }
  return data;
}

/** Lists may come as {list, meta}, {data}, or a bare array, depending on the endpoint. */
function listOf(data) {
  if (Array.isArray(data)) return { list: data, meta: null };
  if (data && Array.isArray(data.list)) return { list: data.list, meta: data.meta ?? null };
  if (data && Array.isArray(data.data)) return { list: data.data, meta: data.meta ?? null };
  return { list: [], meta: null };
}

// ---------------------------------------------------------------------------------------------
// DOM helpers

/** h('p', {class: 'x'}, 'text', child): attributes, `on*` listeners, children (strings become text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'value') el.value = v;
    else if (k === 'checked') el.checked = !!v;
    else if (k === 'selected') el.selected = !!v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

let uid = 0;
const nextId = (p) => `${p}-${++uid}`;

function announce(text) {
  const el = $('announce');
  el.textContent = '';
  setTimeout(() => (el.textContent = text), 30);
}

function statusBox(kind, ...content) {
  return h('p', { class: `status is-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, ...content);
}

function errorBox(err) {
  if (err instanceof ApiError) return statusBox('error', h('strong', {}, err.code), ' ', err.message);
  return statusBox('error', String(err && err.message ? err.message : err));
}

function unavailableSection(title, what) {
  return h('section', { class: 'panel unavailable', 'data-unavailable': 'true', 'aria-label': title },
    h('h2', {}, title),
    h('p', {}, `Not available in this version: this gateway has no ${what} API yet (the request answered 404).`));
}

function field(label, input, hint) {
  const id = input.id || (input.id = nextId('f'));
  const kids = [h('label', { for: id }, label), input];
  if (hint) {
    const hid = `${id}-hint`;
    input.setAttribute('aria-describedby', hid);
    kids.push(h('p', { id: hid, class: 'hint' }, hint));
  }
  return h('div', { class: 'field' }, kids);
}

function checkbox(label, name, checked, hint) {
  const id = nextId('c');
  const input = h('input', { type: 'checkbox', id, name, checked });
  const text = [h('label', { for: id }, label)];
  if (hint) {
    input.setAttribute('aria-describedby', `${id}-hint`);
    text.push(h('p', { id: `${id}-hint`, class: 'hint' }, hint));
  }
  return h('div', { class: 'check' }, input, h('div', {}, text));
}

// ---------------------------------------------------------------------------------------------
// Formatting

const money = (cents) => {
  if (cents === null || cents === undefined || cents === '') return '—';
  const n = Number(cents);
  if (!Number.isFinite(n)) return String(cents);
  return (n / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
};

/** Any of the API's time formats (ISO with Z, `+00:00`, `YYYY-MM-DD HH:MM:SS`), shown in UTC. */
function when(v) {
  if (!v) return '—';
  const s = String(v);
  const t = Date.parse(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(s) && !/[zZ]|[+-]\d{2}:?\d{2}$/.test(s) ? s.replace(' ', 'T') + 'Z' : s);
  if (Number.isNaN(t)) return s;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  return new Date(t).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

function duration(ms) {
  const m = Math.round(ms / 60000);
  if (m < 60) return `${m} min`;
  const hrs = Math.floor(m / 60);
  if (hrs < 48) return `${hrs} h ${m % 60} min`;
  return `${Math.floor(hrs / 24)} days ${hrs % 24} h`;
}

const centsFrom = (text) => {
  const s = String(text).trim();
  if (s === '') return null;
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return NaN;
  return Math.round(Number(s) * 100);
};

function statusPill(status) {
  if (status === null || status === undefined || status === '') return '—';
  const s = String(status);
  const l = s.toLowerCase();
  const kind = ['settled', 'success', 'sent', 'paid', 'active', 'delivered', 'succeeded', 'billed'].includes(l) ? 'ok'
    : ['declined', 'failed', 'returned', 'expired', 'error', 'cancelled', 'canceled'].includes(l) ? 'bad'
      : ['pending', 'expiring', 'scheduled', 'retrying', 'unpaid'].includes(l) ? 'warn' : '';
  return h('span', { class: `pill ${kind}` }, s);
}

function display(v) {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return `${v.length}`;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const ID_KEYS = /(^id$|_id$)/;
const TIME_KEYS = /(_at$|^bill_on$|^next_billing$|^date$|^due_date$)/;
const MONEY_KEYS = /(^amount|amount$|^total|_total$|^balance)/;

function renderValue(key, v) {
  if (v !== null && v !== undefined && v !== '') {
    if (key === 'status' || key === 'transaction_status') return statusPill(v);
    if (TIME_KEYS.test(key)) return when(v);
    if (MONEY_KEYS.test(key) && /^-?\d+$/.test(String(v))) return money(v);
    if (ID_KEYS.test(key)) return h('code', {}, String(v));
  }
  return display(v);
}

/** Any record as label/value pairs; arrays of objects become tables (payment methods, attempts, refunds). */
function renderRecord(obj) {
  const dl = h('dl', { class: 'facts' });
  for (const [k, v] of Object.entries(obj ?? {})) {
    let dd;
    if (Array.isArray(v) && v.length && v.every((x) => x && typeof x === 'object' && !Array.isArray(x))) dd = autoTable(v, k);
    else if (Array.isArray(v)) dd = v.length ? v.map(display).join(', ') : 'none';
    else if (v && typeof v === 'object') dd = Object.keys(v).length ? renderRecord(v) : 'none';
    else dd = renderValue(k, v);
    dl.append(h('dt', {}, k), h('dd', {}, dd));
  }
  return dl;
}

/** A table with a column for each scalar field of the rows (nested arrays shown as a count). */
function autoTable(rows, caption) {
  const keys = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k) && keys.length < 8 && typeof r[k] !== 'object') keys.push(k);
  return dataTable(rows, keys.map((k) => ({ key: k, label: k })), { caption });
}

/** columns: [{key, label, render?(row), num?}] */
function dataTable(rows, columns, { caption, testid } = {}) {
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

function pager(meta, count, go) {
  if (!meta) return null;
  const { limit, offset, total_results: total } = meta;
  const first = total === 0 ? 0 : offset + 1;
  const nav = h('nav', { class: 'pager', 'aria-label': 'Pages' },
    h('p', {}, `${first}–${offset + count} of ${total}`));
  if (offset > 0) nav.append(h('button', { type: 'button', class: 'secondary small', onclick: () => go(Math.max(0, offset - limit)) }, 'Previous page'));
  if (offset + count < total) nav.append(h('button', { type: 'button', class: 'secondary small', onclick: () => go(offset + limit) }, 'Next page'));
  return nav;
}

async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    input.select();
    document.execCommand('copy'); // plain-http hosts have no clipboard API
  }
  announce('Copied to the clipboard');
}

function showDialog(title, content) {
  const titleId = nextId('dlg');
  const close = h('button', { type: 'button', class: 'secondary small', onclick: () => dlg.close() }, 'Close');
  const dlg = h('dialog', { 'aria-labelledby': titleId },
    h('div', { class: 'dialog-head' }, h('h2', { id: titleId }, title), close), content);
  dlg.addEventListener('close', () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  close.focus();
}

// ---------------------------------------------------------------------------------------------
// Session

function setSession(key) {
  state.key = key;
  sessionStorage.setItem(KEY_STORE, key);
}

function signOut(message) {
  state.key = null;
  state.overview = null;
  sessionStorage.removeItem(KEY_STORE);
  for (const d of document.querySelectorAll('dialog')) d.remove();
  $('view').replaceChildren();
  showSignIn(message);
}

function expireSession() {
  signOut('Your key is no longer valid (expired or replaced). Sign in with a current private key.');
}

function showSignIn(message) {
  $('nav').hidden = true;
  $('account').hidden = true;
  $('env-badge').hidden = true;
  $('sign-in').hidden = false;
  const err = $('sign-in-error');
  err.hidden = !message;
  err.textContent = message ?? '';
  document.title = 'Tessera · sign in';
  $('sign-in-key').value = '';
  $('sign-in-key').focus();
}

async function loadOverview() {
  state.overview = await api('/dashboard/overview');
  const o = state.overview;
  const badge = $('env-badge');
  badge.textContent = `${o.env} mode`;
  badge.className = o.env === 'live' ? 'badge live' : 'badge';
  badge.hidden = false;
  $('merchant-name').textContent = `${o.name || 'Merchant'} · ${o.merchant_id}`;
  return o;
}

async function signIn(event) {
  event.preventDefault();
  const input = $('sign-in-key');
  const key = input.value.trim();
  const err = $('sign-in-error');
  const fail = (msg) => {
    err.textContent = msg;
    err.hidden = false;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  };
  if (/^(test|live)_pk_/.test(key)) return fail('That is a public key. Sign in with the private key (…_sk_…): the dashboard reads your data.');
  if (!PRIVATE_KEY.test(key)) return fail('A private key is 63 characters: test_sk_ or live_sk_ followed by 55 hexadecimal characters.');
  try {
    await api('/dashboard/overview', { key });
  } catch (e) {
    return fail(e.status === 401 ? 'This key is unknown or has expired.' : `Sign-in failed: ${e.message}`);
  }
  input.removeAttribute('aria-invalid');
  input.value = '';
  setSession(key);
  await start({ focus: true });
}

async function start({ focus = false } = {}) {
  try {
    await loadOverview();
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 401)) signOut(`Could not load the dashboard: ${e.message}`);
    return;
  }
  $('sign-in').hidden = true;
  $('nav').hidden = false;
  $('account').hidden = false;
  if (!location.hash || location.hash === '#' || location.hash === '#/') history.replaceState(null, '', '#/activity');
  await route({ focus });
}

// ---------------------------------------------------------------------------------------------
// Router: #/section/sub/id?query

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [path, query = ''] = raw.split('?');
  const segs = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { segs, params: new URLSearchParams(query) };
}

function hashFor(segs, params) {
  const q = params && [...params].length ? `?${params}` : '';
  return `#/${segs.map(encodeURIComponent).join('/')}${q}`;
}

const PAGES = { activity: renderActivity, keys: renderKeys, tools: renderTools, settings: renderSettings };
const TITLES = { activity: 'Activity', keys: 'Keys', tools: 'Test tools', settings: 'Settings' };

async function route({ focus = true } = {}) {
  if (!state.key || !state.overview) return;
  const { segs, params } = parseHash();
  const section = PAGES[segs[0]] ? segs[0] : 'activity';
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.dataset.section === section) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  document.title = `Tessera · ${TITLES[section]}`;
  const seq = ++state.renderSeq;
  const view = h('div', { 'data-page': section });
  const alive = () => seq === state.renderSeq;
  try {
    await PAGES[section](view, segs.slice(1), params, alive);
  } catch (e) {
    if (!alive() || !state.key) return;
    view.append(errorBox(e));
  }
  if (!alive() || !state.key) return;
  // Which location the page on screen shows: lets tests (and assistive tech via aria-busy) know a
  // navigation has finished rendering.
  $('view').dataset.shows = location.hash;
  $('view').replaceChildren(view);
  if (focus) view.querySelector('h1')?.focus();
}

function pageHead(title, lede) {
  return [h('h1', { tabindex: '-1' }, title), lede ? h('p', { class: 'lede' }, lede) : null];
}

// ---------------------------------------------------------------------------------------------
// Keys

async function renderKeys(view) {
  const data = await api('/dashboard/keys');
  const o = state.overview;
  view.append(...pageHead('Keys', 'Key sets of both environments. A private key is shown once, when its set is generated; '
    + 'afterwards only its first and last characters. Generating a set expires the current keys of that environment now or in one hour.'));
  // A private key seen in a browser (the JSONP endpoint) is compromised: say so until its set expires.
  for (const s of [...data.test, ...data.live].filter((k) => k.private_key_exposed_at && k.status !== 'expired')) {
    view.append(h('div', { 'data-testid': 'key-exposed' }, statusBox('error', `The ${s.env} private key of ${s.key_set_id} was sent from a web page on `
      + `${when(s.private_key_exposed_at)}: treat it as compromised. Generate new ${s.env} keys expiring the old ones now, and keep private keys on your server.`)));
  }
  const reveal = h('div', { id: 'new-key-set' });
  view.append(reveal, h('div', { class: 'columns' }, keyColumn('test', data, o, reveal), keyColumn('live', data, o, reveal)));
}

function keyColumn(env, data, o, reveal) {
  const title = env === 'test' ? 'Test keys' : 'Live keys';
  const titleId = `keys-${env}-title`;
  const sets = data[env];
  const col = h('section', { class: 'panel', 'aria-labelledby': titleId, 'data-testid': `keys-${env}` }, h('h2', { id: titleId }, title));
  if (sets.length) {
    col.append(dataTable(sets, [
      { key: 'key_set_id', label: 'Key set', render: (s) => [h('code', { class: 'nowrap' }, s.key_set_id), h('div', { class: 'hint' }, when(s.created_at))] },
      { key: 'keys', label: 'Keys', render: (s) => h('div', {},
        h('div', {}, h('span', { class: 'visually-hidden' }, 'public '), h('code', { class: 'nowrap' }, s.public_key ?? '—')),
        h('div', {}, h('span', { class: 'visually-hidden' }, 'private '), h('code', { class: 'nowrap' }, s.private_key ?? '—'),
          s.private_key_exposed_at ? [' ', h('span', { class: 'pill bad' }, 'exposed')] : null)) },
      { key: 'status', label: 'Status', render: (s) => [statusPill(s.status), s.expires_at ? h('div', { class: 'hint' }, `${s.status === 'expired' ? 'expired' : 'until'} ${when(s.expires_at)}`) : null] },
    ], { caption: `${sets.length} key set${sets.length === 1 ? '' : 's'}, newest first` }));
  } else {
    col.append(h('p', { class: 'empty' }, env === 'live' ? 'No live keys.' : 'No test keys.'));
  }

  if (env === 'live' && o.env === 'test') {
    col.append(h('p', { class: 'hint' }, data.live_enabled
      ? 'Live keys can be generated only when you are signed in with a live private key.'
      : ['Live mode is not activated for this merchant. The operator activates it by creating its first live keys: ',
        h('code', {}, `tessera keys create --merchant ${o.merchant_id} --env live`)]));
    return col;
  }

  const name = `expire-${env}`;
  const button = h('button', { type: 'submit' }, `Generate new ${env} keys`);
  const out = h('div');
  const form = h('form', { 'aria-label': `Generate new ${env} keys` },
    h('fieldset', { class: 'choice' },
      h('legend', {}, `When should the current ${env} keys expire?`),
      h('label', {}, h('input', { type: 'radio', name, value: '1h', checked: true }), 'In one hour'),
      h('label', {}, h('input', { type: 'radio', name, value: 'now' }), 'Now')),
    out, button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const expire = form.querySelector(`input[name="${name}"]:checked`).value;
    button.disabled = true;
    out.replaceChildren(statusBox('busy', 'Generating…'));
    try {
      const set = await api('/dashboard/keys', { method: 'POST', body: { env, expire_old: expire } });
      out.replaceChildren();
      // The key this tab signed in with is now the old one: continue with the new private key.
      const switched = env === o.env;
      if (switched) setSession(set.private_key);
      showNewKeySet(reveal, set, switched);
      // Refresh the lists underneath, keeping the one-time panel.
      const fresh = await api('/dashboard/keys');
      const columns = reveal.nextElementSibling;
      columns.replaceWith(h('div', { class: 'columns' }, keyColumn('test', fresh, o, reveal), keyColumn('live', fresh, o, reveal)));
    } catch (err) {
      out.replaceChildren(errorBox(err));
    } finally {
      button.disabled = false;
    }
  });
  col.append(form);
  return col;
}

function showNewKeySet(reveal, set, switched) {
  const titleId = nextId('reveal');
  const keyRow = (label, value, testid) => {
    const input = h('input', { type: 'text', class: 'mono', readonly: true, value, 'data-testid': testid, spellcheck: 'false', autocomplete: 'off' });
    const id = nextId('k');
    input.id = id;
    return h('div', { class: 'field' }, h('label', { for: id }, label),
      h('div', { class: 'copy-row' }, input,
        h('button', { type: 'button', class: 'secondary', 'aria-label': `Copy the ${label.toLowerCase()}`, onclick: () => copy(value, input) }, 'Copy')));
  };
  const panel = h('section', { class: 'panel reveal', 'aria-labelledby': titleId, tabindex: '-1', 'data-testid': 'new-key-set' },
    h('h2', { id: titleId }, `New ${set.env} key set ${set.key_set_id}`),
    statusBox('warn', 'Copy the private key now: it is shown only this once and cannot be displayed again.'),
    keyRow('New public key', set.public_key, 'new-public-key'),
    keyRow('New private key', set.private_key, 'new-private-key'),
    h('p', { class: 'hint' }, `The previous ${set.env} keys ${Date.parse(set.old_keys_expire_at) - Date.parse(set.created_at) > 0
      ? `stay valid until ${when(set.old_keys_expire_at)}` : 'have expired'}.`
      + (switched ? ' This dashboard now uses the new private key.' : '')),
    h('button', { type: 'button', class: 'secondary', onclick: () => { reveal.replaceChildren(); announce('The new keys are hidden'); } }, 'Done: hide the keys'));
  reveal.replaceChildren(panel);
  panel.focus();
}

// ---------------------------------------------------------------------------------------------
// Activity

/**
 * Sections of the Activity page. `path` is the API list it reads; a 404 NOTFOUND from it (the
 * endpoint does not exist in this version) shows a "not available" state instead of an error.
 */
const SECTIONS = [
  { id: 'transactions', title: 'Transactions' },
  {
    id: 'customers', title: 'Customers', path: '/customers', what: 'customer',
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
    id: 'invoices', title: 'Invoices', path: '/invoices', what: 'invoice',
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

function methodsSummary(methods) {
  if (!Array.isArray(methods) || !methods.length) return 'none';
  return methods.map((m) => [m.card_type ?? m.method_type ?? m.bank_account_type ?? '', m.last_4 ?? m.bank_account_number_last_4 ?? ''].join(' ').trim() || m.id).join(', ');
}

function txnLink(id) {
  if (!id) return '—';
  return h('a', { href: hashFor(['activity', 'transactions', id]) }, h('code', {}, String(id).slice(0, 10) + (String(id).length > 10 ? '…' : '')));
}

async function renderActivity(view, segs, params, alive) {
  const section = SECTIONS.find((s) => s.id === segs[0]) ?? SECTIONS[0];
  view.append(...pageHead('Activity', `What the gateway did in ${state.overview.env} mode.`));
  view.append(h('nav', { class: 'tabs', 'aria-label': 'Activity sections' }, h('ul', {}, SECTIONS.map((s) =>
    h('li', {}, h('a', { href: hashFor(['activity', s.id]), 'aria-current': s.id === section.id ? 'page' : null }, s.title))))));
  if (section.id === 'transactions') {
    if (segs[1]) return renderTransaction(view, segs[1], alive);
    return renderTransactions(view, params);
  }
  return renderList(view, section, params);
}

async function renderList(view, section, params) {
  const offset = Number(params.get('offset') ?? 0) || 0;
  const panel = h('section', { class: 'panel', 'aria-labelledby': `${section.id}-title`, 'data-testid': `section-${section.id}` },
    h('h2', { id: `${section.id}-title` }, section.title));
  let data;
  try {
    data = await api(`${section.path}?limit=${PAGE_SIZE}&offset=${offset}`);
  } catch (e) {
    if (isUnavailable(e)) return view.append(unavailableSection(section.title, section.what));
    panel.append(errorBox(e));
    return view.append(panel);
  }
  const { list, meta } = listOf(data);
  if (!list.length) {
    panel.append(h('p', { class: 'empty' }, `No ${section.title.toLowerCase()} yet.`));
  } else {
    let cols = section.columns.filter((c) => c.render && c.key === 'methods' ? true : list.some((r) => r[c.key] !== undefined));
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
  }));
  view.append(panel);
}

const TXN_STATUSES = ['SETTLED', 'DECLINED', 'RETURNED'];

async function renderTransactions(view, params) {
  const offset = Number(params.get('offset') ?? 0) || 0;
  const query = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
  for (const k of ['status', 'amount_min', 'amount_max', 'created_from', 'created_to']) if (params.get(k)) query.set(k, params.get(k));

  const amountInput = (name, label) => field(label, h('input', {
    type: 'text', inputmode: 'decimal', name, id: `filter-${name}`, autocomplete: 'off', placeholder: '0.00',
    value: params.get(name) ? (Number(params.get(name)) / 100).toFixed(2) : '',
  }));
  const status = h('select', { id: 'filter-status', name: 'status' },
    h('option', { value: '' }, 'Any status'), TXN_STATUSES.map((s) => h('option', { value: s, selected: params.get('status') === s }, s)));
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
      const c = centsFrom(form.elements[name].value);
      if (Number.isNaN(c)) {
        formMsg.replaceChildren(statusBox('error', 'Amounts are numbers such as 19.99.'));
        form.elements[name].focus();
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
    h('h2', { id: 'transactions-title' }, 'Transactions'));
  let data;
  try {
    data = await api(`/dashboard/transactions?${query}`);
  } catch (e) {
    panel.append(errorBox(e));
    return view.append(panel);
  }
  const { list, meta } = listOf(data);
  if (!list.length) {
    panel.append(h('p', { class: 'empty' }, [...query.keys()].length > 2 ? 'No transaction matches these filters.' : 'No transactions yet.'));
  } else {
    panel.append(dataTable(list, [
      { key: 'created_at', label: 'Date' },
      { key: 'amount', label: 'Amount', num: true, render: (t) => money(Math.max(t.amount_authorized, t.amount_failed)) },
      { key: 'status', label: 'Status', render: (t) => [statusPill(t.status), t.refunded ? ' ' : null, t.refunded ? statusPill('refunded') : t.amount_refunded ? h('span', { class: 'hint' }, ` ${money(t.amount_refunded)} refunded`) : null] },
      { key: 'card_number', label: 'Payment', render: (t) => `${t.card_type ?? (t.payment_method === 'bank_account' ? 'Bank account' : '')} ${t.card_number ?? ''}`.trim() || '—' },
      { key: 'description', label: 'Description' },
      { key: 'id', label: 'Transaction', render: (t) => txnLink(t.id) },
    ], { caption: 'Transactions, newest first', testid: 'transactions-table' }));
  }
  panel.append(pager(meta, list.length, (o) => {
    const p = new URLSearchParams(params);
    p.set('offset', String(o));
    location.hash = hashFor(['activity', 'transactions'], p);
  }));
  view.append(panel);
}

async function renderTransaction(view, id) {
  const t = await api(`/charge/${encodeURIComponent(id)}`);
  const back = h('p', {}, h('a', { href: hashFor(['activity', 'transactions']) }, '← All transactions'));
  const amount = Math.max(t.amount_authorized, t.amount_failed);
  const summary = h('section', { class: 'panel', 'aria-labelledby': 'txn-title', 'data-testid': 'transaction-detail' },
    h('h2', { id: 'txn-title' }, 'Transaction ', h('code', {}, t.id)),
    h('dl', { class: 'facts' },
      ...fact('Status', [statusPill(t.status), t.successful ? '' : ' not successful']),
      ...fact('Amount', money(amount)),
      ...fact('Settled', money(t.amount_settled)),
      ...fact('Refunded', money(t.amount_refunded)),
      ...(t.amount_failed ? fact('Failed', money(t.amount_failed)) : []),
      ...fact('Payment', `${t.payment_method === 'bank_account' ? 'Bank account' : t.card_type ?? 'Card'} ${t.card_number ?? ''}`),
      ...fact('Name', t.card_owner_name ?? t.account_holder_name ?? '—'),
      ...fact('Customer', t.customer_id ? h('code', {}, t.customer_id) : '—'),
      ...fact('Description', t.description ?? '—'),
      ...fact('Date', when(t.created_at)),
      ...fact('CVV check', t.csc_check ?? '—'),
      ...fact('ZIP check', t.avs_address_check ?? '—'),
      ...(t.error_code ? fact('Error', `${t.error_code}: ${t.error_message ?? ''}`) : []),
      ...fact('Reference', t.reference_number ?? '—'),
      ...fact('Source', t.source ?? '—'),
      ...(Object.keys(t.metadata ?? {}).length ? fact('Metadata', renderRecord(t.metadata)) : [])));

  const refunds = h('section', { class: 'panel', 'aria-labelledby': 'refunds-title', 'data-testid': 'refunds' }, h('h2', { id: 'refunds-title' }, 'Refunds'));
  refunds.append(t.refunds.length
    ? dataTable(t.refunds, [{ key: 'id', label: 'Refund' }, { key: 'amount', label: 'Amount', num: true }, { key: 'created_at', label: 'Date' }])
    : h('p', { class: 'empty' }, 'No refunds.'));
  const remaining = t.amount_settled - t.amount_refunded;
  if (t.successful && t.settled && remaining > 0) {
    const out = h('div');
    const input = h('input', { type: 'text', inputmode: 'decimal', id: 'refund-amount', autocomplete: 'off', placeholder: money(remaining) });
    const button = h('button', { type: 'submit', class: 'danger' }, 'Refund');
    const form = h('form', { 'aria-label': 'Refund this charge' },
      field('Refund amount', input, `Up to ${money(remaining)}. Empty refunds the whole remainder.`), out, button);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const cents = centsFrom(input.value);
      if (Number.isNaN(cents)) return out.replaceChildren(statusBox('error', 'The amount is a number such as 5.00.'));
      button.disabled = true;
      try {
        await api(`/charge/${encodeURIComponent(t.id)}/cancel`, { method: 'POST', body: cents === null ? {} : { amount: cents } });
        announce('Refunded');
        await route();
      } catch (err) {
        out.replaceChildren(errorBox(err));
        button.disabled = false;
      }
    });
    refunds.append(h('h3', {}, 'Refund'), form);
  }

  const receipt = h('section', { class: 'panel', 'aria-labelledby': 'receipt-title', 'data-testid': 'receipt' }, h('h2', { id: 'receipt-title' }, 'Receipt'));
  const receiptId = t.receipt && t.receipt.receipt_id;
  if (!receiptId) {
    receipt.append(h('p', { class: 'empty' }, t.receipt && t.receipt.due ? 'A receipt is due and being prepared.' : 'No receipt was sent for this charge.'));
  } else {
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
  }
  const raw = h('details', { class: 'panel' }, h('summary', {}, 'The transaction as the API returns it'), h('pre', {}, JSON.stringify(t, null, 2)));
  view.append(back, summary, h('div', { class: 'columns' }, refunds, receipt), raw);
}

function fact(label, value) {
  return [h('dt', {}, label), h('dd', {}, value)];
}

// ---------------------------------------------------------------------------------------------
// Test tools

async function renderTools(view, _segs, _params, alive) {
  const o = state.overview;
  view.append(...pageHead('Test tools', 'Move the test clock, look up test cards and run a checkout end to end.'));
  if (o.env !== 'test') {
    view.append(statusBox('warn', 'Test tools work in test mode. You are signed in with a live key: sign in with a test private key to use them.'));
  } else {
    view.append(clockPanel(o));
  }
  let cards = null;
  try {
    cards = await api('/dashboard/test-cards');
  } catch (e) {
    view.append(errorBox(e));
  }
  if (!alive()) return;
  if (o.env === 'test' && cards) view.append(checkoutPanel(o, cards));
  if (cards) view.append(cardsPanel(cards));
}

function clockPanel(o) {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'clock-title', 'data-testid': 'test-clock' }, h('h2', { id: 'clock-title' }, 'Test clock'));
  const now = h('p', { 'data-testid': 'clock-now' });
  const show = (ov) => {
    now.replaceChildren('Test time: ', h('strong', {}, when(ov.now)),
      ov.clock_offset_ms > 0 ? ` (${duration(ov.clock_offset_ms)} ahead of real time)` : ' (real time)');
  };
  show(o);
  const amount = h('input', { type: 'number', id: 'clock-amount', min: '1', step: '1', value: '1', inputmode: 'numeric' });
  const unit = h('select', { id: 'clock-unit' },
    h('option', { value: '3600' }, 'hours'), h('option', { value: '86400', selected: true }, 'days'));
  const out = h('div', { 'aria-live': 'polite' });
  const button = h('button', { type: 'submit' }, 'Advance the clock');
  const form = h('form', { 'aria-label': 'Advance the test clock' },
    h('div', { class: 'fields' }, field('Advance by', amount), field('Unit', unit)), out, button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const n = Number(amount.value);
    if (!Number.isInteger(n) || n < 1) return out.replaceChildren(statusBox('error', 'Enter a whole number of at least 1.'));
    const seconds = n * Number(unit.value);
    button.disabled = true;
    out.replaceChildren(statusBox('busy', 'Advancing…'));
    try {
      const res = await api('/test_helpers/clock/advance?wait=true', { method: 'POST', body: { seconds } });
      // The answer is the clock itself: no second request, which could meet a key lookup cached a moment earlier.
      state.overview.now = res.now;
      state.overview.clock_offset_ms = res.offset_ms;
      show(state.overview);
      out.replaceChildren(statusBox('ok', `Advanced by ${n} ${unit.selectedOptions[0].textContent}. Test time is now ${when(res.now)}.${summariseAdvance(res.ran)}`));
    } catch (err) {
      out.replaceChildren(isUnavailable(err)
        ? statusBox('warn', 'The test clock is not available in this version (POST /api/v1/test_helpers/clock/advance answered 404).')
        : errorBox(err));
    } finally {
      button.disabled = false;
    }
  });
  panel.append(now, form);
  return panel;
}

/** What the advance ran meanwhile ({billings: 2, failed_billings: 0, …}), in words; nothing when nothing ran. */
function summariseAdvance(ran) {
  if (!ran || typeof ran !== 'object') return '';
  const parts = Object.entries(ran).filter(([, v]) => typeof v === 'number' && v > 0).map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v}`);
  return parts.length ? ` Ran meanwhile: ${parts.join(', ')}.` : ' Nothing fell due meanwhile.';
}

const groupNumber = (n) => (n.length === 15 ? n.replace(/^(\d{4})(\d{6})(\d{5})$/, '$1 $2 $3') : n.length === 14 ? n.replace(/^(\d{4})(\d{6})(\d{4})$/, '$1 $2 $3') : n.replace(/(\d{4})(?=\d)/g, '$1 '));
const OUTCOMES = { approve: 'approved', decline: 'declined (99820)', cvv_fail: 'CVV fails (CPCVV2)', cvv_unsupported: 'CVV unsupported (CPCVV1)', zip_fail: 'ZIP fails (82004)' };

function cardsPanel(cards) {
  return h('section', { class: 'panel', 'aria-labelledby': 'cards-title', 'data-testid': 'test-cards' },
    h('h2', { id: 'cards-title' }, 'Test cards'),
    h('p', { class: 'hint' }, 'Test keys accept only these numbers. Any future expiry; any 3-digit CVV (4 for American Express). '
      + 'Card charges of 73 to 100 cents are declined (99820).'),
    dataTable(cards.list, [
      { key: 'number', label: 'Number', render: (c) => h('code', { class: 'nowrap' }, groupNumber(c.number)) },
      { key: 'brand', label: 'Brand' },
      { key: 'bin_type', label: 'Type', render: (c) => `${c.bin_type.toLowerCase()} · ${c.bin_level.toLowerCase()}` },
      { key: 'outcome', label: 'Outcome', render: (c) => statusPill(OUTCOMES[c.outcome] ?? c.outcome) },
      { key: 'note', label: 'Note' },
    ], { caption: `${cards.list.length} test cards` }),
    h('p', {}, 'Sample bank account: routing ', h('code', {}, cards.bank_account.routing_number), ', account ',
      h('code', {}, cards.bank_account.account_number), ' (a charge of 12 cents is returned: R01).'));
}

function checkoutPanel(o, cards) {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'checkout-title', 'data-testid': 'sample-checkout' },
    h('h2', { id: 'checkout-title' }, 'Sample checkout'),
    h('p', { class: 'hint' }, 'Tokenizes a test card with your test public key (POST /api/v1/tokens), then charges the token '
      + 'with the private key you signed in with (POST /api/v1/charge), like a checkout page and your server would.'));
  if (!o.test_public_key) {
    panel.append(statusBox('warn', 'This merchant has no usable test public key: generate test keys on the Keys page first.'));
    return panel;
  }
  const card = h('select', { id: 'checkout-card' }, cards.list.map((c) => h('option', { value: c.number }, `${groupNumber(c.number)} · ${c.note}`)));
  const amount = h('input', { type: 'text', id: 'checkout-amount', inputmode: 'decimal', value: '19.99', autocomplete: 'off' });
  const description = h('input', { type: 'text', id: 'checkout-description', value: 'Sample checkout from the dashboard', autocomplete: 'off' });
  const out = h('div', { 'aria-live': 'polite', 'data-testid': 'checkout-result' });
  const button = h('button', { type: 'submit' }, 'Run a sample checkout');
  const form = h('form', { 'aria-label': 'Run a sample checkout' },
    h('div', { class: 'fields' }, field('Test card', card), field('Amount', amount, 'e.g. 19.99; 0.73 to 1.00 is declined')),
    field('Description', description), out, button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const cents = centsFrom(amount.value);
    if (!cents) return out.replaceChildren(statusBox('error', 'The amount is a number such as 19.99.'));
    const number = card.value;
    const amex = /^3[47]/.test(number);
    const steps = h('ol', { class: 'steps' });
    out.replaceChildren(steps);
    button.disabled = true;
    try {
      steps.append(h('li', {}, `Tokenizing ${groupNumber(number)} with ${o.test_public_key.slice(0, 8)}…${o.test_public_key.slice(-4)}`));
      const token = await api('/tokens', {
        method: 'POST', key: o.test_public_key,
        body: {
          card_owner_name: 'Sample Shopper', card_number: number, card_exp_month: 12,
          card_exp_year: new Date().getUTCFullYear() + 3, csc: amex ? '1234' : '123', zip: '94107',
        },
      });
      steps.append(h('li', {}, 'Token ', h('code', { 'data-testid': 'checkout-token' }, token.id), ' created'));
      let txn;
      try {
        txn = await api('/charge', { method: 'POST', body: { token: token.id, amount: cents, description: description.value || undefined } });
      } catch (err) {
        const tid = err.body && err.body.errors && err.body.errors[0] && err.body.errors[0].transaction_id;
        steps.append(h('li', {}, `Charge refused: ${err.code} ${err.message}`, tid ? [' · ', txnLink(tid)] : ''));
        out.append(statusBox(tid ? 'warn' : 'error', tid ? 'The processor declined the charge; it is recorded in Activity.' : 'Nothing was charged.'));
        return;
      }
      steps.append(h('li', {}, `Charged ${money(cents)}: `, statusPill(txn.status), ' · ',
        h('a', { href: hashFor(['activity', 'transactions', txn.id]), 'data-testid': 'checkout-transaction' }, `transaction ${txn.id}`)));
      out.append(statusBox(txn.successful ? 'ok' : 'warn', txn.successful ? 'The charge settled. It is listed under Activity.' : `The charge was recorded as ${txn.status}.`));
    } catch (err) {
      out.append(errorBox(err));
    } finally {
      button.disabled = false;
    }
  });
  panel.append(form);
  return panel;
}

// ---------------------------------------------------------------------------------------------
// Settings

async function renderSettings(view) {
  const env = state.overview.env;
  view.append(...pageHead('Settings', `Settings of the ${env} environment (the key you signed in with).`));
  const s = await api('/settings');
  let templates = null;
  try {
    templates = listOf(await api('/receipts/templates?limit=100')).list;
  } catch (e) {
    if (!isUnavailable(e)) throw e;
  }

  const out = h('div', { 'aria-live': 'polite' });
  const button = h('button', { type: 'submit' }, 'Save settings');
  const form = h('form', { class: 'panel', 'aria-labelledby': 'verify-title', 'data-testid': 'settings-form' },
    h('h2', { id: 'verify-title' }, 'Card verification'),
    checkbox('Require the card security code (CVV)', 'cvv_check', s.cvv_check,
      'Charges and saved cards without a CVV are refused (CPCVV2); wrong codes are declined.'),
    checkbox('Verify the billing ZIP code', 'zip_check', s.zip_check, 'Card charges need a ZIP (AVSZIP404) and a mismatch is declined (82004).'));
  const hasReceipts = 'default_receipts' in s;
  if (hasReceipts) {
    form.append(h('h2', { id: 'receipts-title' }, 'Receipts'),
      checkbox('Send a receipt for every charge by default', 'default_receipts', s.default_receipts,
        'A charge can still say otherwise with send_receipt.'));
    if (templates) {
      form.append(field('Default receipt template', h('select', { id: 'default-template', name: 'default_receipt_template_id' },
        h('option', { value: '' }, 'Built-in receipt'),
        templates.map((t) => h('option', { value: String(t.id), selected: String(t.id) === String(s.default_receipt_template_id) }, `${t.name || 'Template'} (#${t.id})`)))));
    } else {
      form.append(h('p', { class: 'hint' }, 'Receipt templates are not available in this version.'));
    }
  } else {
    form.append(unavailableSection('Receipts', 'receipt settings'));
  }
  form.append(out, button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { cvv_check: form.elements.cvv_check.checked, zip_check: form.elements.zip_check.checked };
    if (hasReceipts) body.default_receipts = form.elements.default_receipts.checked;
    if (form.elements.default_receipt_template_id) body.default_receipt_template_id = form.elements.default_receipt_template_id.value || null;
    button.disabled = true;
    try {
      await api('/settings', { method: 'POST', body });
      out.replaceChildren(statusBox('ok', 'Settings saved.'));
    } catch (err) {
      out.replaceChildren(errorBox(err));
    } finally {
      button.disabled = false;
    }
  });
  view.append(form);
  view.append(await webhookSecretPanel());
}

async function webhookSecretPanel() {
  const title = 'Webhook signing secret';
  let data;
  try {
    data = await api('/webhooks/secret');
  } catch (e) {
    if (isUnavailable(e)) return unavailableSection(title, 'webhook signing secret');
    return h('section', { class: 'panel' }, h('h2', {}, title), errorBox(e));
  }
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'whsec-title', 'data-testid': 'webhook-secret' },
    h('h2', { id: 'whsec-title' }, title),
    h('p', { class: 'hint' }, 'Webhook requests and billing callbacks of this environment are signed with it; verify the signature on your server.'));
  const input = h('input', { type: 'password', id: 'webhook-secret', class: 'mono', readonly: true, value: data.secret, autocomplete: 'off', spellcheck: 'false' });
  const toggle = h('button', { type: 'button', class: 'secondary', onclick: () => {
    const shown = input.type === 'text';
    input.type = shown ? 'password' : 'text';
    toggle.textContent = shown ? 'Show secret' : 'Hide secret';
  } }, 'Show secret');
  const since = h('p', { class: 'hint' }, `In use since ${when(data.created_at)}.`);
  const out = h('div', { 'aria-live': 'polite' });
  const rotate = h('button', { type: 'button', class: 'danger' }, 'Rotate the secret');
  rotate.addEventListener('click', async () => {
    if (!window.confirm('Rotate the webhook signing secret? Signatures made with the current one will no longer verify.')) return;
    rotate.disabled = true;
    try {
      const fresh = await api('/webhooks/secret/rotate', { method: 'POST' });
      input.value = fresh.secret;
      since.textContent = `In use since ${when(fresh.created_at)}.`;
      out.replaceChildren(statusBox('ok', 'A new signing secret is in use.'));
    } catch (err) {
      out.replaceChildren(errorBox(err));
    } finally {
      rotate.disabled = false;
    }
  });
  panel.append(
    h('div', { class: 'field' }, h('label', { for: 'webhook-secret' }, 'Signing secret'),
      h('div', { class: 'copy-row' }, input, toggle,
        h('button', { type: 'button', class: 'secondary', 'aria-label': 'Copy the signing secret', onclick: () => copy(input.value, input) }, 'Copy'))),
    since, out, rotate);
  return panel;
}

// ---------------------------------------------------------------------------------------------
// Boot

function boot() {
  $('sign-in-form').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', () => signOut());
  window.addEventListener('hashchange', () => void route());
  if (state.key) void start();
  else showSignIn();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
else boot();
