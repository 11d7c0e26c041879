import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { ManualClock } from '../../../server/clock.js';
import type { Db, Queryable } from '../../../server/db/index.js';
import { DatabaseTimeoutError, FaultLog } from '../../../server/db/faults.js';
import { createKeySet, createMerchant } from '../../../server/domain/merchant/keys.js';
import { Vault } from '../../../server/vault.js';
import { DB_KIND, basic, testDb, visa } from '../../helpers/gateway.js';

// A database that is away, stalls or cannot write is 503 DB01 with Retry-After, never a 500, and
// /readyz says unavailable while statements meet such faults (server/db/faults.ts). The faults
// are injected in front of a real database: the statement that meets one never runs.

/** The errors each kind of fault reaches the HTTP layer as, from the driver, the server or our own deadline. */
const FAULTS: [string, () => unknown, string][] = [
  ['a connection closed by a restart (driver)', () => Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' }), '5'],
  ['a refused connection (socket)', () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', syscall: 'connect' }), '5'],
  ['the server shutting down (57P01)', () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), '5'],
  ['the server starting up (57P03)', () => Object.assign(new Error('the database system is starting up'), { code: '57P03' }), '5'],
  ['a full disk (53100)', () => Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' }), '30'],
  ["PGlite's file system full (ErrnoError 51, WASI's ENOSPC)", () => Object.assign(new Error(), { name: 'ErrnoError', errno: 51 }), '30'],
  ['a statement timeout (57014)', () => Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }), '2'],
  ['a lock timeout (55P03)', () => Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }), '2'],
  ['no answer within our deadline', () => new DatabaseTimeoutError('a statement', 12_000), '2'],
  ['a deadlock (40P01)', () => Object.assign(new Error('deadlock detected'), { code: '40P01' }), '1'],
];

let real: Db & { drop(): Promise<void> };
let app: FastifyInstance;
let sk: string;
/** The error the next statements throw (from `failFrom` on), or null. */
let fault: (() => unknown) | null = null;
/** A database that never answers and raises nothing (what our own statement deadlines, db/pg.ts, turn into DB_DEADLINE). */
const HANG = () => undefined;
let now = 0;
let faults = new FaultLog(() => now);

function faulty(q: Queryable): Queryable {
  const check = async () => {
    if (!fault) return;
    if (fault === HANG) await new Promise(() => {});
    const err = fault();
    faults.record(err);
    throw err;
  };
  return {
    query: async (sql, params) => (await check(), q.query(sql, params)),
    exec: async (sql) => (await check(), q.exec(sql)),
  };
}

beforeAll(async () => {
  real = await testDb();
  const db: Db = {
    ...real,
    ...faulty(real),
    tx: (fn, opts) => real.tx((q) => fn(faulty(q)), opts),
    recentFault: () => faults.recent(),
  };
  const clock = new ManualClock();
  app = await buildApp({ db, vault: new Vault(randomBytes(32)), clock }, { requestDeadlineMs: 3_000 });
  const id = await createMerchant(real, 'Faults', clock.now());
  sk = (await createKeySet(real, { merchantId: id, env: 'test' }, clock.now())).private_key;
});
afterAll(async () => {
  await app?.close();
  await real?.drop();
});

describe(`database faults (${DB_KIND})`, () => {
  test.each(FAULTS)('%s: 503 DB01 with Retry-After, on reads, writes and the auth lookup alike', async (_name, make, retryAfter) => {
    fault = make;
    try {
      for (const [method, url, payload] of [
        ['POST', '/api/v1/charge', { ...visa, amount: 100 }],
        ['GET', '/api/v1/customers', undefined],
        ['POST', '/api/v1/customers', { first_name: 'Ada' }],
      ] as const) {
        const res = await app.inject({ method, url, payload, headers: { ...basic(sk), 'idempotency-key': `k-${randomBytes(4).toString('hex')}` } });
        expect(res.statusCode, `${method} ${url}`).toBe(503);
        expect(res.headers['retry-after']).toBe(retryAfter);
        expect(res.json()).toEqual({ errors: [{ code: 'DB01', message: expect.stringMatching(/^the database /), retry_after: retryAfter }] });
      }
    } finally {
      fault = null;
    }
  });

  test('a request that gets no answer at all within its deadline is 503 REQ06 with Retry-After, not a hang: over a real socket, with a body and without', async () => {
    // Over a socket: Fastify's own handlerTimeout never fires once a request's body has been read.
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    fault = HANG;
    try {
      for (const init of [
        { method: 'POST', headers: { ...basic(sk), 'content-type': 'application/json' }, body: JSON.stringify({ first_name: 'Ada' }) },
        { method: 'GET', headers: basic(sk) },
      ]) {
        const res = await fetch(`${base}/api/v1/customers`, init);
        expect(res.status, init.method).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(await res.json()).toEqual({ errors: [{ code: 'REQ06', message: expect.any(String), retry_after: '5' }] });
      }
      const injected = await app.inject({ method: 'POST', url: '/api/v1/customers', payload: { first_name: 'Ada' }, headers: basic(sk) });
      expect(injected.json().errors[0].code).toBe('REQ06');
    } finally {
      fault = null;
    }
  });

  test('/readyz is 503 with the database unavailable while statements meet a full disk or a lost server, and ready again after', async () => {
    faults = new FaultLog(() => now);
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    for (const [, make] of [FAULTS[4], FAULTS[0]]) {
      // The write meets the fault; the readiness probe's own SELECT 1 still answers (a full disk reads on).
      fault = make;
      await app.inject({ method: 'POST', url: '/api/v1/customers', payload: { first_name: 'Ada' }, headers: basic(sk) });
      fault = null;
      const down = await app.inject({ url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'unavailable', checks: { database: 'unavailable' } });
      now += FaultLog.RECENT_MS;
      expect((await app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
    }
    // A server-side timeout or a transaction past its deadline is one request's load, not the
    // database's health; a statement the server never answered (our statement deadline) is.
    const fresh = new FaultLog();
    fresh.record(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }));
    fresh.record(new DatabaseTimeoutError('a transaction', 1, 'transaction'));
    expect(fresh.recent()).toBeNull();
    fresh.record(new DatabaseTimeoutError('a statement', 1, 'statement'));
    expect(fresh.recent()).toBe('unavailable');
  });
});
