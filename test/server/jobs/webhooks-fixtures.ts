// Shared by the webhook suites: API calls with a merchant's test key, and a real node:http
// receiver that verifies Tessera-Signature the way a merchant would.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { Merchant, TestGateway, basic, test, tokenFor, visa } from '../../fixtures.js';

export function api(gw: TestGateway, key: string) {
  const headers = basic(key);
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
    gw.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, payload: unknown = {}) => call('POST', path, payload),
    put: (path: string, payload: unknown = {}) => call('PUT', path, payload),
    del: (path: string) => call('DELETE', path),
    /** A call that must answer 200; its JSON. */
    async ok(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) {
      const res = await call(method, path, payload);
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
      return res.json();
    },
  };
}

export type Api = ReturnType<typeof api>;

export const testApi = (gw: TestGateway, m: Merchant) => api(gw, m.test.private_key);

/**
 * What a merchant's server does with a delivery: recompute the HMAC over "t.body" with its secret
 * and accept the request when any `v1=` matches (two are sent while a rotated secret overlaps).
 */
export function verifySignature(secret: string, header: string | undefined, body: string): { ok: boolean; t: number } {
  const parts = (header ?? '').split(',').map((p) => p.trim().split('=', 2) as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const match = parts.some(([k, v]) => {
    const given = Buffer.from(k === 'v1' ? v ?? '' : '', 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return { ok: Number.isInteger(t) && match, t };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether the signature checked out against `receiver.secret` when it arrived. */
  verified: boolean;
  answered: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses for the next requests, in order; afterwards `fallback`. 0 = never answer (a timeout). */
  script: number[];
  fallback: number;
  /** The merchant's signing secret; requests that do not verify are answered 400. */
  secret: string | null;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 playing the merchant's webhook endpoint. */
export async function startReceiver(secret: string | null = null): Promise<Receiver> {
  const state: Omit<Receiver, 'url' | 'close'> = { received: [], script: [], fallback: 200, secret };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verified = state.secret !== null && verifySignature(state.secret, req.headers['tessera-signature'] as string, body).ok;
      let status = state.script.length ? state.script.shift()! : state.fallback;
      if (state.secret !== null && !verified) status = 400;
      state.received.push({ headers: req.headers, body, verified, answered: status });
      if (status === 0) return; // hang: the sender's timeout decides
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status < 300 ? '{"received":true}' : '{"error":"try again"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hooks/tessera`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  });
}

/**
 * The delivery suites' gateway (one per file) and helpers: a fresh merchant with one rule related
 * to one strategy, charges (whose deliveries are queued as they are recorded), receivers closed
 * after each test, relative times.
 */
export function deliveryHarness() {
  const h = {
    gw: undefined as unknown as TestGateway,
    /** Where strategies of tests that do not look at the requests point (every round may deliver them). */
    sink: undefined as unknown as Receiver,
    deps: () => ({ db: h.gw.db, vault: h.gw.vault, clock: h.gw.clock }),
    at: (ms: number) => new Date(h.gw.clock.now().getTime() + ms),
    async receiver(secret: string | null = null): Promise<Receiver> {
      const r = await startReceiver(secret);
      open.push(r);
      return r;
    },
    /** A fresh merchant with one rule related to one strategy. */
    async setup(ruleBody: object, strategyBody: object): Promise<Setup> {
      const m = await h.gw.newMerchant();
      const a = testApi(h.gw, m);
      const rule = await a.ok('POST', '/webhooks/rules', ruleBody);
      const strategy = await a.ok('POST', '/webhooks/strategies', strategyBody);
      await a.ok('POST', `/webhooks/rules/${rule.id}/strategies`, { strategy_id: strategy.id });
      const { secret } = await a.ok('GET', '/webhooks/secret');
      return { m, a, secret, rule, strategy };
    },
    async charge(m: Merchant, amount: number, extra: object = {}) {
      const res = await h.gw.app.inject({
        method: 'POST', url: '/api/v1/charge', headers: basic(m.test.private_key),
        payload: { token: await tokenFor(h.gw, visa, m.test.public_key), amount, ...extra },
      });
      return res.json();
    },
  };
  const open: Array<{ close(): Promise<void> }> = [];
  // The gateway is the file's gateway fixture (test/fixtures.ts), closed with the file.
  test.beforeAll(async ({ gateway }) => {
    h.gw = gateway;
    h.sink = await startReceiver(null);
  });
  test.afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });
  test.afterAll(async () => {
    await h.sink.close();
  });
  return h;
}

export interface Setup {
  m: Merchant;
  a: Api;
  secret: string;
  rule: any;
  strategy: any;
}
