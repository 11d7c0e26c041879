import { TestGateway, apiFor, expect, test, visa } from '../../fixtures.js';

const events = (gw: TestGateway, merchantId: string) =>
  gw.db.query('SELECT * FROM events WHERE merchant_id = $1 ORDER BY seq', [merchantId]);

test('a charge emits transaction.created or .failed, a refund .refunded, in the same transaction as the change', async ({ gateway, api, expectError }) => {
  const ok = await api.charge(await api.tokenize(visa), 900);
  const declined = await api.charge(await api.tokenize(visa), 75);
  expect(ok.status).toBe(200);
  expect(declined.status).toBe(402);
  const id = ok.transaction!.id;
  expect((await api.request('POST', `/charge/${id}/cancel`, { amount: 100 })).status).toBe(200);
  // A rolled-back charge (over-refund) leaves no event behind.
  expectError(await api.request('POST', `/charge/${id}/cancel`, { amount: 5000 }), 400, 'REFUND01');

  const rows = await events(gateway, gateway.merchant.id);
  expect(rows.map((e) => e.type)).toEqual(['transaction.created', 'transaction.failed', 'transaction.refunded']);
  expect(rows.every((e) => e.env === 'test' && e.resource === 'transaction' && /^evt_[0-9a-f]{24}$/.test(e.id))).toBe(true);
  expect(rows[0].data).toMatchObject({ class: 'transaction', id, amount_settled: 900 });
  expect(rows[1].data).toMatchObject({ id: declined.errors[0].transaction_id, status: 'DECLINED' });
  expect(rows[2].data).toMatchObject({ amount_refunded: 100 });
  expect(JSON.stringify(rows)).not.toContain('4111111111111111');
  expect(await events(gateway, gateway.other.id)).toEqual([]);
});

test('customers emit created, updated and deleted events with the presented customer', async ({ gateway }) => {
  const m = await gateway.newMerchant();
  const api = apiFor(gateway, m.test);
  const created = await api.request('POST', '/customers', { first_name: 'Ada', token: await api.tokenize(visa) });
  expect(created.status).toBe(200);
  const id = created.body.id;
  expect((await api.request('POST', `/customers/${id}`, { company: 'Engines Ltd' })).status).toBe(200);
  expect((await api.request('DELETE', `/customers/${id}`)).status).toBe(200);
  const rows = await events(gateway, m.id);
  expect(rows.map((e) => e.type)).toEqual(['customer.created', 'customer.updated', 'customer.deleted']);
  expect(rows[0].data).toMatchObject({ class: 'customer', id, first_name: 'Ada', last_4: '1111' });
  expect(rows[1].data).toMatchObject({ company: 'Engines Ltd' });
  expect(rows[2].data).toMatchObject({ id, deleted: true });
  expect(JSON.stringify(rows)).not.toContain('4111111111111111');
});
