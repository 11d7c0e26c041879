// Hostile values on every body field of every write operation (issue 15): objects with an own
// toString / valueOf, arrays, a body with an own "__proto__", ill-formed UTF-16 and the public Big
// List of Naughty Strings, as JSON and as forms. One field changes per request, the rest of the
// body is valid, so the value reaches the reader of that field whatever order the checks run in.
// Every answer must be below 500 in the catalogue's shape, and a refusal must write nothing.
// Requests and 5xx are counted and reported (figure lines); the 5xx count must be 0.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { CATALOGUE } from '../../server/errors.js';
import { Merchant, TestGateway, basic, startGateway } from '../helpers/gateway.js';
import { fieldNames } from './fuzz-cases.js';
import { errorShapeProblem, figure, probe, tableNames, writtenSince } from './helpers.js';
import { FORM_HOSTILE, ILL_FORMED, JSON_ENCODED_HOSTILE, JSON_HOSTILE, NAUGHTY, bank, formEncode, leafPaths, moreBodies, validBody, visa, withValue } from './hostile-cases.js';
import { Route, idsFor, routesOf, seedTest } from './routes.js';

let gw: TestGateway;
let A: Merchant;
let tables: string[];
let routes: Route[];
let reads: Route[];
let fields: string[];
const stats = { requests: 0, fiveXX: 0, refused: 0, accepted: 0, byStatus: {} as Record<string, number> };
const failures: string[] = [];
/** Refusals whose code openapi.json does not list under that status for the operation. */
const undocumented = new Set<string>();
let doc: any;
/** Naughty strings per field an operation reads (the corpus cycles across fields and operations). */
const NAUGHTY_PER_FIELD = 6;

beforeAll(async () => {
  gw = await startGateway();
  A = gw.merchant;
  doc = (await gw.app.inject({ url: '/api/v1/openapi.json' })).json();
  // Deletes of a record named in the path read no body (and would remove the records the rest use).
  routes = routesOf(doc).filter((r) => r.method !== 'GET' && !(r.method === 'DELETE' && r.params.length));
  // Reads with a JSON answer (the JSONP route answers script; fuzz.test.ts covers it).
  reads = routesOf(doc).filter((r) => r.method === 'GET' && r.path !== '/tokens/jsonp' && r.path !== '/openapi.json');
  fields = fieldNames(doc);
  tables = await tableNames(gw.db);
});
afterAll(async () => {
  await gw?.close();
});
beforeEach(() => undocumented.clear());

const inject = (opts: InjectOptions) => gw.app.inject(opts);

async function post(url: string, key: string, payload: object) {
  const res = await inject({ method: 'POST', url: `/api/v1${url}`, headers: basic(key), payload });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

interface Target {
  route: Route;
  url: string;
  key: string;
  base: Record<string, unknown>;
  methodId: string;
  publicKey: string;
}

/** Fresh records for the placeholders of a body (made before the write probe). */
async function materialize(t: Target, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const json = JSON.stringify(body);
  if (!json.includes('"$')) return body;
  const swap = async (v: unknown): Promise<unknown> => {
    if (v === '$TOKEN') return (await post('/tokens', t.publicKey, visa)).id;
    if (v === '$BANK_TOKEN') return (await post('/tokens', t.publicKey, bank)).id;
    if (v === '$METHOD') return t.methodId;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: await swap(x), enumerable: true, configurable: true, writable: true });
      return out;
    }
    return v;
  };
  return (await swap(body)) as Record<string, unknown>;
}

interface Answer {
  status: number;
  code?: string;
  message: string;
}

/** One request; its verdict is recorded in `failures` (all of them, not only the first). */
async function send(t: Target, what: string, payload: string | undefined, contentType: string | null, query = ''): Promise<Answer> {
  const before = await probe(gw.db, tables);
  const headers = { ...basic(t.key), ...(contentType ? { 'content-type': contentType } : {}) };
  const res = await inject({ method: t.route.method as 'POST', url: t.url + query, headers, payload });
  stats.requests++;
  stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
  const label = `${t.route.method} ${t.route.path} ${what}`;
  const answer: Answer = { status: res.statusCode, message: '' };
  if (res.statusCode >= 500) {
    stats.fiveXX++;
    failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    return answer;
  }
  if (res.statusCode < 400) {
    stats.accepted++;
    return answer;
  }
  stats.refused++;
  const body = res.json();
  const problem = errorShapeProblem(body);
  if (problem) {
    failures.push(`${label}: error body ${problem}`);
    return answer;
  }
  Object.assign(answer, { code: body.errors[0].code, message: body.errors[0].message });
  const entry = (CATALOGUE as Record<string, readonly [number, string]>)[body.errors[0].code];
  if (!entry || entry[0] !== res.statusCode) failures.push(`${label}: code ${body.errors[0].code} with ${res.statusCode}`);
  const documented = doc.paths[t.route.path][t.route.method.toLowerCase()].responses[res.statusCode]?.description ?? '';
  if (!documented.includes(`\`${answer.code}\``)) undocumented.add(`${t.route.method} ${t.route.path}: ${res.statusCode} ${answer.code}`);
  if (body.errors.some((e: any) => e.transaction_id)) return answer; // a decline is recorded on purpose
  const changed = await writtenSince(gw.db, tables, before);
  if (changed.length) failures.push(`${label}: refused (${res.statusCode} ${body.errors[0].code}) but wrote to ${changed.join(', ')}`);
  return answer;
}

