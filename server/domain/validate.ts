// Small parsers for values that arrive as JSON or as form strings.

/** Cents: a positive integer, given as a number or a digit string; the cap keeps sums in range. */
export const MAX_AMOUNT = 99_999_999_999;

/** 'missing' | 'invalid' | 'not_positive' | the amount. */
export function parseAmount(v: unknown): number | 'missing' | 'invalid' | 'not_positive' {
  if (v === undefined || v === null || v === '') return 'missing';
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n)) return 'invalid';
  if (n <= 0) return 'not_positive';
  if (!Number.isInteger(n) || n > MAX_AMOUNT) return 'invalid';
  return n;
}

/** true/false, 1/0, "true"/"false", "1"/"0", "on"/"off"; undefined when absent, null when unreadable. */
export function parseBool(v: unknown): boolean | undefined | null {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(s)) return true;
  if (['false', '0', 'off', 'no'].includes(s)) return false;
  return null;
}

// Deliberately plain: one @, no spaces, a dot in the domain, at most 254 characters.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmail(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 254 && EMAIL.test(v);
}

/** A trimmed non-empty string, or null. */
export function text(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  const s = String(v).trim();
  return s === '' ? null : s;
}
