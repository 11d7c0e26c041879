// Access: a matrix over every operation of /api/v1/openapi.json. No key, a bad key, an expired
// key, a public key on a private route: refused with 401 AUTH01 / 403 AUTH02. Another merchant's
// ids, and one environment's ids under the other environment's key: answered exactly as an id that
// does not exist (no existence oracle), with the resource's not-found code. Every refusal writes
// nothing and its body names nothing of the merchant it protects.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createKeySet, createMerchant, KeySet } from '../../server/domain/merchant/keys.js';
import { CATALOGUE } from '../../server/errors.js';
import { Merchant, TestGateway, basic, startGateway, visa } from '../helpers/gateway.js';
import { errorShapeProblem, figure, probe, tableNames, writtenSince } from './helpers.js';
import { Route, idsFor, lookalike, minimalBody, postOk, routesOf, seedTest } from './routes.js';

const LIVE_CARD = { ...visa, card_number: '4012888888881881' }; // a real-looking number: live mode only

let gw: TestGateway;
let A: Merchant;
let B: Merchant;
let expired: KeySet;
let routes: Route[];
/** /api/v1/openapi.json: each not-found answer must be one it documents. */
let doc: any;
let tables: string[];
/** Strings that belong to merchant A and must never reach anyone else. */
let secretsOfA: string[];
const figures = { requests: 0, refusals: 0, routes: 0, crossRoutes: 0, byCode: {} as Record<string, number> };

const inject = (opts: InjectOptions) => gw.app.inject(opts);

beforeAll(async () => {
  gw = await startGateway();
  A = gw.merchant;
  B = gw.other;
  const now = gw.clock.now();
  // A merchant whose only key set was replaced: its old keys are expired.
  const e = await createMerchant(gw.db, 'Expired keys', now);
  expired = await createKeySet(gw.db, { merchantId: e, env: 'test' }, now);
  await createKeySet(gw.db, { merchantId: e, env: 'test' }, now, 'now');
  gw.clock.advance(1000);
  await seedTest(inject, A, 'Zanzibar');
  await seedTest(inject, B, 'Other');
  // A's live records: tokens, a customer, a template (live charges need a processor: PROC01).
  const liveToken = async () => (await postOk(inject, '/tokens', A.live.public_key, LIVE_CARD)).id as string;
  await postOk(inject, '/customers', A.live.private_key, { first_name: 'Zanzibar', last_name: 'Live', token: await liveToken() });
  await postOk(inject, '/receipts/templates', A.live.private_key, { name: 'Zanzibar live', receipt_text: 'Live [Amount]' });
  await liveToken();
  doc = (await inject({ url: '/api/v1/openapi.json' })).json();
  routes = routesOf(doc);
  tables = await tableNames(gw.db);
  secretsOfA = [A.id, A.test.private_key, A.test.public_key, A.live.private_key, A.live.public_key, 'Zanzibar', 'zanzibar@example.com'];
});
afterAll(() => gw?.close());

interface Call {
  route: Route;
  path: string;
  headers: Record<string, string>;
  query?: string;
}

async function send(c: Call) {
  const hasBody = c.route.method === 'POST' || c.route.method === 'DELETE';
  const res = await inject({
    method: c.route.method as any,
    url: `/api/v1${c.path}${c.query ? `?${c.query}` : ''}`,
    headers: c.headers,
    ...(hasBody ? { payload: minimalBody(c.route.body) } : {}),
  });
  figures.requests++;
  return res;
}

