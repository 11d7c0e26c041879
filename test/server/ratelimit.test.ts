import { afterEach, describe, expect, test } from 'vitest';
import { parseLimits } from '../../server/http/ratelimit.js';
import { TestGateway, basic, startGateway, visa } from '../helpers/gateway.js';

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

const jsonp = (g: TestGateway, data: Record<string, unknown>, ip = '203.0.113.7', key = g.merchant.test.public_key) =>
  g.app.inject({
    url: '/api/v1/tokens/jsonp',
    query: { callback: 'cb', public_api_key: key, ...Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])) },
    remoteAddress: ip,
  });
const post = (g: TestGateway, data: Record<string, unknown>, ip = '203.0.113.7') =>
  g.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(g.merchant.test.public_key), payload: data, remoteAddress: ip });
const callbackArg = (body: string) => JSON.parse(body.slice('/**/cb('.length, -2));

describe('card-testing defence', () => {
  test('per-IP ceiling: the next request in the minute is 429 RATE01 with Retry-After; another IP is unaffected', async () => {
    gw = await startGateway({ limits: { perIp: 3, perKey: 0, failures: 0 } });
    for (let i = 0; i < 3; i++) expect((await post(gw, visa)).statusCode).toBe(200);
    const res = await post(gw, visa);
    expect(res.statusCode).toBe(429);
    expect(res.json().errors[0].code).toBe('RATE01');
    const retry = Number(res.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect((await post(gw, visa, '198.51.100.1')).statusCode).toBe(200);
    gw.clock.advance(60_000);
    expect((await post(gw, visa)).statusCode).toBe(200);
  });

  test('JSONP delivers the 429 through the callback (status 200) with Retry-After', async () => {
    gw = await startGateway({ limits: { perIp: 1, perKey: 0, failures: 0 } });
    expect(callbackArg((await jsonp(gw, visa)).body).class).toBe('token');
    const res = await jsonp(gw, visa);
    expect(res.statusCode).toBe(200);
    expect(res.headers['retry-after']).toBeDefined();
    expect(callbackArg(res.body).errors[0].code).toBe('RATE01');
  });

  test('per-key ceiling holds across IPs; other merchants are unaffected', async () => {
    gw = await startGateway({ limits: { perIp: 0, perKey: 2, failures: 0 } });
    expect((await post(gw, visa, '192.0.2.1')).statusCode).toBe(200);
    expect((await post(gw, visa, '192.0.2.2')).statusCode).toBe(200);
    expect((await post(gw, visa, '192.0.2.3')).statusCode).toBe(429);
    const other = await gw.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(gw.other.test.public_key), payload: visa });
    expect(other.statusCode).toBe(200);
  });

  test('velocity rule: after N refused cards the key is stopped for the window, good cards included', async () => {
    gw = await startGateway({ limits: { perIp: 0, perKey: 0, failures: 3 } });
    for (const n of ['4111111111111112', '4012888888881881', '1234567812345678']) {
      const res = await post(gw, { ...visa, card_number: n });
      expect(res.statusCode).toBe(400);
    }
    const blocked = await post(gw, visa);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errors[0].message).toMatch(/card-testing/);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(600);
    // JSONP refusals count too, and the block shows there as well.
    expect(callbackArg((await jsonp(gw, visa)).body).errors[0].code).toBe('RATE01');
    gw.clock.advance(10 * 60_000);
    expect((await post(gw, visa)).statusCode).toBe(200);
  });

  test('without a limiter nothing is limited, refusals included', async () => {
    gw = await startGateway();
    for (let i = 0; i < 20; i++) expect((await post(gw, { ...visa, card_number: '4111111111111112' })).statusCode).toBe(400);
    expect((await post(gw, visa)).statusCode).toBe(200);
  });
});

test('TESSERA_RATE_LIMITS parsing', () => {
  expect(parseLimits(undefined)).toEqual({ perIp: 300, perKey: 3000, failures: 200 });
  expect(parseLimits('off')).toEqual({ perIp: 0, perKey: 0, failures: 0 });
  expect(parseLimits('ip=10, failures=5')).toEqual({ perIp: 10, perKey: 3000, failures: 5 });
  expect(() => parseLimits('ip=-1')).toThrow(/non-negative/);
  expect(() => parseLimits('burst=3')).toThrow(/unknown limit/);
});
