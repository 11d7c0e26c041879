// PHP's json_encode writes an empty array, its empty map too, as []: the PHP library sends
// `"metadata":[]` and `"items":[]` for "nothing". Read as an empty object / no items, never a 400.
import { TestGateway, basic, expect, test, visa } from '../../fixtures.js';

/** A POST as the PHP library sends it: JSON, or a form body. */
const poster = (gw: TestGateway) => (url: string, payload: object | string, type = 'application/json') => gw.app.inject({
  method: 'POST', url: `/api/v1${url}`, payload, headers: { ...basic(gw.merchant.test.private_key), 'content-type': type },
});

test('"metadata":[] on a charge, a customer (create and update) and a customer charge is empty metadata', async ({ gateway, api }) => {
  const post = poster(gateway);
  const token = await api.tokenize(visa);
  const charge = await post('/charge', { token, amount: 150, metadata: [] });
  expect(charge.statusCode, charge.body).toBe(200);
  expect(charge.json().metadata).toEqual({});

  const customer = await post('/customers', { first_name: 'Ada', token: await api.tokenize(visa), metadata: [] });
  expect(customer.statusCode, customer.body).toBe(200);
  expect(customer.json().metadata).toEqual({});
  const id = customer.json().id;
  expect((await post(`/customers/${id}`, { metadata: { tier: 'gold' } })).json().metadata).toEqual({ tier: 'gold' });
  const cleared = await post(`/customers/${id}`, { metadata: [] });
  expect(cleared.statusCode, cleared.body).toBe(200);
  expect(cleared.json().metadata).toEqual({});

  const byCustomer = await post('/charge', { customer_id: id, amount: 175, metadata: [] });
  expect(byCustomer.statusCode, byCustomer.body).toBe(200);
  // A JSON-encoded [] in a form body reads the same.
  const form = await post('/charge', `customer_id=${id}&amount=180&metadata=${encodeURIComponent('[]')}`, 'application/x-www-form-urlencoded');
  expect(form.statusCode, form.body).toBe(200);
  expect(form.json().metadata).toEqual({});
});

test('"items":[] with an amount is an invoice of that amount; a non-empty list where an object belongs is still refused', async ({ gateway, api, expectError }) => {
  const post = poster(gateway);
  const inv = await post('/invoices', { customer_email: 'ada@example.com', customer_first_name: 'Ada', amount: 100, items: [] });
  expect(inv.statusCode, inv.body).toBe(200);
  expect(inv.json()).toMatchObject({ amount: 100 });
  // The PHP library's form encoding of the same: items=[] (a JSON-encoded empty list).
  const form = await post('/invoices', 'customer_email=ada%40example.com&customer_first_name=Ada&amount=100&items=%5B%5D', 'application/x-www-form-urlencoded');
  expect(form.statusCode, form.body).toBe(200);
  expect(form.json()).toMatchObject({ amount: 100 });
  expectError(await post('/charge', { token: await api.tokenize(visa), amount: 150, metadata: ['a'] }), 400, 'REQ01');
});
