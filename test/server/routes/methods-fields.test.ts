import { TestGateway, basic, describe, expect, expectError, test } from '../../fixtures.js';

// Card and bank fields sent instead of a token (customer and method writes) are checked at the edge,
// before the route's transaction (domain/instruments/payment-fields.ts), but answered where the transaction has
// always answered them: after what only the database knows. And a bank account whose body names no
// holder is held by the customer's names, read in the transaction.

const CARD = { card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2030 };
const BAD_CARD = { ...CARD, card_number: '4111111111111112' };
const BANK = { bank_account_number: '000123456789', bank_routing_number: '110000000', bank_account_type: 'checking' };
const NO_METHOD = 'f'.repeat(32);

const call = (gw: TestGateway, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  gw.app.inject({ method, url: `/api/v1${url}`, headers: basic(gw.merchant.test.private_key), payload: payload as any });
const newCustomer = async (gw: TestGateway, body: Record<string, unknown> = {}) => {
  const res = await call(gw, 'POST', '/customers', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('card and bank fields: refused in the order the transaction answers', () => {
  test('the customer (17001), the method (82002) and the method type (82001) come before the fields', async ({ gateway: gw }) => {
    expectError(await call(gw, 'POST', '/customers/ffffffffffff/methods', BAD_CARD), 404, '17001');
    expectError(await call(gw, 'POST', '/customers/ffffffffffff', { ...CARD, token: 'tok' }), 404, '17001');
    const c = await newCustomer(gw);
    expectError(await call(gw, 'POST', `/customers/${c.id}/methods/${NO_METHOD}`, BAD_CARD), 404, '82002');
    expectError(await call(gw, 'POST', `/customers/${c.id}/methods`, { ...BAD_CARD, method_type: 'gold' }), 400, '82001');
    expectError(await call(gw, 'POST', `/customers/${c.id}/methods`, { ...BAD_CARD, method_type: 'bank_account' }), 400, '82001',
      /^method_type bank_account does not match the credit_card fields sent$/);
    expectError(await call(gw, 'POST', `/customers/${c.id}/methods`, BAD_CARD), 400, '11112');
  });

  test('a taken custom id (81608) comes before the fields, and a refusal writes nothing', async ({ gateway: gw }) => {
    await newCustomer(gw, { id: 'taken_id' });
    expectError(await call(gw, 'POST', '/customers', { id: 'taken_id', ...BAD_CARD }), 409, '81608');
    expectError(await call(gw, 'POST', '/customers', { id: 'fresh_id', ...BAD_CARD }), 400, '11112');
    expectError(await call(gw, 'GET', '/customers/fresh_id'), 404, '17001');
  });

  test('a token beside the fields is refused, not dropped, once the customer is known', async ({ gateway: gw }) => {
    const c = await newCustomer(gw);
    expectError(await call(gw, 'POST', `/customers/${c.id}/methods`, { ...CARD, token: 'tok' }), 400, 'REQ01',
      /^send a token or the card \(bank account\) fields, not both$/);
    expectError(await call(gw, 'POST', `/customers/${c.id}`, { ...CARD, ...BANK }), 400, 'REQ01',
      /^send the fields of one card or one bank account, not both$/);
  });
});

describe("a bank account is held by the customer's names when the body names none", () => {
  test('refused name by name when the customer has none, first before last', async ({ gateway: gw }) => {
    const nameless = await newCustomer(gw);
    expectError(await call(gw, 'POST', `/customers/${nameless.id}/methods`, BANK), 400, '91703', /^bank_account_holder_first_name missing$/);
    const ada = await newCustomer(gw, { first_name: 'Ada' });
    expectError(await call(gw, 'POST', `/customers/${ada.id}/methods`, BANK), 400, '91703', /^bank_account_holder_last_name missing$/);
    // What the checks read before the holder is answered first; what they read after, once a holder is known.
    expectError(await call(gw, 'POST', `/customers/${nameless.id}/methods`, { ...BANK, bank_routing_number: '123456789' }), 400, '91703',
      /^invalid bank_routing_number$/);
    expectError(await call(gw, 'POST', `/customers/${nameless.id}/methods`, { ...BANK, bank_account_type: 'gold' }), 400, '91703',
      /^bank_account_holder_first_name missing$/);
    expectError(await call(gw, 'POST', `/customers/${ada.id}/methods`, { ...BANK, bank_account_type: 'gold', bank_account_holder_last_name: 'L' }),
      400, '91703', /^invalid bank_account_type$/);
  });

  test("the body's names win, and an update holds the account by the names it sends", async ({ gateway: gw }) => {
    const nameless = await newCustomer(gw);
    const named = await call(gw, 'POST', `/customers/${nameless.id}/methods`, { ...BANK, bank_account_holder_first_name: 'Grace', bank_account_holder_last_name: 'Hopper' });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().method).toMatchObject({ bank_account_holder_first_name: 'Grace', bank_account_holder_last_name: 'Hopper' });
    const updated = await call(gw, 'POST', `/customers/${nameless.id}`, { first_name: 'Ada', last_name: 'Lovelace', ...BANK });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ bank_account_holder_first_name: 'Ada', bank_account_holder_last_name: 'Lovelace' });
    const card = await call(gw, 'POST', `/customers/${nameless.id}/methods`, CARD);
    expect(card.json().method).toMatchObject({ method_type: 'credit_card', card_owner_name: 'Ada Lovelace' });
  });
});
