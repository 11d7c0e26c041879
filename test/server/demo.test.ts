import { afterAll, beforeAll, expect, test } from 'vitest';
import { createKeySet, createMerchant } from '../../server/domain/keys.js';
import { TestGateway, basic, startGateway, tokenFor, visa } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

const demoCharge = (payload: object) => gw.app.inject({ method: 'POST', url: '/demo/charge', payload });

test('without a demo merchant the demo merchant server does not exist', async () => {
  const res = await demoCharge({ token: 'abcdef0123', amount: 100 });
  expect(res.statusCode).toBe(404);
  expect(res.json().errors[0].code).toBe('NOTFOUND');
});

test("it charges only the demo merchant's test tokens, and saves customers in its test environment", async () => {
  const now = gw.clock.now();
  const id = await createMerchant(gw.db, 'Demo merchant', now, { demo: true });
  const keys = await createKeySet(gw.db, { merchantId: id, env: 'test' }, now);

  // Another merchant's token is not the demo merchant's: 69201, nothing charged.
  const foreign = await demoCharge({ token: await tokenFor(gw, visa), amount: 100 });
  expect(foreign.statusCode).toBe(400);
  expect(foreign.json().errors[0].code).toBe('69201');

  const ok = await demoCharge({ token: await tokenFor(gw, visa, keys.public_key), amount: 1234 });
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toMatchObject({ customer_id: null, transaction: { status: 'SETTLED', amount_settled: 1234, merchant_id: id } });

  const saved = await demoCharge({ token: await tokenFor(gw, visa, keys.public_key), amount: 500, save_customer: true });
  expect(saved.statusCode).toBe(200);
  const customerId = saved.json().customer_id;
  expect(saved.json().transaction).toMatchObject({ customer_id: customerId, source: 'customer' });
  const customer = await gw.app.inject({ url: `/api/v1/customers/${customerId}`, headers: basic(keys.private_key) });
  expect(customer.statusCode).toBe(200);

  const declined = await demoCharge({ token: await tokenFor(gw, visa, keys.public_key), amount: 99 });
  expect(declined.statusCode).toBe(402);
  expect(declined.json().errors[0]).toMatchObject({ code: '99820', transaction_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
});
