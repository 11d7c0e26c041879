import { methodHome } from '../../../server/vault-homes.js';
import { TestGateway, bank, basic, describe, expect, test, tokenFor, visa } from '../../fixtures.js';


const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const sk = (gw: TestGateway) => gw.merchant.test.private_key;

function call(gw: TestGateway, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, key = sk(gw)) {
  return gw.app.inject({ method, url: `/api/v1${url}`, headers: basic(key), payload: payload as any });
}
const create = (gw: TestGateway, body: Record<string, unknown> = {}, key = sk(gw)) => call(gw, 'POST', '/customers', body, key);
const code = (res: { json(): any }) => res.json().errors?.[0]?.code;

async function settings(gw: TestGateway, cvv: boolean, zip: boolean, merchantId = gw.merchant.id) {
  await gw.db.query('UPDATE merchant_settings SET cvv_check = $3, zip_check = $4 WHERE merchant_id = $1 AND env = $2', [
    merchantId, 'test', cvv, zip,
  ]);
}

describe('POST /customers', () => {
  test('without payment data: a card and a bank placeholder, the card one default', async ({ gateway: gw }) => {
    const res = await create(gw, { first_name: 'Ada', last_name: 'Lovelace' });
    expect(res.statusCode).toBe(200);
    const c = res.json();
    expect(c).toMatchObject({
      class: 'customer', first_name: 'Ada', last_name: 'Lovelace', country: 'USA', card_type: 'other',
      last_4: null, card_exp_month: null, bank_account_number_last_4: null, metadata: {}, default_receipts: false,
    });
    expect(c.id).toMatch(/^[0-9a-f]{12}$/);
    expect(c.created_at).toMatch(ISO);
    expect(c.updated_at).toMatch(ISO);
    expect(c.methods.map((m: any) => [m.class, m.method_type, m.card_type, m.last_4])).toEqual([
      ['payment_method', 'credit_card', 'other', null],
      ['payment_method', 'bank_account', null, null],
    ]);
    expect(c.methods[0].id).toMatch(/^[0-9a-f]{32}$/);
    expect(c.default_method_id).toBe(c.methods[0].id);
    expect(c.methods[1].address).toEqual({ address_1: null, address_2: null, city: null, state: null, country: null, zip: null, company: null });
  });

  test('every field of 4.5 is saved; state and country upper-cased; unknown fields ignored', async ({ gateway: gw }) => {
    const body = {
      company: 'Analytical Engines', first_name: 'Ada', last_name: 'King', address_1: '1 Main St', address_2: 'Apt 2',
      city: 'London', phone: '+44 20 7946 0000', fax: '020 7946 0001', website: 'https://example.com', state: 'ca',
      zip: '94107', country: 'gbr', email: 'ada@example.com', metadata: { plan: 'gold', seats: 3 }, unknown_field: 'x',
    };
    const res = await create(gw, body);
    expect(res.statusCode).toBe(200);
    const { unknown_field, ...expected } = body;
    expect(res.json()).toMatchObject({ ...expected, state: 'CA', country: 'GBR' });
    expect(res.json()).not.toHaveProperty('unknown_field');
  });

  test('metadata as a JSON string, and form-encoded bodies with metadata[color]=red', async ({ gateway: gw }) => {
    const json = await create(gw, { metadata: '{"color":"blue","n":1}' });
    expect(json.json().metadata).toEqual({ color: 'blue', n: 1 });
    const form = await gw.app.inject({
      method: 'POST', url: '/api/v1/customers',
      headers: { ...basic(sk(gw)), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'first_name=Grace&metadata[color]=red&metadata[size]=xl&default_receipts=true&state=ny',
    });
    expect(form.statusCode).toBe(200);
    expect(form.json()).toMatchObject({ first_name: 'Grace', metadata: { color: 'red', size: 'xl' }, default_receipts: true, state: 'NY' });
    const bad = await create(gw, { metadata: '{not json' });
    expect([bad.statusCode, code(bad)]).toEqual([400, 'REQ01']);
    const arr = await create(gw, { metadata: [1, 2] });
    expect(code(arr)).toBe('REQ01');
  });

  test('no body at all creates an empty customer', async ({ gateway: gw }) => {
    const res = await gw.app.inject({ method: 'POST', url: '/api/v1/customers', headers: basic(sk(gw)) });
    expect(res.statusCode).toBe(200);
    expect(res.json().country).toBe('USA');
  });

  test.for([
    ['fax', 32, '81602'],
    ['first_name', 100, '81603'],
    ['last_name', 100, '81604'],
    ['phone', 32, '81606'],
    ['website', 255, '81607'],
  ] as const)('%s: %i characters pass, one more is %s', async ([field, max, err], { gateway: gw }) => {
    expect((await create(gw, { [field]: 'x'.repeat(max) })).statusCode).toBe(200);
    const res = await create(gw, { [field]: 'x'.repeat(max + 1) });
    expect([res.statusCode, code(res)]).toEqual([400, err]);
  });

  test('81609 for an invalid email or a state that is not two letters; other bad values REQ01', async ({ gateway: gw }) => {
    for (const email of ['ada', 'ada@', 'ada@example', 'a b@example.com']) expect(code(await create(gw, { email }))).toBe('81609');
    for (const state of ['Cal', 'C', 'C1']) expect(code(await create(gw, { state }))).toBe('81609');
    expect(code(await create(gw, { country: 'US' }))).toBe('REQ01');
    expect(code(await create(gw, { city: 'x'.repeat(101) }))).toBe('REQ01');
    expect(code(await create(gw, { first_name: { a: 1 } }))).toBe('REQ01');
    expect(code(await create(gw, { metadata: { big: 'x'.repeat(9000) } }))).toBe('REQ01');
  });

  test('custom id: 6+ of [A-Za-z0-9_-], 81608 when taken in the same merchant and environment', async ({ gateway: gw }) => {
    const first = await create(gw, { id: 'cust_Ada-01' });
    expect(first.json().id).toBe('cust_Ada-01');
    const again = await create(gw, { id: 'cust_Ada-01' });
    expect([again.statusCode, code(again)]).toEqual([409, '81608']);
    expect((await create(gw, { id: 'cust_Ada-01' }, gw.merchant.live.private_key)).statusCode).toBe(200);
    expect((await create(gw, { id: 'cust_Ada-01' }, gw.other.test.private_key)).statusCode).toBe(200);
    for (const id of ['short', 'has space', 'semi;colon', 'search', 'x'.repeat(65)]) expect(code(await create(gw, { id }))).toBe('REQ01');
  });

  test('a token becomes the default method, is consumed once, and cannot be reused', async ({ gateway: gw }) => {
    const token = await tokenFor(gw, { ...visa, zip: '94107', address_1: '1 Main St' });
    const res = await create(gw, { first_name: 'Ada', token });
    expect(res.statusCode).toBe(200);
    const c = res.json();
    const card = c.methods.find((m: any) => m.method_type === 'credit_card');
    expect(c.default_method_id).toBe(card.id);
    expect(card).toMatchObject({ card_type: 'visa', last_4: '1111', card_exp_month: 12, card_exp_year: 2030, card_owner_name: 'Ada Lovelace' });
    expect(card.address).toMatchObject({ address_1: '1 Main St', zip: '94107', country: 'USA' });
    expect(c).toMatchObject({ card_type: 'visa', last_4: '1111', card_owner_name: 'Ada Lovelace', card_exp_year: 2030 });
    expect(c.methods.filter((m: any) => m.method_type === 'bank_account')).toHaveLength(1);
    expect(JSON.stringify(c)).not.toContain('4111111111111111');

    const reuse = await create(gw, { token });
    expect([reuse.statusCode, code(reuse)]).toEqual([400, '23489']);
    const token2 = await tokenFor(gw);
    expect(code(await create(gw, { token: token2 }, gw.other.test.private_key))).toBe('23489');
    expect(code(await create(gw, { token: 'ffffffffff' }))).toBe('23489');
  });

  test('an expired token is 23489', async ({ gateway: gw }) => {
    const token = await tokenFor(gw);
    gw.clock.advance(16 * 60 * 1000);
    expect(code(await create(gw, { token }))).toBe('23489');
  });

  test('a bank-account token becomes the default bank method', async ({ gateway: gw }) => {
    const token = await tokenFor(gw, bank);
    const c = (await create(gw, { token })).json();
    const b = c.methods.find((m: any) => m.id === c.default_method_id);
    expect(b).toMatchObject({
      method_type: 'bank_account', bank_account_number_last_4: '6789', bank_routing_number: '110000000',
      bank_account_holder_first_name: 'Grace', bank_account_type: 'checking', last_4: null, card_type: null,
    });
    expect(c).toMatchObject({ card_type: 'other', last_4: null, bank_account_number_last_4: '6789', bank_account_holder_last_name: 'Hopper' });
  });

  test('concurrent creates with one token: exactly one succeeds', async ({ gateway: gw }) => {
    const token = await tokenFor(gw);
    const results = await Promise.all([create(gw, { token }), create(gw, { token }), create(gw, { token })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
  });

  test('public keys are refused', async ({ gateway: gw }) => {
    expect((await create(gw, {}, gw.merchant.test.public_key)).statusCode).toBe(403);
  });
});

describe('verification on create', () => {
  const card = (gw: TestGateway, number: string, extra: Record<string, unknown> = {}) => tokenFor(gw, { ...visa, card_number: number, ...extra });
  const { csc: _c, ...noCsc } = visa;

  test('CVV checking: CPCVV1, CPCVV2, missing code CPCVV2, and a failure leaves the token usable', async ({ gateway: gw }) => {
    await settings(gw, true, false);
    try {
      expect(code(await create(gw, { token: await card(gw, '4000000000000044') }))).toBe('CPCVV1');
      const failing = await card(gw, '4000000000000101');
      const res = await create(gw, { token: failing });
      expect([res.statusCode, code(res)]).toEqual([402, 'CPCVV2']);
      expect(code(await create(gw, { token: await tokenFor(gw, noCsc) }))).toBe('CPCVV2');
      const ok = await create(gw, { token: await tokenFor(gw, noCsc), cvv: '123' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().methods[0].csc_check).toBe('pass');
      expect((await create(gw, { token: await tokenFor(gw, noCsc), csc: '123' })).statusCode).toBe(200);
      await settings(gw, false, false);
      expect((await create(gw, { token: failing })).statusCode).toBe(200); // rolled back: still usable
    } finally {
      await settings(gw, false, false);
    }
  });

  test('ZIP checking: AVSZIP404 without a zip, 82004 when it fails, token or body zip both count', async ({ gateway: gw }) => {
    await settings(gw, false, true);
    try {
      const res = await create(gw, { token: await card(gw, '4111111111111111') });
      expect([res.statusCode, code(res)]).toEqual([400, 'AVSZIP404']);
      expect((await create(gw, { token: await card(gw, '4111111111111111'), zip: '94107' })).statusCode).toBe(200);
      expect((await create(gw, { token: await card(gw, '4111111111111111', { zip: '94107' }) })).statusCode).toBe(200);
      const zipFail = await create(gw, { token: await card(gw, '4000000000000036'), zip: '94107' });
      expect([zipFail.statusCode, code(zipFail)]).toEqual([402, '82004']);
      // Only cards are verified; a customer without a token needs no zip.
      expect((await create(gw, { token: await tokenFor(gw, bank) })).statusCode).toBe(200);
      expect((await create(gw, { first_name: 'No card' })).statusCode).toBe(200);
    } finally {
      await settings(gw, false, false);
    }
  });
});

describe('reading, listing, isolation', () => {
  test('GET /customers/:id, 17001 when unknown, for another merchant, or in the other environment', async ({ gateway: gw }) => {
    const c = (await create(gw, { first_name: 'Iso' })).json();
    const got = await call(gw, 'GET', `/customers/${c.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(c);
    for (const res of [
      await call(gw, 'GET', '/customers/ffffffffffff'),
      await call(gw, 'GET', `/customers/${c.id}`, undefined, gw.other.test.private_key),
      await call(gw, 'GET', `/customers/${c.id}`, undefined, gw.merchant.live.private_key),
    ]) expect([res.statusCode, code(res)]).toEqual([404, '17001']);
    const live = (await create(gw, { first_name: 'Live' }, gw.merchant.live.private_key)).json();
    expect(code(await call(gw, 'GET', `/customers/${live.id}`))).toBe('17001');
  });

  test('GET /customers: newest first, limit/offset, list envelope, bad paging refused', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const key = m.test.private_key;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await create(gw, { first_name: `n${i}` }, key)).json().id);
    const first = (await call(gw, 'GET', '/customers', undefined, key)).json();
    expect(first.meta).toEqual({ limit: 10, offset: 0, total_results: 12 });
    expect(first.list.map((c: any) => c.id)).toEqual(ids.slice().reverse().slice(0, 10));
    expect(first.list[0].methods).toHaveLength(2);
    const page = (await call(gw, 'GET', '/customers?limit=5&offset=10', undefined, key)).json();
    expect(page.list.map((c: any) => c.id)).toEqual([ids[1], ids[0]]);
    expect(page.meta).toEqual({ limit: 5, offset: 10, total_results: 12 });
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'limit=1.5']) {
      const res = await call(gw, 'GET', `/customers?${q}`, undefined, key);
      expect(res.statusCode).toBe(400);
    }
    expect((await call(gw, 'GET', '/customers?limit=100', undefined, key)).statusCode).toBe(200);
    // The other merchant's customers and this merchant's live ones never appear.
    expect((await call(gw, 'GET', '/customers', undefined, m.live.private_key)).json().meta.total_results).toBe(0);
  });
});

describe('POST /customers/:id', () => {
  test('updates any field; empty clears; absent stays; metadata replaced', async ({ gateway: gw }) => {
    const c = (await create(gw, { first_name: 'Ada', last_name: 'Byron', company: 'Old', metadata: { a: 1 } })).json();
    gw.clock.advance(1000);
    const res = await call(gw, 'POST', `/customers/${c.id}`, { company: 'New Co', last_name: '', metadata: '{"b":2}', state: 'wa' });
    expect(res.statusCode).toBe(200);
    const u = res.json();
    expect(u).toMatchObject({ id: c.id, first_name: 'Ada', last_name: '', company: 'New Co', state: 'WA', metadata: { b: 2 } });
    expect(u.created_at).toBe(c.created_at);
    expect(new Date(u.updated_at).getTime()).toBeGreaterThan(new Date(c.updated_at).getTime());
    expect(code(await call(gw, 'POST', `/customers/${c.id}`, { first_name: 'x'.repeat(101) }))).toBe('81603');
    expect(code(await call(gw, 'POST', `/customers/${c.id}`, { email: 'nope' }))).toBe('81609');
    expect(code(await call(gw, 'POST', '/customers/ffffffffffff', { company: 'x' }))).toBe('17001');
    expect(code(await call(gw, 'POST', `/customers/${c.id}`, { company: 'x' }, gw.other.test.private_key))).toBe('17001');
  });

  test('a token replaces the default method of its type (same id) and becomes the default', async ({ gateway: gw }) => {
    const c = (await create(gw, { token: await tokenFor(gw) })).json();
    const cardId = c.default_method_id;
    const token = await tokenFor(gw, { ...visa, card_number: '5555555555554444' });
    const u = (await call(gw, 'POST', `/customers/${c.id}`, { token })).json();
    expect(u.default_method_id).toBe(cardId);
    expect(u.methods.find((m: any) => m.id === cardId)).toMatchObject({ card_type: 'mastercard', last_4: '4444' });
    expect(u.methods).toHaveLength(2);
    expect(code(await call(gw, 'POST', `/customers/${c.id}`, { token }))).toBe('23489');

    const bankId = u.methods.find((m: any) => m.method_type === 'bank_account').id;
    const b = (await call(gw, 'POST', `/customers/${c.id}`, { token: await tokenFor(gw, bank) })).json();
    expect(b.default_method_id).toBe(bankId);
    expect(b).toMatchObject({ last_4: '4444', bank_account_number_last_4: '6789' });
  });

  test('a customer sent back as read (an SDK\'s save()) is accepted: its card and bank details are an echo; a changed one without a number is still refused', async ({ gateway: gw }) => {
    const c = (await create(gw, { token: await tokenFor(gw), first_name: 'Ada' })).json();
    const both = (await call(gw, 'POST', `/customers/${c.id}`, { token: await tokenFor(gw, bank) })).json();
    expect(both).toMatchObject({ card_exp_month: 12, bank_routing_number: expect.any(String) });
    const saved = await call(gw, 'POST', `/customers/${c.id}`, { ...both, first_name: 'Grace' });
    expect(saved.statusCode, saved.body).toBe(200);
    const { updated_at: _a, first_name: _b, ...rest } = saved.json();
    const { updated_at: _c, first_name: _d, ...before } = both;
    expect(rest).toEqual(before); // methods, defaults and details untouched
    expect(saved.json().first_name).toBe('Grace');
    // Only the card's details, as a Jackson model of a card-only customer would send them.
    const cardOnly = (await create(gw, { token: await tokenFor(gw) })).json();
    expect((await call(gw, 'POST', `/customers/${cardOnly.id}`, cardOnly)).statusCode).toBe(200);
    // Not an echo: a different expiry, or details where nothing is stored, still need the number.
    for (const body of [{ card_exp_month: 11 }, { card_exp_year: 2031, card_exp_month: 12 }, { bank_routing_number: '021000021' }]) {
      const res = await call(gw, 'POST', `/customers/${cardOnly.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call(gw, 'GET', `/customers/${cardOnly.id}`)).json().methods).toEqual(cardOnly.methods);
  });

  test('default_method_id sets the default; 82002 for a method that is not the customer\'s', async ({ gateway: gw }) => {
    const c = (await create(gw, {})).json();
    const other = (await create(gw, {})).json();
    const bankId = c.methods[1].id;
    expect((await call(gw, 'POST', `/customers/${c.id}`, { default_method_id: bankId })).json().default_method_id).toBe(bankId);
    const res = await call(gw, 'POST', `/customers/${c.id}`, { default_method_id: other.methods[0].id });
    expect([res.statusCode, code(res)]).toEqual([404, '82002']);
  });
});

describe('DELETE /customers/:id', () => {
  test('soft delete: gone from reads, methods wiped, subscriptions and schedules cancelled, id stays taken', async ({ gateway: gw }) => {
    const c = (await create(gw, { id: 'to-delete-1', token: await tokenFor(gw) })).json();
    const now = gw.clock.now();
    const scope = [gw.merchant.id, 'test'];
    await gw.db.query(`INSERT INTO subscriptions (merchant_id, env, id, customer_id, method_id, status, created_at)
                       VALUES ($1, $2, 'sub1', $3, $4, 'active', $5)`, [...scope, c.id, c.default_method_id, now]);
    await gw.db.query(`INSERT INTO scheduled_transactions (merchant_id, env, id, customer_id, method_id, status, bill_on, created_at)
                       VALUES ($1, $2, 'st1', $3, $4, 'scheduled', '2026-02-01', $5), ($1, $2, 'st2', $3, $4, 'billed', '2026-01-01', $5)`,
    [...scope, c.id, c.default_method_id, now]);

    const res = await call(gw, 'DELETE', `/customers/${c.id}`);
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect(code(await call(gw, 'GET', `/customers/${c.id}`))).toBe('17001');
    expect(code(await call(gw, 'GET', `/customers/${c.id}/methods`))).toBe('17001');
    expect(code(await call(gw, 'DELETE', `/customers/${c.id}`))).toBe('17001');
    expect(code(await create(gw, { id: 'to-delete-1' }))).toBe('81608');
    const methods = await gw.db.query('SELECT secret_enc, deleted_at FROM payment_methods WHERE merchant_id = $1 AND customer_id = $2', [gw.merchant.id, c.id]);
    expect(methods.every((m) => m.secret_enc === null && m.deleted_at !== null)).toBe(true);
    const subs = await gw.db.query('SELECT status FROM subscriptions WHERE merchant_id = $1 AND customer_id = $2', [gw.merchant.id, c.id]);
    expect(subs.map((s) => s.status)).toEqual(['cancelled']);
    const st = await gw.db.query('SELECT id, status FROM scheduled_transactions WHERE merchant_id = $1 AND customer_id = $2 ORDER BY id', [gw.merchant.id, c.id]);
    expect(st.map((s) => s.status)).toEqual(['cancelled', 'billed']);
  });

  test('another merchant cannot delete; DELETE /customers?id= works too', async ({ gateway: gw }) => {
    const c = (await create(gw, {})).json();
    expect(code(await call(gw, 'DELETE', `/customers/${c.id}`, undefined, gw.other.test.private_key))).toBe('17001');
    expect((await call(gw, 'DELETE', `/customers?id=${c.id}`)).json()).toEqual({ success: true });
    const d = (await create(gw, {})).json();
    expect((await call(gw, 'DELETE', '/customers', { id: d.id })).json()).toEqual({ success: true });
    expect(code(await call(gw, 'GET', `/customers/${d.id}`))).toBe('17001');
    expect(code(await call(gw, 'DELETE', '/customers'))).toBe('REQ01');
  });
});

describe('POST /customers/search', () => {
  test('case-insensitive over first name, last name, company, id; paged; wildcards are literal', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const key = m.test.private_key;
    const a = (await create(gw, { id: 'zeta-cust', first_name: 'Marie', last_name: 'Curie', company: 'Radium Ltd' }, key)).json();
    const b = (await create(gw, { first_name: 'Pierre', last_name: 'Curie', company: 'Sorbonne' }, key)).json();
    await create(gw, { first_name: 'Albert', last_name: 'Einstein', company: '100% Physics' }, key);
    const search = async (body: Record<string, unknown>) => (await call(gw, 'POST', '/customers/search', body, key)).json();
    const ids = async (term: string) => (await search({ search_term: term })).list.map((c: any) => c.id);
    expect(await ids('marie')).toEqual([a.id]);
    expect(await ids('CURIE')).toEqual([b.id, a.id]);
    expect(await ids('radium')).toEqual([a.id]);
    expect(await ids('ZETA-c')).toEqual([a.id]);
    expect(await ids(b.id)).toEqual([b.id]);
    expect(await ids('Marie Curie')).toEqual([a.id]);
    expect(await ids('nobody')).toEqual([]);
    expect(await ids('%')).toHaveLength(1);
    expect(await ids('_')).toEqual([]);
    const page = await search({ search_term: 'curie', limit: 1, offset: 1 });
    expect(page.list.map((c: any) => c.id)).toEqual([a.id]);
    expect(page.meta).toEqual({ limit: 1, offset: 1, total_results: 2 });
    expect((await call(gw, 'POST', '/customers/search', {}, key)).statusCode).toBe(400);
    expect(code(await call(gw, 'POST', '/customers/search', { search_term: '   ' }, key))).toBe('REQ01');
    expect((await call(gw, 'POST', '/customers/search', { search_term: 'curie', limit: 500 }, key)).statusCode).toBe(400);
    expect((await search({ search_term: 'curie' })).list[0].class).toBe('customer');
    // Another merchant finds nothing of these.
    expect((await call(gw, 'POST', '/customers/search', { search_term: 'curie' })).json().list).toEqual([]);
  });
});

test('raw rows hold no card number, account number or CVV', async ({ gateway: gw }) => {
  const csc = '987';
  const card = await create(gw, { token: await tokenFor(gw, { ...visa, csc }) });
  const acct = await create(gw, { token: await tokenFor(gw, bank) });
  expect(card.statusCode).toBe(200);
  expect(acct.statusCode).toBe(200);
  const rows = [
    ...(await gw.db.query('SELECT * FROM customers')),
    ...(await gw.db.query('SELECT * FROM payment_methods')),
  ];
  const dump = JSON.stringify(rows);
  expect(dump).not.toContain('4111111111111111');
  expect(dump).not.toContain(bank.bank_account_number);
  expect(rows.some((r) => Object.values(r).includes(csc))).toBe(false);
  const [m] = await gw.db.query('SELECT id, merchant_id, env, token_id, secret_enc FROM payment_methods WHERE id = $1', [card.json().default_method_id]);
  const [t] = await gw.db.query('SELECT csc_enc, used_at FROM tokens WHERE id = $1', [m.token_id]);
  expect(t.csc_enc).toBeNull();
  expect(t.used_at).not.toBeNull();
  expect(gw.vault.decrypt(m.secret_enc, methodHome({ merchantId: m.merchant_id, env: m.env }, m.id))).toBe('4111111111111111');
});