/** The targets: every write operation (or every read) with real path ids, as merchant A (or a merchant of its own). */
async function targets(routes: Route[]): Promise<Target[]> {
  const seeded = await seedTest(inject, A, 'seed');
  const customer = await post(`/customers/${seeded.customer}`, A.test.private_key, {});
  const strategy = await post('/webhooks/strategies', A.test.private_key, { mode: 'email', email_address: 'relate@example.com' });
  const out: Target[] = [];
  for (const route of routes) {
    // Operations on the caller itself (reset, key rotation, the clock) get a merchant of their own.
    const m = /test_helpers|\/keys\b/.test(route.path) ? await gw.newMerchant() : A;
    const chosen: string[] = [];
    for (let i = 0; i < route.params.length; i++) {
      const ids = await idsFor(inject, gw.db, { id: m.id, key: m.test.private_key, env: 'test', publicKey: m.test.public_key }, route, i, chosen);
      chosen.push(ids[0] ?? 'none');
    }
    // A plan of its own, so the customer is not subscribed to it already (SUB01 comes after every field is read, but still).
    if (route.path === '/plans/{id}/subscription/{customer_id}') chosen[0] = String((await post('/plans', m.test.private_key, { name: 'Hostile', frequency: 'monthly', amount: 900 })).id);
    let path = route.path;
    route.params.forEach((p, i) => (path = path.replace(`{${p}}`, encodeURIComponent(chosen[i]))));
    const ids = { customer: seeded.customer, strategy: strategy.id };
    for (const base of [validBody(route, ids), ...moreBodies(route, ids)]) {
      out.push({ route, url: `/api/v1${path}`, key: m.test.private_key, publicKey: m.test.public_key, methodId: customer.default_method_id, base });
    }
  }
  return out;
}

const formName = (path: string) => path.split('.').map((p, i) => (i ? `[${p}]` : p)).join('');
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

