// The typed readers of request values. A body arrives as JSON or as a form, so a field may hold a
// string, a number, a boolean, null, an array or an object (`f[toString]=x` is an object with an
// own toString). Every reader checks the type first and refuses what the field does not document
// with 400 REQ01 naming the field: a value is never coerced with String()/Number()/`${}` before
// its type is known, so no value can reach a throwing toString or valueOf. One reader per kind of
// input: a boolean (readBool), metadata (readMetadata), a page of a list (readPage).
import { E, ErrorCode, GatewayError, MUST, invalid } from '../errors.js';
import { parseObjectParam } from './input.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from './paging.js';

/** Cents: a positive integer, given as a number or a digit string; the cap keeps sums in range. */
export const MAX_AMOUNT = 99_999_999_999;

/** The refusal of a value whose type the field does not take. */
export function wrongType(name: string, what = 'a string'): GatewayError {
  return invalid(name, `must be ${what}`);
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

/** parseBool of a named field: undefined when absent or empty, 400 REQ01 "<name> must be true or false" when unreadable. */
export function readBool(v: unknown, name: string): boolean | undefined {
  const b = parseBool(v);
  if (b === null) throw invalid(name, MUST.BOOL);
  return b;
}

/** Metadata is at most 8 KiB as JSON (docs/decisions/http-input.md), on every resource that keeps it. */
export const MAX_METADATA_JSON = 8192;

/**
 * Metadata: an object, a JSON-encoded object, or PHP's `[]` (an empty object); undefined when
 * absent, `{}` when null or empty. Larger than MAX_METADATA_JSON as JSON is 400 REQ01.
 */
export function readMetadata(v: unknown, name = 'metadata'): Record<string, unknown> | undefined {
  if (v === undefined) return undefined;
  const m = parseObjectParam(v, name) ?? {};
  if (JSON.stringify(m).length > MAX_METADATA_JSON) throw invalid(name, `must be at most ${MAX_METADATA_JSON} characters as JSON`);
  return m;
}

export interface Page {
  limit: number;
  offset: number;
}

/** A page whose `limit` is null: every row from `offset` on (SQL `LIMIT NULL` is no limit). */
export interface OpenPage {
  limit: number | null;
  offset: number;
}

/** The codes a list answers a bad page with: PAGE01 for both, or the spec's own (GET /scheduled_transactions). */
export interface PageCodes {
  limit: ErrorCode;
  limitTooLarge: ErrorCode;
  offset: ErrorCode;
}
export const PAGE_CODES: PageCodes = { limit: E.PAGE_INVALID, limitTooLarge: E.PAGE_INVALID, offset: E.PAGE_INVALID };
/** Spec 4.3: limit not a positive integer 1800, above 100 1802, offset 1801. */
export const SPEC_PAGE_CODES: PageCodes = { limit: E.LIMIT_INVALID, limitTooLarge: E.LIMIT_TOO_LARGE, offset: E.OFFSET_INVALID };

/**
 * limit 1..100 (default 10), offset 0 or more (default 0), each a JSON integer or a string of
 * digits (spaces around allowed); anything else is refused with the list's codes, never clamped.
 * Offset 0 is the first page: the spec says "positive", but clients send offset=0.
 */
export function readPage(query: unknown, codes: PageCodes = PAGE_CODES): Page {
  const q = (query ?? {}) as Record<string, unknown>;
  const read = (v: unknown, dflt: number) => {
    if (v === undefined || v === '') return dflt;
    const s = isScalar(v) ? String(v).trim() : '';
    return /^\d+$/.test(s) ? Number(s) : NaN;
  };
  const limit = read(q.limit, DEFAULT_LIMIT);
  if (!(limit >= 1) || !Number.isSafeInteger(limit)) throw new GatewayError(codes.limit);
  if (limit > MAX_LIMIT) throw new GatewayError(codes.limitTooLarge);
  const offset = read(q.offset, 0);
  if (!(offset >= 0) || !Number.isSafeInteger(offset)) throw new GatewayError(codes.offset);
  return { limit, offset };
}

/**
 * For the lists the spec calls "all" (GET /plans, /subscriptions…): without `limit` every row,
 * since the clients of this API family read them in one call; a `limit` or `offset` sent is read
 * as by readPage.
 */
export function readPageOrAll(query: unknown): OpenPage {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = readPage(q);
  return q.limit === undefined || q.limit === '' ? { limit: null, offset: page.offset } : page;
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

/** A phone number as digits with an optional leading +; spaces, dashes, dots and brackets are dropped. */
export function normalisePhone(raw: string): string | null {
  const s = raw.replace(/[\s\-.()]/g, '');
  return /^\+?\d{7,15}$/.test(s) ? s : null;
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

/** The instants a date filter may name, 0001-01-01T00:00Z up to (not including) 10000-01-01T00:00Z: what a 4-digit ISO year writes and PostgreSQL's timestamptz holds. */
export const FIRST_INSTANT = -62_135_596_800_000;
export const END_INSTANT = 253_402_300_800_000;

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const FORM = 'must be a date (2026-01-15) or an ISO 8601 timestamp (2026-01-15T10:30:00Z)';
const RANGE = 'must be from 0001-01-01 to 9999-12-31 (UTC)';

/**
 * A date filter of a list (e.g. created_from): `YYYY-MM-DD`, a whole UTC day, or an ISO 8601
 * timestamp (`T` or a space; seconds, a fraction read to the millisecond and the zone optional; no
 * zone is UTC). Read strictly, never by Date.parse's guesses: a real calendar date (no February
 * 30, no 24:00), an offset of at most 14 hours, a year of 4 digits, and an instant from 0001-01-01
 * to 9999-12-31 UTC. Anything else is 400 REQ01 naming the field: year 0000, 10000, a negative
 * year or 'infinity' never reaches the database (where it was a 500).
 */
export function readInstant(v: string, name: string): { at: Date; dateOnly: boolean } {
  const m = ISO_INSTANT.exec(v);
  if (!m) throw invalid(name, /^([+-]\d+|\d{5,})-/.test(v) ? RANGE : FORM);
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = m;
  const day = new Date(0);
  day.setUTCFullYear(Number(y), Number(mo) - 1, Number(d)); // years below 100 as written (Date.UTC maps 0-99 to 1900-1999)
  if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d)) {
    throw invalid(name, `must be a calendar date (${y}-${mo}-${d} is not one)`);
  }
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) throw invalid(name, `must be a time of day from 00:00:00 to 23:59:59 (${v})`);
  const [, sign, oh = '0', om = '0'] = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone) ?? [];
  const offsetMin = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  if (Number(om) > 59 || Math.abs(offsetMin) > 14 * 60) throw invalid(name, 'must have a UTC offset of at most 14 hours');
  const at = day.getTime() + ((Number(h) * 60 + Number(mi) - offsetMin) * 60 + Number(s)) * 1000 + Number(fraction.padEnd(3, '0').slice(0, 3));
  if (Number(y) === 0 || at < FIRST_INSTANT || at >= END_INSTANT) throw invalid(name, RANGE);
  return { at: new Date(at), dateOnly: m[4] === undefined };
}
