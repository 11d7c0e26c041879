// Bad input: property-based fuzzing (fast-check, fixed seed) of every operation in
// /api/v1/openapi.json, so a new route is fuzzed the day it is added. Each case is one request
// (app.inject) with any mix of: odd path ids, odd and duplicated query parameters, JSON / form /
// raw / malformed / oversize bodies under several content types, wrong types, huge strings,
// unicode, negative and huge amounts, missing and extra fields, keys of every kind, odd
// Idempotency-Keys. Every answer must be below 500, every error exactly {errors:[{code,message,…}]}
// with the catalogue's status for its code, and a refused request must leave every table as it was.
//
// Then the limits of the HTTP layer against a real listening server: the 256 KiB body limit,
// malformed HTTP, and slow-loris connections against the configured request timeout.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createKeySet, createMerchant } from '../../server/domain/keys.js';
import { BATCH_BODY_LIMIT } from '../../server/domain/updater.js';
import { CATALOGUE } from '../../server/errors.js';
import { ROOT } from '../../server/paths.js';
import { Merchant, TestGateway, bank, basic, startGateway, visa } from '../helpers/gateway.js';
import { Route, idsFor, routesOf, seedTest } from './routes.js';
import { Client, FULL, ServerProcess, WriteProbe, errorShapeProblem, figure, probe, spawnServer, tableNames, writtenSince } from './helpers.js';

const SEED = Number(process.env.PROOF_SEED ?? 20_261_122);
/** Cases per operation. */
const RUNS = Number(process.env.PROOF_FUZZ_RUNS ?? (FULL ? 400 : 50));
const BODY_LIMIT = 256 * 1024;

// ---------------------------------------------------------------------------------------------
// The operations, from the published document

/**
 * Field names worth sending: every property named in the document's body schemas, every
 * `body.<name>` the server's source reads, and the spec's names. New fields join by themselves.
 */
function fieldNames(doc: any): string[] {
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
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.ts')) {
        for (const m of readFileSync(p, 'utf8').matchAll(/\b(?:body|input|query)\??\.([a-z][a-z0-9_]{1,40})\b/g)) names.add(m[1]);
      }
    }
  };
  walk(join(ROOT, 'server'));
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

type Auth = 'sk' | 'pk' | 'live' | 'none' | 'junk' | 'bearer';
type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; drop: string[]; extra: Record<string, unknown>; base: boolean; ctype: string | null }
  | { kind: 'form'; drop: string[]; extra: Record<string, unknown>; base: boolean; ctype: string | null; dup: boolean }
  | { kind: 'raw'; text: string; ctype: string | null };

interface Case {
  auth: Auth;
  params: { value: string; raw: boolean }[];
  query: { base: boolean; pairs: [string, unknown][]; raw: string | null };
  body: BodySpec;
  idem: string | null;
}

// ---------------------------------------------------------------------------------------------
// The gateway under test, its merchants and the records the cases point at

let gw: TestGateway;
let A: Merchant;
let tables: string[];
let doc: any;
let routes: Route[];
let fields: string[];
const stats = { cases: 0, byStatus: {} as Record<string, number>, codes: {} as Record<string, number>, rejected: 0, accepted: 0, proc01: 0, perRoute: {} as Record<string, number> };

const timing = { seed: 0, ids: 0, materialize: 0, probe: 0, inject: 0 };
const inject = (opts: InjectOptions) => gw.app.inject(opts);

