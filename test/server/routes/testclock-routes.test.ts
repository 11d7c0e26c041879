import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestGateway, basic, startGateway, tokenFor, visa } from '../../helpers/gateway.js';

// The test clock moves "now" for every test-mode route, not only billing: a token made before an
// advance of 15 minutes is expired for charges, customers and methods alike; live mode is untouched.
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

test('advancing the test clock 15 minutes expires tokens on every route that consumes them', async () => {
  const sk = basic(gw.merchant.test.private_key);
  const forCharge = await tokenFor(gw, visa);
  const forCustomer = await tokenFor(gw, visa);
  const created = await gw.app.inject({ method: 'POST', url: '/api/v1/customers', headers: sk, payload: { first_name: 'Ada' } });
  const forMethod = await tokenFor(gw, visa);

  const moved = await gw.app.inject({ method: 'POST', url: '/api/v1/test_helpers/clock/advance', headers: sk, payload: { minutes: 15 } });
  expect(moved.statusCode).toBe(200);

  const charge = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: sk, payload: { token: forCharge, amount: 500 } });
  expect(charge.json().errors[0].code).toBe('69201');
  const customer = await gw.app.inject({ method: 'POST', url: '/api/v1/customers', headers: sk, payload: { token: forCustomer } });
  expect(customer.json().errors[0].code).toBe('23489');
  const method = await gw.app.inject({
    method: 'POST', url: `/api/v1/customers/${created.json().id}/methods`, headers: sk,
    payload: { token: forMethod, method_type: 'credit_card' },
  });
  expect(method.json().errors[0].code).toBe('23489');

  // A token made after the move lives on the moved clock: it is usable for its 15 minutes.
  const fresh = await tokenFor(gw, visa);
  const ok = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: sk, payload: { token: fresh, amount: 500 } });
  expect(ok.statusCode).toBe(200);
  expect(new Date(ok.json().created_at).getTime()).toBe(gw.clock.now().getTime() + 15 * 60_000);

  // Live mode has no test clock.
  const live = await gw.app.inject({ url: '/api/v1/transactions', headers: basic(gw.merchant.live.private_key) });
  expect(live.statusCode).toBe(200);
});
