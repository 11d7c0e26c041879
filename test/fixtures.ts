// The API tests' fixture: `import { test, expect } from '../../fixtures.js'` and ask for what a test needs:
//
//   test('a refund of a settled charge', async ({ gateway, api, expectError }) => {
//     const charge = await api.charge(await api.tokenize(visa), 1000);
//     expectError(await api.request('POST', `/charge/${charge.transaction!.id}/refund`, { amount: 5000 }), 400, '...');
//   });
//
// `gateway` is one in-process gateway per test file (in-memory PGlite, or a fresh PostgreSQL schema
// when the project says so; see helpers/gateway.ts), closed after the file. `api` is the shipped QA
// client (server/testing/client.ts) as the gateway's merchant in test mode, sent through Fastify's
// inject: no socket, no port. `apiFor(gateway, keys)` makes one for another merchant or the live keys.
//
// A file whose gateway differs sets `gatewayOptions` once at its top level (rate limits, proxy trust,
// counters, a clock): `test.override({ gatewayOptions: { limits } })`. A test that needs a gateway of
// its own (different limits per test, Redis counters, a gateway nobody else touched) asks for
// `newGateway(opts)`, closed when the test ends. What a file seeds once (a merchant, charges, a second
// app on the same database, a receiver) is a file-scoped fixture of that file, built on `gateway`.
// The shared calls are fixtures too: each file binds `calls()` (routes/receipts-fixtures.ts) or `api()`
// (routes/billings-fixtures.ts), both built on `apiFor` and answering the client's `{status, ok, body}`, as a
// file-scoped `calls`; routes/compat-fixtures.ts exports a `test` with `call`, routes/invoices-fixtures.ts
// one with `s`; deliveryHarness (jobs/webhooks-fixtures.ts) takes this fixture's gateway.
//
// Set-up kept on purpose, outside this fixture (they test the set-up itself, or build an app with
// unusual dependencies): start.ts and its boot-time checks (vault-canary, vault-reencrypt, health,
// *-start.test.ts, db/lock, db/start-together, ratelimit-redis's full start); apps built beside the
// gateway on a broken or spying database or other services (updater, receipts-charges,
// charges-at-once, health, request-id, admin-route's loopback app); suites of a bare database and
// app (settle, dispatch-kick, keycache, counters, db/*); and clock-background's one test that closes
// its own gateway mid-advance (newGateway would close it a second time), the only file left in
// `grep -rlE "startGateway\(" test/server --include='*.test.ts'`.
import { test as base } from 'vitest';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.js';
import type { KeySet } from '../server/domain/merchant/keys.js';
import { ApiResponse, TesseraClient, tesseraClient } from '../server/testing/client.js';
import { GatewayOptions, TestGateway, startGateway } from './helpers/gateway.js';

export { describe, expect } from 'vitest';
export { bank, basic, tokenFor, visa } from './helpers/gateway.js';
export type { GatewayOptions, Merchant, TestGateway } from './helpers/gateway.js';

/** Either answer shape: Fastify's inject (statusCode, json()) or the client's (status, body). */
export type AnyResponse = { statusCode: number; json(): any; body?: string; headers?: Record<string, unknown> } | ApiResponse<any>;

/**
 * The error answer of the API (spec 3): `status` and exactly one `{code, message}` whose code is
 * `code` and whose message is a non-empty string (matching `message` when given). Returns the item.
 */
export function expectError(res: AnyResponse, status: number, code: string, message?: RegExp): { code: string; message: string; [k: string]: any } {
  const got = 'statusCode' in res ? { status: res.statusCode, body: res.json() } : { status: res.status, body: res.body };
  expect(got).toEqual({ status, body: { errors: [expect.objectContaining({ code, message: expect.stringMatching(message ?? /\S/) })] } });
  if ('headers' in res && res.headers) {
    // An inject answer: JSON, and nothing of the server's insides (stack frames, Fastify's own error fields).
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).not.toMatch(/\bat .*\.(ts|js):\d+|"stack"|"statusCode"|FST_/);
  }
  return got.body.errors[0];
}

/** A `fetch` that hands the request to `app.inject`: the client runs against an in-process gateway. */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const res = await app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers: init.headers as Record<string, string>,
      payload: init.body as string | undefined,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) headers.append(name, String(v));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304 || res.rawPayload.length === 0;
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
  }) as typeof fetch;
}

/** The QA client as the holder of `keys` (default: the gateway's merchant in test mode). */
export function apiFor(gw: TestGateway, keys: KeySet = gw.merchant.test): TesseraClient {
  return tesseraClient({ url: 'http://gateway.test', publicKey: keys.public_key, privateKey: keys.private_key }, { fetch: injectFetch(gw.app) });
}

export interface GatewayFixtures {
  /**
   * How this file's `gateway` is made (rate limits, proxy trust, counters, a clock): none by default.
   * A file sets it once, at its top level: `test.override({ gatewayOptions: { limits } })`.
   */
  gatewayOptions: GatewayOptions;
  /** One in-process gateway for the whole test file (two merchants: `merchant` and `other`). */
  gateway: TestGateway;
  /** The QA client with the gateway merchant's test keys. */
  api: TesseraClient;
  expectError: typeof expectError;
  /**
   * Another gateway for this test alone, made with `opts` and closed when the test ends: for tests
   * that each need their own limits, or a gateway nobody else has touched.
   */
  newGateway: (opts?: GatewayOptions) => Promise<TestGateway>;
  /** A second app on the gateway's database with the demo on (TESSERA_DEMO=on, `tessera serve --dev`); `gateway.app` has it off. */
  demoApp: FastifyInstance;
}

export const test = base.extend<GatewayFixtures>({
  gatewayOptions: [{}, { scope: 'file' }],
  gateway: [
    async ({ gatewayOptions }, use) => {
      const gw = await startGateway(gatewayOptions);
      try {
        await use(gw);
      } finally {
        await gw.close();
      }
    },
    { scope: 'file' },
  ],
  api: [async ({ gateway }, use) => use(apiFor(gateway)), { scope: 'file' }],
  // eslint-disable-next-line no-empty-pattern
  expectError: [async ({}, use) => use(expectError), { scope: 'file' }],
  demoApp: [async ({ gateway: gw }, use) => {
    const app = await buildApp({ db: gw.db, vault: gw.vault, clock: gw.clock }, { demo: true });
    try {
      await use(app);
    } finally {
      await app.close();
    }
  }, { scope: 'file' }],
  // eslint-disable-next-line no-empty-pattern
  newGateway: async ({}, use) => {
    const made: TestGateway[] = [];
    try {
      await use(async (opts = {}) => {
        const gw = await startGateway(opts);
        made.push(gw);
        return gw;
      });
    } finally {
      for (const gw of made) await gw.close();
    }
  },
});
