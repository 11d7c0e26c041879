import { alarmLevel, clientOf, parseLimits, tightened } from '../../../server/http/ratelimit.js';
import { TestGateway, basic, describe, expect, test, visa } from '../../fixtures.js';

// Live keys: the card-testing ceilings count live mode only (test mode: ratelimit-sides.test.ts).
const jsonp = (g: TestGateway, data: Record<string, unknown>, ip = '203.0.113.7', key = g.merchant.live.public_key) =>
  g.app.inject({
    url: '/api/v1/tokens/jsonp',
    query: { callback: 'cb', public_api_key: key, ...Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])) },
    remoteAddress: ip,
  });
const post = (g: TestGateway, data: Record<string, unknown>, ip = '203.0.113.7') =>
  g.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(g.merchant.live.public_key), payload: data, remoteAddress: ip });
const callbackArg = (body: string) => JSON.parse(body.slice('/**/cb('.length, -2));

describe('card-testing defence', () => {
  test('per-IP ceiling: the next request in the minute is 429 RATE01 with Retry-After; another IP is unaffected', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 3, perKey: 0, failures: 0 } });
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

  test('JSONP delivers the 429 through the callback (status 200) with Retry-After', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 1, perKey: 0, failures: 0 } });
    expect(callbackArg((await jsonp(gw, visa)).body).class).toBe('token');
    const res = await jsonp(gw, visa);
    expect(res.statusCode).toBe(200);
    expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(callbackArg(res.body).errors[0].code).toBe('RATE01');
  });

  test('per-key ceiling holds across IPs, shared: past it an address is refused once it has used its share; other merchants are unaffected', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 0, perKey: 2, keyFloor: 1, failures: 0 } });
    expect((await post(gw, visa, '192.0.2.1')).statusCode).toBe(200);
    expect((await post(gw, visa, '192.0.2.2')).statusCode).toBe(200);
    expect((await post(gw, visa, '192.0.2.3')).statusCode).toBe(200); // past the ceiling, its first: within any share
    const res = await post(gw, visa, '192.0.2.1'); // its second: more than 2 / 3 addresses (and the floor, 1)
    expect(res.statusCode).toBe(429);
    expect(res.json().errors[0]).toMatchObject({ code: 'RATE01', message: expect.stringMatching(/token requests for this key from this address/) });
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await post(gw, visa, '192.0.2.4')).statusCode).toBe(200);
    const other = await gw.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(gw.other.live.public_key), payload: visa, remoteAddress: '192.0.2.1' });
    expect(other.statusCode).toBe(200);
    expect((await gw.app.inject({ url: '/metrics' })).body).toMatch(/^tessera_rate_limited_total\{rule="key"\} 1$/m);
  });

  test('a flood of refused cards from one address stops that address only: the other shoppers of the merchant still get tokens', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 0, perKey: 0, failures: 200, keyIpFailures: 10, ipFailures: 30 } });
    const attacker = '203.0.113.66';
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await post(gw, { ...visa, card_number: '4111111111111112' }, attacker)).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(new Set(statuses.slice(10))).toEqual(new Set([429]));
    const blocked = await post(gw, visa, attacker); // the attacker's good card too, for the rest of the window
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errors[0]).toMatchObject({ code: 'RATE01', message: expect.stringMatching(/card-testing/) });
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(600);
    expect(callbackArg((await jsonp(gw, visa, attacker)).body).errors[0].code).toBe('RATE01');
    // Another address, with a typo first, and over JSONP.
    expect((await post(gw, { ...visa, card_number: '4111111111111112' }, '198.51.100.20')).statusCode).toBe(400);
    expect((await post(gw, visa, '198.51.100.20')).statusCode).toBe(200);
    expect(callbackArg((await jsonp(gw, visa, '198.51.100.21')).body).class).toBe('token');
    gw.clock.advance(10 * 60_000);
    expect((await post(gw, visa, attacker)).statusCode).toBe(200);
  });

  test('a private key tokenizing from the merchant\'s server is not held back: its address stands for every shopper', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 3, perKey: 3, failures: 2, keyIpFailures: 2, ipFailures: 2 } });
    const server = '192.0.2.80';
    const bySk = (data: Record<string, unknown>) =>
      gw.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(gw.merchant.live.private_key), payload: data, remoteAddress: server });
    for (let i = 0; i < 5; i++) expect((await bySk({ ...visa, card_number: '4111111111111112' })).json().errors[0].code).toBe('11112');
    for (let i = 0; i < 5; i++) expect((await bySk(visa)).statusCode).toBe(200);
    // Nothing of it counted: the public key from that address still has all of its ceilings.
    for (let i = 0; i < 3; i++) expect((await post(gw, visa, server)).statusCode).toBe(200);
    expect((await post(gw, visa, server)).statusCode).toBe(429);
  });

  test('refusals are counted per address across merchants too (ip_failures)', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 0, perKey: 0, failures: 0, keyIpFailures: 0, ipFailures: 3 } });
    const bad = { ...visa, card_number: '4111111111111112' };
    expect((await post(gw, bad)).statusCode).toBe(400);
    expect((await post(gw, bad)).statusCode).toBe(400);
    const other = (ip = '203.0.113.7') => gw!.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(gw!.other.live.public_key), payload: bad, remoteAddress: ip });
    expect((await other()).statusCode).toBe(400);
    expect((await other()).statusCode).toBe(429);
    expect((await post(gw, visa)).json().errors[0].code).toBe('RATE01');
    expect((await post(gw, visa, '198.51.100.1')).statusCode).toBe(200);
  });

  test('merchant-wide alarm: logged and counted, halves the ceiling of refused addresses at each doubling; a clean address always passes', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 0, perKey: 0, failures: 6, keyIpFailures: 4, ipFailures: 0 } });
    const warnings: [Record<string, unknown>, string][] = [];
    const limiter = gw.app.services.limiter!;
    const events = limiter.events!;
    limiter.events = { ...events, warn: (obj, msg) => warnings.push([obj, msg]) };
    const bad = { ...visa, card_number: '4111111111111112' };
    const refuse = async (ip: string, n: number) => { for (let i = 0; i < n; i++) expect((await post(gw!, bad, ip)).statusCode).toBe(400); };
    await refuse('192.0.2.50', 1); // a shopper's typo, before any alarm
    await refuse('192.0.2.1', 2);
    await refuse('192.0.2.2', 2);
    expect(warnings).toEqual([]);
    await refuse('192.0.2.3', 1); // 6 refused: alarm, per-address ceiling 4 -> 2
    expect(warnings).toEqual([[{ merchant_id: gw.merchant.id, env: 'live', refused: 6, level: 1, per_address_ceiling: 2 }, expect.stringMatching(/card-testing alarm/)]]);
    expect((await post(gw, visa, '192.0.2.1')).statusCode).toBe(429); // 2 refusals: at the tightened ceiling
    expect((await post(gw, visa, '192.0.2.50')).statusCode).toBe(200); // 1 refusal: below it
    expect((await post(gw, visa, '192.0.2.99')).statusCode).toBe(200); // never refused
    await refuse('192.0.2.3', 1);
    for (const ip of ['192.0.2.4', '192.0.2.5', '192.0.2.6', '192.0.2.7', '192.0.2.8']) await refuse(ip, 1); // 12 refused: ceiling 1
    expect(warnings.map(([o]) => [o.refused, o.level, o.per_address_ceiling])).toEqual([[6, 1, 2], [12, 2, 1]]);
    expect((await post(gw, visa, '192.0.2.50')).statusCode).toBe(429); // one refusal is now enough
    expect((await post(gw, visa, '192.0.2.99')).statusCode).toBe(200); // still never refused
    expect(callbackArg((await jsonp(gw, visa, '192.0.2.100')).body).class).toBe('token');
    // Another merchant is not under this one's alarm.
    const other = await gw.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(gw.other.live.public_key), payload: visa, remoteAddress: '192.0.2.50' });
    expect(other.statusCode).toBe(200);
    const metrics = (await gw.app.inject({ url: '/metrics' })).body;
    expect(metrics).toMatch(/^tessera_card_testing_alarms_total\{env="live"\} 2$/m);
    expect(metrics).toMatch(/^tessera_rate_limited_total\{rule="key_ip_failures"\} 2$/m);
  });

  test('an IPv6 client is counted by its /64, an IPv4-mapped address as the IPv4 address', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 1, perKey: 0, failures: 0 } });
    expect((await post(gw, visa, '2001:db8:1:2::1')).statusCode).toBe(200);
    expect((await post(gw, visa, '2001:db8:1:2:ffff::9')).statusCode).toBe(429);
    expect((await post(gw, visa, '2001:db8:1:3::1')).statusCode).toBe(200);
    expect((await post(gw, visa, '203.0.113.80')).statusCode).toBe(200);
    expect((await post(gw, visa, '::ffff:203.0.113.80')).statusCode).toBe(429);
  });

  test('without a limiter nothing is limited, refusals included', async ({ newGateway }) => {
    const gw = await newGateway();
    for (let i = 0; i < 20; i++) expect((await post(gw, { ...visa, card_number: '4111111111111112' })).statusCode).toBe(400);
    expect((await post(gw, visa)).statusCode).toBe(200);
  });
});

