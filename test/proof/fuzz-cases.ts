// The cases of fuzz.test.ts: the field names worth sending, the arbitraries a case is drawn from,
// the request a case becomes, and the verdict on the answer (no 5xx, catalogue errors only, nothing
// written when refused). The gateway itself (its merchants, the records placeholders stand for)
// stays in the test file.
import fc from 'fast-check';
import { Queryable } from '../../server/db/index.js';
import { CATALOGUE } from '../../server/errors.js';
import { basic, visa } from '../helpers/gateway.js';
import { Route } from './routes.js';
import { WriteProbe, errorShapeProblem, writtenSince } from './helpers.js';

// ---------------------------------------------------------------------------------------------
// The operations, from the published document

/**
 * Field names worth sending: every field of every route's field table, as the document shows them
 * (request bodies and query parameters: server/schemas/fields.ts makes both from the tables), and
 * the spec's names. A field a route reads is in its table, so new fields join by themselves.
 */
export function fieldNames(doc: any): string[] {
  const names = new Set<string>([
    'token', 'amount', 'customer_id', 'method_id', 'charge_bank_account', 'card_number', 'card_owner_name',
    'card_exp_month', 'card_exp_year', 'csc', 'cvv', 'token_type', 'bank_account_number', 'bank_routing_number',
    'bank_account_holder_first_name', 'bank_account_holder_last_name', 'bank_account_type', 'description', 'metadata',
    'send_receipt', 'email_address', 'receipt_template_id', 'receipt_type', 'phone_number', 'id', 'limit', 'offset',
    'search_term', 'receipt_text', 'name', 'subject', 'cvv_check', 'zip_check', 'default_receipts', 'default_method_id',
  ]);
  const visit = (s: any) => {
    if (!s || typeof s !== 'object') return;
    for (const k of Object.keys(s.properties ?? {})) names.add(k);
  };
  for (const ops of Object.values<any>(doc.paths)) for (const op of Object.values<any>(ops)) {
    for (const c of Object.values<any>(op.requestBody?.content ?? {})) visit(c.schema);
  }
  for (const ops of Object.values<any>(doc.paths)) for (const op of Object.values<any>(ops)) {
    for (const p of op.parameters ?? []) if (p.in === 'query') names.add(p.name);
  }
  return [...names].filter((n) => /^[a-z][a-z0-9_]*$/.test(n)).sort();
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

const ODD_STRINGS = [
  '', ' ', '0', '-0', '-1', '1e309', '-1e309', 'NaN', 'Infinity', '99999999999999999999', '1.5', '0x10', '1,000', ' 12 ',
  'true', 'false', 'null', 'undefined', '[object Object]', '__proto__', 'constructor', 'prototype', 'toString',
  '<script>alert(1)</script>', "' OR 1=1 --", '"; DROP TABLE transactions; --', '%00', '\u0000', '\ud800', '\udfff',
  '𝕏𝕐😀', '\u202eevil', 'a\u200bb', 'é'.normalize('NFD'), '../../etc/passwd', '${7*7}', '{{7*7}}', '{"a":1}', '[1,2]',
  '{"__proto__":{"x":1}}', 'a@b', 'ada@example.com', 'x@y.z'.repeat(60), '2026-13-45', '9999-12-31T23:59:59Z', '1970-01-01',
  '4111111111111111', '4111 1111 1111 1111', '4000000000000002', '4012888888881881', '110000000', '123456789',
  'credit_card', 'bank_account', 'checking', 'email', 'sms', 'test', 'live', 'daily', 'monthly', 'yes', 'on', '1',
  'test_sk_' + '0'.repeat(55), 'live_pk_' + 'f'.repeat(55), '\t\n\r', '\\', '/', '?', '&', '=', '#', '+', '%',
];
const ODD_NUMBERS = [0, -0, -1, 1, 12, 73, 80, 100, 999, 2 ** 31, -(2 ** 31), 2 ** 53, 2 ** 53 + 2, 1e21, -1e21,
  99_999_999_999, 100_000_000_000, 1.5, -0.01, 0.1 + 0.2, Number.MAX_VALUE, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER];
/** Strings of a size that matters: around field limits, and most of the body limit (one is over it). */
const HUGE = fc.constantFrom(33, 65, 101, 256, 1001, 8193, 20_001, 70_000, 200_000, 300_000).chain((n) =>
  fc.constantFrom('x', 'é', '😀', '9').map((ch) => ch.repeat(Math.ceil(n / Buffer.byteLength(ch)))));

function valueArb(fieldArb: fc.Arbitrary<string>, special: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(
    { arbitrary: fc.constantFrom(...ODD_STRINGS), weight: 4 },
    { arbitrary: fc.constantFrom(...ODD_NUMBERS), weight: 3 },
    { arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }), weight: 2 },
    { arbitrary: fc.double(), weight: 1 },
    { arbitrary: fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map((b) => b.toString()), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 1 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: HUGE, weight: 1 },
    // Objects with an own toString / valueOf (a form sends them as f[toString]=…): fuzz-hostile.test.ts puts them in every field.
    { arbitrary: fc.constantFrom<unknown>({ toString: 1 }, { valueOf: 1 }, { toString: 'x', valueOf: 'y' }), weight: 1 },
    { arbitrary: special, weight: 4 },
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: scalar, weight: 8 },
      { arbitrary: fc.array(tie('value'), { maxLength: 3 }), weight: 1 },
      { arbitrary: fc.dictionary(fc.oneof(fieldArb, fc.constantFrom('__proto__', 'constructor', '')), tie('value'), { maxKeys: 3 }), weight: 1 },
    ),
  }));
  return value;
}

