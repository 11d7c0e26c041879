// @ts-check
// DOM helpers. Every value from the API reaches the page through textContent or an attribute,
// never as HTML.
import { ApiError } from './api.js';

/** @typedef {Node | string | number | null | undefined | false | readonly any[]} Child (a list: its items are children too) */

/** @param {string} id */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * h('p', {class: 'x'}, 'text', child): attributes, `on*` listeners, children (strings become text).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'value') /** @type {HTMLInputElement} */ (el).value = v;
    else if (k === 'checked') /** @type {HTMLInputElement} */ (el).checked = !!v;
    else if (k === 'selected') /** @type {HTMLOptionElement} */ (el).selected = !!v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

/**
 * @template {Element} E
 * @param {E} el
 * @param {Child[]} children
 * @returns {E}
 */
export function append(el, children) {
  for (const c of /** @type {any[]} */ (children).flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

let uid = 0;
/** @param {string} p */
export const nextId = (p) => `${p}-${++uid}`;

/** Says `text` to screen readers through the page's polite live region. @param {string} text */
export function announce(text) {
  const el = $('announce');
  el.textContent = '';
  setTimeout(() => (el.textContent = text), 30);
}

/**
 * @param {'ok' | 'error' | 'warn' | 'busy'} kind
 * @param {...Child} content
 */
export function statusBox(kind, ...content) {
  return h('p', { class: `status is-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, ...content);
}

/** @param {unknown} err */
export function errorBox(err) {
  if (err instanceof ApiError) return statusBox('error', h('strong', {}, err.code), ' ', err.message);
  return statusBox('error', String(err instanceof Error ? err.message : err));
}

/** @param {string} title @param {string} what */
export function unavailableSection(title, what) {
  return h('section', { class: 'panel unavailable', 'data-unavailable': 'true', 'aria-label': title },
    h('h2', {}, title),
    h('p', {}, `Not available in this version: this gateway has no ${what} API yet (the request answered 404).`));
}

/**
 * A labelled control with an optional hint.
 * @param {string} label
 * @param {HTMLElement} input
 * @param {string} [hint]
 */
export function field(label, input, hint) {
  const id = input.id || (input.id = nextId('f'));
  const kids = /** @type {HTMLElement[]} */ ([h('label', { for: id }, label), input]);
  if (hint) {
    const hid = `${id}-hint`;
    input.setAttribute('aria-describedby', hid);
    kids.push(h('p', { id: hid, class: 'hint' }, hint));
  }
  return h('div', { class: 'field' }, kids);
}

/**
 * @param {string} label
 * @param {string} name
 * @param {boolean} checked
 * @param {string} [hint]
 */
export function checkbox(label, name, checked, hint) {
  const id = nextId('c');
  const input = h('input', { type: 'checkbox', id, name, checked });
  const text = /** @type {HTMLElement[]} */ ([h('label', { for: id }, label)]);
  if (hint) {
    input.setAttribute('aria-describedby', `${id}-hint`);
    text.push(h('p', { id: `${id}-hint`, class: 'hint' }, hint));
  }
  return h('div', { class: 'check' }, input, h('div', {}, text));
}

/** @param {string} label @param {Child} value */
export function fact(label, value) {
  return [h('dt', {}, label), h('dd', {}, value)];
}

/** The page's h1 (focused after a navigation) and its lede. @param {string} title @param {string} [lede] */
export function pageHead(title, lede) {
  return [h('h1', { tabindex: '-1' }, title), lede ? h('p', { class: 'lede' }, lede) : null];
}

/** @param {string} text @param {HTMLInputElement} input */
export async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    input.select();
    document.execCommand('copy'); // plain-http hosts have no clipboard API
  }
  announce('Copied to the clipboard');
}

/**
 * A modal dialog (Escape closes it).
 * @param {string} title
 * @param {Child} content
 * @param {Child} [actions] buttons beside Close
 */
export function showDialog(title, content, actions) {
  const titleId = nextId('dlg');
  const dlg = h('dialog', { 'aria-labelledby': titleId });
  const close = h('button', { type: 'button', class: 'secondary small', onclick: () => dlg.close() }, 'Close');
  append(dlg, [h('div', { class: 'dialog-head' }, h('h2', { id: titleId }, title), close), content,
    actions ? h('div', { class: 'actions' }, actions) : null]);
  dlg.addEventListener('close', () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  close.focus();
  return dlg;
}

/**
 * Asks before doing something that moves money or cannot be undone: resolves true only when the
 * confirming button is pressed; Cancel, Escape or closing the dialog resolve false.
 * @param {string} title
 * @param {Child} content
 * @param {string} confirmLabel
 * @returns {Promise<boolean>}
 */
export function confirmDialog(title, content, confirmLabel) {
  return new Promise((resolve) => {
    const titleId = nextId('dlg');
    const dlg = h('dialog', { 'aria-labelledby': titleId, 'data-testid': 'confirm' });
    let yes = false;
    const cancel = h('button', { type: 'button', class: 'secondary', onclick: () => dlg.close() }, 'Cancel');
    const ok = h('button', { type: 'button', class: 'danger', onclick: () => { yes = true; dlg.close(); } }, confirmLabel);
    append(dlg, [h('h2', { id: titleId }, title), content, h('div', { class: 'actions' }, cancel, ok)]);
    dlg.addEventListener('close', () => {
      dlg.remove();
      resolve(yes);
    });
    document.body.append(dlg);
    dlg.showModal();
    cancel.focus(); // the safe choice is the default one
  });
}
