import { Merchant, TestGateway, bank, basic, describe, expect, expectError, test, tokenFor, visa } from '../../fixtures.js';

// POST /charge by token (spec 4.1 a), the test-mode simulator (5.7), merchant CVV/ZIP checks and live mode.


const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const charge = (gw: TestGateway, payload: unknown, key = gw.merchant.test.private_key, headers: Record<string, string> = {}) =>
  gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: { ...basic(key), ...headers }, payload: payload as any });
const getCharge = (gw: TestGateway, id: string, key = gw.merchant.test.private_key) =>
  gw.app.inject({ url: `/api/v1/charge/${id}`, headers: basic(key) });
const listAll = async (gw: TestGateway, key: string) =>
  (await gw.app.inject({ url: '/api/v1/transactions?limit=100', headers: basic(key) })).json();
const rowCount = async (gw: TestGateway) => (await gw.db.query('SELECT count(*)::int AS n FROM transactions'))[0].n as number;

/** Asserts spec 2.2 field by field: every field present, with the spec's type. */
function expectTransactionShape(t: any) {
  const strings = ['id', 'payment_method', 'merchant_id', 'transaction_type', 'reference_number', 'card_type', 'card_number',
    'card_exp_month', 'card_exp_year', 'status', 'csc_check', 'source'];
  const integers = ['amount_authorized', 'amount_refunded', 'amount_settled', 'amount_failed'];
  const booleans = ['authorized', 'settled', 'refunded', 'voided', 'successful', 'recurring'];
  const nullableStrings = ['description', 'system_trace', 'customer_id', 'avs_address_check', 'error_message',
    'company', 'website', 'card_owner_name', 'email_address', 'email', 'first_name', 'last_name', 'address_1',
    'address_2', 'city', 'state', 'zip', 'country', 'phone', 'fax', 'account_holder_name'];
  for (const f of strings) expect(typeof t[f], f).toBe('string');
  for (const f of integers) expect(Number.isInteger(t[f]), f).toBe(true);
  for (const f of booleans) expect(typeof t[f], f).toBe('boolean');
  for (const f of nullableStrings) {
    expect(t, f).toHaveProperty(f);
    expect(t[f] === null || typeof t[f] === 'string', f).toBe(true);
  }
  expect(t.class).toBe('transaction');
  expect(t.id).toMatch(/^[0-9a-f]{32}$/);
  expect(t.created_at).toMatch(TIMESTAMP);
  expect(t.processed_at === null || TIMESTAMP.test(t.processed_at)).toBe(true);
  expect(typeof t.receipt).toBe('object');
  expect(t.metadata).toBeTypeOf('object');
  expect(Array.isArray(t.refunds)).toBe(true);
}

