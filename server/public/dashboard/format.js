// @ts-check
// Text for numbers, times and codes: pure functions, no DOM.

/** Amounts in the merchant's currency when the gateway names one, else USD. @type {Intl.NumberFormat} */
let moneyFormat = makeFormat('USD');

/** @param {string} code */
function makeFormat(code) {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
  } catch {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }); // an unknown code
  }
}

/** @param {string | null | undefined} code ISO 4217, e.g. "EUR"; empty = USD */
export function setCurrency(code) {
  moneyFormat = makeFormat(code && /^[A-Za-z]{3}$/.test(code) ? code.toUpperCase() : 'USD');
}

/**
 * Cents as money with its symbol ("$1,234.56"); "—" for nothing.
 * @param {unknown} cents
 */
export function money(cents) {
  if (cents === null || cents === undefined || cents === '') return '—';
  const n = Number(cents);
  if (!Number.isFinite(n)) return String(cents);
  return moneyFormat.format(n / 100);
}

/**
 * Any of the API's time formats (ISO with Z, `+00:00`, `YYYY-MM-DD HH:MM:SS`), shown in UTC.
 * @param {unknown} v
 */
export function when(v) {
  if (!v) return '—';
  const s = String(v);
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const t = Date.parse(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(s) && !/[zZ]|[+-]\d{2}:?\d{2}$/.test(s) ? s.replace(' ', 'T') + 'Z' : s);
  if (Number.isNaN(t)) return s;
  return new Date(t).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

/** @param {number} ms */
export function duration(ms) {
  const m = Math.round(ms / 60000);
  if (m < 60) return `${m} min`;
  const hrs = Math.floor(m / 60);
  if (hrs < 48) return `${hrs} h ${m % 60} min`;
  return `${Math.floor(hrs / 24)} days ${hrs % 24} h`;
}

/**
 * "19.99" → 1999; "" → null; anything else → NaN.
 * @param {unknown} text
 * @returns {number | null}
 */
export function centsFrom(text) {
  const s = String(text).trim();
  if (s === '') return null;
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return NaN;
  return Math.round(Number(s) * 100);
}

/** Codes whose words are not just the code in lower case. */
const WORDS = {
  success: 'successful', failed: 'failed', retried: 'retried', partially_paid: 'partly paid', not_provided: 'not provided',
  unchecked: 'not checked', pass: 'matched', fail: 'did not match', unavailable: 'not available', exposed: 'exposed',
};

/**
 * A status or check code in words: "SETTLED" → "settled", "partially_paid" → "partly paid".
 * @param {unknown} code
 */
export function statusWord(code) {
  if (code === null || code === undefined || code === '') return '—';
  const l = String(code).toLowerCase();
  return /** @type {Record<string, string>} */ (WORDS)[l] ?? l.replace(/_/g, ' ');
}

/**
 * The tone of a status: ok, bad, warn or neutral ('').
 * @param {unknown} code
 * @returns {'ok' | 'bad' | 'warn' | ''}
 */
export function statusTone(code) {
  const l = String(code).toLowerCase();
  if (['settled', 'success', 'sent', 'paid', 'active', 'delivered', 'succeeded', 'billed', 'completed', 'pass', 'approved'].includes(l)) return 'ok';
  if (['declined', 'failed', 'returned', 'expired', 'error', 'cancelled', 'canceled', 'fail', 'exposed', 'dead'].includes(l)) return 'bad';
  if (['pending', 'expiring', 'scheduled', 'retrying', 'unpaid', 'partially_paid', 'retried'].includes(l)) return 'warn';
  return '';
}

/** @param {unknown} v */
export function display(v) {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return `${v.length}`;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** @param {string} n a card number */
export const groupNumber = (n) => (n.length === 15 ? n.replace(/^(\d{4})(\d{6})(\d{5})$/, '$1 $2 $3')
  : n.length === 14 ? n.replace(/^(\d{4})(\d{6})(\d{4})$/, '$1 $2 $3') : n.replace(/(\d{4})(?=\d)/g, '$1 '));

/** @param {number} n @param {string} one @param {string} [many] */
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
