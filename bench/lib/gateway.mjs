import { dist } from './dist.mjs';

/**
 * Production's card-testing limiter (start.ts: counters in memory on PGlite, in the database on
 * PostgreSQL, in Redis with BENCH_REDIS_URL) with the per-IP and per-key ceilings lifted: one load
 * generator on one address would hit them in a second. The counting cost stays in the
 * measurement. BENCH_RATE_LIMITS=off leaves the limiter out.
 */
async function benchLimiter(db) {
  if (process.env.BENCH_RATE_LIMITS === 'off') return { limiter: undefined, close: async () => {} };
  const rl = await dist('http/ratelimit.js');
  const c = await dist('http/counters.js');
  const local = c.localCounters(db);
  const redis = process.env.BENCH_REDIS_URL ? c.connectRedis(process.env.BENCH_REDIS_URL) : null;
  if (redis && !(await redis.ready)) throw new Error(`BENCH_REDIS_URL ${process.env.BENCH_REDIS_URL} does not answer`);
  const store = redis ? new c.RedisCounters(redis, local, { prefix: `tessera-bench:${process.pid}:` }) : local;
  return {
    limiter: new rl.TokenLimiter(store, { ...rl.DEFAULT_LIMITS, perIp: 1e9, perKey: 1e9 }),
    close: async () => redis?.close(),
  };
}

/**
 * The real gateway on 127.0.0.1:<random port>, with a fresh merchant and test keys.
 * Scenarios that need other fixtures (tokens for charges, live keys) build them from the returned
 * `db`, `keys` and `merchantId` in their own setup phase.
 * `nodes` > 1 starts several gateway instances on the same database (the two-node mode will want
 * separate processes and its own pg pools; this in-process form is the placeholder for it).
 */
export async function startGateway(ctx, { nodes = 1 } = {}) {
  const { buildApp } = await dist('app.js');
  const { createMerchant, createKeySet, KeyCache } = await dist('domain/merchant/keys.js');
  const { db, vault, clock } = ctx.backend;
  const now = clock.now();
  const { merchantId, keys } = await db.tx(async (q) => {
    const id = await createMerchant(q, 'Bench merchant', now);
    return { merchantId: id, keys: await createKeySet(q, { merchantId: id, env: 'test' }, now) };
  });
  const { limiter, close: closeLimiter } = await benchLimiter(db);
  const apps = [];
  try {
    for (let i = 0; i < nodes; i++) {
      // As served (start.ts): key lookups cached for one second per node.
      const app = await buildApp({ db, vault, clock, limiter, keys: new KeyCache(1000) }, { logLevel: 'silent' });
      await app.listen({ host: '127.0.0.1', port: 0 });
      apps.push(app);
    }
  } catch (err) {
    await Promise.all(apps.map((a) => a.close()));
    await closeLimiter();
    throw err;
  }
  const urls = apps.map((a) => {
    const { port } = a.server.address();
    return `http://127.0.0.1:${port}`;
  });
  return {
    urls,
    url: urls[0],
    merchantId,
    keys,
    db,
    close: async () => {
      await Promise.all(apps.map((a) => a.close()));
      await closeLimiter();
    },
  };
}