describe('charge by token: happy path', () => {
  test('every field of spec 2.2 with its type; card masked to the last four', async ({ gateway: gw }) => {
    const token = await tokenFor(gw, { ...visa, address_1: '1 Analytical St', city: 'London', zip: '90210' });
    const res = await charge(gw, { token, amount: 1234, description: 'Tea', metadata: { order: 'A-1', qty: 2 } });
    expect(res.statusCode).toBe(200);
    const t = res.json();
    expectTransactionShape(t);
    expect(t).toMatchObject({
      class: 'transaction', payment_method: 'credit_card', merchant_id: gw.merchant.id, transaction_type: 'sale',
      status: 'SETTLED', successful: true, amount_authorized: 1234, amount_settled: 1234, amount_failed: 0,
      amount_refunded: 0, authorized: true, settled: true, refunded: false, voided: false, recurring: false,
      card_type: 'visa', card_exp_month: '12', card_exp_year: '2030', card_owner_name: 'Ada Lovelace',
      customer_id: null, description: 'Tea', metadata: { order: 'A-1', qty: 2 }, refunds: [],
      address_1: '1 Analytical St', city: 'London', zip: '90210', error_message: null,
    });
    expect(t.card_number).toMatch(/^X+1111$/);
    expect(t.card_number).toHaveLength(16);
    expect(res.body).not.toContain(visa.card_number);
    for (const f of ['csc', 'cvv', 'secret_enc', 'token_id', 'env']) expect(t).not.toHaveProperty(f);
    expect(Date.parse(t.created_at)).toBe(gw.clock.now().getTime());
    // The same record is what GET /charge/:id answers.
    expect((await getCharge(gw, t.id)).json()).toEqual(t);
  });

  test('form-encoded body with metadata[color]=red', async ({ gateway: gw }) => {
    const token = await tokenFor(gw);
    const res = await charge(gw, `token=${token}&amount=250&metadata[color]=red&metadata[size]=L`, undefined,
      { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ amount_settled: 250, metadata: { color: 'red', size: 'L' } });
  });

  test.for([
    ['JSON', (token: string) => ({ token, amount: 300, metadata: '{"color":"red"}' }), {}],
    ['form', (token: string) => `token=${token}&amount=300&metadata=${encodeURIComponent('{"color":"red"}')}`,
      { 'content-type': 'application/x-www-form-urlencoded' }],
  ] as const)('metadata as a JSON-encoded string (%s body)', async ([_, body, headers], { gateway: gw }) => {
    const res = await charge(gw, body(await tokenFor(gw)), undefined, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().metadata).toEqual({ color: 'red' });
  });

  test('amounts 72 and 101 settle', async ({ gateway: gw }) => {
    for (const amount of [72, 101]) {
      const res = await charge(gw, { token: await tokenFor(gw), amount });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'SETTLED', amount_settled: amount, successful: true });
    }
  });

  test('a token and card fields together are 400 REQ01: neither is charged, the token is still good', async ({ gateway: gw }) => {
    const token = await tokenFor(gw, visa);
    const before = await rowCount(gw);
    expectError(await charge(gw, { ...visa, token, amount: 150 }), 400, 'REQ01', /not both/);
    expectError(await charge(gw, { ...visa, token: 'no-such-token', amount: 150 }), 400, 'REQ01', /not both/);
    expect(await rowCount(gw)).toBe(before);
    expect((await charge(gw, { token, amount: 150 })).statusCode).toBe(200);
  });

  test('payer fields are bounded on every shape (255, as a card\'s): too long is 400 REQ01 naming the field, nothing recorded, the token still good', async ({ gateway: gw }) => {
    const token = await tokenFor(gw, visa);
    const customer = (await gw.app.inject({ method: 'POST', url: '/api/v1/customers', headers: basic(gw.merchant.test.private_key), payload: { token: await tokenFor(gw, visa) } })).json();
    const before = await rowCount(gw);
    for (const body of [{ token, amount: 150 }, { customer_id: customer.id, amount: 150 }, { ...visa, amount: 150 }]) {
      expectError(await charge(gw, { ...body, city: 'x'.repeat(256) }, undefined), 400, 'REQ01', /city must be at most 255/);
      expectError(await charge(gw, { ...body, website: 'w'.repeat(100_000) }, undefined), 400, 'REQ01', /website must be at most 255/);
    }
    expect(await rowCount(gw)).toBe(before);
    const ok = await charge(gw, { token, amount: 150, city: 'c'.repeat(255) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().city).toBe('c'.repeat(255));
  });

  test('a bank-account token charges as bank_account; amount 12 comes back RETURNED (200, not successful)', async ({ gateway: gw }) => {
    const ok = await charge(gw, { token: await tokenFor(gw, bank), amount: 500 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ payment_method: 'bank_account', status: 'SETTLED', account_holder_name: 'Grace Hopper' });
    // Typed as strings by the spec (2.2): empty, not null, where a bank account has no such thing.
    expect(ok.json()).toMatchObject({ card_type: '', card_exp_month: '', card_exp_year: '', card_number: expect.stringMatching(/^X+\d{4}$/) });
    expect(ok.body).not.toContain(bank.bank_account_number);
    const ret = await charge(gw, { token: await tokenFor(gw, bank), amount: 12 });
    expect(ret.statusCode).toBe(200);
    expect(ret.json()).toMatchObject({
      status: 'RETURNED', successful: false, settled: false, amount_failed: 12, amount_settled: 0,
      error_message: expect.any(String),
    });
  });
});

