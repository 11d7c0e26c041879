import { randomBytes } from 'node:crypto';
import { RedisCounters, connectRedis } from '../../../server/http/counters.js';
import { startTessera } from '../../../server/start.js';
import { HAS_REDIS_SERVER, PrivateRedis, startPrivateRedis } from '../../helpers/redis-server.js';
import { TestGateway, basic, describe, expect, test, visa } from '../../fixtures.js';

// Issue 27.7: a frozen Redis (SIGSTOP: connected, buffering, never answering) must not freeze
// checkout. Every command has a deadline that holds once it is on the wire; the first one missed
// drops the connection, which fails every command behind it at once, so nothing piles up; the
// counts go to the fallback store meanwhile, and Redis is used again once it answers. Each test
// starts a redis-server of its own (never the machine's) and freezes it.
//
// No timing is asserted: a request must answer at all (NO_ANSWER_MS is a bound for a hung request,
// 40 times the deadline), and where each hit was counted is read from counters.

const NO_ANSWER_MS = 10_000;
const within = <T>(p: Promise<T>, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${NO_ANSWER_MS} ms`)), NO_ANSWER_MS)));
  return Promise.race([p, hung]).finally(() => clearTimeout(timer));
};

let cleanups: (() => Promise<unknown>)[] = [];
test.afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});
const privateRedis = async (): Promise<PrivateRedis> => {
  const r = await startPrivateRedis();
  cleanups.push(() => r.stop());
  return r;
};

describe.skipIf(!HAS_REDIS_SERVER)(`a frozen Redis${HAS_REDIS_SERVER ? '' : ' (skipped: no redis-server)'}`, () => {
  test('token requests keep answering, counted by the fallback store; nothing waits on the frozen connection; Redis counts again once resumed', async ({ newGateway }) => {
    const redis = await privateRedis();
    const conn = connectRedis(redis.url, { connectTimeoutMs: 500 });
    cleanups.push(() => conn.close());
    expect(await conn.ready).toBe(true);
    const prefix = `tessera-test:${randomBytes(6).toString('hex')}:`;
    let fallbacks = 0;
    const gw: TestGateway = await newGateway({
      limits: { perIp: 100, perKey: 0, failures: 0 },
      counters: (local) => Object.assign(new RedisCounters(conn, local, { prefix }), { onFallback: () => fallbacks++ }),
    });
    const token = () => within(gw.app.inject({
      method: 'POST', url: '/api/v1/tokens', headers: basic(gw.merchant.test.public_key), payload: visa, remoteAddress: '203.0.113.7',
    }).then((r) => r.statusCode), 'POST /tokens');
    const redisCount = async () => {
      const keys = (await conn.sendCommand(['KEYS', `${prefix}rate:ip:*`])) as string[];
      expect(keys).toHaveLength(1);
      return Number(await conn.sendCommand(['GET', keys[0]]));
    };
    const dbCount = async () => (gw.db.kind === 'pg' ? (await gw.db.query('SELECT coalesce(sum(count), 0)::int AS n FROM rate_counters'))[0].n as number : null);

    expect(await token()).toBe(200);
    expect(await redisCount()).toBe(1);
    expect(fallbacks).toBe(0);

    await redis.freeze();
    const frozen: number[] = [];
    for (let i = 0; i < 8; i++) frozen.push(await token());
    expect(frozen).toEqual(Array(8).fill(200));
    expect(fallbacks).toBe(8); // every hit counted by the fallback store...
    if (gw.db.kind === 'pg') expect(await dbCount()).toBe(8); // ...in PostgreSQL here (memory on PGlite)
    expect(conn.pending()).toBe(0); // nothing left waiting on the frozen connection
    expect(conn.stalls()).toBe(1); // the first missed deadline dropped it; the rest failed at once, offline

    redis.resume();
    await within(conn.whenReady(), 'reconnection after SIGCONT');
    const before = await redisCount(); // 1, or 2 once the resumed server has applied the hit sent before the drop
    expect(await token()).toBe(200);
    expect(await redisCount()).toBeGreaterThan(before);
    expect(fallbacks).toBe(8); // counted in Redis, not by the fallback
  });

  test('commands in flight when it freezes: at most maxPending wait, the rest are refused at once; all fail by the deadline and the next is refused offline', async () => {
    const redis = await privateRedis();
    const conn = connectRedis(redis.url, { connectTimeoutMs: 500, maxPending: 5 });
    cleanups.push(() => conn.close());
    expect(await conn.ready).toBe(true);
    await redis.freeze();
    const outcomes = Array.from({ length: 20 }, () => conn.sendCommand(['PING']).then(() => 'answered', (e: Error) => e.message));
    expect(conn.pending()).toBe(5);
    const seen = await within(Promise.all(outcomes), 'commands to a frozen Redis');
    expect(seen.filter((m) => m === 'answered')).toEqual([]);
    expect(seen.filter((m) => /already waiting/.test(m))).toHaveLength(15);
    expect(seen.filter((m) => /no answer within 250 ms/.test(m))).toHaveLength(1); // the first: its deadline
    expect(conn.pending()).toBe(0);
    expect(conn.stalls()).toBe(1);
    await expect(conn.sendCommand(['PING'])).rejects.toThrow(/not connected/);
  });

  test('a gateway started with REDIS_URL: token requests answer while it is frozen, /metrics counts the fallbacks, /readyz says degraded, then ok again', async () => {
    const redis = await privateRedis();
    const gw = await startTessera({ storage: 'memory', port: 0, redisUrl: redis.url, rateLimits: { perIp: 1000, perKey: 0, failures: 0 }, warn: () => {} });
    cleanups.push(() => gw.close());
    const token = async () => {
      const res = await fetch(`${gw.url}/api/v1/tokens`, {
        method: 'POST', headers: { ...basic(gw.publicKey!), 'content-type': 'application/json' }, body: JSON.stringify(visa),
        signal: AbortSignal.timeout(NO_ANSWER_MS),
      });
      return res.status;
    };
    const readyz = async () => {
      const res = await fetch(`${gw.url}/readyz`, { signal: AbortSignal.timeout(NO_ANSWER_MS) });
      return { status: res.status, body: await res.json() };
    };
    const fallbackTotal = async () => {
      const m = /^tessera_rate_limit_fallback_total (\d+)$/m.exec(await (await fetch(`${gw.url}/metrics`)).text());
      return m ? Number(m[1]) : 0;
    };
    const ok = { status: 200, body: { status: 'ok', checks: { database: 'ok', redis: 'ok', data_key: 'ok' } } };

    expect(await token()).toBe(200);
    expect(await readyz()).toEqual(ok);
    expect(await fallbackTotal()).toBe(0);

    await redis.freeze();
    const frozen: number[] = [];
    for (let i = 0; i < 10; i++) frozen.push(await token());
    expect(frozen).toEqual(Array(10).fill(200));
    expect(await fallbackTotal()).toBe(10);
    expect(await readyz()).toEqual({ status: 200, body: { status: 'degraded', checks: { database: 'ok', redis: 'unavailable', data_key: 'ok' } } });

    redis.resume();
    await expect.poll(readyz, { timeout: 30_000, interval: 100 }).toEqual(ok);
    expect(await token()).toBe(200);
    expect(await fallbackTotal()).toBe(10);
  });
});
