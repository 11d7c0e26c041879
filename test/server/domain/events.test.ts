import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestGateway, basic, startGateway, tokenFor, visa } from '../../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

const events = (merchantId: string) =>
  gw.db.query('SELECT * FROM events WHERE merchant_id = $1 ORDER BY seq', [merchantId]);

test('a charge emits transaction.created or .failed, a refund .refunded, in the same transaction as the change', async () => {
  const sk = basic(gw.merchant.test.private_key);
  const ok = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: sk, payload: { token: await tokenFor(gw, visa), amount: 900 } });
  const declined = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: sk, payload: { token: await tokenFor(gw, visa), amount: 75 } });
  await gw.app.inject({ method: 'POST', url: `/api/v1/charge/${ok.json().id}/cancel`, headers: sk, payload: { amount: 100 } });
  // A rolled-back charge (over-refund) leaves no event behind.
  await gw.app.inject({ method: 'POST', url: `/api/v1/charge/${ok.json().id}/cancel`, headers: sk, payload: { amount: 5000 } });

  const rows = await events(gw.merchant.id);
  expect(rows.map((e) => e.type)).toEqual(['transaction.created', 'transaction.failed', 'transaction.refunded']);
  expect(rows.every((e) => e.env === 'test' && e.resource === 'transaction' && /^evt_[0-9a-f]{24}$/.test(e.id))).toBe(true);
  expect(rows[0].data).toMatchObject({ class: 'transaction', id: ok.json().id, amount_settled: 900 });
  expect(rows[1].data).toMatchObject({ id: declined.json().errors[0].transaction_id, status: 'DECLINED' });
  expect(rows[2].data).toMatchObject({ amount_refunded: 100 });
  expect(JSON.stringify(rows)).not.toContain('4111111111111111');
  expect(await events(gw.other.id)).toEqual([]);
});

test('customers emit created, updated and deleted events with the presented customer', async () => {
  const m = await gw.newMerchant();
  const sk = basic(m.test.private_key);
  const created = await gw.app.inject({ method: 'POST', url: '/api/v1/customers', headers: sk, payload: { first_name: 'Ada', token: await tokenFor(gw, visa, m.test.public_key) } });
  expect(created.statusCode).toBe(200);
  const id = created.json().id;
  await gw.app.inject({ method: 'POST', url: `/api/v1/customers/${id}`, headers: sk, payload: { company: 'Engines Ltd' } });
  await gw.app.inject({ method: 'DELETE', url: `/api/v1/customers/${id}`, headers: sk });
  const rows = await events(m.id);
  expect(rows.map((e) => e.type)).toEqual(['customer.created', 'customer.updated', 'customer.deleted']);
  expect(rows[0].data).toMatchObject({ class: 'customer', id, first_name: 'Ada', last_4: '1111' });
  expect(rows[1].data).toMatchObject({ company: 'Engines Ltd' });
  expect(rows[2].data).toMatchObject({ id, deleted: true });
  expect(JSON.stringify(rows)).not.toContain('4111111111111111');
});
