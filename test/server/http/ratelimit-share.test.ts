import { randomBytes } from 'node:crypto';
import type { KeyIdentity } from '../../../server/domain/merchant/keys.js';
import { GatewayError } from '../../../server/errors.js';
import { CounterStore, MemoryCounters, RedisCounters, connectRedis, localCounters } from '../../../server/http/counters.js';
import { DEFAULT_LIMITS, RateLimits, TokenLimiter, keyShare } from '../../../server/http/ratelimit.js';
import { testDb } from '../../helpers/gateway.js';
import { TestGateway, basic, describe, expect, test, visa } from '../../fixtures.js';

// The per-key ceiling is shared (issue 30, item 3; docs/decisions/card-testing.md, "The key's
// ceiling is shared"): requests the limiter refuses do not fill it, and past it only the addresses
// that used more than their share are refused. A crowd costs the crowd.

const bad = { ...visa, card_number: '4111111111111112' }; // refused: 11112
const crowd = Array.from({ length: 11 }, (_, i) => `203.0.113.${100 + i}`);
const REGULAR = '198.51.100.5'; // a shopper with a few good tokens before the crowd came
const NEWCOMER = '198.51.100.6'; // a shopper who comes after

type Mode = 'live' | 'test';
const post = (g: TestGateway, mode: Mode, data: Record<string, unknown>, ip: string) =>
  g.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(g.merchant[mode].public_key), payload: data, remoteAddress: ip });
