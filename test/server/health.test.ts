import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestGateway, basic, startGateway, tokenFor, visa } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

test('healthz and readyz answer without a key', async () => {
  const live = await gw.app.inject({ url: '/healthz' });
  expect(live.statusCode).toBe(200);
  expect(live.json()).toEqual({ status: 'ok' });
  const ready = await gw.app.inject({ url: '/readyz' });
  expect(ready.statusCode).toBe(200);
  expect(ready.json()).toEqual({ status: 'ok', database: gw.db.kind });
});

test('metrics count requests by route template and charges by outcome, never ids', async () => {
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
