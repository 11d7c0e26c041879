import { Merchant, TestGateway, bank, basic, test as base, describe, expect, expectError, tokenFor, visa } from '../../fixtures.js';

// GET /charge/:id and GET /transactions (spec 4.1): lookup, list envelope, paging, isolation.
// Then the other two request shapes of POST /charge: by customer (4.1 b) and direct card (4.1 c).

const tokenCharge = async (gw: TestGateway, amount: number, merchant: Merchant, key = merchant.test.private_key) => {
  const token = await tokenFor(gw, visa, merchant.test.public_key);
  return gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: basic(key), payload: { token, amount } });
};
const getCharge = (gw: TestGateway, m: Merchant, id: string, key = m.test.private_key) => gw.app.inject({ url: `/api/v1/charge/${id}`, headers: basic(key) });
const list = (gw: TestGateway, m: Merchant, query = '', key = m.test.private_key) => gw.app.inject({ url: `/api/v1/transactions${query}`, headers: basic(key) });

/**
 * The gateway fixture, plus `m`, a merchant of this file, and `ids`, its 12 test charges, oldest
 * first: amounts 1001..1012, the 5th one declined (amount 80), all at distinct times. Made once per file.
 */
const test = base.extend<{ seeded: { m: Merchant; ids: string[] }; m: Merchant; ids: string[] }>({
  seeded: [async ({ gateway: gw }, use) => {
    const m = await gw.newMerchant();
    const ids: string[] = [];
    for (let i = 1; i <= 12; i++) {
      const res = await tokenCharge(gw, i === 5 ? 80 : 1000 + i, m);
      ids.push(res.statusCode === 200 ? res.json().id : res.json().errors[0].transaction_id);
      gw.clock.advance(1000);
    }
    await use({ m, ids });
  }, { scope: 'file' }],
  m: [async ({ seeded }, use) => use(seeded.m), { scope: 'file' }],
  ids: [async ({ seeded }, use) => use(seeded.ids), { scope: 'file' }],
});

describe('GET /charge/:id', () => {
  test('returns the charge, settled or declined', async ({ ids, m, gateway: gw }) => {
    const res = await getCharge(gw, m, ids[0]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ class: 'transaction', id: ids[0], status: 'SETTLED', amount_settled: 1001 });
    expect((await getCharge(gw, m, ids[4])).json()).toMatchObject({ id: ids[4], status: 'DECLINED', amount_failed: 80 });
  });

  test.for([
    ['an unknown id', 'f'.repeat(32)],
    ['a malformed id', 'not-an-id'],
    ['an id with SQL in it', "x' OR '1'='1"],
  ] as const)('69404 for %s', async ([_, id], { m, gateway: gw }) => {
    expectError(await getCharge(gw, m, encodeURIComponent(id)), 404, '69404');
  });

  test("69404 for another merchant's charge and for a test charge read with the live key", async ({ ids, gateway: gw, m }) => {
    expectError(await getCharge(gw, m, ids[0], gw.other.test.private_key), 404, '69404');
    expectError(await getCharge(gw, m, ids[0], m.live.private_key), 404, '69404');
  });

  test('the public key cannot read a charge (403); no key is 401', async ({ ids, m, gateway: gw }) => {
    expectError(await getCharge(gw, m, ids[0], m.test.public_key), 403, 'AUTH02');
    expectError(await gw.app.inject({ url: `/api/v1/charge/${ids[0]}` }), 401, 'AUTH01');
  });
});