describe('charge by token: request errors record nothing and leave the token usable', () => {
  const expectNothingCharged = async (gw: TestGateway, before: number, token?: string) => {
    expect(await rowCount(gw)).toBe(before);
    if (token) expect((await charge(gw, { token, amount: 10_000 })).statusCode).toBe(200);
  };

  test.for([
    ['missing token', () => ({ amount: 500 })],
    ['blank token', () => ({ token: '  ', amount: 500 })],
    ['missing amount', (t: string) => ({ token: t })],
    ['empty amount', (t: string) => ({ token: t, amount: '' })],
    ['empty body', () => ({})],
  ] as const)('69002: %s', async ([_, body], { gateway: gw }) => {
    const token = await tokenFor(gw);
    const before = await rowCount(gw);
    expectError(await charge(gw, body(token)), 400, '69002');
    await expectNothingCharged(gw, before, token);
  });

  test.for([0, -5, 1.5, 'abc', '1e3', '10.5', '-5', true])('59112: amount %j', async (amount, { gateway: gw }) => {
    const token = await tokenFor(gw);
    const before = await rowCount(gw);
    expectError(await charge(gw, { token, amount }), 400, '59112');
    await expectNothingCharged(gw, before, token);
  });

  test('69201: unknown token', async ({ gateway: gw }) => {
    expectError(await charge(gw, { token: 'ffffffffff', amount: 500 }), 400, '69201');
  });

  test('69201: a used token', async ({ gateway: gw }) => {
    const token = await tokenFor(gw);
    expect((await charge(gw, { token, amount: 500 })).statusCode).toBe(200);
    const before = await rowCount(gw);
    expectError(await charge(gw, { token, amount: 500 }), 400, '69201');
    expect(await rowCount(gw)).toBe(before);
  });

  test('69201: a token expired after 15 minutes', async ({ gateway: gw }) => {
    const token = await tokenFor(gw);
    gw.clock.advance(15 * 60_000);
    expectError(await charge(gw, { token, amount: 500 }), 400, '69201');
    const fresh = await tokenFor(gw);
    gw.clock.advance(15 * 60_000 - 1);
    expect((await charge(gw, { token: fresh, amount: 500 })).statusCode).toBe(200);
  });

  test("69201: another merchant's token; the token stays usable by its owner", async ({ gateway: gw }) => {
    const token = await tokenFor(gw, visa, gw.other.test.public_key);
    const before = await rowCount(gw);
    expectError(await charge(gw, { token, amount: 500 }), 400, '69201');
    expect(await rowCount(gw)).toBe(before);
    expect((await charge(gw, { token, amount: 500 }, gw.other.test.private_key)).statusCode).toBe(200);
  });

  test('a test token with the live key is 69201; nothing is charged in either environment', async ({ gateway: gw }) => {
    const token = await tokenFor(gw);
    const before = await rowCount(gw);
    expectError(await charge(gw, { token, amount: 500 }, gw.merchant.live.private_key), 400, '69201');
    expect(await rowCount(gw)).toBe(before);
    expect((await listAll(gw, gw.merchant.live.private_key)).meta.total_results).toBe(0);
    await expectNothingCharged(gw, before, token);
  });

  test('69005: send_receipt without email_address; 69006: invalid email', async ({ gateway: gw }) => {
    const token = await tokenFor(gw);
    const before = await rowCount(gw);
    expectError(await charge(gw, { token, amount: 500, send_receipt: true }), 400, '69005');
    expectError(await charge(gw, { token, amount: 500, send_receipt: 'true' }), 400, '69005');
    for (const email of ['not-an-email', 'a@b', 'a b@c.de']) {
      expectError(await charge(gw, { token, amount: 500, send_receipt: true, email_address: email }), 400, '69006');
    }
    expectError(await charge(gw, { token, amount: 500, email_address: 'nope' }), 400, '69006');
    expect(await rowCount(gw)).toBe(before);
    const ok = await charge(gw, { token, amount: 500, send_receipt: true, email_address: 'ada@example.com' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ email_address: 'ada@example.com', receipt: { due: true, email_address: 'ada@example.com' } });
  });
});

describe('merchant card verification (cvv_check, zip_check)', () => {
  /** Each case gets a merchant of its own, so "no record" means the whole list is empty. */
  async function merchantWith(gw: TestGateway, settings: { cvv_check?: boolean; zip_check?: boolean }) {
    const m = await gw.newMerchant();
    const res = await gw.app.inject({ method: 'POST', url: '/api/v1/settings', headers: basic(m.test.private_key), payload: settings });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ env: 'test', ...settings });
    return m;
  }
  const { csc: _, ...noCsc } = visa;

  const cases: [string, { cvv_check?: boolean; zip_check?: boolean }, Record<string, unknown>, Record<string, unknown>,
    number, string, Record<string, unknown> | null][] = [
    // name, settings, token data, charge extras, status, code, corrected charge extras (null: switch the check off)
    ['CPCVV2 without a cvv', { cvv_check: true }, noCsc, {}, 402, 'CPCVV2', { cvv: '123' }],
    ['CPCVV2 with test card 4000000000000101', { cvv_check: true }, { ...visa, card_number: '4000000000000101' }, {}, 402, 'CPCVV2', null],
    ['CPCVV1 with test card 4000000000000044', { cvv_check: true }, { ...visa, card_number: '4000000000000044' }, {}, 402, 'CPCVV1', null],
    ['AVSZIP404 without a zip', { zip_check: true }, visa, {}, 400, 'AVSZIP404', { zip: '90210' }],
    ['82004 with test card 4000000000000036', { zip_check: true }, { ...visa, card_number: '4000000000000036' }, { zip: '90210' }, 402, '82004', null],
  ];

  test.for(cases)('%s: rolled back, nothing recorded, the token stays usable', async ([_, settings, data, extra, status, code, fix], { gateway: gw }) => {
    const m: Merchant = await merchantWith(gw, settings);
    const token = await tokenFor(gw, data, m.test.public_key);
    expectError(await charge(gw, { token, amount: 500, ...extra }, m.test.private_key), status, code);
    expect((await listAll(gw, m.test.private_key)).meta.total_results).toBe(0);
    if (fix === null) {
      const off = Object.fromEntries(Object.keys(settings).map((k) => [k, false]));
      await gw.app.inject({ method: 'POST', url: '/api/v1/settings', headers: basic(m.test.private_key), payload: off });
    }
    const ok = await charge(gw, { token, amount: 500, ...extra, ...fix }, m.test.private_key);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().status).toBe('SETTLED');
    expect((await listAll(gw, m.test.private_key)).list.map((t: any) => t.id)).toEqual([ok.json().id]);
  });

  test('a passing check is recorded on the transaction; a zip in the charge wins over the token', async ({ gateway: gw }) => {
    const m = await merchantWith(gw, { cvv_check: true, zip_check: true });
    const token = await tokenFor(gw, noCsc, m.test.public_key);
    const res = await charge(gw, { token, amount: 500, cvv: '321', zip: '10001' }, m.test.private_key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ csc_check: 'pass', avs_address_check: 'pass' });
  });

  test('settings are per environment: the live environment keeps its own switches', async ({ gateway: gw }) => {
    const m = await merchantWith(gw, { cvv_check: true });
    const live = await gw.app.inject({ url: '/api/v1/settings', headers: basic(m.live.private_key) });
    expect(live.json()).toMatchObject({ env: 'live', cvv_check: false, zip_check: false });
  });
});

