// @ts-check
// The header's search: results as you type (debounced) from GET /dashboard/search, in the ARIA
// combobox pattern: ArrowDown/ArrowUp move through the results, Enter opens one, Escape closes the
// list (a second Escape clears the box). Transactions open their page; customers, invoices and
// subscriptions open their record in a dialog.
import { api } from './api.js';
import { $, errorBox, h, showDialog } from './dom.js';
import { hashFor } from './nav.js';
import { presentCustomer, renderRecord } from './tables.js';

/** @typedef {import('./api-types').Answer<'/dashboard/search'>['results'][number]} Result GET /dashboard/search (api-types.d.ts: from the OpenAPI document) */

const DEBOUNCE_MS = 200;
/** @type {Record<Result['type'], string>} */
const PATHS = { transaction: '/charge/', customer: '/customers/', invoice: '/invoices/', subscription: '/subscriptions/' };

let started = false;
let reset = () => {};
/** Empties the box and its results (signing out: nothing of the last session stays on the page). */
export const clearSearch = () => reset();

/** A click on a result leaves the focus in the box. @param {MouseEvent} e */
const keepFocus = (e) => e.preventDefault();

export function startSearch() {
  if (started) return;
  started = true;
  const box = $('search');
  const input = h('input', {
    type: 'search', id: 'search-input', role: 'combobox', 'aria-expanded': 'false', 'aria-controls': 'search-results',
    'aria-autocomplete': 'list', autocomplete: 'off', spellcheck: 'false', placeholder: 'Search id, email, name, last 4, amount',
    maxlength: '100', // the API's limit (DASH02 beyond it)
  });
  const list = h('ul', { id: 'search-results', role: 'listbox', 'aria-label': 'Search results', hidden: true });
  const note = h('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  box.append(h('label', { for: 'search-input', class: 'visually-hidden' }, 'Search'), input, list, note);

  /** @type {Result[]} */
  let results = [];
  let active = -1;
  let seq = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  /** @param {boolean} open */
  const setOpen = (open) => {
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    if (!open) setActive(-1);
  };
  /** @param {number} i */
  const setActive = (i) => {
    active = i;
    [...list.children].forEach((li, j) => li.setAttribute('aria-selected', String(j === i)));
    const li = list.children[i];
    if (li) {
      input.setAttribute('aria-activedescendant', li.id);
      li.scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  };
  /** @param {Result} r */
  const choose = (r) => {
    setOpen(false);
    input.value = '';
    void openResult(r);
  };

  const search = async () => {
    const q = input.value.trim();
    const mine = ++seq;
    if (!q) {
      results = [];
      list.replaceChildren();
      note.textContent = '';
      return setOpen(false);
    }
    try {
      const data = await api(`/dashboard/search?q=${encodeURIComponent(q)}&limit=10`);
      if (mine !== seq) return; // a later keystroke's answer wins
      results = data.results;
    } catch (e) {
      if (mine !== seq) return;
      results = [];
      list.replaceChildren(h('li', { class: 'search-note', role: 'presentation' }, errorBox(e)));
      return setOpen(true);
    }
    list.replaceChildren(...results.map((r, i) => h('li', {
      id: `search-result-${i}`, role: 'option', 'aria-selected': 'false', 'data-type': r.type,
      onmousedown: keepFocus,
      onclick: () => choose(r),
    }, h('span', { class: 'result-title' }, r.title), h('span', { class: 'result-type' }, r.type),
    // The title carries the amount with its currency sign, and a charge's state ("settled · partly refunded $5.00").
    h('span', { class: 'result-sub' }, r.subtitle))));
    if (!results.length) list.replaceChildren(h('li', { class: 'search-note', role: 'presentation' }, `Nothing matches “${q}”.`));
    note.textContent = results.length ? `${results.length} result${results.length === 1 ? '' : 's'}; arrow keys to choose` : 'No results';
    setOpen(true);
    setActive(-1);
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { void search(); }, DEBOUNCE_MS);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (list.hidden) {
        if (results.length) setOpen(true);
        return;
      }
      if (!results.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive(active < 0 ? (step > 0 ? 0 : results.length - 1) : (active + step + results.length) % results.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const r = results[active] ?? (results.length === 1 ? results[0] : undefined);
      if (!list.hidden && r) choose(r);
    } else if (e.key === 'Escape') {
      // A search box's own Escape clears it at once (and fires input, which a moment later emptied
      // the results): the first Escape only closes the list, the second clears the box and them.
      e.preventDefault();
      if (!list.hidden) setOpen(false);
      else if (input.value) {
        input.value = '';
        clearTimeout(timer);
        void search();
      }
    }
  });
  input.addEventListener('blur', () => setOpen(false));
  reset = () => {
    clearTimeout(timer);
    seq++;
    input.value = '';
    results = [];
    list.replaceChildren();
    setOpen(false);
  };
  input.addEventListener('focus', () => {
    if (results.length && input.value.trim()) setOpen(true);
  });
}

/** @param {Result} r */
async function openResult(r) {
  if (r.type === 'transaction') {
    location.hash = hashFor(['activity', 'transactions', r.id]);
    return;
  }
  try {
    const record = await api(`${PATHS[r.type]}${encodeURIComponent(r.id)}`);
    showDialog(`${r.type[0].toUpperCase()}${r.type.slice(1)}: ${r.title}`, renderRecord(r.type === 'customer' ? presentCustomer(record) : record));
  } catch (e) {
    showDialog(r.title, errorBox(e));
  }
}