describe('GET /transactions', () => {
  test('the list envelope, default limit 10, newest first', async ({ ids, m, gateway: gw }) => {
    const res = await list(gw, m);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['list', 'meta']);
    expect(body.meta).toEqual({ limit: 10, offset: 0, total_results: 12 });
    expect(body.list.map((t: any) => t.id)).toEqual([...ids].reverse().slice(0, 10));
    for (const t of body.list) {
      expect(t.class).toBe('transaction');
      expect(t.card_number).toMatch(/^X+1111$/);
    }
    const times = body.list.map((t: any) => Date.parse(t.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(res.body).not.toContain(visa.card_number);
  });

  test('limit and offset page through the list without gaps or repeats', async ({ ids, m, gateway: gw }) => {
    const seen: string[] = [];
    for (let offset = 0; offset < 12; offset += 5) {
      const body = (await list(gw, m, `?limit=5&offset=${offset}`)).json();
      expect(body.meta).toEqual({ limit: 5, offset, total_results: 12 });
      expect(body.list.length).toBe(Math.min(5, 12 - offset));
      seen.push(...body.list.map((t: any) => t.id));
    }
    expect(seen).toEqual([...ids].reverse());
  });

  test('an offset past the end is an empty page with the total', async ({ m, gateway: gw }) => {
    const body = (await list(gw, m, '?offset=50')).json();
    expect(body).toEqual({ list: [], meta: { limit: 10, offset: 50, total_results: 12 } });
  });

  test('limit 1 and limit 100 are accepted; an empty value means the default', async ({ m, gateway: gw }) => {
    expect((await list(gw, m, '?limit=1')).json().list).toHaveLength(1);
    expect((await list(gw, m, '?limit=100')).json().list).toHaveLength(12);
    expect((await list(gw, m, '?limit=&offset=')).json().meta).toEqual({ limit: 10, offset: 0, total_results: 12 });
  });

  test.for([
    'limit=0', 'limit=101', 'limit=-1', 'limit=x', 'limit=1.5', 'limit=1e2',
    'offset=-1', 'offset=x', 'offset=0.5', 'limit=5&limit=6',
  ])('PAGE01 for %s', async (q, { m, gateway: gw }) => {
    expectError(await list(gw, m, `?${q}`), 400, 'PAGE01');
  });

  test('isolation: another merchant and the live environment see none of these', async ({ gateway: gw, ids, m }) => {
    const other = (await list(gw, m, '?limit=100', gw.other.test.private_key)).json();
    expect(other.list.map((t: any) => t.id).filter((id: string) => ids.includes(id))).toEqual([]);
    expect((await list(gw, m, '', m.live.private_key)).json()).toEqual({ list: [], meta: { limit: 10, offset: 0, total_results: 0 } });
  });

  test("another merchant's charges count in its own list only", async ({ gateway: gw, m }) => {
    const before = (await list(gw, m, '?limit=100', gw.other.test.private_key)).json().meta.total_results;
    const res = await tokenCharge(gw, 2000, gw.other);
    expect(res.statusCode).toBe(200);
    const theirs = (await list(gw, m, '?limit=100', gw.other.test.private_key)).json();
    expect(theirs.meta.total_results).toBe(before + 1);
    expect(theirs.list[0].id).toBe(res.json().id);
    expect((await list(gw, m)).json().meta.total_results).toBe(12);
  });

  test('refunds show in the list entries', async ({ gateway: gw, ids, m }) => {
    const refund = await gw.app.inject({
      method: 'POST', url: `/api/v1/charge/${ids[11]}/cancel`, headers: basic(m.test.private_key), payload: { amount: 12 },
    });
    expect(refund.statusCode).toBe(200);
    const [newest] = (await list(gw, m, '?limit=1')).json().list;
    expect(newest).toMatchObject({ id: ids[11], amount_refunded: 12, refunds: [{ amount: 12 }] });
  });

  test('the public key cannot list (403)', async ({ m, gateway: gw }) => {
    expectError(await list(gw, m, '', m.test.public_key), 403, 'AUTH02');
  });
});

// ---- POST /charge by customer and by card ----

const mastercard = { ...visa, card_number: '5555555555554444' };

const post = (gw: TestGateway, url: string, payload: unknown, key = gw.merchant.test.private_key) =>
  gw.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: basic(key), payload: payload as any });
const charge = (gw: TestGateway, payload: unknown, key = gw.merchant.test.private_key) => post(gw, '/charge', payload, key);
const rowCount = async (gw: TestGateway) => (await gw.db.query('SELECT count(*)::int AS n FROM transactions'))[0].n as number;

