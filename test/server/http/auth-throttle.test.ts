import { vi } from 'vitest';
import { trustProxyOf } from '../../../server/config.js';
import { GatewayFixtures, TestGateway, basic, describe, expect, test, visa } from '../../fixtures.js';

// Failed authentication is throttled per client address (auth_failures): 429 RATE01 with
// Retry-After, logged at warn with the key's kind prefix only; other addresses are unaffected.

test.afterEach(() => {
  vi.restoreAllMocks();
});

const UNKNOWN_SK = `test_sk_${'a'.repeat(55)}`;
const charges = (g: TestGateway, key: string, ip: string) =>
  g.app.inject({ url: '/api/v1/transactions', headers: basic(key), remoteAddress: ip });
const jsonp = (g: TestGateway, key: string, ip: string) =>
  g.app.inject({
    url: '/api/v1/tokens/jsonp',
    query: { callback: 'cb', public_api_key: key, ...Object.fromEntries(Object.entries(visa).map(([k, v]) => [k, String(v)])) },
    remoteAddress: ip,
  });
const callbackArg = (body: string) => JSON.parse(body.slice('/**/cb('.length, -2));

/** Starts a gateway with only the failed-authentication ceiling, and records the limiter's warnings. */
async function throttled(newGateway: GatewayFixtures['newGateway'], authFailures: number) {
  const gw = await newGateway({ limits: { perIp: 0, perKey: 0, failures: 0, authFailures } });
  const warnings: [Record<string, unknown>, string][] = [];
  const limiter = gw.app.services.limiter!;
  limiter.events = { ...limiter.events!, warn: (obj, msg) => warnings.push([obj, msg]) };
  return { gw, warnings };
}

test('past the ceiling an address\'s failures get 429 RATE01 with Retry-After; a valid key from it still works; other addresses are unaffected', async ({ newGateway }) => {
  const { gw, warnings } = await throttled(newGateway, 3);
  const key = gw.merchant.test.private_key;
  for (let i = 0; i < 3; i++) expect((await charges(gw, UNKNOWN_SK, '203.0.113.1')).json().errors[0].code).toBe('AUTH01');
  // A page's script tags or a neighbour behind the same NAT made those failures: the valid key is not theirs to block.
  expect((await charges(gw, key, '203.0.113.1')).statusCode).toBe(200);
  const blocked = await charges(gw, `test_sk_${'d'.repeat(55)}`, '203.0.113.1');
  expect(blocked.statusCode).toBe(429);
  expect(blocked.json().errors[0]).toMatchObject({ code: 'RATE01', message: expect.stringMatching(/failed authentications/) });
  const retry = Number(blocked.headers['retry-after']);
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(600);
  expect((await charges(gw, UNKNOWN_SK, '203.0.113.1')).statusCode).toBe(429);
  // Another address: its own key works, its own failures are its own.
  expect((await charges(gw, key, '198.51.100.2')).statusCode).toBe(200);
  expect((await charges(gw, UNKNOWN_SK, '198.51.100.2')).statusCode).toBe(401);
  // Logged at warn with the kind prefix only, never the key; the third says the address is now refused.
  expect(warnings.map(([o]) => o)).toEqual([
    { address: '203.0.113.1', key_prefix: 'test_sk_', failures: 1 },
    { address: '203.0.113.1', key_prefix: 'test_sk_', failures: 2 },
    { address: '203.0.113.1', key_prefix: 'test_sk_', failures: 3 },
    { address: '198.51.100.2', key_prefix: 'test_sk_', failures: 1 },
  ]);
  expect(warnings[2][1]).toMatch(/now refused/);
  expect(JSON.stringify(warnings)).not.toContain('a'.repeat(20));
  const metrics = (await gw.app.inject({ url: '/metrics' })).body;
  expect(metrics).toMatch(/^tessera_auth_failures_total 6$/m);
  expect(metrics).toMatch(/^tessera_rate_limited_total\{rule="auth_failures"\} 2$/m);
  gw.clock.advance(10 * 60_000);
  expect((await charges(gw, key, '203.0.113.1')).statusCode).toBe(200);
});

