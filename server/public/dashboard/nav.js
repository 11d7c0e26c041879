// @ts-check
// Locations of the single-page app: #/section/sub/id?query.
import { h } from './dom.js';

export function parseHash() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [path, query = ''] = raw.split('?');
  const segs = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { segs, params: new URLSearchParams(query) };
}

/** @param {string[]} segs @param {URLSearchParams} [params] */
export function hashFor(segs, params) {
  const q = params && [...params].length ? `?${params}` : '';
  return `#/${segs.map(encodeURIComponent).join('/')}${q}`;
}

/** @type {() => Promise<void>} */
let rerender = async () => {};
/** router.js registers how to draw the current location again. @param {() => Promise<void>} fn */
export function onRerender(fn) {
  rerender = fn;
}
/** Draws the current location again (after a change on the page, e.g. a refund). */
export const refresh = () => rerender();

/** A link to a transaction's detail page. @param {unknown} id */
export function txnLink(id) {
  if (!id) return '—';
  const s = String(id);
  return h('a', { href: hashFor(['activity', 'transactions', s]) }, h('code', {}, s.slice(0, 10) + (s.length > 10 ? '…' : '')));
}