const MALFORMED = [
  '{', '}', '{"amount":', '{"amount": 1,}', "{'amount': 1}", '[1,2', '{"a":1}{"b":2}', 'null', '"string"', '123', 'true', '[]',
  '{"amount": 1e999}', '{"amount": -1e999}', '\ufeff{"amount": 1}', '{"amount":1,"amount":2}', `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`, '{"__proto__": {"amount": 1}}', '{"constructor": {"prototype": {"x": 1}}}',
  'amount=1&amount=2', 'metadata[a][b][c]=1&metadata=2', 'a[]=1&a[]=2&a=3', '__proto__[amount]=1', '%zz=%zz', '=&&=&', '&',
  '\u0000', '\ud800', 'token=abc&amount=%F0%9F%98%80', '\r\n\r\n', 'x'.repeat(10_000),
];
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'text/json', 'application/x-www-form-urlencoded', 'text/plain',
  'multipart/form-data; boundary=xyz', 'application/xml', 'application/json; charset=utf-16', 'application/octet-stream',
  'garbage', '*/*', 'application/x-www-form-urlencoded; charset=iso-8859-1', '',
];
const ODD_PATH = [
  '0', '-1', '1e3', '00000000000000000000000000000000', 'ffffffffff', 'ZZZZZZ', '..', '.', '%', '%zz', '%00', '%2F', '%2e%2e',
  'a/b', ' ', 'a b', '__proto__', 'constructor', 'null', "1' OR '1'='1", 'x'.repeat(101), 'x'.repeat(5000), '𝕏', '\u0000',
  '99999999999999999999999', '1.5', '-0', '+1', '0x1A', ';', '*', 'search', 'évènement',
];
const ODD_QUERY_KEYS = ['limit[]', 'offset[x]', 'a[b][c]', '__proto__', '__proto__[x]', 'constructor[prototype][x]', '', '%zz', 'ü', 'callback', 'public_api_key'];

export type Auth = 'sk' | 'pk' | 'live' | 'none' | 'junk' | 'bearer';
export type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; drop: string[]; extra: Record<string, unknown>; base: boolean; ctype: string | null }
  | { kind: 'form'; drop: string[]; extra: Record<string, unknown>; base: boolean; ctype: string | null; dup: boolean }
  | { kind: 'raw'; text: string; ctype: string | null };

export interface Case {
  auth: Auth;
  params: { value: string; raw: boolean }[];
  query: { base: boolean; pairs: [string, unknown][]; raw: string | null };
  body: BodySpec;
  idem: string | null;
}

