// Issue 16, items 4, 5 and 10: card (and bank) fields sent where existing clients send them, the
// owner's name optional on a direct charge, and the spec's types for customer fields and csc_check.
// Each request goes both ways the clients send it: form-encoded (the PHP library) and JSON.
import { Body, ENCODINGS, errorOf, test } from './compat-fixtures.js';
import { Merchant, TestGateway, basic, describe, expect, tokenFor, visa } from '../../fixtures.js';

// The official client's README: a customer from card fields, no token, no card_owner_name.
const README_CUSTOMER = {
  first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com',
  card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2030, csc: '123',
};
const BANK_FIELDS = { bank_account_number: '000123456789', bank_routing_number: '110000000', bank_account_type: 'checking' };

async function countRows(gw: TestGateway, m: Merchant, table: string) {
  const [{ n }] = await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE merchant_id = $1`, [m.id]);
  return n;
}

describe('card fields on POST /customers (item 4)', () => {
  test.for(ENCODINGS)('%s: stored as the default card method, chargeable at once, never in plain text', async (enc, { gateway: gw, call }) => {
    const m = await gw.newMerchant();
    const res = await call('POST', '/customers', README_CUSTOMER, m, enc);
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    expect(c).toMatchObject({
      card_type: 'visa', last_4: '1111', card_exp_month: 12, card_exp_year: 2030, card_owner_name: 'Ada Lovelace',
    });
    const card = c.methods.find((x: any) => x.id === c.default_method_id);
    expect(card).toMatchObject({ method_type: 'credit_card', last_4: '1111', card_type: 'visa', csc_check: 'unchecked' });
    expect(res.body).not.toContain(README_CUSTOMER.card_number);

    const charge = await call('POST', '/charge', { customer_id: c.id, amount: 1999 }, m, enc);
    expect(charge.statusCode, charge.body).toBe(200);
    expect(charge.json()).toMatchObject({ status: 'SETTLED', customer_id: c.id, card_type: 'visa', card_number: expect.stringMatching(/1111$/) });

    const rows = JSON.stringify(await gw.db.query('SELECT * FROM payment_methods WHERE merchant_id = $1', [m.id]));
    expect(rows).not.toContain(README_CUSTOMER.card_number);
    expect(rows).not.toContain('"123"');
    const [stored] = await gw.db.query<{ secret_enc: string }>('SELECT secret_enc FROM payment_methods WHERE id = $1', [card.id]);
    expect(stored.secret_enc).toMatch(/\S/);
  });

  test.for(ENCODINGS)('%s: the token\'s checks refuse, and nothing is stored', async (enc, { gateway: gw, call }) => {
    const m = await gw.newMerchant();
    const cases: [Body, number, string][] = [
      [{ card_number: '4111111111111112' }, 400, '11112'], // Luhn
      [{ card_number: '411111111111111' }, 400, '11301'], // Visa length
      [{ card_exp_year: 2020, card_exp_month: 1 }, 400, '11112'], // expired
      [{ card_exp_month: 13 }, 400, '11112'],
      [{ csc: '12' }, 400, '234722'],
      [{ card_number: '4012888888881881' }, 400, 'TEST01'], // a real number in test mode
      [{ token: 'abcdef0123' }, 400, 'REQ01'], // a token beside card fields: which one was meant?
      [{ ...BANK_FIELDS }, 400, 'REQ01'], // a card and an account at once
    ];
    for (const [patch, status, code] of cases) {
      expect(errorOf(await call('POST', '/customers', { ...README_CUSTOMER, ...patch }, m, enc)), JSON.stringify(patch))
        .toEqual({ status, code });
    }
    // Part of a card is refused, not dropped.
    const { card_number: _, ...noNumber } = README_CUSTOMER;
    expect(errorOf(await call('POST', '/customers', noNumber, m, enc))).toEqual({ status: 400, code: '11112' });
    // A security code alone is part of a card too: refused for the missing number, never dropped.
    for (const code of [{ csc: '123' }, { cvv: '123' }] as Body[]) {
      expect(errorOf(await call('POST', '/customers', { first_name: 'Ada', ...code }, m, enc)), JSON.stringify(code)).toEqual({ status: 400, code: '11112' });
    }
    expect(await countRows(gw, m, 'customers')).toBe(0);
    expect(await countRows(gw, m, 'payment_methods')).toBe(0);
  });

  test('merchant verification applies as for a token: CPCVV2 without a code under cvv_check', async ({ gateway: gw, call }) => {
    const m = await gw.newMerchant();
    expect((await call('POST', '/settings', { cvv_check: 'true' }, m, 'form')).statusCode).toBe(200);
    const { csc: _, ...noCsc } = README_CUSTOMER;
    expect(errorOf(await call('POST', '/customers', noCsc, m, 'form'))).toEqual({ status: 402, code: 'CPCVV2' });
    const ok = await call('POST', '/customers', README_CUSTOMER, m, 'form');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().methods.find((x: any) => x.id === ok.json().default_method_id).csc_check).toBe('pass');
  });

  test.for(ENCODINGS)('%s: bank-account fields make the default bank method, held by the customer\'s names', async (enc, { gateway: gw, call }) => {
    const m = await gw.newMerchant();
    const res = await call('POST', '/customers', { first_name: 'Grace', last_name: 'Hopper', ...BANK_FIELDS }, m, enc);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      bank_account_number_last_4: '6789', bank_routing_number: '110000000', bank_account_type: 'checking',
      bank_account_holder_first_name: 'Grace', bank_account_holder_last_name: 'Hopper', card_type: 'other',
    });
    const bankMethod = res.json().methods.find((x: any) => x.id === res.json().default_method_id);
    expect(bankMethod).toMatchObject({ method_type: 'bank_account', csc_check: null });
    expect(res.body).not.toContain(BANK_FIELDS.bank_account_number);
    expect(errorOf(await call('POST', '/customers', { ...BANK_FIELDS, bank_routing_number: '123456789' }, m, enc)))
      .toEqual({ status: 400, code: '91703' });
  });

  test.for(ENCODINGS)('%s: POST /customers/:id with card fields replaces the default card (same method id)', async (enc, { gateway: gw, call }) => {
    const m = await gw.newMerchant();
    const c = (await call('POST', '/customers', README_CUSTOMER, m, enc)).json();
    const res = await call('POST', `/customers/${c.id}`, { card_number: '5555555555554444', card_exp_month: 3, card_exp_year: 2031 }, m, enc);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ default_method_id: c.default_method_id, card_type: 'mastercard', last_4: '4444', card_exp_month: 3 });
    expect(errorOf(await call('POST', `/customers/${c.id}`, { card_exp_month: 4 }, m, enc))).toEqual({ status: 400, code: '11112' });
    expect((await call('GET', `/customers/${c.id}`, undefined, m)).json().last_4).toBe('4444');
  });
});

describe('card fields on the method endpoints (item 4)', () => {
  test.for(ENCODINGS)('%s: create and update from card fields; a kind other than the method\'s is 82001', async (enc, { gateway: gw, call }) => {
    const m = await gw.newMerchant();
    const c = (await call('POST', '/customers', { first_name: 'Ada', last_name: 'Lovelace' }, m, enc)).json();
    const card = { card_number: '4242424242424242', card_exp_month: 6, card_exp_year: 2032, csc: '321' };
    const created = await call('POST', `/customers/${c.id}/methods`, { method_type: 'credit_card', ...card }, m, enc);
    expect(created.statusCode, created.body).toBe(200);
    const method = created.json().method;
    expect(method).toMatchObject({ class: 'method', last_4: '4242', card_owner_name: 'Ada Lovelace', csc_check: 'unchecked' });
    expect((await call('GET', `/customers/${c.id}`, undefined, m)).json().default_method_id).toBe(method.id);

    const updated = await call('POST', `/customers/${c.id}/methods/${method.id}`,
      { card_number: '5555555555554444', card_exp_month: 1, card_exp_year: 2033, card_owner_name: 'A. Lovelace' }, m, enc);
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().method).toMatchObject({ id: method.id, last_4: '4444', card_owner_name: 'A. Lovelace', csc_check: 'not_provided' });

    expect(errorOf(await call('POST', `/customers/${c.id}/methods`, { method_type: 'bank_account', ...card }, m, enc)))
      .toEqual({ status: 400, code: '82001' });
    expect(errorOf(await call('POST', `/customers/${c.id}/methods/${method.id}`, BANK_FIELDS, m, enc)))
      .toEqual({ status: 400, code: '82001' });
    expect(errorOf(await call('POST', `/customers/${c.id}/methods`, { ...card, card_number: '4242424242424241' }, m, enc)))
      .toEqual({ status: 400, code: '11112' });
    const bankMethod = await call('POST', `/customers/${c.id}/methods`, BANK_FIELDS, m, enc);
    expect(bankMethod.statusCode, bankMethod.body).toBe(200);
    expect(bankMethod.json().method).toMatchObject({ method_type: 'bank_account', bank_account_holder_first_name: 'Ada' });
  });
});

describe('a direct card charge without card_owner_name (item 5)', () => {
  test.for(ENCODINGS)('%s: the official README\'s example settles; the name stays empty', async (enc, { call, gateway: gw }) => {
    const body = { amount: 2000, card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2030, csc: '123' };
    const res = await call('POST', '/charge', body, gw.merchant, enc);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'SETTLED', source: 'card', card_owner_name: '', account_holder_name: '', amount_settled: 2000 });
    // The other checks still hold.
    expect(errorOf(await call('POST', '/charge', { ...body, card_number: '4111111111111112' }, gw.merchant, enc)))
      .toEqual({ status: 400, code: '11112' });
  });

  test('a token still needs the owner\'s name (11112), as the tokenizer says', async ({ gateway: gw }) => {
    const res = await gw.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(gw.merchant.test.public_key),
      payload: { ...visa, card_owner_name: '' } });
    expect(errorOf(res)).toEqual({ status: 400, code: '11112' });
  });
});

describe('types as the spec writes them (item 10)', () => {
  test.for(ENCODINGS)('%s: unset customer string fields are "", never null', async (enc, { gateway: gw, call }) => {
    const m = await gw.newMerchant();
    const res = await call('POST', '/customers', { first_name: 'Ada' }, m, enc);
    expect(res.statusCode).toBe(200);
    const fields = ['first_name', 'last_name', 'company', 'email', 'phone', 'fax', 'website', 'address_1', 'address_2',
      'city', 'state', 'zip', 'country'];
    const expected = { first_name: 'Ada', last_name: '', company: '', email: '', phone: '', fax: '', website: '', address_1: '',
      address_2: '', city: '', state: '', zip: '', country: 'USA' };
    for (const c of [res.json(), (await call('GET', `/customers/${res.json().id}`, undefined, m)).json(),
      (await call('GET', '/customers', undefined, m)).json().list[0]]) {
      expect(Object.fromEntries(fields.map((f) => [f, c[f]]))).toEqual(expected);
    }
    const cleared = await call('POST', `/customers/${res.json().id}`, { first_name: '' }, m, enc);
    expect(cleared.json().first_name).toBe('');
  });

  test('csc_check on a stored card speaks the transactions\' vocabulary', async ({ gateway: gw, call }) => {
    const m = await gw.newMerchant();
    const withCode = await tokenFor(gw, visa, m.test.public_key);
    const { csc: _, ...noCode } = visa;
    const withoutCode = await tokenFor(gw, noCode, m.test.public_key);
    const a = (await call('POST', '/customers', { token: withCode }, m)).json();
    const b = (await call('POST', '/customers', { token: withoutCode }, m)).json();
    const cardOf = (c: any) => c.methods.find((x: any) => x.method_type === 'credit_card');
    expect([cardOf(a).csc_check, cardOf(b).csc_check]).toEqual(['unchecked', 'not_provided']);
    const placeholder = (await call('POST', '/customers', {}, m)).json();
    expect(cardOf(placeholder).csc_check).toBe('not_provided');
    // The same words a charge records.
    const t1 = await tokenFor(gw, visa, m.test.public_key);
    const t2 = await tokenFor(gw, noCode, m.test.public_key);
    const r1 = await call('POST', '/charge', { token: t1, amount: 500 }, m);
    expect(r1.json().csc_check, r1.body).toBe('unchecked');
    expect((await call('POST', '/charge', { token: t2, amount: 500 }, m)).json().csc_check).toBe('not_provided');
  });
});
