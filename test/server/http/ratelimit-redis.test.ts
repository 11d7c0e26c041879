import { randomBytes } from 'node:crypto';
import type { KeyIdentity } from '../../../server/domain/merchant/keys.js';
import { GatewayError } from '../../../server/errors.js';
import { CounterStore, MemoryCounters, RedisCounters, RedisLike, connectRedis, localCounters } from '../../../server/http/counters.js';
import type { Side } from '../../../server/domain/merchant/allowed-origins.js';
import { TokenLimiter } from '../../../server/http/ratelimit.js';
import { startTessera } from '../../../server/start.js';
import { freePort } from '../notify/notify-fixtures.js';
import { testDb } from '../../helpers/gateway.js';
import { GatewayFixtures, TestGateway, basic, describe, expect, test, visa } from '../../fixtures.js';

// The card-testing counters in Redis (REDIS_URL). Needs a Redis: TEST_REDIS_URL (.ci/run sets it).
const REDIS = process.env.TEST_REDIS_URL;
const prefix = () => `tessera-test:${randomBytes(6).toString('hex')}:`;

let closers: (() => Promise<unknown>)[] = [];
test.afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});
const redis = async (url = REDIS!) => {
  const r = connectRedis(url, { connectTimeoutMs: 500 });
  closers.push(() => r.close());
  await r.ready;
  return r;
};
/** A gateway for this test alone (closed after it), its per-IP ceiling 3 counted by `counters`. */
const limited = (newGateway: GatewayFixtures['newGateway'], counters: (local: CounterStore) => CounterStore) =>
  newGateway({ limits: { perIp: 3, perKey: 0, failures: 0 }, counters });
const post = (g: TestGateway) =>
  g.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(g.merchant.test.public_key), payload: visa, remoteAddress: '203.0.113.9' });
const statuses = async (g: TestGateway, n: number) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await post(g)).statusCode);
  return out;
};

/** One sequence of limiter calls; what each call answered. */
async function limiterScenario(store: CounterStore): Promise<string[]> {
  const limiter = new TokenLimiter(store, { perIp: 0, perKey: 0, failures: 4, keyIpFailures: 3, ipFailures: 5, authFailures: 2 });
  const id: KeyIdentity = { merchantId: 'mer_scenario', env: 'live', kind: 'pk', clockOffsetMs: 0 };
  const now = new Date('2026-11-22T12:00:30Z');
  const out: string[] = [];
  const check = async (ip: string, side: Side = 'other') => {
    try {
      await limiter.checkKey(id, ip, now, side);
      out.push(`${ip} ${side} ok`);
    } catch (e) {
      out.push(`${ip} ${side} ${(e as GatewayError).code}`);
    }
  };
  const refuse = (ip: string, side: Side = 'other') => limiter.noteFailure(id, ip, new GatewayError('11112'), now, side);
  for (let i = 0; i < 3; i++) await check('192.0.2.1').then(() => refuse('192.0.2.1'));
  await check('192.0.2.1'); // three refusals: its own ceiling
  await check('192.0.2.1', 'checkout'); // none on the checkout side
  await check('192.0.2.2').then(() => refuse('192.0.2.2')); // the fourth refusal: alarm, ceiling 3 -> 1
  await check('192.0.2.2'); // one refusal is now enough
  await check('192.0.2.3'); // never refused
  await check('192.0.2.1', 'checkout').then(() => refuse('192.0.2.1', 'checkout'));
  await check('192.0.2.1', 'checkout'); // the alarm's ceiling on its side too
  for (let i = 0; i < 3; i++) out.push(`auth ${(await limiter.noteAuthFailure('192.0.2.9', 'test_sk_x', now))?.code ?? 'AUTH01'}`);
  out.push(`auth blocked ${limiter.authBlocked('192.0.2.9', now)?.code}`);
  return out;
}
const EXPECTED_SCENARIO = [
  '192.0.2.1 other ok', '192.0.2.1 other ok', '192.0.2.1 other ok', '192.0.2.1 other RATE01', '192.0.2.1 checkout ok',
  '192.0.2.2 other ok', '192.0.2.2 other RATE01', '192.0.2.3 other ok', '192.0.2.1 checkout ok', '192.0.2.1 checkout RATE01',
  'auth AUTH01', 'auth AUTH01', 'auth RATE01', 'auth blocked RATE01',
];

