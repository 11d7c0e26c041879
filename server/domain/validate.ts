// The typed readers of request values. A body arrives as JSON or as a form, so a field may hold a
// string, a number, a boolean, null, an array or an object (`f[toString]=x` is an object with an
// own toString). Every reader checks the type first and refuses what the field does not document
// with 400 REQ01 naming the field: a value is never coerced with String()/Number()/`${}` before
// its type is known, so no value can reach a throwing toString or valueOf.
import { GatewayError } from '../errors.js';

/** Cents: a positive integer, given as a number or a digit string; the cap keeps sums in range. */
export const MAX_AMOUNT = 99_999_999_999;

/** The refusal of a value whose type the field does not take. */
export function wrongType(name: string, what = 'a string'): GatewayError {
  return new GatewayError('REQ01', `${name} must be ${what}`);
}

/** A string or a finite number (forms send every value as a string), never an object or array. */
export function isScalar(v: unknown): v is string | number {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * Cents. 'missing' only when the field is absent (undefined): a present but empty value (null,
 * "", spaces) is 'empty', so "refund everything" can never come from an empty form field. Accepts a
 * JSON integer or a string of ASCII digits only: "1.00", "1e3", " 12 ", "0x10", "1999.0" are
 * 'invalid', as is anything above MAX_AMOUNT; zero and negatives are 'not_positive'.
 */
export function parseAmount(v: unknown): number | 'missing' | 'empty' | 'invalid' | 'not_positive' {
  if (v === undefined) return 'missing';
  if (v === null || (typeof v === 'string' && v.trim() === '')) return 'empty';
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^-?\d{1,20}$/.test(v)) n = Number(v);
  else return 'invalid';
  if (!Number.isFinite(n) || !Number.isInteger(n)) return 'invalid';
  if (n <= 0) return 'not_positive';
  if (n > MAX_AMOUNT) return 'invalid';
  return n;
}

/** true/false, 1/0, "true"/"false", "1"/"0", "on"/"off", "yes"/"no"; undefined when absent or empty, null when unreadable (any object or array included). */
export function parseBool(v: unknown): boolean | undefined | null {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'boolean') return v;
  if (!isScalar(v)) return null;
  const s = String(v).trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(s)) return true;
  if (['false', '0', 'off', 'no'].includes(s)) return false;
  return null;
}

/**
 * One RFC 5321 mailbox, `local@domain`, nothing else: no display name, no angle brackets, no
 * comma-separated list, no quoted local part, no whitespace or control characters, ASCII only.
 * Local part: dot-atom of atext, at most 64 octets. Domain: dot-separated labels of letters,
 * digits and inner hyphens (1 to 63 each, at least two), at most 255; the whole at most 254.
 * So what is stored is exactly the one recipient the SMTP server will see.
 */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*$`);
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
export function isEmail(v: unknown): v is string {
  if (typeof v !== 'string' || v.length > 254) return false;
  const at = v.lastIndexOf('@');
  if (at < 1) return false;
  const local = v.slice(0, at);
  const domain = v.slice(at + 1);
  if (local.length > 64 || domain.length > 255 || !LOCAL.test(local)) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]);
}

/**
 * A trimmed non-empty string, or null when absent, null or blank. A JSON number is taken as its
 * decimal text (forms send numbers as strings anyway); anything else (boolean, object, array) is
 * 400 REQ01 "<name> must be a string".
 */
export function text(v: unknown, name = 'a text field'): string | null {
  if (v === undefined || v === null) return null;
  if (!isScalar(v)) throw wrongType(name);
  const s = String(v).trim();
  return s === '' ? null : s;
}

/** `text` of body[name], the field named in the refusal. */
export function textField(body: Record<string, unknown> | undefined | null, name: string): string | null {
  return text(body?.[name], name);
}

/**
 * A whole number of 0 or more given as a JSON integer or a string of digits (at most `digits`),
 * or null when absent/empty; anything else is 400 REQ01 "<name> must be …".
 */
export function wholeNumber(v: unknown, name: string, digits = 15): number | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && String(v).length <= digits) return v;
  if (typeof v === 'string' && new RegExp(`^\\d{1,${digits}}$`).test(v.trim())) return Number(v.trim());
  throw wrongType(name, 'a whole number of 0 or more');
}

/** A lone UTF-16 surrogate, or NUL: what PostgreSQL cannot keep in text or jsonb. */
const UNSTORABLE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/g;

/**
 * `s` cut to at most `max` code points (never between the two halves of a surrogate pair), with
 * any lone surrogate or NUL replaced by U+FFFD: a value echoed back from a request that can always
 * be stored and serialised.
 */
export function clip(s: string, max: number): string {
  const cut = s.length <= max ? s : Array.from(s).slice(0, max).join('');
  return cut.replace(UNSTORABLE, '\ufffd');
}