/** A valid request for the operations we know, so mutations reach the code behind validation. */
function baseBody(route: Route): Record<string, unknown> {
  const key = `${route.method} ${route.path}`;
  switch (key) {
    case 'POST /tokens': return { ...visa, address_1: '1 Main St', zip: '10001' };
    case 'POST /charge': return { token: '$TOKEN', amount: 1999, description: 'fuzz', metadata: { order: '42' } };
    case 'POST /charge/{id}/cancel': return { amount: 100 };
    case 'POST /charge/{id}/receipt': return { email_address: 'fuzz@example.com' };
    case 'POST /customers': return { first_name: 'Fuzz', last_name: 'Case', email: 'fuzz@example.com', token: '$TOKEN' };
    case 'POST /customers/{id}': return { first_name: 'Fuzzed', token: '$TOKEN' };
    case 'POST /customers/search': return { search_term: 'Seed' };
    case 'POST /customers/{customer_id}/methods': return { token: '$TOKEN' };
    case 'POST /customers/{customer_id}/methods/{method_id}': return { token: '$TOKEN' };
    case 'POST /settings': return { cvv_check: false };
    case 'POST /receipts/templates': return { name: 'Fuzz', subject: 'S', receipt_text: 'Paid [Amount] <br> [Metadata/order]' };
    case 'POST /receipts/templates/{id}': return { name: 'Fuzz 2' };
    default: return {};
  }
}

function baseQuery(route: Route): Record<string, string> {
  if (route.path === '/tokens/jsonp') {
    return { ...Object.fromEntries(Object.entries(visa).map(([k, v]) => [k, String(v)])), callback: 'app.onToken', public_api_key: '$PK' };
  }
  return route.method === 'GET' && route.params.length === 0 ? { limit: '5', offset: '0' } : {};
}

/** The cases of one operation; `realIds` holds, per path parameter, ids of records that exist. */
export function caseArb(route: Route, realIds: string[][], fields: string[]): fc.Arbitrary<Case> {
  const field = fc.constantFrom(...fields);
  const special = fc.constantFrom('$TOKEN', '$BANK_TOKEN', '$USED_TOKEN', '$PK', '$SK', ...realIds.flat(), ...(realIds.flat().length ? [] : ['none']));
  const value = valueArb(field, special);
  const base = baseBody(route);
  const baseKeys = Object.keys(base);
  const mutation = fc.record({
    drop: baseKeys.length ? fc.subarray(baseKeys) : fc.constant([] as string[]),
    extra: fc.dictionary(fc.oneof({ arbitrary: field, weight: 5 }, { arbitrary: fc.constantFrom('__proto__', 'constructor', '', 'a[b]', '𝕏'), weight: 1 }), value, { maxKeys: 4 }),
    base: fc.boolean(),
  });
  const ctype = fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 4, nil: null });
  const body: fc.Arbitrary<BodySpec> = fc.oneof(
    { arbitrary: fc.constant({ kind: 'none' } as BodySpec), weight: 1 },
    { arbitrary: fc.tuple(mutation, ctype).map(([m, c]) => ({ kind: 'json', ...m, ctype: c ?? 'application/json' }) as BodySpec), weight: 6 },
    { arbitrary: fc.tuple(mutation, ctype, fc.boolean()).map(([m, c, dup]) => ({ kind: 'form', ...m, ctype: c ?? 'application/x-www-form-urlencoded', dup }) as BodySpec), weight: 3 },
    { arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...MALFORMED), fc.string({ unit: 'binary', maxLength: 200 })), ctype).map(([text, c]) => ({ kind: 'raw', text, ctype: c }) as BodySpec), weight: 2 },
  );
  const param = (ids: string[]) => fc.record({
    value: fc.oneof(
      ...(ids.length ? [{ arbitrary: fc.constantFrom(...ids), weight: 6 }] : []),
      { arbitrary: fc.constantFrom(...ODD_PATH), weight: 2 },
      { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
      { arbitrary: fc.constantFrom(...realIds.flat(), 'x').map((s) => s + 'a'), weight: 1 },
    ),
    raw: fc.boolean().map((b) => b && Math.random() < 0.3),
  });
  const query = fc.record({
    base: fc.boolean(),
    pairs: fc.array(fc.tuple(fc.oneof({ arbitrary: field, weight: 3 }, { arbitrary: fc.constantFrom(...ODD_QUERY_KEYS, 'limit', 'offset'), weight: 2 }), value), { maxLength: 4 }),
    raw: fc.option(fc.constantFrom('limit=1&limit=2', 'offset=1&offset=-1', 'limit=%zz', '&&&', '=', 'limit', 'a=1;b=2', `x=${'y'.repeat(6000)}`, 'callback=a&callback=b', '%E0%A4%A'), { freq: 6, nil: null }),
  });
  const auth = fc.constantFrom<Auth>(...(route.access === 'none' ? ['none'] : [...Array(14).fill('sk'), 'pk', 'pk', 'live', 'none', 'junk', 'bearer']) as Auth[]);
  const idem = fc.option(fc.oneof(
    fc.constantFrom('', ' ', 'x'.repeat(256), 'é', 'a b', 'fixed-key', '\t'),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }).filter((s) => !/[\r\n]/.test(s)),
  ), { freq: 5, nil: null });
  return fc.record({ auth, params: fc.tuple(...route.params.map((_, i) => param(realIds[i] ?? []))), query, body, idem }) as fc.Arbitrary<Case>;
}