async function post(url: string, key: string, payload: object) {
  const res = await inject({ method: 'POST', url: `/api/v1${url}`, headers: basic(key), payload });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

async function freshToken(m: Merchant = A, data: object = visa) {
  return (await post('/tokens', m.test.public_key, data)).id as string;
}

/** Records for merchant A (test), so path ids can name real things. Called before each operation's run. */
const seed = () => seedTest(gw.app.inject.bind(gw.app), A);
const idsOfA = (route: Route, i: number, chosen: string[]) =>
  idsFor(gw.app.inject.bind(gw.app), gw.db, { id: A.id, key: A.test.private_key, env: 'test', publicKey: A.test.public_key }, route, i, chosen);

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

function caseArb(route: Route, realIds: string[][]): fc.Arbitrary<Case> {
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

/** Replaces placeholders with fresh records (made before the "before" probe). */
async function resolve(v: unknown, cache: Map<string, string>): Promise<unknown> {
  if (typeof v === 'string' && v.startsWith('$')) {
    if (cache.has(v)) return cache.get(v);
    let out: string;
    if (v === '$TOKEN') out = await freshToken();
    else if (v === '$BANK_TOKEN') out = await freshToken(A, bank);
    else if (v === '$USED_TOKEN') {
      out = await freshToken();
      await post('/charge', A.test.private_key, { token: out, amount: 101 });
    } else if (v === '$PK') out = A.test.public_key;
    else if (v === '$SK') out = A.test.private_key;
    else return v;
    cache.set(v, out);
    return out;
  }
  if (Array.isArray(v)) return Promise.all(v.map((x) => resolve(x, cache)));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      // Own data property even for "__proto__": a plain assignment would set the prototype instead.
      Object.defineProperty(out, k, { value: await resolve(x, cache), enumerable: true, configurable: true, writable: true });
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

async function materialize(route: Route, c: Case, keys: { sk: string; pk: string; live: string }) {
  const cache = new Map<string, string>();
  let path = route.path;
  route.params.forEach((p, i) => {
    const { value, raw } = c.params[i];
    path = path.replace(`{${p}}`, raw ? value : enc(value));
  });
  const q: string[] = [];
  if (c.query.base) for (const [k, v] of Object.entries(baseQuery(route))) q.push(`${enc(k)}=${enc(String(await resolve(v, cache)))}`);
  else if (route.path === '/tokens/jsonp') q.push('callback=cb'); // mostly a valid callback, or the case ends at JSONP01
  for (const [k, v] of c.query.pairs) {
    const val = await resolve(v, cache);
    if (Array.isArray(val)) for (const x of val) q.push(`${enc(k)}=${enc(String(x))}`);
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
    const value = (await resolve(merge(baseBody(route), b.drop, b.extra, b.base), cache)) as Record<string, unknown>;
    payload = b.kind === 'json' ? JSON.stringify(value) : formEncode(value, b.dup);
    if (b.ctype) headers['content-type'] = b.ctype;
  } else if (b.kind === 'raw') {
    payload = b.text;
    if (b.ctype) headers['content-type'] = b.ctype;
  }
  return { method: route.method, url, headers, payload };
}

const JSONP = /^\/\*\*\/([\w$.]+)\(([\s\S]*)\);$/;

/** Checks one answer; returns what is wrong, or null. */
async function verdict(route: Route, c: Case, res: { statusCode: number; body: string; headers: Record<string, unknown> }, before: WriteProbe): Promise<string | null> {
  const status = res.statusCode;
  let errorBody: any = null;
  let parsed: any = null;
  if (route.path === '/tokens/jsonp' && status === 200) {
    const m = JSONP.exec(res.body);
    if (!m) return `JSONP body is not /**/cb(json); : ${res.body.slice(0, 200)}`;
    parsed = JSON.parse(m[2]);
    if (parsed.errors) errorBody = parsed;
    if (res.headers['content-type'] !== 'application/javascript; charset=utf-8') return `JSONP content type ${res.headers['content-type']}`;
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
      const changed = (await writtenSince(gw.db, tables, before)).filter((t) => !ignore.includes(t));
      if (changed.length) return `refused (${status} ${errorBody.errors[0].code}) but wrote to ${changed.join(', ')}`;
    }
  } else {
    if (status >= 300) return `status ${status} without an error body`;
    stats.accepted++;
  }
  return null;
}

function describeCase(req: { method: string; url: string; headers: Record<string, string>; payload?: string }): string {
  const h = { ...req.headers };
  if (h.authorization) h.authorization = h.authorization.slice(0, 14) + '…';
  const p = req.payload === undefined ? '' : ` body(${req.payload.length})=${JSON.stringify(req.payload.slice(0, 300))}`;
  return `${req.method} ${req.url.slice(0, 300)} ${JSON.stringify(h)}${p}`;
}

// ---------------------------------------------------------------------------------------------

let server: ServerProcess;
let dataDir: string;
let loris: Promise<{ kind: string; response: string; closedAfterMs: number }[]>;
const LORIS = 8; // slow-loris connections of each kind

beforeAll(async () => {
  // The real server of the last block starts first, so its slow-loris clock runs during the fuzzing.
  dataDir = mkdtempSync(join(tmpdir(), 'tessera-fuzz-'));
  server = await spawnServer({ dataDir });
  // Slow-loris connections open now and are judged at the end of the file (requestTimeout is 30 s).
  const kinds: [string, string, string | undefined][] = [
    ['idle (no byte sent)', '', undefined],
    ['headers trickled', 'GET /api/v1/transactions HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n'],
    // Once the headers are in, Node cuts at twice requestTimeout (60 s): PROOF_FULL only, for time.
    ...(FULL ? [['body trickled', 'POST /api/v1/charge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":"', 'xxxx']] as [string, string, string][] : []),
  ];
  loris = Promise.all(kinds.flatMap(([kind, start, trickle]) =>
    Array.from({ length: LORIS }, () => raw(server.url, start, { trickle, everyMs: 2000, maxMs: 120_000 }).then((r) => ({ kind, ...r })))));
  gw = await startGateway();
  A = gw.merchant;
  doc = (await inject({ url: '/api/v1/openapi.json' })).json();
  routes = routesOf(doc);
  fields = fieldNames(doc);
  tables = await tableNames(gw.db);
});
afterAll(async () => {
  await gw?.close();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('fuzzing every operation of openapi.json', () => {
  test('the document lists the operations to fuzz', () => {
    expect(routes.length).toBeGreaterThan(20);
    figure('fuzz operations', routes.length);
    figure('fuzz field names', fields.length);
  });

  test('the write probe sees inserts, updates and deletes (and nothing for a read)', async () => {
    let before = await probe(gw.db, tables);
    await inject({ url: '/api/v1/transactions', headers: basic(A.test.private_key) });
    expect(await writtenSince(gw.db, tables, before)).toEqual([]);
    before = await probe(gw.db, tables);
    const token = await freshToken();
    expect(await writtenSince(gw.db, tables, before)).toEqual(['tokens']);
    const customer = await post('/customers', A.test.private_key, { first_name: 'Probe', token });
    before = await probe(gw.db, tables);
    await gw.db.query('UPDATE customers SET first_name = $1 WHERE id = $2', ['Probed', customer.id]);
    expect(await writtenSince(gw.db, tables, before)).toEqual(['customers']);
    await seed();
    before = await probe(gw.db, tables);
    await gw.db.query(`DELETE FROM refunds WHERE id IN (SELECT id FROM refunds LIMIT 1)`);
    expect(await writtenSince(gw.db, tables, before)).toEqual(['refunds']);
  });

  test(`${RUNS} cases per operation (seed ${SEED}): no 5xx, catalogue errors only, nothing written when refused`, async () => {
    const t0 = Date.now();
    for (const route of routes) {
      if (route.path === '/openapi.json') continue;
      let tt = Date.now();
      if (route.params.length || route.method !== 'GET') await seed();
      timing.seed += Date.now() - tt;
      tt = Date.now();
      const realIds: string[][] = [];
      for (let i = 0; i < route.params.length; i++) realIds.push(await idsOfA(route, i, realIds.map((ids) => ids[0])));
      timing.ids += Date.now() - tt;
      // Operations that change the caller itself (test-clock moves, resets, key rotation) run as a merchant of their own.
      const own = /test_helpers|\/keys\b/.test(route.path);
      let keys = { sk: A.test.private_key, pk: A.test.public_key, live: A.live.private_key };
      const label = `${route.method} ${route.path}`;
      let n = 0;
      await fc.assert(
        fc.asyncProperty(caseArb(route, realIds), async (c) => {
          if (own) {
            const m = await createMerchant(gw.db, 'Fuzz own', gw.clock.now());
            const t = await createKeySet(gw.db, { merchantId: m, env: 'test' }, gw.clock.now());
            const l = await createKeySet(gw.db, { merchantId: m, env: 'live' }, gw.clock.now());
            keys = { sk: t.private_key, pk: t.public_key, live: l.private_key };
          }
          let tt = Date.now();
          const req = await materialize(route, c, keys);
          timing.materialize += Date.now() - tt;
          tt = Date.now();
          const before = await probe(gw.db, tables);
          timing.probe += Date.now() - tt;
          tt = Date.now();
          let res;
          try {
            res = await inject(req);
          } catch (err) {
            throw new Error(`inject failed: ${(err as Error).message} for ${describeCase(req)}`);
          }
          timing.inject += Date.now() - tt;
          n++;
          stats.cases++;
          stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
          tt = Date.now();
          const wrong = await verdict(route, c, res as any, before);
          timing.probe += Date.now() - tt;
          if (wrong) throw new Error(`${label}: ${wrong}\n  request: ${describeCase(req)}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      stats.perRoute[label] = n;
    }
    const seconds = (Date.now() - t0) / 1000;
    figure('fuzz cases', { total: stats.cases, operations: Object.keys(stats.perRoute).length, per_operation: RUNS, seed: SEED, seconds });
    figure('fuzz statuses', stats.byStatus);
    figure('fuzz time split ms', timing);
    figure('fuzz outcomes', { accepted: stats.accepted, refused: stats.rejected, live_proc01_503: stats.proc01 });
    figure('fuzz error codes', stats.codes);
    expect(stats.cases).toBeGreaterThanOrEqual((routes.length - 1) * RUNS);
  }, 600_000);
});

// ---------------------------------------------------------------------------------------------
// Body size limit: every POST operation, three encodings, on both sides of 256 KiB

/** A body of exactly `size` bytes in the given encoding. */
function sized(kind: 'json' | 'form' | 'bare', size: number): { payload: string; headers: Record<string, string> } {
  if (kind === 'form') {
    const head = 'description=';
    return { payload: head + 'x'.repeat(size - head.length), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  const head = '{"description":"';
  const tail = '"}';
  return { payload: head + 'x'.repeat(size - head.length - tail.length) + tail, headers: kind === 'json' ? { 'content-type': 'application/json' } : {} };
}

/** Operations with a limit of their own (docs/decisions.md: the account updater's batches). */
const ROUTE_LIMITS: Record<string, number> = { '/tokens/update': BATCH_BODY_LIMIT };

describe('body size limit (256 KiB)', () => {
  test('every POST operation: at the limit the body is read; one byte over is 413 REQ02 and nothing is written', async () => {
    const posts = routes.filter((r) => r.method === 'POST');
    let checked = 0;
    for (const route of posts) {
      const path = route.path.replace(/\{\w+\}/g, 'x0');
      const limit = ROUTE_LIMITS[route.path] ?? BODY_LIMIT;
      // POST /dashboard/keys rotates the calling key set (the old one expires at once), and keys are
      // checked before bodies: give each of its requests a merchant of its own.
      const key = async () => (route.path === '/dashboard/keys' ? (await gw.newMerchant()).test.private_key : A.test.private_key);
      for (const kind of ['json', 'form', 'bare'] as const) {
        const at = sized(kind, limit);
        expect(Buffer.byteLength(at.payload)).toBe(limit);
        const ok = await inject({ method: 'POST', url: `/api/v1${path}`, headers: { ...basic(await key()), ...at.headers }, payload: at.payload });
        expect(ok.statusCode, `${route.path} ${kind} at the limit`).not.toBe(413);
        expect(ok.statusCode).toBeLessThan(500);
        const over = sized(kind, limit + 1);
        const overKey = await key();
        const before = await probe(gw.db, tables);
        const res = await inject({ method: 'POST', url: `/api/v1${path}`, headers: { ...basic(overKey), ...over.headers }, payload: over.payload });
        expect(res.statusCode, `${route.path} ${kind} over the limit`).toBe(413);
        expect(res.json()).toEqual({ errors: [{ code: 'REQ02', message: expect.any(String) }] });
        expect(await writtenSince(gw.db, tables, before)).toEqual([]);
        checked++;
      }
    }
    figure('body limit checks', { operations: posts.length, over_limit_requests: checked });
  });

  test('the configured limits and timeouts', () => {
    const cfg = gw.app.initialConfig;
    expect(cfg.bodyLimit).toBe(BODY_LIMIT);
    expect((cfg as { requestTimeout?: number }).requestTimeout).toBe(30_000);
    expect(gw.app.server.requestTimeout).toBe(30_000);
    // headersTimeout (Node's 60 s) never acts: requestTimeout covers the headers too and ends first.
    expect(gw.app.server.headersTimeout).toBeGreaterThanOrEqual(gw.app.server.requestTimeout);
    expect(cfg.keepAliveTimeout).toBe(72_000);
    figure('timeouts', { requestTimeout: (cfg as { requestTimeout?: number }).requestTimeout, headersTimeout: gw.app.server.headersTimeout, keepAliveTimeout: cfg.keepAliveTimeout, connectionTimeout: cfg.connectionTimeout, bodyLimit: cfg.bodyLimit });
  });
});

// ---------------------------------------------------------------------------------------------
// The HTTP layer of a real listening server (`tessera serve`): what inject cannot reach

function raw(url: string, text: string | Buffer, opts: { trickle?: string; everyMs?: number; maxMs?: number } = {}): Promise<{ response: string; closedAfterMs: number }> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const t0 = Date.now();
    const socket = net.connect(Number(u.port), u.hostname, () => {
      if (text.length) socket.write(text);
    });
    let response = '';
    const timer = opts.trickle ? setInterval(() => socket.writable && socket.write(opts.trickle!), opts.everyMs ?? 2000) : null;
    const guard = setTimeout(() => socket.destroy(), opts.maxMs ?? 10_000);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (response += d));
    socket.on('error', () => {});
    socket.on('close', () => {
      if (timer) clearInterval(timer);
      clearTimeout(guard);
      resolve({ response, closedAfterMs: Date.now() - t0 });
    });
  });
}

function parseRaw(response: string): { status: number; body: any } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
  const text = response.slice(response.indexOf('\r\n\r\n') + 4);
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status, body };
}

describe('a real listening server', () => {
  test('body over 256 KiB, with Content-Length or chunked: 413 REQ02', async () => {
    const client = new Client(server.url, 4);
    const big = JSON.stringify({ description: 'x'.repeat(BODY_LIMIT) });
    const res = await client.request({ method: 'POST', path: '/api/v1/charge', headers: basic(server.privateKey!), body: big + '' });
    client.close();
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ errors: [{ code: 'REQ02', message: expect.any(String) }] });
    const chunk = 'x'.repeat(16_384);
    const chunks = Array.from({ length: 20 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const chunked = await raw(server.url, `POST /api/v1/charge HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(server.privateKey!).authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`);
    const r = parseRaw(chunked.response);
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ errors: [{ code: 'REQ02', message: expect.any(String) }] });
  });

  test('malformed HTTP is answered in the catalogue shape, never Fastify\'s or Node\'s', async () => {
    const cases: [string, string, number, string][] = [
      ['garbage request line', 'GARBAGE\r\n\r\n', 400, 'REQ01'],
      ['headers over 16 KiB', `GET /api/v1/transactions HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'REQ05'],
      ['undecodable URL', 'GET /api/v1/charge/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400, 'REQ01'],
      ['truncated percent-encoding', 'GET /api/v1/charge/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400, 'REQ01'],
      ['path parameter over 100 characters', `GET /api/v1/charge/${'a'.repeat(150)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 400, 'REQ01'],
      ['Content-Length and chunked together', 'POST /api/v1/charge HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'REQ01'],
      ['bad chunk size', 'POST /api/v1/charge HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n', 400, 'REQ01'],
      ['NUL in a header', 'GET /api/v1/transactions HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n', 400, 'REQ01'],
    ];
    for (const [name, text, status, code] of cases) {
      const r = parseRaw((await raw(server.url, text)).response);
      expect(r.status, name).toBe(status);
      expect(r.body, name).toEqual({ errors: [{ code, message: expect.any(String) }] });
    }
    figure('malformed HTTP cases', cases.length);
  });

  test('slow-loris connections are cut with 408 REQ04 by the request timeout; the server keeps serving', async () => {
    const client = new Client(server.url, 2);
    const t0 = Date.now();
    const ready = await client.request({ path: '/readyz' });
    expect(ready.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(2000);
    client.close();
    const results = await loris;
    const kinds = [...new Set(results.map((r) => r.kind))];
    const summary = Object.fromEntries(kinds.map((k) => {
      const ms = results.filter((r) => r.kind === k).map((r) => r.closedAfterMs);
      return [k, { connections: ms.length, min_ms: Math.min(...ms), max_ms: Math.max(...ms) }];
    }));
    figure('slow-loris', summary);
    for (const r of results) {
      // requestTimeout 30 s, checked every second (app.ts: connectionsCheckingInterval); a request
      // whose headers are complete is cut at the second check of its deadline (60 s).
      expect(r.closedAfterMs, r.kind).toBeGreaterThanOrEqual(29_000);
      expect(r.closedAfterMs, r.kind).toBeLessThan(r.kind === 'body trickled' ? 63_000 : 33_000);
      const p = parseRaw(r.response);
      expect(p.status, r.kind).toBe(408);
      expect(p.body, r.kind).toEqual({ errors: [{ code: 'REQ04', message: expect.any(String) }] });
    }
  }, 120_000);
});
