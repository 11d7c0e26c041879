import { invalid, tooDeep, tooManyFields } from '../errors.js';
import { MAX_DEPTH } from '../lib/input.js';

/** Fields (form pairs, multipart parts, JSON object members) one body may hold; a route that raises its body limit gets more. */
export const MAX_FORM_KEYS = 1000;
/** For such a route (the account updater's batches): one field per this many bytes of its limit. */
const BYTES_PER_FIELD = 50;

export function formKeyLimit(routeBodyLimit: number, serverBodyLimit: number): number {
  return routeBodyLimit > serverBodyLimit ? Math.max(MAX_FORM_KEYS, Math.floor(routeBodyLimit / BYTES_PER_FIELD)) : MAX_FORM_KEYS;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes to text. Bytes that are not UTF-8 are refused, not turned into U+FFFD: the client's text would be lost. */
export function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalid(what, 'is not valid UTF-8');
  }
}

const hex = (b: number): number => (b >= 48 && b <= 57 ? b - 48 : (b | 32) >= 97 && (b | 32) <= 102 ? (b | 32) - 87 : -1);

/**
 * application/x-www-form-urlencoded decoding as the URL standard does it (`+` is a space, `%XX` a
 * byte, a `%` not followed by two hex digits stays as written), except that bytes which are not
 * UTF-8 (`%E9`, or `%ED%A0%80`, an encoded lone surrogate) are refused.
 */
function formDecode(raw: string, what: () => string): string {
  const text = raw.includes('+') ? raw.replaceAll('+', ' ') : raw;
  if (!text.includes('%')) return text;
  const bytes = Buffer.from(text, 'utf8');
  let w = 0;
  for (let r = 0; r < bytes.length; r++) {
    const hi = bytes[r] === 0x25 && r + 2 < bytes.length ? hex(bytes[r + 1]) : -1;
    const lo = hi >= 0 ? hex(bytes[r + 2]) : -1;
    if (lo >= 0) {
      bytes[w++] = hi * 16 + lo;
      r += 2;
    } else {
      bytes[w++] = bytes[r];
    }
  }
  return decodeUtf8(bytes.subarray(0, w), what());
}

const shown = (key: string) => JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);

/**
 * `metadata[color]` → ['metadata', 'color']; `tags[]` → ['tags', '']; null when the key is not
 * such a path (it is then kept as a plain name). Refuses a path deeper than MAX_DEPTH as soon as
 * its segment MAX_DEPTH + 1 is read: a key a million brackets deep costs one scan, never a structure.
 */
function keyPath(key: string): string[] | null {
  const open = key.indexOf('[');
  if (open === -1) return [key];
  const name = key.slice(0, open);
  if (name === '' || name.includes(']')) return null;
  const parts = [name];
  for (let i = open; i < key.length;) {
    if (key.charCodeAt(i) !== 0x5b) return null;
    const close = key.indexOf(']', i + 1);
    if (close === -1) return null;
    const segment = key.slice(i + 1, close);
    if (segment.includes('[')) return null;
    if (parts.length === MAX_DEPTH) throw tooDeep(`body.${name}`, MAX_DEPTH);
    parts.push(segment);
    i = close + 1;
  }
  return parts;
}

// Drop the whole pair: skipping only the bad segment would let `__proto__[amount]` set `amount`.
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const INDEX = /^(0|[1-9]\d{0,8})$/;

/**
 * Builds a body from form fields with nested keys (`metadata[color]=red`, `items[0][qty]=2`,
 * `tags[]=a`), the same for form-encoded and multipart bodies. Counts fields as they come and
 * refuses the first one past the limit, before building anything more.
 */
export class FormBody {
  readonly value: Record<string, unknown> = {};
  private count = 0;

  constructor(private readonly maxKeys: number = MAX_FORM_KEYS) {}

  add(key: string, value: string): void {
    if (++this.count > this.maxKeys) throw tooManyFields(this.maxKeys);
    const parts = keyPath(key) ?? [key];
    if (parts.some((p) => FORBIDDEN.has(p))) return;
    let parent: any = null;
    let parentSlot: string | number = '';
    let node: any = this.value;
    for (let i = 0; i < parts.length; i++) {
      let slot: string | number = parts[i];
      if (Array.isArray(node)) {
        // An array (made by `[]`) grows by appending; any other name turns it into an object, so
        // `tags[]=a&tags[4294967294]=b` cannot make a sparse array of four billion slots.
        if (slot === '') slot = node.length;
        else if (INDEX.test(slot) && Number(slot) <= node.length) slot = Number(slot);
        else {
          node = Object.assign({}, node);
          parent[parentSlot] = node;
        }
      }
      if (i === parts.length - 1) {
        node[slot] = value;
        return;
      }
      let next = node[slot];
      if (typeof next !== 'object' || next === null) next = node[slot] = parts[i + 1] === '' ? [] : {};
      parent = node;
      parentSlot = slot;
      node = next;
    }
  }
}

/** An application/x-www-form-urlencoded body (already known to be UTF-8 text) as nested fields. */
export function parseForm(body: string, maxKeys: number = MAX_FORM_KEYS): Record<string, unknown> {
  const form = new FormBody(maxKeys);
  for (let start = 0; start < body.length;) {
    let end = body.indexOf('&', start);
    if (end === -1) end = body.length;
    if (end > start) {
      const pair = body.slice(start, end);
      const eq = pair.indexOf('=');
      const rawKey = eq === -1 ? pair : pair.slice(0, eq);
      const key = formDecode(rawKey, () => `the form field name ${shown(rawKey)}`);
      form.add(key, eq === -1 ? '' : formDecode(pair.slice(eq + 1), () => `body.${key}`));
    }
    start = end + 1;
  }
  return form.value;
}

/**
 * The router keeps a percent-escape that is not UTF-8 (`?q=%E9`, `%ED%A0%80`) as its literal text;
 * a form body refuses it. Queries follow the form rule: the raw query string is checked here.
 */
export function assertQueryText(url: string): void {
  const q = url.indexOf('?');
  if (q === -1 || !url.includes('%', q)) return;
  for (const pair of url.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const key = formDecode(rawKey, () => `the query parameter name ${shown(rawKey)}`);
    if (eq !== -1) formDecode(pair.slice(eq + 1), () => `query.${key}`);
  }
}