// ---------------------------------------------------------------------------------------------
// Running one case

/** encodeURIComponent, with lone surrogates sent as U+FFFD (as a browser would) instead of throwing. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(Buffer.from(s, 'utf8').toString('utf8'));
  }
};

function formEncode(obj: Record<string, unknown>, dup: boolean): string {
  const parts: string[] = [];
  const add = (k: string, v: unknown) => {
    if (v !== null && typeof v === 'object') {
      for (const [kk, vv] of Object.entries(v)) add(Array.isArray(v) ? `${k}[]` : `${k}[${kk}]`, vv);
    } else {
      parts.push(`${enc(k)}=${enc(String(v))}`);
      if (dup) parts.push(`${enc(k)}=${enc(String(v))}x`);
    }
  };
  for (const [k, v] of Object.entries(obj)) add(k, v);
  return parts.join('&');
}

/** Makes the record a placeholder ("$TOKEN", …) stands for; undefined when it names none. */
export type Placeholder = (name: string) => Promise<string | undefined>;

/** Replaces placeholders with fresh records (made before the "before" probe). */
async function resolve(v: unknown, cache: Map<string, string>, make: Placeholder): Promise<unknown> {
  if (typeof v === 'string' && v.startsWith('$')) {
    if (cache.has(v)) return cache.get(v);
    const out = await make(v);
    if (out === undefined) return v;
    cache.set(v, out);
    return out;
  }
  if (Array.isArray(v)) return Promise.all(v.map((x) => resolve(x, cache, make)));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      // Own data property even for "__proto__": a plain assignment would set the prototype instead.
      Object.defineProperty(out, k, { value: await resolve(x, cache, make), enumerable: true, configurable: true, writable: true });
    }
    return out;
  }
  return v;
}

function merge(base: Record<string, unknown>, drop: string[], extra: Record<string, unknown>, useBase: boolean) {
  const out: Record<string, unknown> = {};
  if (useBase) for (const [k, v] of Object.entries(base)) if (!drop.includes(k)) out[k] = v;
  for (const [k, v] of Object.entries(extra)) Object.defineProperty(out, k, { value: v, enumerable: true, configurable: true, writable: true });
  return out;
}

/** The request a case becomes, its placeholders made by `make`. */
export async function materialize(route: Route, c: Case, keys: { sk: string; pk: string; live: string }, make: Placeholder) {
  const cache = new Map<string, string>();
  let path = route.path;
  route.params.forEach((p, i) => {
    const { value, raw } = c.params[i];
    path = path.replace(`{${p}}`, raw ? value : enc(value));
  });
  const q: string[] = [];
  if (c.query.base) for (const [k, v] of Object.entries(baseQuery(route))) q.push(`${enc(k)}=${enc(String(await resolve(v, cache, make)))}`);
  else if (route.path === '/tokens/jsonp') q.push('callback=cb'); // mostly a valid callback, or the case ends at JSONP01
  for (const [k, v] of c.query.pairs) {
    const val = await resolve(v, cache, make);
    if (Array.isArray(val)) for (const x of val) q.push(`${enc(k)}=${enc(typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))}`);
    else q.push(`${enc(k)}=${enc(typeof val === 'object' && val !== null ? JSON.stringify(val) : String(val))}`);
  }
  if (c.query.raw) q.push(c.query.raw);
  const url = `/api/v1${path}${q.length ? `?${q.join('&')}` : ''}`;

  const headers: Record<string, string> = {};
  if (c.auth === 'sk') Object.assign(headers, basic(keys.sk));
  if (c.auth === 'pk') Object.assign(headers, basic(keys.pk));
  if (c.auth === 'live') Object.assign(headers, basic(keys.live));
  if (c.auth === 'junk') headers.authorization = `Basic ${Buffer.from('junk:').toString('base64')}`;
  if (c.auth === 'bearer') headers.authorization = `Bearer ${keys.sk}`;
  if (c.idem !== null) headers['idempotency-key'] = c.idem;

  let payload: string | undefined;
  const b = c.body;
  if (b.kind === 'json' || b.kind === 'form') {
    const value = (await resolve(merge(baseBody(route), b.drop, b.extra, b.base), cache, make)) as Record<string, unknown>;
    payload = b.kind === 'json' ? JSON.stringify(value) : formEncode(value, b.dup);
    if (b.ctype) headers['content-type'] = b.ctype;
  } else if (b.kind === 'raw') {
    payload = b.text;
    if (b.ctype) headers['content-type'] = b.ctype;
  }
  return { method: route.method, url, headers, payload };
}