describe('hostile values on every body field of every write operation', () => {
  test('objects with own toString/valueOf, arrays, own __proto__, lone surrogates, naughty strings: no 5xx, nothing written on a refusal', async () => {
    const t0 = Date.now();
    const all = await targets(routes);
    expect(all.length).toBeGreaterThan(25);
    expect(NAUGHTY.length).toBeGreaterThan(400);
    let naughtyAt = 0;
    let hot = 0;
    for (const t of all) {
      const own = [...new Set([...Object.keys(t.base), ...leafPaths(t.base), ...Object.keys(t.route.body?.properties ?? {})])];
      const paths = [...new Set([...own, ...fields])];
      // A body whose own "__proto__" holds hostile fields (JSON.parse makes it an own property).
      await send(t, 'own __proto__', `{"__proto__":{"amount":{"toString":1},"token":{"valueOf":1}},${JSON.stringify(await materialize(t, t.base)).slice(1)}`, JSON_TYPE);
      const base = await send(t, 'valid body', JSON.stringify(await materialize(t, t.base)), JSON_TYPE);
      // Every other field name the gateway knows gets an object with an own toString and valueOf, as
      // JSON and as a form, in groups: a group the operation ignores is answered as the valid body is,
      // in one request; a group with a field it reads is split until that field is found (any 5xx on
      // the way is recorded). The fields it reads then get every class, one request each.
      const signals = (a: Answer, group: string[]) =>
        a.status >= 500 || (a.status >= 400 && (a.code !== base.code || group.some((g) => a.message.includes(g.split('.').pop()!))));
      const read = new Set(own);
      const discover = async (group: string[], kind: 'JSON' | 'form'): Promise<void> => {
        let a: Answer;
        if (kind === 'JSON') {
          let body = t.base;
          for (const g of group) body = withValue(body, g, { toString: 1, valueOf: 1 });
          a = await send(t, `${group.length} fields={toString,valueOf} (JSON): ${group.slice(0, 3).join(',')}…`, JSON.stringify(await materialize(t, body)), JSON_TYPE);
        } else {
          const rest = Object.entries(await materialize(t, t.base)).filter(([k]) => !group.includes(k));
          const payload = [formEncode(Object.fromEntries(rest)), ...group.map((g) => `${encodeURIComponent(`${g}[toString]`)}=x`)].filter(Boolean).join('&');
          a = await send(t, `${group.length} fields[toString] (form): ${group.slice(0, 3).join(',')}…`, payload, FORM_TYPE);
        }
        if (!signals(a, group)) return;
        if (group.length === 1) return void read.add(group[0]);
        await discover(group.slice(0, group.length >> 1), kind);
        await discover(group.slice(group.length >> 1), kind);
      };
      const others = paths.filter((p) => !read.has(p));
      await discover(others, 'JSON');
      await discover(others.filter((p) => !read.has(p)), 'form');
      for (const path of [...read]) {
        hot++;
        for (const [label, value] of JSON_HOSTILE) {
          await send(t, `${path}=${label} (JSON)`, JSON.stringify(await materialize(t, withValue(t.base, path, value))), JSON_TYPE);
        }
        for (const [label, frag] of FORM_HOSTILE) {
          // Nested fields as clients nest them: items[0][description][toString]=x.
          const rest = formEncode(await materialize(t, withValue(t.base, path, undefined)));
          await send(t, `${path}=${label} (form)`, [rest, frag(formName(path))].filter(Boolean).join('&'), FORM_TYPE);
        }
        const lone = ILL_FORMED[hot % ILL_FORMED.length];
        await send(t, `${path}=lone surrogate (JSON)`, JSON.stringify(await materialize(t, withValue(t.base, path, lone))), JSON_TYPE);
        // The same text hidden in a JSON-encoded string, which fields taking lists or objects decode.
        for (const [label, encoded] of JSON_ENCODED_HOSTILE(lone)) {
          await send(t, `${path}=${label} (JSON-encoded)`, JSON.stringify(await materialize(t, withValue(t.base, path, encoded))), JSON_TYPE);
        }
        // The naughty strings, a few per field read, JSON and form in turn.
        for (let k = 0; k < NAUGHTY_PER_FIELD; k++) {
          const s = NAUGHTY[naughtyAt++ % NAUGHTY.length];
          const body = await materialize(t, withValue(t.base, path, s));
          if (naughtyAt % 2) await send(t, `${path}=naughty #${naughtyAt % NAUGHTY.length} (JSON)`, JSON.stringify(body), JSON_TYPE);
          else await send(t, `${path}=naughty #${naughtyAt % NAUGHTY.length} (form)`, formEncode(body), FORM_TYPE);
        }
      }
    }
    const seconds = (Date.now() - t0) / 1000;
    figure('hostile requests', { ...stats, operations: all.length, fields_read: hot, naughty_sent: naughtyAt, seconds });
    figure('hostile statuses', stats.byStatus);
    expect(failures.slice(0, 60)).toEqual([]);
    expect(stats.fiveXX).toBe(0);
    expect([...undocumented], 'every refusal is one openapi.json lists for the operation').toEqual([]);
    // Every string of the corpus was sent at least once.
    expect(naughtyAt).toBeGreaterThanOrEqual(NAUGHTY.length);
  }, 600_000);
});

/** Query names the list filters read, besides the body field names. */
const FILTERS = ['status', 'kind', 'mode', 'type', 'resource', 'customer_id', 'plan_id', 'subscription_id', 'event_id', 'rule_id',
  'strategy_id', 'amount_min', 'amount_max', 'created_from', 'created_to', 'limit', 'offset', 'wait', 'id', 'search_term'];
/** Values that name a property of Object.prototype, and a repeated parameter (a list). */
const PROTO_VALUES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];

describe('prototype names and repeated parameters in the query of every read', () => {
  test('no 5xx, catalogue errors only, nothing written', async () => {
    const all = await targets(reads);
    const before = stats.requests;
    const names = [...new Set([...FILTERS, ...fields])];
    let readNames = 0;
    for (const t of all) {
      const base = await send(t, 'no query', undefined, null);
      const q = (pairs: [string, string][]) => `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
      const found: string[] = [];
      const discover = async (group: string[]): Promise<void> => {
        const a = await send(t, `${group.length} names=constructor`, undefined, null, q(group.map((n) => [n, 'constructor'])));
        if (!(a.status >= 500 || (a.status >= 400 && (a.code !== base.code || group.some((g) => a.message.includes(g)))))) return;
        if (group.length === 1) return void found.push(group[0]);
        await discover(group.slice(0, group.length >> 1));
        await discover(group.slice(group.length >> 1));
      };
      await discover(names);
      readNames += found.length;
      for (const n of found) {
        for (const v of PROTO_VALUES) await send(t, `?${n}=${v}`, undefined, null, q([[n, v]]));
        await send(t, `?${n}=a&${n}=b`, undefined, null, q([[n, 'a'], [n, 'b']]));
      }
    }
    figure('hostile query requests', { requests: stats.requests - before, operations: all.length, names_read: readNames, five_xx_total: stats.fiveXX });
    expect(failures.slice(0, 60)).toEqual([]);
    expect(stats.fiveXX).toBe(0);
    expect([...undocumented], 'every refusal is one openapi.json lists for the operation').toEqual([]);
  }, 300_000);
});