test('the scenario the Redis store is held to, on the local store', async () => {
  const db = await testDb();
  closers.push(() => db.drop());
  expect(await limiterScenario(localCounters(db))).toEqual(EXPECTED_SCENARIO);
});

describe.skipIf(!REDIS)(`rate-limit counters in Redis${REDIS ? '' : ' (skipped: set TEST_REDIS_URL)'}`, () => {
  test('two nodes on one Redis count together; a window\'s key expires at most two windows after its first hit', async () => {
    const p = prefix();
    const a = new RedisCounters(await redis(), new MemoryCounters(), { prefix: p });
    const b = new RedisCounters(await redis(), new MemoryCounters(), { prefix: p });
    const now = new Date('2026-11-22T12:00:30Z');
    expect(await a.hit('ip:x', 60_000, now)).toBe(1);
    expect(await b.hit('ip:x', 60_000, now)).toBe(2);
    expect(await a.hit('ip:x', 60_000, now, 5)).toBe(7);
    expect(await b.hit('ip:x', 60_000, now, 0)).toBe(7); // a read counts nothing
    expect(await a.hit('ip:x', 60_000, new Date('2026-11-22T12:01:00Z'))).toBe(1); // the next window
    expect(await a.hit('ip:y', 60_000, now)).toBe(1); // another bucket
    const ttl = Number(await (await redis()).sendCommand(['PTTL', `${p}rate:ip:x:${Date.parse('2026-11-22T12:00:00Z')}`]));
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });

  test('the gateway limits through Redis: 429 RATE01 after the ceiling, nothing counted in the database', async ({ newGateway }) => {
    const p = prefix();
    const r = await redis();
    const gw = await limited(newGateway, (local) => new RedisCounters(r, local, { prefix: p }));
    expect(await statuses(gw, 4)).toEqual([200, 200, 200, 429]);
    const keys = (await r.sendCommand(['KEYS', `${p}rate:ip:*`])) as string[];
    expect(keys).toHaveLength(1);
    expect(await r.sendCommand(['GET', keys[0]])).toBe('4');
    if (gw.db.kind === 'pg') expect(await gw.db.query('SELECT * FROM rate_counters')).toEqual([]);
  });

  test('the per-client refusal rules, the alarm and the failed-auth rule answer alike on Redis and on the local store', async () => {
    const db = await testDb();
    closers.push(() => db.drop());
    const redisRun = await limiterScenario(new RedisCounters(await redis(), new MemoryCounters(), { prefix: prefix() }));
    expect(redisRun).toEqual(await limiterScenario(localCounters(db)));
    expect(redisRun).toEqual(EXPECTED_SCENARIO);
  });

  test('a clean token request only reads the refusal counters: no Redis key is created for it', async () => {
    const p = prefix();
    const r = await redis();
    const limiter = new TokenLimiter(new RedisCounters(r, new MemoryCounters(), { prefix: p }), { perIp: 0, perKey: 0, failures: 5, keyIpFailures: 3, ipFailures: 5 });
    const id: KeyIdentity = { merchantId: 'mer_clean', env: 'live', kind: 'pk', clockOffsetMs: 0 };
    await limiter.checkKey(id, '192.0.2.1', new Date());
    expect(await r.sendCommand(['KEYS', `${p}*`])).toEqual([]);
    await limiter.noteFailure(id, '192.0.2.1', new GatewayError('11112'), new Date());
    expect(((await r.sendCommand(['KEYS', `${p}*`])) as string[]).map((k) => k.slice(p.length).replace(/:[0-9a-f]{16}/g, ':<client>').replace(/:\d+$/, ''))
      .sort()).toEqual(['rate:fail-ip:<client>:other', 'rate:fail-key-ip:mer_clean:live:<client>:other', 'rate:fail:mer_clean:live']);
  });

  test('Redis unreachable: the ceiling still holds, counted in the database or memory instead, and no request fails', async ({ newGateway }) => {
    const down = await redis(`redis://127.0.0.1:${await freePort()}`);
    expect(await down.ready).toBe(false);
    const gw = await limited(newGateway, (local) => new RedisCounters(down, local, { prefix: prefix() }));
    expect(await statuses(gw, 4)).toEqual([200, 200, 200, 429]);
    if (gw.db.kind === 'pg') expect((await gw.db.query('SELECT count FROM rate_counters'))[0].count).toBe(4);
  });
});