/** Refused, in the catalogue shape, with nothing of A in it and nothing written. */
async function expectRefused(c: Call, status: number, code: string, what: string) {
  const before = await probe(gw.db, tables);
  const res = await send(c);
  const label = `${what}: ${c.route.method} ${c.path}`;
  expect(res.statusCode, `${label} → ${res.body}`).toBe(status);
  const body = res.json();
  expect(errorShapeProblem(body), label).toBeNull();
  expect(body.errors[0].code, label).toBe(code);
  expect(Object.keys(body.errors[0]).sort(), `${label}: no extra fields`).toEqual(['code', 'message']);
  for (const s of secretsOfA) expect(res.body, `${label} leaks ${s}`).not.toContain(s);
  expect(await writtenSince(gw.db, tables, before), `${label} wrote`).toEqual([]);
  figures.refusals++;
  figures.byCode[code] = (figures.byCode[code] ?? 0) + 1;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

async function pathFor(route: Route, m: { id: string; key: string; env: 'test' | 'live'; publicKey: string }): Promise<string | null> {
  const chosen: string[] = [];
  for (let i = 0; i < route.params.length; i++) {
    const ids = await idsFor(inject, gw.db, m, route, i, chosen);
    if (!ids.length) return null;
    chosen.push(ids[0]);
  }
  let path = route.path;
  route.params.forEach((p, i) => (path = path.replace(`{${p}}`, encodeURIComponent(chosen[i]))));
  return path;
}

describe('every operation refuses callers without a valid key of the right kind', () => {
  test('no key, bad keys, expired keys: 401 AUTH01; a public key on a private route: 403 AUTH02', async () => {
    const noKey = [
      ['no Authorization', {}],
      ['unknown key of the right shape', basic(`test_sk_${'0'.repeat(55)}`)],
      ['malformed key', basic('not-a-key')],
      ['Bearer scheme', { authorization: `Bearer ${A.test.private_key}` }],
      ['key as password', { authorization: `Basic ${b64(`:${A.test.private_key}`)}` }],
      ['expired private key', basic(expired.private_key)],
      ['expired public key', basic(expired.public_key)],
    ] as const;
    for (const route of routes) {
      if (route.access === 'none') continue; // the JSONP route and the document: below
      figures.routes++;
      // A's real ids where the path has any: a refusal must not depend on the record existing.
      const path = (await pathFor(route, { id: A.id, key: A.test.private_key, env: 'test', publicKey: A.test.public_key })) ?? route.path.replace(/\{\w+\}/g, 'x');
      for (const [what, headers] of noKey) await expectRefused({ route, path, headers: { ...headers } }, 401, 'AUTH01', what);
      if (route.access === 'private') {
        await expectRefused({ route, path, headers: basic(A.test.public_key) }, 403, 'AUTH02', 'public test key');
        await expectRefused({ route, path, headers: basic(A.live.public_key) }, 403, 'AUTH02', 'public live key');
      }
    }
    expect(figures.routes).toBeGreaterThan(20);
  });

  test('JSONP: no, bad or expired public key, and a private key, all answer the same AUTH01 through the callback', async () => {
    // A private key gets no answer of its own (that would confirm it is valid); it is recorded as
    // exposed on its own row (api_keys.exposed_at) for the merchant's dashboard, and nothing else.
    const cases: [string, string | null, string, string[]][] = [
      ['no key', null, 'AUTH01', []], ['bad key', `test_pk_${'0'.repeat(55)}`, 'AUTH01', []], ['expired key', expired.public_key, 'AUTH01', []],
      ['private key', A.test.private_key, 'AUTH01', ['api_keys']], ['live private key', A.live.private_key, 'AUTH01', ['api_keys']],
    ];
    const bodies = new Set<string>();
    for (const [what, key, code, writes] of cases) {
      const q = new URLSearchParams({ ...Object.fromEntries(Object.entries(visa).map(([k, v]) => [k, String(v)])), callback: 'cb', ...(key ? { public_api_key: key } : {}) });
      const before = await probe(gw.db, tables);
      const res = await inject({ url: `/api/v1/tokens/jsonp?${q}` });
      figures.requests++;
      expect(res.statusCode, what).toBe(200);
      const arg = JSON.parse(/^\/\*\*\/cb\(([\s\S]*)\);$/.exec(res.body)![1]);
      expect(arg, what).toEqual({ errors: [{ code, message: expect.any(String) }] });
      for (const s of secretsOfA) expect(res.body, what).not.toContain(s);
      expect(await writtenSince(gw.db, tables, before), what).toEqual(writes);
      if (key) bodies.add(res.body);
    }
    expect(bodies.size).toBe(1);
  });
});

describe('ids never cross merchants or environments', () => {
  test('another merchant\'s ids, and test ids under the live key, answer exactly like ids that do not exist', async () => {
    const table: Record<string, string> = {};
    const asA = { id: A.id, key: A.test.private_key, env: 'test' as const, publicKey: A.test.public_key };
    const liveA = { id: A.id, key: A.live.private_key, env: 'live' as const, publicKey: A.live.public_key };
    const untested: string[] = [];
    for (const route of routes.filter((r) => r.params.length && r.access !== 'none')) {
      const real = await pathFor(route, asA);
      if (!real) {
        untested.push(`${route.method} ${route.path}`);
        continue;
      }
      figures.crossRoutes++;
      // What a caller gets for an id that does not exist (same shape): the answer to match.
      const ghost = '/' + real.split('/').slice(1).map((seg, i) => (route.path.split('/')[i + 1].startsWith('{') ? lookalike(decodeURIComponent(seg)) : seg)).join('/');
      const notFound = await send({ route, path: ghost, headers: basic(A.test.private_key) });
      const code = notFound.json().errors?.[0]?.code;
      expect(notFound.statusCode, `${route.method} ${ghost}: ${notFound.body}`).toBeGreaterThanOrEqual(400);
      expect(CATALOGUE[code as keyof typeof CATALOGUE], code).toBeDefined();
      expect(code, `${route.method} ${route.path}: the router must not answer for it`).not.toBe('NOTFOUND');
      table[`${route.method} ${route.path}`] = `${notFound.statusCode} ${code}`;
      expect(doc.paths[route.path][route.method.toLowerCase()].responses[notFound.statusCode]?.description ?? '', `${route.method} ${route.path}: ${code} documented`)
        .toContain(`\`${code}\``);
      // Merchant B, and A's own live key, on A's test records.
      await expectRefused({ route, path: real, headers: basic(B.test.private_key) }, notFound.statusCode, code, 'other merchant');
      await expectRefused({ route, path: real, headers: basic(B.live.private_key) }, notFound.statusCode, code, 'other merchant live');
      await expectRefused({ route, path: real, headers: basic(A.live.private_key) }, notFound.statusCode, code, 'own live key on test ids');
      // A's live records under A's test key, where the resource exists in live mode.
      const live = await pathFor(route, liveA);
      if (live) await expectRefused({ route, path: live, headers: basic(A.test.private_key) }, notFound.statusCode, code, 'test key on live ids');
    }
    figure('access not-found answers by operation', table);
    if (untested.length) figure('access: operations without records to point at (generic checks only)', untested);
    // A resource read by its id answers 404: the record named in the path is not found.
    for (const [op, answer] of Object.entries(table)) if (op.startsWith('GET ')) expect(answer, op).toMatch(/^404 /);
  });

  test('ids in bodies: another merchant\'s token, customer or template is refused as unknown, and stays untouched', async () => {
    const a = await seedTest(inject, A, 'Zanzibar');
    const b = await seedTest(inject, B, 'Other');
    const sk = B.test.private_key;
    const cases: [string, object, number, string][] = [
      ['/charge', { token: a.token, amount: 500 }, 400, '69201'],
      ['/charge', { customer_id: a.customer, amount: 500 }, 400, '34798'],
      ['/customers', { first_name: 'Thief', token: a.token }, 400, '23489'],
      [`/customers/${b.customer}/methods`, { token: a.token }, 400, '23489'],
      [`/charge/${b.charge}/receipt`, { email_address: 'thief@example.com', receipt_template_id: a.template }, 404, '10300'],
      ['/settings', { default_receipt_template_id: a.template }, 404, '10300'],
    ];
    for (const [url, payload, status, code] of cases) {
      const before = await probe(gw.db, tables);
      const res = await inject({ method: 'POST', url: `/api/v1${url}`, headers: basic(sk), payload });
      figures.requests++;
      expect(res.statusCode, `${url} ${res.body}`).toBe(status);
      expect(res.json()).toEqual({ errors: [{ code, message: expect.any(String) }] });
      for (const s of secretsOfA) expect(res.body).not.toContain(s);
      expect(await writtenSince(gw.db, tables, before), url).toEqual([]);
    }
    // DELETE /customers takes its id in the query string or the body (spec 4.5).
    for (const how of ['query', 'body'] as const) {
      const before = await probe(gw.db, tables);
      const res = await inject({
        method: 'DELETE', url: `/api/v1/customers${how === 'query' ? `?id=${a.customer}` : ''}`, headers: basic(sk),
        ...(how === 'body' ? { payload: { id: a.customer } } : {}),
      });
      figures.requests++;
      expect(res.statusCode, `DELETE /customers by ${how}: ${res.body}`).toBe(404);
      expect(res.json()).toEqual({ errors: [{ code: '17001', message: expect.any(String) }] });
      expect(await writtenSince(gw.db, tables, before)).toEqual([]);
    }
    expect((await inject({ url: `/api/v1/customers/${a.customer}`, headers: basic(A.test.private_key) })).statusCode, 'A\'s customer is still there').toBe(200);
    const token = await inject({ url: `/api/v1/tokens/${a.token}`, headers: basic(A.test.private_key) });
    expect(token.json().used, 'A\'s token is still usable').toBe(false);
    figure('access', { ...figures, body_id_cases: cases.length + 2 });
  });
});
