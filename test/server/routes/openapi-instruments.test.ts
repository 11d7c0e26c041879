import { basic, describe, expect, test } from '../../fixtures.js';

// The field tables of customers, methods and the account updater (issue 31 item 1): the document
// shows each body closed with its fields and required ones; the server reads each card or bank
// field as the tokenizer does (a string or a number), so an object or array is refused at the
// edge, naming the field, before the card checks and before anything is stored.

const BODIES: [string, string, string[], string[]][] = [
  // path, method, fields it must list, its required fields
  ['/customers', 'post', ['id', 'first_name', 'email', 'state', 'country', 'metadata', 'default_receipts', 'token', 'card_number', 'bank_account_number', 'cvv', 'csc'], []],
  ['/customers/{id}', 'post', ['default_method_id', 'first_name', 'token', 'card_number', 'cvv'], []],
  ['/customers/search', 'post', ['search_term', 'limit', 'offset'], ['search_term']],
  ['/customers/{customer_id}/methods', 'post', ['method_type', 'token', 'zip', 'card_number', 'card_exp_month', 'bank_routing_number', 'cvv', 'csc', 'address_1'], []],
  ['/customers/{customer_id}/methods/{method_id}', 'post', ['token', 'zip', 'card_number', 'cvv'], []],
  ['/tokens/update', 'post', ['payment_methods'], ['payment_methods']],
];

test.for(BODIES)('%s %s: its body is documented closed, with its fields and required ones', async ([path, method, listed, required], { gateway: gw }) => {
  const doc = (await gw.app.inject({ url: '/api/v1/openapi.json' })).json();
  const op = doc.paths[path][method];
  const body = op.requestBody.content['application/json'].schema;
  expect(body.additionalProperties).toBe(false);
  expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(listed));
  expect(body.required ?? []).toEqual(required);
  expect(op.requestBody.required).toBe(required.length > 0);
  // Create names a custom id, update the default method: neither documents the other's.
  if (path === '/customers') expect(body.properties.default_method_id).toBeUndefined();
  if (path === '/customers/{id}') expect(body.properties.id).toBeUndefined();
  if (path === '/customers/{customer_id}/methods/{method_id}') expect(body.properties.method_type).toBeUndefined();
});

test('GET /customers and DELETE /customers document their query strings', async ({ gateway: gw }) => {
  const doc = (await gw.app.inject({ url: '/api/v1/openapi.json' })).json();
  const names = (op: any) => op.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name);
  expect(names(doc.paths['/customers'].get)).toEqual(['limit', 'offset']);
  expect(names(doc.paths['/customers'].delete)).toEqual(['id']);
});

describe('a card or bank field that is an object or an array is REQ01 naming it, and nothing is stored', () => {
  test.for(['card_number', 'card_exp_month', 'csc', 'cvv', 'bank_account_number', 'bank_routing_number', 'card_owner_name'])('%s', async (field, { gateway: gw }) => {
    const key = gw.merchant.test.private_key;
    const call = (url: string, payload: unknown) => gw.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: basic(key), payload: payload as any });
    const customer = (await call('/customers', {})).json();
    const method = customer.methods[0].id;
    const count = async () => Number((await gw.db.query<{ n: string }>(
      'SELECT (SELECT count(*) FROM customers) + (SELECT count(*) FROM payment_methods) AS n'))[0].n);
    const before = await count();
    const card = { card_number: '4111111111111111', card_exp_month: '12', card_exp_year: '2030' };
    for (const bad of [{ a: 1 }, [1]]) {
      for (const url of ['/customers', `/customers/${customer.id}`, `/customers/${customer.id}/methods`, `/customers/${customer.id}/methods/${method}`]) {
        const res = await call(url, { ...card, [field]: bad });
        expect({ url, status: res.statusCode, errors: res.json().errors }).toEqual({
          url, status: 400, errors: [{ code: 'REQ01', message: `${field} must be a string` }],
        });
      }
    }
    expect(await count()).toBe(before);
    expect((await call(`/customers/${customer.id}`, {})).json().methods.map((m: any) => m.last_4)).toEqual([null, null]);
  });
});

test('POST /customers/search documents its page in the query string too, and answers a bad page before a blank term, as before', async ({ gateway }) => {
  const doc = (await gateway.app.inject({ url: '/api/v1/openapi.json' })).json();
  const search = doc.paths['/customers/search'].post;
  expect(search.parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.schema.minimum, p.schema.maximum]))
    .toEqual([['limit', 1, 100], ['offset', 0, undefined]]);
  expect(search.requestBody.content['application/json'].schema.properties.limit).toMatchObject({ minimum: 1, maximum: 100 });
  const auth = { authorization: `Basic ${Buffer.from(`${gateway.merchant.test.private_key}:`).toString('base64')}` };
  const post = (url: string, payload: object) => gateway.app.inject({ method: 'POST', url, headers: auth, payload });
  expect((await post('/api/v1/customers/search', { search_term: '  ', limit: 500 })).json().errors[0].code).toBe('PAGE01');
  expect((await post('/api/v1/customers/search?limit=500', { search_term: '  ' })).json().errors[0].code).toBe('PAGE01');
  expect((await post('/api/v1/customers/search?limit=500', { search_term: 'x', limit: 5 })).statusCode).toBe(200);
  expect((await post('/api/v1/customers/search', { search_term: '  ' })).json().errors[0]).toEqual({ code: 'REQ01', message: 'search_term is required' });
});