const JSONP = /^\/\*\*\/([\w$.]+)\(([\s\S]*)\);$/;

/** What the verdicts count, across every case. */
export interface Tally {
  codes: Record<string, number>;
  rejected: number;
  accepted: number;
  proc01: number;
}

/** Checks one answer against the gateway's tables; returns what is wrong, or null. */
export async function verdict(
  route: Route, c: Case, res: { statusCode: number; body: string; headers: Record<string, unknown> },
  before: WriteProbe, db: Queryable, tables: string[], stats: Tally,
): Promise<string | null> {
  const status = res.statusCode;
  let errorBody: any = null;
  let parsed: any = null;
  if (route.path === '/tokens/jsonp' && status === 200) {
    const m = JSONP.exec(res.body);
    if (!m) return `JSONP body is not /**/cb(json); : ${res.body.slice(0, 200)}`;
    parsed = JSON.parse(m[2]);
    if (parsed.errors) errorBody = parsed;
    if (res.headers['content-type'] !== 'application/javascript; charset=utf-8') return `JSONP content type ${res.headers['content-type']}`;
  } else if (route.path.endsWith('.csv') && status === 200) {
    // The dashboard's exports answer CSV (an error is JSON like everywhere): a header row first.
    if (res.headers['content-type'] !== 'text/csv; charset=utf-8') return `CSV content type ${res.headers['content-type']}`;
    if (!/^id,created_at,/.test(res.body)) return `CSV without its header row: ${res.body.slice(0, 200)}`;
    parsed = {};
  } else {
    if (!/^application\/json/.test(String(res.headers['content-type']))) return `content type ${res.headers['content-type']} (status ${status})`;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      return `body is not JSON: ${res.body.slice(0, 200)}`;
    }
    if (status >= 400) errorBody = parsed;
  }
  if (status >= 500) {
    const code = errorBody?.errors?.[0]?.code;
    // A live key: no live processor is configured, so a live charge is refused with 503 PROC01 by design.
    if (!(status === 503 && c.auth === 'live' && code === 'PROC01')) return `${status}: ${res.body.slice(0, 300)}`;
    stats.proc01++;
  }
  if (errorBody) {
    const problem = errorShapeProblem(errorBody);
    if (problem) return `error body ${problem}: ${res.body.slice(0, 300)}`;
    for (const e of errorBody.errors) {
      const entry = (CATALOGUE as Record<string, readonly [number, string]>)[e.code];
      if (!entry) return `code ${e.code} is not in the catalogue`;
      if (status !== 200 && entry[0] !== status) return `code ${e.code} answered with ${status}, catalogue says ${entry[0]}`;
      stats.codes[e.code] = (stats.codes[e.code] ?? 0) + 1;
    }
    stats.rejected++;
    const declined = errorBody.errors.some((e: any) => e.transaction_id);
    // A decline is recorded on purpose (spec: the transaction exists, status DECLINED).
    if (!declined) {
      const ignore = c.idem !== null ? ['idempotency_keys'] : []; // a refused answer is stored against its key, by design
      const changed = (await writtenSince(db, tables, before)).filter((t) => !ignore.includes(t));
      if (changed.length) return `refused (${status} ${errorBody.errors[0].code}) but wrote to ${changed.join(', ')}`;
    }
  } else {
    if (status >= 300) return `status ${status} without an error body`;
    stats.accepted++;
  }
  return null;
}

export function describeCase(req: { method: string; url: string; headers: Record<string, string>; payload?: string }): string {
  const h = { ...req.headers };
  if (h.authorization) h.authorization = h.authorization.slice(0, 14) + '…';
  const p = req.payload === undefined ? '' : ` body(${req.payload.length})=${JSON.stringify(req.payload.slice(0, 300))}`;
  return `${req.method} ${req.url.slice(0, 300)} ${JSON.stringify(h)}${p}`;
}