/** POST /customers, with a payment method when `data` is given (tokenised first). */
async function newCustomer(gw: TestGateway, data: Record<string, unknown> | null, fields: Record<string, unknown> = {}, owner = gw.merchant) {
  const token = data ? await tokenFor(gw, data, owner.test.public_key) : undefined;
  const res = await post(gw, '/customers', { first_name: 'Ada', last_name: 'Lovelace', ...fields, token }, owner.test.private_key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; default_method_id: string; methods: { id: string; method_type: string }[] };
}

async function addMethod(gw: TestGateway, customerId: string, data: Record<string, unknown>) {
  const res = await post(gw, `/customers/${customerId}/methods`, { token: await tokenFor(gw, data) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().method.id as string;
}

describe('charge by customer', () => {
  test("the default method is charged; customer_id, payer data and card details land on the transaction", async ({ gateway: gw }) => {
    const c = await newCustomer(gw, visa, { email: 'ada@example.com', city: 'London' });
    const res = await charge(gw, { customer_id: c.id, amount: 1500 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      class: 'transaction', status: 'SETTLED', successful: true, payment_method: 'credit_card', source: 'customer',
      customer_id: c.id, amount_settled: 1500, card_type: 'visa', card_exp_month: '12', card_exp_year: '2030',
      first_name: 'Ada', last_name: 'Lovelace', city: 'London', email: 'ada@example.com',
    });
    expect(res.json().card_number).toMatch(/^X+1111$/);
    expect(res.body).not.toContain(visa.card_number);
  });

  test('method_id picks that method', async ({ gateway: gw }) => {
    const c = await newCustomer(gw, visa);
    const second = await addMethod(gw, c.id, mastercard);
    const res = await charge(gw, { customer_id: c.id, method_id: second, amount: 900 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ card_type: 'mastercard', card_number: expect.stringMatching(/^X+4444$/), customer_id: c.id });
    // Without method_id the default (the first card) is still what gets charged.
    expect((await charge(gw, { customer_id: c.id, amount: 900 })).json().card_number).toMatch(/1111$/);
  });

  test('charge_bank_account true picks the bank-account method; false the card', async ({ gateway: gw }) => {
    const c = await newCustomer(gw, visa);
    await addMethod(gw, c.id, bank);
    for (const flag of [true, 'true', '1']) {
      const res = await charge(gw, { customer_id: c.id, amount: 400, charge_bank_account: flag });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ payment_method: 'bank_account', account_holder_name: 'Grace Hopper', customer_id: c.id });
      expect(res.body).not.toContain(bank.bank_account_number);
    }
    const card = await charge(gw, { customer_id: c.id, amount: 400, charge_bank_account: false });
    expect(card.json().payment_method).toBe('credit_card');
  });

  test('a customer whose only method is a bank account is charged on it by default', async ({ gateway: gw }) => {
    const c = await newCustomer(gw, bank);
    const res = await charge(gw, { customer_id: c.id, amount: 400 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ payment_method: 'bank_account', status: 'SETTLED' });
    const ret = await charge(gw, { customer_id: c.id, amount: 12 });
    expect(ret.statusCode).toBe(200);
    expect(ret.json()).toMatchObject({ status: 'RETURNED', successful: false, amount_failed: 12, amount_settled: 0 });
  });

  test("metadata is merged with the customer's; the charge's value wins on a conflict", async ({ gateway: gw }) => {
    const c = await newCustomer(gw, visa, { metadata: { tier: 'gold', color: 'blue' } });
    const res = await charge(gw, { customer_id: c.id, amount: 400, metadata: { color: 'red', order: '7' } });
    expect(res.json().metadata).toEqual({ tier: 'gold', color: 'red', order: '7' });
    const plain = await charge(gw, { customer_id: c.id, amount: 400 });
    expect(plain.json().metadata).toEqual({ tier: 'gold', color: 'blue' });
  });

  test('a decline on a stored card is 402 99820 and recorded against the customer', async ({ gateway: gw }) => {
    const c = await newCustomer(gw, visa);
    const err = expectError(await charge(gw, { customer_id: c.id, amount: 80 }), 402, '99820');
    const t = (await gw.app.inject({ url: `/api/v1/charge/${err.transaction_id}`, headers: basic(gw.merchant.test.private_key) })).json();
    expect(t).toMatchObject({ status: 'DECLINED', customer_id: c.id, amount_failed: 80 });
  });

  test.for([
    ['missing amount', { amount: undefined }],
    ['empty amount', { amount: '' }],
    ['missing customer_id (method_id given)', { customer_id: undefined, method_id: 'abc', amount: 500 }],
    ['empty customer_id', { customer_id: '', amount: 500 }],
  ] as const)('48291: %s', async ([_, body], { gateway: gw }) => {
    const c = await newCustomer(gw, visa);
    const before = await rowCount(gw);
    expectError(await charge(gw, { customer_id: c.id, ...body }), 400, '48291');
    expect(await rowCount(gw)).toBe(before);
  });

  test.for([0, -5, '-5', '0'])('99819: amount %j', async (amount, { gateway: gw }) => {
    const c = await newCustomer(gw, visa);
    expectError(await charge(gw, { customer_id: c.id, amount }), 400, '99819');
  });

  test.for(['abc', 1.5, '2.50', '1e3'])('59112: amount %j', async (amount, { gateway: gw }) => {
    const c = await newCustomer(gw, visa);
    expectError(await charge(gw, { customer_id: c.id, amount }), 400, '59112');
  });

  test('34798: unknown, deleted, other merchant\'s, and test customer with the live key', async ({ gateway: gw }) => {
    expectError(await charge(gw, { customer_id: 'ffffffffffff', amount: 500 }), 400, '34798');
    const deleted = await newCustomer(gw, visa);
    expect((await gw.app.inject({ method: 'DELETE', url: `/api/v1/customers/${deleted.id}`, headers: basic(gw.merchant.test.private_key) })).statusCode).toBe(200);
    expectError(await charge(gw, { customer_id: deleted.id, amount: 500 }), 400, '34798');
    const theirs = await newCustomer(gw, visa, {}, gw.other);
    expectError(await charge(gw, { customer_id: theirs.id, amount: 500 }), 400, '34798');
    const ours = await newCustomer(gw, visa);
    expectError(await charge(gw, { customer_id: ours.id, amount: 500 }, gw.merchant.live.private_key), 400, '34798');
    expect((await charge(gw, { customer_id: ours.id, amount: 500 })).statusCode).toBe(200);
  });

  test('34792: a customer without payment details, an unknown method_id, another customer\'s method', async ({ gateway: gw }) => {
    const empty = await newCustomer(gw, null);
    expectError(await charge(gw, { customer_id: empty.id, amount: 500 }), 400, '34792');
    expectError(await charge(gw, { customer_id: empty.id, amount: 500, charge_bank_account: true }), 400, '34792');
    const cardOnly = await newCustomer(gw, visa);
    expectError(await charge(gw, { customer_id: cardOnly.id, amount: 500, charge_bank_account: true }), 400, '34792');
    expectError(await charge(gw, { customer_id: cardOnly.id, amount: 500, method_id: 'f'.repeat(32) }), 400, '34792');
    const other = await newCustomer(gw, visa);
    expectError(await charge(gw, { customer_id: cardOnly.id, amount: 500, method_id: other.default_method_id }), 400, '34792');
  });

  test('receipts: the customer default asks for one, 69005 without any address, 69006 for a bad one', async ({ gateway: gw }) => {
    const noEmail = await newCustomer(gw, visa, { default_receipts: true });
    expectError(await charge(gw, { customer_id: noEmail.id, amount: 500 }), 400, '69005');
    expectError(await charge(gw, { customer_id: noEmail.id, amount: 500, email_address: 'bad@' }), 400, '69006');
    const off = await charge(gw, { customer_id: noEmail.id, amount: 500, send_receipt: false });
    expect(off.json().receipt).toMatchObject({ due: false });
    const withEmail = await newCustomer(gw, visa, { default_receipts: true, email: 'grace@example.com' });
    const res = await charge(gw, { customer_id: withEmail.id, amount: 500 });
    expect(res.json().receipt).toMatchObject({ due: true, email_address: 'grace@example.com' });
  });
});