describe('simulated declines (99820)', () => {
  test.for([
    ['amount 73', visa, 73],
    ['amount 100', visa, 100],
    ['amount 86', visa, 86],
    ['test card 4000000000000002', { ...visa, card_number: '4000000000000002' }, 5000],
  ] as const)('%s: 402, recorded as DECLINED, token consumed', async ([_, data, amount], { gateway: gw }) => {
    const token = await tokenFor(gw, data);
    const before = await rowCount(gw);
    const err = expectError(await charge(gw, { token, amount }), 402, '99820');
    expect(err.transaction_id).toMatch(/^[0-9a-f]{32}$/);
    expect(await rowCount(gw)).toBe(before + 1);
    const t = (await getCharge(gw, err.transaction_id)).json();
    expect(t).toMatchObject({
      id: err.transaction_id, status: 'DECLINED', successful: false, authorized: false, settled: false,
      amount_failed: amount, amount_settled: 0, amount_authorized: 0, amount_refunded: 0, error_message: expect.any(String),
    });
    expect(t.card_number).toMatch(/^X+\d{4}$/);
    expectError(await charge(gw, { token, amount: 500 }), 400, '69201');
  });
});

describe('live mode without a processor', () => {
  test('a live token charged with the live key is 503 PROC01; nothing is recorded, the token is not used', async ({ gateway: gw }) => {
    const token = await tokenFor(gw, visa, gw.merchant.live.public_key);
    const before = await rowCount(gw);
    expectError(await charge(gw, { token, amount: 500 }, gw.merchant.live.private_key), 503, 'PROC01');
    expect(await rowCount(gw)).toBe(before);
    const [row] = await gw.db.query('SELECT used_at FROM tokens WHERE id = $1', [token]);
    expect(row.used_at).toBeNull();
    expect((await listAll(gw, gw.merchant.live.private_key)).meta.total_results).toBe(0);
  });

  test('a direct live card charge is 503 PROC01 and records nothing', async ({ gateway: gw }) => {
    const before = await rowCount(gw);
    expectError(await charge(gw, { ...visa, card_number: '4012888888881881', amount: 500 }, gw.merchant.live.private_key), 503, 'PROC01');
    expect(await rowCount(gw)).toBe(before);
  });

  test('the public key cannot charge', async ({ gateway: gw }) => {
    const res = await charge(gw, { token: await tokenFor(gw), amount: 500 }, gw.merchant.test.public_key);
    expectError(res, 403, 'AUTH02');
  });
});

describe('100 parallel charges of one token', () => {
  test('exactly one 2xx, the rest 400 69201, no 5xx, one row', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const token = await tokenFor(gw, visa, m.test.public_key);
    const results = await Promise.all(Array.from({ length: 100 }, () => charge(gw, { token, amount: 700 }, m.test.private_key)));
    const ok = results.filter((r) => r.statusCode >= 200 && r.statusCode < 300);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.statusCode >= 500)).toHaveLength(0);
    for (const r of results.filter((x) => x.statusCode !== 200)) expectError(r, 400, '69201');
    const rows = await gw.db.query('SELECT id FROM transactions WHERE merchant_id = $1', [m.id]);
    expect(rows.map((r) => r.id)).toEqual([ok[0].json().id]);
  });
});
