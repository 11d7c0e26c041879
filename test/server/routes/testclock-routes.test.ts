import { apiFor, expect, test, visa } from '../../fixtures.js';

// The test clock moves "now" for every test-mode route, not only billing: a token made before an
// advance of 15 minutes is expired for charges, customers and methods alike; live mode is untouched.
test('advancing the test clock 15 minutes expires tokens on every route that consumes them', async ({ gateway, api, expectError }) => {
  const forCharge = await api.tokenize(visa);
  const forCustomer = await api.tokenize(visa);
  const created = await api.request('POST', '/customers', { first_name: 'Ada' });
  expect(created.status).toBe(200);
  const forMethod = await api.tokenize(visa);

  expect((await api.request('POST', '/test_helpers/clock/advance', { minutes: 15 })).status).toBe(200);

  expectError(await api.request('POST', '/charge', { token: forCharge, amount: 500 }), 400, '69201');
  expectError(await api.request('POST', '/customers', { token: forCustomer }), 400, '23489');
  expectError(await api.request('POST', `/customers/${created.body.id}/methods`, { token: forMethod, method_type: 'credit_card' }), 400, '23489');

  // A token made after the move lives on the moved clock: it is usable for its 15 minutes.
  const ok = await api.charge(await api.tokenize(visa), 500);
  expect(ok.status).toBe(200);
  expect(new Date(ok.transaction!.created_at as string).getTime()).toBe(gateway.clock.now().getTime() + 15 * 60_000);

  // Live mode has no test clock.
  expect((await apiFor(gateway, gateway.merchant.live).request('GET', '/transactions')).status).toBe(200);
});