describe('charge a card directly', () => {
  const direct = { ...visa, address_1: '1 Analytical St', zip: '90210', amount: 2500 };

  test('the token fields are the body; the card is masked, source card', async ({ gateway: gw }) => {
    const res = await charge(gw, direct);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'SETTLED', source: 'card', payment_method: 'credit_card', card_type: 'visa', card_exp_month: '12',
      card_exp_year: '2030', card_owner_name: 'Ada Lovelace', address_1: '1 Analytical St', zip: '90210',
      amount_settled: 2500, customer_id: null,
    });
    expect(res.json().card_number).toMatch(/^X+1111$/);
    expect(res.body).not.toContain(visa.card_number);
  });

  test('form-encoded, with cvv instead of csc and a spaced card number', async ({ gateway: gw }) => {
    const { csc: _, ...rest } = direct;
    const form = new URLSearchParams({ ...Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)])),
      card_number: '4111 1111 1111 1111', cvv: '456' }).toString();
    const res = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', payload: form,
      headers: { ...basic(gw.merchant.test.private_key), 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().card_number).toMatch(/^X+1111$/);
  });

  test('neither the PAN nor the CVV is stored anywhere in transactions', async ({ gateway: gw }) => {
    const cvv = '987';
    const res = await charge(gw, { ...direct, card_number: mastercard.card_number, csc: cvv });
    expect(res.statusCode).toBe(200);
    const rows = await gw.db.query('SELECT * FROM transactions');
    expect(rows.length).toBeGreaterThan(0);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(mastercard.card_number);
    expect(dump).not.toContain(visa.card_number);
    expect(dump).not.toContain(`"${cvv}"`);
    for (const r of rows) if (r.card_number !== null) expect(r.card_number).toMatch(/^X+\d{4}$/);
    const [mine] = rows.filter((r) => r.id === res.json().id);
    for (const v of Object.values(mine)) expect(v).not.toBe(cvv);
  });

  test.for([
    ['11112', 'a number failing Luhn', { card_number: '4111111111111112' }],
    ['11112', 'letters in the number', { card_number: '4111abcd11111111' }],
    ['11112', 'month 13', { card_exp_month: 13 }],
    ['11112', 'an expired card', { card_exp_month: 1, card_exp_year: 2020 }],
    ['11301', 'a 15-digit Visa', { card_number: '411111111111111' }],
    ['11302', 'a 15-digit Mastercard', { card_number: '555555555555444' }],
    ['234722', 'a 2-digit csc', { csc: '12' }],
    ['TEST01', 'a real card number in test mode', { card_number: '4012888888881881' }],
  ] as const)('%s: %s; nothing recorded', async ([code, _, patch], { gateway: gw }) => {
    const before = await rowCount(gw);
    expectError(await charge(gw, { ...direct, ...patch }), 400, code);
    expect(await rowCount(gw)).toBe(before);
  });

  test.for([
    ['amount 0', { amount: 0 }],
    ['amount abc', { amount: 'abc' }],
    ['no amount', { amount: undefined }],
  ] as const)('59112: %s', async ([_, patch], { gateway: gw }) => {
    expectError(await charge(gw, { ...direct, ...patch }), 400, '59112');
  });

  test('test-mode declines apply: 4000000000000002 and amount 80 are recorded 402 99820', async ({ gateway: gw }) => {
    for (const body of [{ ...direct, card_number: '4000000000000002' }, { ...direct, amount: 80 }]) {
      const before = await rowCount(gw);
      const err = expectError(await charge(gw, body), 402, '99820');
      expect(err.transaction_id).toMatch(/^[0-9a-f]{32}$/);
      expect(await rowCount(gw)).toBe(before + 1);
    }
  });

  test('merchant CVV checking applies to direct cards: CPCVV2 without a code, nothing recorded', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    await post(gw, '/settings', { cvv_check: true }, m.test.private_key);
    const { csc: _, ...noCsc } = direct;
    expectError(await charge(gw, noCsc, m.test.private_key), 402, 'CPCVV2');
    expect((await gw.db.query('SELECT 1 FROM transactions WHERE merchant_id = $1', [m.id])).length).toBe(0);
    const ok = await charge(gw, direct, m.test.private_key);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().csc_check).toBe('pass');
  });
});
