// Bad input: property-based fuzzing (fast-check, fixed seed) of every operation in
// /api/v1/openapi.json, so a new route is fuzzed the day it is added. Each case is one request
// (app.inject) with any mix of: odd path ids, odd and duplicated query parameters, JSON / form /
// raw / malformed / oversize bodies under several content types, wrong types, huge strings,
// unicode, negative and huge amounts, missing and extra fields, keys of every kind, odd
// Idempotency-Keys. Every answer must be below 500, every error exactly {errors:[{code,message,…}]}
// with the catalogue's status for its code, and a refused request must leave every table as it was.
// How a case is drawn, sent and judged is in fuzz-cases.ts.
//
// Then the limits of the HTTP layer against a real listening server: the 256 KiB body limit,
// malformed HTTP, and slow-loris connections against the configured request timeout.
import { rmSync } from 'node:fs';
import net from 'node:net';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createKeySet, createMerchant } from '../../server/domain/merchant/keys.js';
import { BATCH_BODY_LIMIT } from '../../server/domain/instruments/updater.js';
import { migratedTempDir } from '../helpers/data-template.js';
import { Merchant, TestGateway, bank, basic, startGateway, visa } from '../helpers/gateway.js';
import { Route, idsFor, routesOf, seedTest } from './routes.js';
import { Client, FULL, ServerProcess, figure, probe, spawnServer, tableNames, writtenSince } from './helpers.js';
import { caseArb, describeCase, fieldNames, materialize, verdict } from './fuzz-cases.js';

const SEED = Number(process.env.PROOF_SEED ?? 20_261_122);
/** Cases per operation. */
const RUNS = Number(process.env.PROOF_FUZZ_RUNS ?? (FULL ? 400 : 50));
const BODY_LIMIT = 256 * 1024;

// ---------------------------------------------------------------------------------------------
// The gateway under test, its merchants and the records the cases point at

let gw: TestGateway;
let A: Merchant;
let tables: string[];
let doc: any;
/** Refusals whose code openapi.json does not list under that status for the operation. */
const undocumented = new Set<string>();
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

/** The records behind a case's placeholders, made fresh for each case. */
async function placeholder(name: string): Promise<string | undefined> {
  if (name === '$TOKEN') return freshToken();
  if (name === '$BANK_TOKEN') return freshToken(A, bank);
  if (name === '$USED_TOKEN') {
    const token = await freshToken();
    await post('/charge', A.test.private_key, { token, amount: 101 });
    return token;
  }
  if (name === '$PK') return A.test.public_key;
  if (name === '$SK') return A.test.private_key;
  return undefined;
}

// ---------------------------------------------------------------------------------------------

let server: ServerProcess;
let dataDir: string;
let loris: Promise<{ kind: string; response: string; closedAfterMs: number }[]>;
const LORIS = 8; // slow-loris connections of each kind

beforeAll(async () => {
  // The real server of the last block starts first, so its slow-loris clock runs during the fuzzing.
  dataDir = await migratedTempDir('tessera-fuzz-'); // migrated once per run (test/helpers/data-template.ts)
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
        fc.asyncProperty(caseArb(route, realIds, fields), async (c) => {
          if (own) {
            const m = await createMerchant(gw.db, 'Fuzz own', gw.clock.now());
            const t = await createKeySet(gw.db, { merchantId: m, env: 'test' }, gw.clock.now());
            const l = await createKeySet(gw.db, { merchantId: m, env: 'live' }, gw.clock.now());
            keys = { sk: t.private_key, pk: t.public_key, live: l.private_key };
          }
          let tt = Date.now();
          const req = await materialize(route, c, keys, placeholder);
          timing.materialize += Date.now() - tt;
          tt = Date.now();
          const before = await probe(gw.db, tables);
          timing.probe += Date.now() - tt;
          tt = Date.now();
          let res;
          try {
            res = await inject(req as InjectOptions);
          } catch (err) {
            throw new Error(`inject failed: ${(err as Error).message} for ${describeCase(req)}`);
          }
          timing.inject += Date.now() - tt;
          n++;
          stats.cases++;
          stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
          tt = Date.now();
          const wrong = await verdict(route, c, res as any, before, gw.db, tables, stats);
          if (res.statusCode >= 400 && res.statusCode < 500) {
            const code = (res.json() as { errors?: { code?: string }[] }).errors?.[0]?.code;
            const listed = doc.paths[route.path][route.method.toLowerCase()].responses[res.statusCode]?.description ?? '';
            if (!listed.includes(`\`${code}\``)) undocumented.add(`${label}: ${res.statusCode} ${code}`);
          }
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
    expect([...undocumented], 'every refusal is one openapi.json lists for the operation').toEqual([]);
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

/** Operations with a limit of their own (docs/decisions/account-updater.md: the batches). */
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
    // An idle keep-alive socket is dropped after TESSERA_KEEP_ALIVE_MS (5 s; Fastify's default was 72 s).
    expect(cfg.keepAliveTimeout).toBe(5_000);
    expect(gw.app.server.keepAliveTimeout).toBe(5_000);
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
      // whose headers are complete is cut at the second check of its deadline (60 s). The upper bound
      // tells those two apart, halfway between them: a loaded machine answering a few seconds late
      // (33.5 s seen with load average 10) is not what the test is about.
      expect(r.closedAfterMs, r.kind).toBeGreaterThanOrEqual(29_000);
      expect(r.closedAfterMs, r.kind).toBeLessThan(r.kind === 'body trickled' ? 75_000 : 45_000);
      const p = parseRaw(r.response);
      expect(p.status, r.kind).toBe(408);
      expect(p.body, r.kind).toEqual({ errors: [{ code: 'REQ04', message: expect.any(String) }] });
    }
  }, 120_000);
});