test('past the ceiling failures are no longer counted or logged; a request without a key is not counted', async ({ newGateway }) => {
  const { gw, warnings } = await throttled(newGateway, 2);
  for (let i = 0; i < 5; i++) expect((await gw.app.inject({ url: '/api/v1/transactions', remoteAddress: '203.0.113.3' })).statusCode).toBe(401);
  expect((await charges(gw, gw.merchant.test.private_key, '203.0.113.3')).statusCode).toBe(200);
  await charges(gw, UNKNOWN_SK, '203.0.113.3');
  await charges(gw, `live_sk_${'b'.repeat(55)}`, '203.0.113.3');
  const counted = vi.spyOn(gw.app.services.limiter!, 'noteAuthFailure');
  for (let i = 0; i < 20; i++) expect((await charges(gw, `test_sk_${i.toString(16).padStart(55, 'c')}`, '203.0.113.3')).statusCode).toBe(429);
  expect(counted).not.toHaveBeenCalled();
  expect(warnings).toHaveLength(2);
  expect((await charges(gw, gw.merchant.test.private_key, '203.0.113.3')).statusCode).toBe(200);
});

test('a key that is not a key is logged by its length only', async ({ newGateway }) => {
  const { gw, warnings } = await throttled(newGateway, 5);
  await charges(gw, 'hunter2-my-password', '203.0.113.4');
  expect(warnings.map(([o]) => o.key_prefix)).toEqual(['(not a key, 19 characters)']);
});

test('JSONP: unknown keys and private keys count alike, the 429 arrives through the callback, and a shopper\'s valid key still tokenizes', async ({ newGateway }) => {
  const { gw } = await throttled(newGateway, 2);
  expect(callbackArg((await jsonp(gw, `test_pk_${'0'.repeat(55)}`, '203.0.113.5')).body).errors[0].code).toBe('AUTH01');
  expect(callbackArg((await jsonp(gw, gw.merchant.test.private_key, '203.0.113.5')).body).errors[0].code).toBe('AUTH01');
  const res = await jsonp(gw, `test_pk_${'1'.repeat(55)}`, '203.0.113.5');
  expect(res.statusCode).toBe(200);
  expect(res.headers['retry-after']).toMatch(/^\d+$/);
  expect(callbackArg(res.body).errors[0].code).toBe('RATE01');
  // A hostile page made this browser send the made-up keys: the checkout it visits next still works.
  expect(callbackArg((await jsonp(gw, gw.merchant.test.public_key, '203.0.113.5')).body).class).toBe('token');
  expect(callbackArg((await jsonp(gw, gw.merchant.test.public_key, '198.51.100.5')).body).class).toBe('token');
});

test('without auth_failures nothing is throttled', async ({ newGateway }) => {
  const { gw } = await throttled(newGateway, 0);
  for (let i = 0; i < 30; i++) expect((await charges(gw, UNKNOWN_SK, '203.0.113.6')).statusCode).toBe(401);
  expect((await charges(gw, gw.merchant.test.private_key, '203.0.113.6')).statusCode).toBe(200);
});

describe('behind a proxy (TRUST_PROXY)', () => {
  test('TRUST_PROXY parses: off, true as one proxy, a hop count, proxy addresses and blocks; anything else stops the start', () => {
    expect(['', 'false', '0', undefined].map((v) => trustProxyOf(v))).toEqual([false, false, false, false]);
    expect(trustProxyOf('true')).toBe(1);
    expect(trustProxyOf('2')).toBe(2);
    expect(trustProxyOf('10.0.0.0/8, 192.168.1.5')).toBe('10.0.0.0/8,192.168.1.5');
    for (const bad of ['maybe', 'yes', '10.0.0.0/99', '1.2.3', '-1']) expect(() => trustProxyOf(bad), bad).toThrow(/^TRUST_PROXY must be/);
  });

  test('one proxy in front: the address it appended counts, not the entries the client wrote', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 0, perKey: 0, failures: 0, authFailures: 3 }, trustProxy: trustProxyOf('true') });
    const g = gw;
    // The proxy at 10.0.0.1 appends the address it saw (198.51.100.7); the client made up the rest.
    const via = (key: string, forged: string) => g.app.inject({
      url: '/api/v1/transactions', headers: { ...basic(key), 'x-forwarded-for': `${forged}, 198.51.100.7` }, remoteAddress: '10.0.0.1',
    });
    for (let i = 0; i < 3; i++) expect((await via(UNKNOWN_SK, `203.0.113.${i}`)).statusCode).toBe(401);
    // Rotating the forged part does not give a fresh address: the fourth failure is refused.
    expect((await via(UNKNOWN_SK, '203.0.113.99')).statusCode).toBe(429);
    // And a forged entry cannot aim the block at someone else: 203.0.113.50's own requests pass.
    const other = await g.app.inject({
      url: '/api/v1/transactions', headers: { ...basic(g.merchant.test.private_key), 'x-forwarded-for': '203.0.113.50' }, remoteAddress: '10.0.0.1',
    });
    expect(other.statusCode).toBe(200);
  });
});