/** What the request got: `token`, the refusal's code, or `RATE01 <rule>` (which rule said no). */
const outcome = async (g: TestGateway, mode: Mode, data: Record<string, unknown>, ip: string) => {
  const res = await post(g, mode, data, ip);
  if (res.statusCode === 200) return 'token';
  const e = res.json().errors[0];
  if (e.code !== 'RATE01') return e.code as string;
  const rule = /from this address for this key \(card/.test(e.message) ? 'key_ip_failures' : /for this key/.test(e.message) ? 'key'
    : /refused cards/.test(e.message) ? 'ip_failures' : 'ip';
  return `RATE01 ${rule}`;
};
/** The crowd sends `rounds` requests each, the eleven at once in each round; every address's outcomes in order. */
const flood = async (g: TestGateway, mode: Mode, data: Record<string, unknown>, rounds: number) => {
  const out: string[][] = crowd.map(() => []);
  for (let r = 0; r < rounds; r++) (await Promise.all(crowd.map((ip) => outcome(g, mode, data, ip)))).forEach((o, i) => out[i].push(o));
  return out;
};
const tally = (xs: string[]) => xs.reduce<Record<string, number>>((t, x) => ({ ...t, [x]: (t[x] ?? 0) + 1 }), {});
const rateLimited = async (g: TestGateway) => Object.fromEntries([...(await g.app.inject({ url: '/metrics' })).body
  .matchAll(/^tessera_rate_limited_total\{rule="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));

describe('the finding: eleven addresses sending refused cards at their per-address ceiling', () => {
  test('live mode, the default limits: 3,300 requests in the minute, and a new address and a regular shopper still tokenize', async ({ newGateway }) => {
    const gw = await newGateway({ limits: DEFAULT_LIMITS });
    for (let i = 0; i < 3; i++) expect(await outcome(gw, 'live', visa, REGULAR)).toBe('token');
    const got = await flood(gw, 'live', bad, DEFAULT_LIMITS.perIp); // 11 x 300 = 3,300 > the key's 3,000
    // Each address stops itself: its ten refused cards, then its own card-testing ceiling.
    for (const g of got) expect(g).toEqual([...Array(10).fill('11112'), ...Array(290).fill('RATE01 key_ip_failures')]);
    expect(await outcome(gw, 'live', visa, NEWCOMER)).toBe('token');
    expect(await outcome(gw, 'live', visa, REGULAR)).toBe('token');
    // The key counted what it let through (3 + 110 + 2, nowhere near its ceiling): no request was refused for it.
    expect(await rateLimited(gw)).toEqual({ key_ip_failures: 11 * 290 });
  }, 120_000);

  test('test mode (no card-testing ceilings), the default limits: the refused cards fill the key, the crowd is held to its share, the shoppers are not', async ({ newGateway }) => {
    const gw = await newGateway({ limits: DEFAULT_LIMITS });
    for (let i = 0; i < 3; i++) expect(await outcome(gw, 'test', visa, REGULAR)).toBe('token');
    const got = await flood(gw, 'test', bad, DEFAULT_LIMITS.perIp);
    // 12 addresses: a share of 250 each, used up long before. The key lets 3 + 11 x 272 + 5 = 3,000 through,
    // reached in round 273 (which five of the eleven get a 273rd is the order they arrive in): from there
    // each address of the crowd is refused.
    const tallies = got.map(tally);
    expect(tallies.filter((t) => t[11112] === 273)).toEqual(Array(5).fill({ 11112: 273, 'RATE01 key': 27 }));
    expect(tallies.filter((t) => t[11112] !== 273)).toEqual(Array(6).fill({ 11112: 272, 'RATE01 key': 28 }));
    for (const g of got) expect(g.slice(0, 272)).toEqual(Array(272).fill('11112'));
    expect(await outcome(gw, 'test', visa, NEWCOMER)).toBe('token');
    expect(await outcome(gw, 'test', visa, REGULAR)).toBe('token');
    expect(await rateLimited(gw)).toEqual({ key: 5 * 27 + 6 * 28 });
  }, 120_000);
});

describe('the capacity guard stays: past the key\'s ceiling, the addresses that used most of it are refused', () => {
  // perIp 30, perKey 300: the crowd's 11 x 30 pass the key's ceiling as 3,300 would pass 3,000.
  const LIMITS: RateLimits = { ...DEFAULT_LIMITS, perIp: 30, perKey: 300 };
  for (const [mode, card] of [['live', visa], ['test', visa], ['test', bad]] as const) {
    test(`${mode} mode, the crowd sending ${card === bad ? 'refused' : 'good'} cards: it is stopped at its share, a new address and a regular shopper are not`, async ({ newGateway }) => {
      const gw = await newGateway({ limits: LIMITS });
      for (let i = 0; i < 3; i++) expect(await outcome(gw, mode, visa, REGULAR)).toBe('token');
      const got = await flood(gw, mode, card, 30);
      // 3 + 11 x 27 = 300 let through; then 12 addresses share 300: 25 each, which the crowd has used.
      const passed = card === bad ? '11112' : 'token';
      for (const g of got) expect(g).toEqual([...Array(27).fill(passed), ...Array(3).fill('RATE01 key')]);
      // 13 addresses now: 23 each. The newcomer gets its share and no more; the regular shopper, with 3 used, too.
      const newcomer: string[] = [];
      for (let i = 0; i < 24; i++) newcomer.push(await outcome(gw, mode, visa, NEWCOMER));
      expect(newcomer).toEqual([...Array(23).fill('token'), 'RATE01 key']);
      expect(await outcome(gw, mode, visa, REGULAR)).toBe('token');
      // The key's ceiling bounded the work: 300, and what the two shoppers' shares added.
      const tokens = (await gw.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tokens WHERE merchant_id = $1', [gw.merchant.id]))[0].n;
      expect(tokens).toBe(3 + (card === bad ? 0 : 297) + 23 + 1);
      // A new minute: a fresh count for everyone.
      gw.clock.advance(60_000);
      expect(await outcome(gw, mode, card, crowd[0])).toBe(passed);
    });
  }
});

const id: KeyIdentity = { merchantId: 'mer_share', env: 'live', kind: 'pk', clockOffsetMs: 0 };
const now = new Date('2026-11-22T12:00:30Z');

/** A botnet of 200 addresses at their per-address ceiling, one request each in turn; what the key let through. */
async function botnet(store: CounterStore): Promise<{ admitted: number[]; shopper: string[]; key: number }> {
  const limiter = new TokenLimiter(store, { perIp: 30, perKey: 300, keyFloor: 3, failures: 0 });
  const ask = (ip: string) => limiter.checkKey(id, ip, now).then(() => 'ok', (e: GatewayError) => e.code);
  const bots = Array.from({ length: 200 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
  const admitted = bots.map(() => 0);
  for (let r = 0; r < 30; r++) {
    const round = await Promise.all(bots.map(ask)); // arriving together, as a botnet's requests do
    round.forEach((o, i) => { if (o === 'ok') admitted[i]++; });
  }
  const shopper: string[] = [];
  for (let i = 0; i < 4; i++) shopper.push(await ask('192.0.2.77'));
  return { admitted, shopper, key: await store.hit(`key:${id.merchantId}:${id.env}`, 60_000, now, 0) };
}

describe('a botnet of many addresses', () => {
  test('each address keeps the floor and no more: 200 x 3 let through (not 200 x 30), and a shopper still gets its floor', async () => {
    // 201 addresses share 300: 1 each, so the floor (3) is what each gets.
    const expected = { admitted: Array(200).fill(3), shopper: ['ok', 'ok', 'ok', 'RATE01'], key: 603 };
    expect(await botnet(new MemoryCounters())).toEqual(expected);
    const db = await testDb();
    try {
      expect(await botnet(localCounters(db))).toEqual(expected); // on PostgreSQL, the database's counters
    } finally {
      await db.drop();
    }
  });
});

test('the share: perKey over the addresses (at least one), never below the floor; key_floor is at least 1', async () => {
  expect([1, 2, 11, 12, 13, 300, 301, 10_000].map((a) => keyShare(3000, 10, a))).toEqual([3000, 1500, 272, 250, 230, 10, 10, 10]);
  expect(keyShare(300, 3, 0)).toBe(300);
  // key_floor=0 would refuse an address's very first request once perKey / addresses < 1: it is taken as 1.
  const limiter = new TokenLimiter(new MemoryCounters(), { perIp: 0, perKey: 1, keyFloor: 0, failures: 0 });
  const ask = (ip: string) => limiter.checkKey(id, ip, now).then(() => 'ok', (e: GatewayError) => e.code);
  const got = [];
  for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.1']) got.push(await ask(ip));
  expect(got).toEqual(['ok', 'ok', 'ok', 'ok', 'RATE01']);
});

const REDIS = process.env.TEST_REDIS_URL;
test.skipIf(!REDIS)(`the same botnet on Redis counters${REDIS ? '' : ' (skipped: set TEST_REDIS_URL)'}`, async () => {
  // 200 requests at once, 4 commands each: past the default 1,000 outstanding (or 250 ms on a busy
  // machine) a command would go to the fallback store, which this test is not about.
  const r = connectRedis(REDIS!, { connectTimeoutMs: 500, timeoutMs: 10_000, maxPending: 10_000 });
  try {
    await r.ready;
    const prefix = `tessera-test:${randomBytes(6).toString('hex')}:`;
    expect(await botnet(new RedisCounters(r, new MemoryCounters(), { prefix }))).toEqual({ admitted: Array(200).fill(3), shopper: ['ok', 'ok', 'ok', 'RATE01'], key: 603 });
    for (const k of (await r.sendCommand(['KEYS', `${prefix}*`])) as string[]) await r.sendCommand(['DEL', k]);
  } finally {
    await r.close();
  }
});

describe('IPv6: a share per /48 (an outside review: one host with a routed /48 was 65,536 addresses)', () => {
  test('past the key\'s ceiling, /64s of one /48 share one share, while another /48 keeps its own', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 0, perKey: 20, keyFloor: 3, failures: 0 } });
    // Fill the key to its ceiling from twenty addresses: past it, each address's share is the floor, 3.
    for (let i = 0; i < 20; i++) expect(await outcome(gw, 'test', visa, `192.0.2.${i + 1}`)).toBe('token');
    // One host in 2001:db8:aa::/48, drawing a fresh /64 per request: three, then refused (by /64s it got all six).
    const host: string[] = [];
    for (let i = 1; i <= 6; i++) host.push(await outcome(gw, 'test', visa, `2001:db8:aa:${i.toString(16)}::1`));
    expect(host).toEqual(['token', 'token', 'token', 'RATE01 key', 'RATE01 key', 'RATE01 key']);
    // A shopper of another site still has its share.
    expect(await outcome(gw, 'test', visa, '2001:db8:bb:1::1')).toBe('token');
  });
});