test('a Redis outage is logged once when it starts and once when it ends; counts go to the fallback meanwhile', async () => {
  let down = false;
  let n = 0;
  const flaky: RedisLike = { sendCommand: async () => { if (down) throw new Error('connection refused'); return ++n; } };
  const fallback = new MemoryCounters();
  const counters = new RedisCounters(flaky, fallback);
  const log: string[] = [];
  counters.log = { warn: (_o, msg) => log.push(`warn ${msg}`), info: (msg) => log.push(`info ${msg}`) };
  let fallbacks = 0;
  counters.onFallback = () => fallbacks++;
  const now = new Date();
  expect(await counters.hit('b', 60_000, now)).toBe(1);
  down = true;
  expect(await counters.hit('b', 60_000, now)).toBe(1); // the fallback's own count
  expect(await counters.hit('b', 60_000, now)).toBe(2);
  down = false;
  expect(await counters.hit('b', 60_000, now)).toBe(2);
  expect(fallbacks).toBe(2);
  expect(log).toEqual([
    'warn rate-limit counters: Redis did not answer; counting in PostgreSQL or memory until it does',
    'info rate-limit counters: Redis answers again',
  ]);
});

test('a gateway started with an unreachable REDIS_URL warns, limits anyway and counts the fallbacks in /metrics', async () => {
  const warnings: string[] = [];
  const gw = await startTessera({
    port: 0, storage: 'memory', redisUrl: `redis://127.0.0.1:${await freePort()}`, warn: (m) => warnings.push(m),
    rateLimits: { perIp: 2, perKey: 0, failures: 0 },
  });
  closers.push(() => gw.close());
  expect(warnings).toEqual(['REDIS_URL does not answer yet: rate limits are counted in memory until it does']);
  const token = () => fetch(`${gw.url}/api/v1/tokens`, {
    method: 'POST', headers: { ...basic(gw.publicKey!), 'content-type': 'application/json' }, body: JSON.stringify(visa),
  });
  expect([(await token()).status, (await token()).status, (await token()).status]).toEqual([200, 200, 429]);
  const metrics = await (await fetch(`${gw.url}/metrics`)).text();
  expect(metrics).toMatch(/^tessera_rate_limit_fallback_total 3$/m);
});

test('the Redis client is loaded only when a connection is opened: not by the gateway\'s modules, nor by the CLI', async () => {
  // A module that imported it would cost every process (tessera --help, a gateway without REDIS_URL) ~0.2 s of CPU.
  const { execFileSync } = await import('node:child_process');
  const probe = `
    import { createRequire } from 'node:module';
    const cache = createRequire(import.meta.url).cache;
    const loaded = () => Object.keys(cache).some((k) => k.includes('/@redis/client/'));
    await import(${JSON.stringify(new URL('../../../dist/server/start.js', import.meta.url).href)});
    const { connectRedis } = await import(${JSON.stringify(new URL('../../../dist/server/http/counters.js', import.meta.url).href)});
    const before = loaded();
    const c = connectRedis('redis://127.0.0.1:1', { connectTimeoutMs: 50 });
    const after = loaded();
    await c.close();
    console.log(JSON.stringify({ before, after }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8', timeout: 60_000 });
  expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ before: false, after: true });
});
