import { TestGateway, basic, describe, expectError, test, visa } from '../../fixtures.js';

// Refusals name what is actually missing or wrong, within the spec's codes: a charge by customer
// without an amount names the amount only; a token request without the owner's name calls it
// missing, with one the checks refuse, invalid (the browser tokenizer shares src/checks.ts).

const post = (gw: TestGateway, url: string, payload: unknown, key: string) =>
  gw.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: basic(key), payload: payload as any });

describe('what is missing, and only that', () => {
  test('POST /charge: customer_id without amount is 48291 "amount missing"; neither is both', async ({ gateway: gw }) => {
    const key = gw.merchant.test.private_key;
    const customer = (await post(gw, '/customers', { first_name: 'Ada' }, key)).json();
    expectError(await post(gw, '/charge', { customer_id: customer.id }, key), 400, '48291', /^amount missing$/);
    expectError(await post(gw, '/charge', { customer_id: '', amount: 500 }, key), 400, '48291', /^customer_id missing$/);
    expectError(await post(gw, '/charge', { method_id: 'x' }, key), 400, '48291', /^parameters missing \(customer_id, amount\)$/);
    expectError(await post(gw, '/charge', { token: 'abc' }, key), 400, '69002', /^amount missing$/);
    expectError(await post(gw, '/charge', { amount: 500 }, key), 400, '69002', /^token missing$/);
  });

  test('POST /tokens: card_owner_name missing vs invalid, the same code 11112', async ({ gateway: gw }) => {
    const key = gw.merchant.test.public_key;
    const { card_owner_name: _, ...nameless } = visa;
    expectError(await post(gw, '/tokens', nameless, key), 400, '11112', /^card_owner_name missing$/);
    expectError(await post(gw, '/tokens', { ...visa, card_owner_name: '  ' }, key), 400, '11112', /^card_owner_name missing$/);
    expectError(await post(gw, '/tokens', { ...visa, card_exp_month: '13' }, key), 400, '11112', /^invalid card_exp_month$/);
    expectError(await post(gw, '/tokens', { ...visa, card_number: '' }, key), 400, '11112', /^card_number missing$/);
  });
});
