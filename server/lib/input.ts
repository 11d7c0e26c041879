import { badRequest, invalid, MUST, tooDeep } from '../errors.js';

/**
 * Levels of objects and arrays a request may nest, the body (or query) itself being the first.
 * The one definition: form keys (`a[b][c]`), JSON text and the input walk of every request use it.
 */
export const MAX_DEPTH = 32;

type Wellformed = string & { isWellFormed(): boolean };

function checkText(text: string, message: (problem: string) => string): void {
  if (text.includes('\u0000')) throw badRequest(message('the NUL character'));
  if (!(text as Wellformed).isWellFormed()) throw badRequest(message('a lone UTF-16 surrogate (not well-formed text)'));
}

/** A container met by the walk; its path is spelled out only for an error message. */
interface Frame { v: object; up: Frame | null; key: string; depth: number }

function pathOf(f: Frame, key?: string): string {
  const parts = key === undefined ? [] : [key];
  for (let x: Frame | null = f; x; x = x.up) if (x.up !== null || x.key !== '') parts.push(x.key);
  return parts.reverse().join('.') || 'request';
}

/**
 * Text PostgreSQL cannot store would fail inside the database (a 500 for a request that can never
 * succeed): refuse it up front as a malformed request, naming the field, in values and in field
 * names: U+0000, and ill-formed UTF-16 (a lone surrogate such as JSON's "\ud800"). Likewise nesting
 * deeper than MAX_DEPTH (`value` itself is level 1). Iterative, so a hostile body cannot exhaust the
 * stack; linear, with no allocation per scalar, so a 4 MiB list of numbers is walked in milliseconds.
 */
export function assertNoNul(value: unknown, path = ''): void {
  if (typeof value === 'string') return checkText(value, (p) => `${path || 'request'} must not contain ${p}`);
  if (!value || typeof value !== 'object') return;
  const stack: Frame[] = [{ v: value, up: null, key: path, depth: 1 }];
  while (stack.length) {
    const f = stack.pop()!;
    if (f.depth > MAX_DEPTH) throw tooDeep(pathOf(f), MAX_DEPTH);
    const list = Array.isArray(f.v) ? (f.v as unknown[]) : null;
    const keys = list ? null : Object.keys(f.v);
    const n = list ? list.length : keys!.length;
    for (let i = 0; i < n; i++) {
      const k = keys ? keys[i] : undefined;
      if (k !== undefined) checkText(k, (p) => `${pathOf(f)} has a field name with ${p}`);
      const x = list ? list[i] : (f.v as Record<string, unknown>)[k!];
      if (typeof x === 'string') checkText(x, (p) => `${pathOf(f, k ?? String(i))} must not contain ${p}`);
      else if (x && typeof x === 'object') stack.push({ v: x, up: f, key: k ?? String(i), depth: f.depth + 1 });
    }
  }
}

/** PHP's json_encode writes an empty array, and an empty map, as `[]` (also inside a form field). */
export const isEmptyList = (v: unknown) => (Array.isArray(v) && v.length === 0) || (typeof v === 'string' && v.trim() === '[]');

/**
 * A value sent as a JSON-encoded string (metadata, invoice items, webhook constraints), decoded and
 * checked as the request's own text is: "\ud800" or "\u0000" inside the string only appear now.
 * `invalid` is the field's own error for text that is not JSON.
 */
export function decodeJsonParam(text: string, name: string, invalid: () => Error): unknown {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw invalid();
  }
  assertNoNul(v, name);
  return v;
}

/** Objects such as metadata may arrive as a JSON-encoded string; accept both forms. */
export function parseObjectParam(value: unknown, name: string): Record<string, unknown> | null {
  if (value === undefined || value === null || value === '') return null;
  // PHP's json_encode writes an empty array, its empty map too, as []: an empty object.
  if (isEmptyList(value)) return {};
  let v: unknown = value;
  if (typeof v === 'string') {
    v = decodeJsonParam(v, name, () => invalid(name, MUST.OBJECT));
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw invalid(name, MUST.OBJECT);
  }
  return v as Record<string, unknown>;
}
