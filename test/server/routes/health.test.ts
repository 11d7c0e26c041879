import { Services, buildApp } from '../../../server/app.js';
import type { Db } from '../../../server/db/index.js';
import type { ReadinessCheck } from '../../../server/routes/health.js';
import { startTessera } from '../../../server/start.js';
import { freePort } from '../notify/notify-fixtures.js';
import { TestGateway, basic, describe, expect, test, tokenFor, visa } from '../../fixtures.js';

test('healthz and readyz answer without a key', async ({ gateway: gw }) => {
  const live = await gw.app.inject({ url: '/healthz' });
  expect(live.statusCode).toBe(200);
  expect(live.json()).toEqual({ status: 'ok' });
  const ready = await gw.app.inject({ url: '/readyz' });
  expect(ready.statusCode).toBe(200);
  expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
});

/** The test gateway's services with other readiness checks, or a database that fails. */
async function readyz(gw: TestGateway, services: Partial<Services>) {
  const app = await buildApp({ db: gw.db, vault: gw.vault, clock: gw.clock, ...services });
  try {
    const res = await app.inject({ url: '/readyz' });
    return { status: res.statusCode, body: res.json() };
  } finally {
    await app.close();
  }
}
const check = (critical: boolean, result: () => Promise<boolean>): ReadinessCheck => ({ critical, check: result });

describe('readyz reports each dependency', () => {
  test('a database that fails is 503 unavailable', async ({ gateway: gw }) => {
    const db = { ...gw.db, query: async () => { throw new Error('connection terminated'); } } as unknown as Db;
    expect(await readyz(gw, { db })).toEqual({ status: 503, body: { status: 'unavailable', checks: { database: 'unavailable' } } });
  });

  test('a critical check that fails, throws or never answers (2 s) is 503; the database is still reported', async ({ gateway: gw }) => {
    const res = await readyz(gw, { readiness: {
      data_key: check(true, async () => false),
      thrower: check(true, async () => { throw new Error('no'); }),
      hung: check(true, () => new Promise<boolean>(() => {})),
    } });
    expect(res).toEqual({ status: 503, body: { status: 'unavailable', checks: { database: 'ok', data_key: 'unavailable', thrower: 'unavailable', hung: 'unavailable' } } });
  });

  test('a non-critical one (Redis: rate limits fall back to the database) that fails is 200 degraded', async ({ gateway: gw }) => {
    expect(await readyz(gw, { readiness: { redis: check(false, async () => false), data_key: check(true, async () => true) } }))
      .toEqual({ status: 200, body: { status: 'degraded', checks: { database: 'ok', redis: 'unavailable', data_key: 'ok' } } });
  });

  test('a gateway started with REDIS_URL reports Redis: down here, so degraded', async () => {
    const started = await startTessera({ storage: 'memory', port: 0, redisUrl: `redis://127.0.0.1:${await freePort()}`, warn: () => {} });
    try {
      const res = await started.app.inject({ url: '/readyz' });
      expect({ status: res.statusCode, body: res.json() })
        .toEqual({ status: 200, body: { status: 'degraded', checks: { database: 'ok', redis: 'unavailable', data_key: 'ok' } } });
    } finally {
      await started.close();
    }
  });
});

test('metrics count requests by route template and charges by outcome, never ids', async ({ gateway: gw }) => {
  const sk = basic(gw.merchant.test.private_key);
  const ok = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: sk, payload: { token: await tokenFor(gw, visa), amount: 500 } });
  expect(ok.statusCode).toBe(200);
  const declined = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: sk, payload: { token: await tokenFor(gw, visa), amount: 80 } });
  expect(declined.statusCode).toBe(402);
  await gw.app.inject({ url: `/api/v1/charge/${ok.json().id}`, headers: sk });

  const res = await gw.app.inject({ url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  expect(res.body).toContain('tessera_charges_total{env="test",status="SETTLED"} 1');
  expect(res.body).toContain('tessera_charges_total{env="test",status="DECLINED"} 1');
  expect(res.body).toMatch(/http_requests_total\{method="POST",route="\/api\/v1\/charge",status="402"\} 1/);
  expect(res.body).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/charge\/:id"\} 1/);
  expect(res.body).not.toContain(ok.json().id);
});