test('TESSERA_RATE_LIMITS parsing: new names, the old `failures` still accepted as the alarm', () => {
  const all = { perIp: 300, perKey: 3000, keyFloor: 10, failures: 200, keyIpFailures: 10, ipFailures: 30, authFailures: 20 };
  expect(parseLimits(undefined)).toEqual(all);
  expect(parseLimits('off')).toEqual({ perIp: 0, perKey: 0, keyFloor: 10, failures: 0, keyIpFailures: 0, ipFailures: 0, authFailures: 0 });
  expect(parseLimits('key=500,key_floor=4')).toEqual({ ...all, perKey: 500, keyFloor: 4 });
  expect(parseLimits('ip=10, failures=5')).toEqual({ ...all, perIp: 10, failures: 5 });
  expect(parseLimits('alarm=50,key_ip_failures=3,ip_failures=7,auth_failures=0')).toEqual({ ...all, failures: 50, keyIpFailures: 3, ipFailures: 7, authFailures: 0 });
  expect(() => parseLimits('ip=-1')).toThrow(/non-negative/);
  expect(() => parseLimits('burst=3')).toThrow(/unknown limit burst/);
  expect(() => parseLimits('constructor=3')).toThrow(/unknown limit/);
});

test('client addresses and alarm levels', () => {
  expect(clientOf('203.0.113.5')).toBe('203.0.113.5');
  expect(clientOf('::ffff:203.0.113.5')).toBe('203.0.113.5');
  expect(clientOf('2001:DB8:0:0:1::5')).toBe('2001:db8:0:0::/64');
  expect(clientOf('not an address')).toBe('not an address');
  expect([0, 5, 6, 11, 12, 24, 48].map((n) => alarmLevel(n, 6))).toEqual([0, 0, 1, 1, 2, 3, 4]);
  expect(alarmLevel(1000, 0)).toBe(0);
  expect([1, 2, 3, 4].map((l) => tightened(10, l))).toEqual([5, 2, 1, 1]);
});
