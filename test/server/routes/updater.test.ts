import { buildApp } from '../../../server/app.js';
import type { Clock } from '../../../server/clock.js';
import type { Db } from '../../../server/db/index.js';
import { completeDueReviews } from '../../../server/jobs/sweeps.js';
import { calls } from './receipts-fixtures.js';
import { Merchant, TestGateway, bank, basic, describe, expect, expectError, test as base, tokenFor, visa } from '../../fixtures.js';

// Account updater (spec 2.9, 4.7; docs/decisions/account-updater.md): POST /tokens/update, GET
// /tokens/update/:id, and the review that writes the accepted dates REVIEW_DELAY_MS later.

/** The gateway fixture, plus the receipt calls of receipts-fixtures.ts as the gateway's merchant. */
type Calls = ReturnType<typeof calls>;
const test = base.extend<{ calls: Calls }>({ calls: [async ({ gateway }, use) => use(calls(gateway)), { scope: 'file' }] });

const UNKNOWN = '0123456789abcdef0123456789abcdef';

/** A customer with a stored card; returns the card method's id. */
async function storedCard(gw: TestGateway, api: Calls, m: Merchant = gw.merchant, env: 'test' | 'live' = 'test'): Promise<string> {
  const keys = m[env];
  const token = await tokenFor(gw, visa, keys.public_key);
  const res = await api.post('/customers', { token, first_name: 'Ada' }, keys.private_key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.default_method_id;
}

const method = async (gw: TestGateway, id: string) =>
  (await gw.db.query('SELECT card_exp_month, card_exp_year, updated_at FROM payment_methods WHERE id = $1', [id]))[0];

const submit = (gw: TestGateway, api: Calls, payment_methods: unknown, key = gw.merchant.test.private_key, headers: Record<string, string> = {}) =>
  api.post('/tokens/update', { payment_methods }, key, headers);

const entry = (payment_id: unknown, card_exp_month: unknown = 9, card_exp_year: unknown = 2031) =>
  ({ payment_id, card_exp_month, card_exp_year });

const eventsOf = (gw: TestGateway, id: string) =>
  gw.db.query("SELECT type, data FROM events WHERE resource = 'accountupdater' AND data->>'id' = $1 ORDER BY seq", [id]);

describe('POST /tokens/update', () => {
  test('accepted entries are Received; the record of spec 2.9 is kept; the review applies the dates later', async ({ gateway: gw, calls: api }) => {
    const a = await storedCard(gw, api);
    const b = await storedCard(gw, api);
    const res = await submit(gw, api, { 0: entry(a, 9, 2031), 1: entry(b, '04', '2032') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rec = res.body;
    const created = gw.clock.now();
    expect(rec).toEqual({
      class: 'accountupdater', id: expect.stringMatching(/^[0-9a-f]{16}$/), status: 'received',
      accepted_count: 2, rejected_count: 0, applied_count: null,
      created_at: created.toISOString(), review_at: new Date(created.getTime() + 60_000).toISOString(), completed_at: null,
      payment_methods: {
        accepted: {
          0: { payment_id: a, card_exp_month: 9, card_exp_year: 2031, result: { status: 'Received' }, applied: null },
          1: { payment_id: b, card_exp_month: 4, card_exp_year: 2032, result: { status: 'Received' }, applied: null },
        },
        rejected: {},
      },
    });
    // Not yet reviewed: the stored cards keep their dates, and reading the record changes nothing.
    expect(await method(gw, a)).toMatchObject({ card_exp_month: 12, card_exp_year: 2030 });
    gw.clock.advance(59_999);
    expect((await api.get(`/tokens/update/${rec.id}`)).body).toEqual(rec);
    expect(await method(gw, a)).toMatchObject({ card_exp_month: 12 });

    // Due: the read completes the review first.
    gw.clock.advance(1);
    const done = (await api.get(`/tokens/update/${rec.id}`)).body;
    expect(done).toMatchObject({ status: 'completed', applied_count: 2, completed_at: gw.clock.now().toISOString() });
    expect(done.payment_methods.accepted['0']).toMatchObject({ result: { status: 'Received' }, applied: true });
    expect(await method(gw, a)).toMatchObject({ card_exp_month: 9, card_exp_year: 2031 });
    expect(await method(gw, b)).toMatchObject({ card_exp_month: 4, card_exp_year: 2032 });
    // The customer's top-level card fields follow the default method.
    const customer = (await gw.db.query("SELECT customer_id FROM payment_methods WHERE id = $1", [a]))[0].customer_id;
    expect((await api.get(`/customers/${customer}`)).body).toMatchObject({ card_exp_month: 9, card_exp_year: 2031 });

    const events = await eventsOf(gw, rec.id);
    expect(events.map((e) => e.type)).toEqual(['accountupdater.received', 'accountupdater.completed']);
    expect(events[0].data).toMatchObject({ class: 'accountupdater', id: rec.id, status: 'received', accepted_count: 2 });
    expect(events[0].data.payment_methods).toBeUndefined();
    expect(events[1].data).toMatchObject({ status: 'completed', applied_count: 2 });
  });

  test('entry errors: 122001, 122002, 122003, 122005, reported in the entry; the rest of the batch is accepted', async ({ gateway: gw, calls: api }) => {
    const card = await storedCard(gw, api);
    const other = await storedCard(gw, api, gw.other);
    const live = await storedCard(gw, api, gw.merchant, 'live');
    const bankToken = await tokenFor(gw, bank);
    const bankCustomer = (await api.post('/customers', { token: bankToken })).body;
    const bankMethod = bankCustomer.default_method_id;
    const placeholder = bankCustomer.methods.find((m: any) => m.method_type === 'credit_card').id;
    const deleted = await storedCard(gw, api);
    const deletedCustomer = (await gw.db.query('SELECT customer_id FROM payment_methods WHERE id = $1', [deleted]))[0].customer_id;
    await api.del(`/customers/${deletedCustomer}`);
    const tokenId = await tokenFor(gw, visa);

    const batch: Record<string, unknown> = {
      0: entry(card),
      1: entry(undefined),
      2: entry(tokenId),
      3: entry('not-an-id'),
      4: 'just a string',
      5: entry(card.toUpperCase().slice(0, 31)),
      6: entry(UNKNOWN, 13),
      7: entry(UNKNOWN, 0),
      8: entry(UNKNOWN, 'ab'),
      9: entry(UNKNOWN, 5, 31),
      10: entry(UNKNOWN, 12, 2025), // the test clock is in January 2026
      11: entry(UNKNOWN),
      12: entry(other),
      13: entry(live),
      14: entry(deleted),
      15: entry(bankMethod),
      16: entry(placeholder),
      17: entry(card, 1, 2027), // the same method twice: the first wins
      18: entry('nope', 13, 'x'), // two errors in one entry
      19: { payment_id: UNKNOWN }, // no dates
    };
    const res = await submit(gw, api, batch);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rec = res.body;
    expect(rec).toMatchObject({ accepted_count: 1, rejected_count: 19 });
    expect(Object.keys(rec.payment_methods.accepted)).toEqual(['0']);
    const codes = Object.fromEntries(Object.entries(rec.payment_methods.rejected as Record<string, any>)
      .map(([k, e]) => [k, e.result.errors.map((x: any) => x.code)]));
    expect(codes).toEqual({
      1: ['122001'], 2: ['122001'], 3: ['122001'], 4: ['122001'], 5: ['122001'],
      6: ['122003', '122002'], 7: ['122003', '122002'], 8: ['122003', '122002'], 9: ['122003', '122002'], 10: ['122003', '122002'],
      11: ['122003'], 12: ['122003'], 13: ['122003'], 14: ['122003'],
      15: ['122005'], 16: ['122005'], 17: ['122005'], 18: ['122001', '122002'], 19: ['122003', '122002'],
    });
    const rejected = rec.payment_methods.rejected;
    expect(rejected['2'].result.errors[0].message).toContain('token id');
    expect(rejected['10'].result.errors[1].message).toContain('past');
    expect(rejected['15'].result.errors[0].message).toContain('bank account');
    expect(rejected['16'].result.errors[0].message).toContain('placeholder');
    expect(rejected['17'].result.errors[0].message).toContain('entry "0"');
    expect(rejected['8']).toEqual({
      payment_id: UNKNOWN, card_exp_month: 'ab', card_exp_year: 2031,
      result: { status: 'Fail', errors: [expect.objectContaining({ code: '122003' }), expect.objectContaining({ code: '122002' })] },
    });
    expect(rejected['4']).toMatchObject({ payment_id: null, card_exp_month: null, card_exp_year: null });
    expect(rejected['1'].applied).toBeUndefined();
    expect((await api.get(`/tokens/update/${rec.id}`)).body).toEqual(rec);
  });

  test('echoed values are cut by code point and made storable: a bad entry is its own rejection, the batch is 200', async ({ calls: api, gateway: gw }) => {
    const card = await storedCard(gw, api);
    // 63 + a surrogate pair: cutting at 64 UTF-16 units would split the pair (a lone surrogate PostgreSQL refuses).
    const split = `${'a'.repeat(63)}\u{1F600}tail`;
    const res = await submit(gw, api, {
      0: entry(card),
      1: entry(split),
      2: entry(`x${'\u{1F600}'.repeat(70)}`, `${'\u{1F600}'.repeat(70)}`),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rec = res.body;
    expect(rec).toMatchObject({ accepted_count: 1, rejected_count: 2 });
    const rejected = rec.payment_methods.rejected;
    for (const k of ['1', '2']) expect(rejected[k].result.errors[0].code).toBe('122001');
    expect(rejected['1'].payment_id).toBe(`${'a'.repeat(63)}\u{1F600}`);
    expect(Array.from(rejected['2'].payment_id as string)).toHaveLength(64);
    expect(rejected['2'].card_exp_month).toBe('\u{1F600}'.repeat(64));
    for (const e of Object.values<any>(rejected)) expect(e.payment_id.isWellFormed()).toBe(true);
    expect((await api.get(`/tokens/update/${rec.id}`)).body).toEqual(rec);
  });

  test('a rejected entry does not hold its method: a corrected entry later in the batch is accepted', async ({ gateway: gw, calls: api }) => {
    const card = await storedCard(gw, api);
    const rec = (await submit(gw, api, { 0: entry(card, 13), 1: entry(card, 3, 2030) })).body;
    expect(Object.keys(rec.payment_methods.accepted)).toEqual(['1']);
    expect(Object.keys(rec.payment_methods.rejected)).toEqual(['0']);
  });

  test('the current month is not in the past (judged in UTC-12, as the tokenizer does)', async ({ gateway: gw, calls: api }) => {
    const card = await storedCard(gw, api);
    const rec = (await submit(gw, api, { 0: entry(card, 1, 2026), 1: entry(card.toUpperCase(), 2, 2026) })).body;
    expect(rec.accepted_count).toBe(1);
    expect(rec.payment_methods.accepted['0'].payment_id).toBe(card);
  });

  test.for<[string, unknown]>([
    ['missing', undefined],
    ['null', null],
    ['a word', 'x'],
    ['a number', 5],
    ['empty object', {}],
    ['empty array', []],
    ['keys that are words', { a: entry(UNKNOWN) }],
    ['keys with leading zeros', { '01': entry(UNKNOWN) }],
    ['negative keys', { '-1': entry(UNKNOWN) }],
    ['a JSON string that is not JSON', '{"0":'],
  ] as const)('122004 (400) when payment_methods is %s; nothing is kept', async ([_name, value], { gateway: gw, calls: api }) => {
    const before = (await gw.db.query('SELECT count(*)::int AS n FROM account_updates'))[0].n;
    expectError(await api.post('/tokens/update', value === undefined ? {} : { payment_methods: value }), 400, '122004');
    expect((await gw.db.query('SELECT count(*)::int AS n FROM account_updates'))[0].n).toBe(before);
  });

  test.for<[string, string]>([
    ['a NUL', '{"0":{"payment_id":"a\\u0000b","card_exp_month":1,"card_exp_year":2030}}'],
    ['a lone surrogate', '{"0":{"payment_id":"\\ud800","card_exp_month":1,"card_exp_year":2030}}'],
    ['nesting 5,000 deep', `[${'['.repeat(5000)}${']'.repeat(5000)}]`],
  ] as const)('a JSON-encoded payment_methods with %s is 400 REQ01, as the same sent as an object; nothing is kept', async ([_name, value], { gateway: gw, calls: api }) => {
    const before = (await gw.db.query('SELECT count(*)::int AS n FROM account_updates'))[0].n;
    expectError(await api.post('/tokens/update', { payment_methods: value }), 400, 'REQ01');
    expect((await gw.db.query('SELECT count(*)::int AS n FROM account_updates'))[0].n).toBe(before);
  });

  test('a JSON array (PHP json_encode of a list) and a JSON-encoded object are accepted, keyed by position', async ({ gateway: gw, calls: api }) => {
    const card = await storedCard(gw, api);
    const asArray = (await submit(gw, api, [entry(UNKNOWN), entry(card)])).body;
    expect(Object.keys(asArray.payment_methods.accepted)).toEqual(['1']);
    expect(Object.keys(asArray.payment_methods.rejected)).toEqual(['0']);
    const asString = (await submit(gw, api, JSON.stringify({ 7: entry(card) }))).body;
    expect(Object.keys(asString.payment_methods.accepted)).toEqual(['7']);
  });

  test('form-encoded: payment_methods[0][payment_id]=…, numbers as strings', async ({ gateway: gw, calls: api }) => {
    const card = await storedCard(gw, api);
    const form = `payment_methods%5B0%5D%5Bpayment_id%5D=${card}&payment_methods%5B0%5D%5Bcard_exp_month%5D=07`
      + '&payment_methods%5B0%5D%5Bcard_exp_year%5D=2033'
      + `&payment_methods%5B1%5D%5Bpayment_id%5D=${UNKNOWN}&payment_methods%5B1%5D%5Bcard_exp_month%5D=7&payment_methods%5B1%5D%5Bcard_exp_year%5D=2033`;
    const res = await gw.app.inject({
      method: 'POST', url: '/api/v1/tokens/update', payload: form,
      headers: { ...basic(gw.merchant.test.private_key), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().payment_methods).toEqual({
      accepted: { 0: { payment_id: card, card_exp_month: 7, card_exp_year: 2033, result: { status: 'Received' }, applied: null } },
      rejected: { 1: expect.objectContaining({ result: { status: 'Fail', errors: [expect.objectContaining({ code: '122003' })] } }) },
    });
  });

  test('UPD01 (400) over 10,000 entries', async ({ gateway: gw, calls: api }) => {
    const batch = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [String(i), entry(UNKNOWN)]));
    expectError(await submit(gw, api, batch), 400, 'UPD01');
  });

  test('122000 (503) when the batch cannot be kept (database failure); nothing is kept', async ({ gateway: gw }) => {
    const broken: Db = { ...gw.db, tx: () => Promise.reject(new Error('connection lost')) };
    const app = await buildApp({ db: broken, vault: gw.vault, clock: gw.clock as Clock });
    try {
      const res = await app.inject({
        method: 'POST', url: '/api/v1/tokens/update', headers: basic(gw.merchant.test.private_key),
        payload: { payment_methods: { 0: entry(UNKNOWN) } },
      });
      expectError(res as any, 503, '122000');
    } finally {
      await app.close();
    }
  });

  test('Idempotency-Key: a retried batch answers the same record and is kept once', async ({ gateway: gw, calls: api }) => {
    const card = await storedCard(gw, api);
    const headers = { 'idempotency-key': `au-${card}` };
    // The replay header is read, and the QA client answers no headers: direct injects.
    const send = () => gw.app.inject({
      method: 'POST', url: '/api/v1/tokens/update', headers: { ...basic(gw.merchant.test.private_key), ...headers },
      payload: { payment_methods: { 0: entry(card) } },
    });
    const a = await send();
    const b = await send();
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.json()).toEqual(a.json());
    expect((await gw.db.query("SELECT count(*)::int AS n FROM account_update_entries WHERE payment_id = $1", [card]))[0].n).toBe(1);
  });

  test('a public key cannot submit a batch', async ({ gateway: gw, calls: api }) => {
    expectError(await submit(gw, api, { 0: entry(UNKNOWN) }, gw.merchant.test.public_key), 403, 'AUTH02');
  });
});

describe('GET /tokens/update/:id and the review', () => {
  test('UPD02 (404) for an unknown record, another merchant\'s, or the other environment\'s', async ({ gateway: gw, calls: api }) => {
    const rec = (await submit(gw, api, { 0: entry(UNKNOWN) })).body;
    expectError(await api.get('/tokens/update/0123456789abcdef'), 404, 'UPD02');
    expectError(await api.get(`/tokens/update/${rec.id}`, gw.other.test.private_key), 404, 'UPD02');
    expectError(await api.get(`/tokens/update/${rec.id}`, gw.merchant.live.private_key), 404, 'UPD02');
  });

  test('the review leaves alone a method deleted or given a new card since; applied says so', async ({ gateway: gw, calls: api }) => {
    const kept = await storedCard(gw, api);
    const replaced = await storedCard(gw, api);
    const deleted = await storedCard(gw, api);
    const rec = (await submit(gw, api, { 0: entry(kept), 1: entry(replaced), 2: entry(deleted) })).body;
    const customerOf = async (id: string) => (await gw.db.query('SELECT customer_id FROM payment_methods WHERE id = $1', [id]))[0].customer_id;
    // A new card in the same method (same id): the submitted dates were for the old card.
    const newCard = await tokenFor(gw, { ...visa, card_exp_month: 6, card_exp_year: 2035 });
    const upd = await api.post(`/customers/${await customerOf(replaced)}/methods/${replaced}`, { token: newCard });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    await api.del(`/customers/${await customerOf(deleted)}`);

    gw.clock.advance(60_000);
    const done = (await api.get(`/tokens/update/${rec.id}`)).body;
    expect(done).toMatchObject({ status: 'completed', applied_count: 1 });
    expect(Object.values(done.payment_methods.accepted).map((e: any) => e.applied)).toEqual([true, false, false]);
    expect(await method(gw, kept)).toMatchObject({ card_exp_month: 9, card_exp_year: 2031 });
    expect(await method(gw, replaced)).toMatchObject({ card_exp_month: 6, card_exp_year: 2035 });
  });

  test('completeDueReviews (the background loop) completes due batches on each merchant\'s clock, once', async ({ gateway: gw, calls: api }) => {
    const m = await gw.newMerchant();
    const testCard = await storedCard(gw, api, m, 'test');
    const liveCard = await storedCard(gw, api, m, 'live');
    const testRec = (await submit(gw, api, { 0: entry(testCard) }, m.test.private_key)).body;
    const liveRec = (await submit(gw, api, { 0: entry(liveCard) }, m.live.private_key)).body;
    const status = async (id: string) => (await gw.db.query('SELECT status FROM account_updates WHERE id = $1', [id]))[0].status;

    // Not due yet anywhere (other tests' batches may be).
    await completeDueReviews(gw.db, gw.clock.now());
    expect([await status(testRec.id), await status(liveRec.id)]).toEqual(['received', 'received']);

    // The merchant's test clock runs 2 minutes ahead: its test batch is due, its live batch is not.
    await gw.db.query('INSERT INTO test_clocks (merchant_id, offset_ms, updated_at) VALUES ($1, 120000, $2)', [m.id, gw.clock.now()]);
    await completeDueReviews(gw.db, gw.clock.now());
    expect([await status(testRec.id), await status(liveRec.id)]).toEqual(['completed', 'received']);
    expect(await method(gw, testCard)).toMatchObject({ card_exp_month: 9, card_exp_year: 2031 });
    expect(await method(gw, liveCard)).toMatchObject({ card_exp_month: 12, card_exp_year: 2030 });
    const completedAt = (await api.get(`/tokens/update/${testRec.id}`, m.test.private_key)).body.completed_at;
    expect(completedAt).toBe(new Date(gw.clock.now().getTime() + 120_000).toISOString());

    gw.clock.advance(60_000);
    expect(await completeDueReviews(gw.db, gw.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await status(liveRec.id)).toBe('completed');
    expect(await completeDueReviews(gw.db, gw.clock.now())).toBe(0);
    expect((await eventsOf(gw, testRec.id)).map((e) => e.type)).toEqual(['accountupdater.received', 'accountupdater.completed']);
  });
});

test('a batch of 10,000 entries is checked and kept in one go (elapsed time printed)', async ({ gateway: gw, calls: api }) => {
  const m = await gw.newMerchant();
  const now = gw.clock.now();
  await gw.db.query('INSERT INTO customers (merchant_id, env, id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)',
    [m.id, 'test', 'bulk-customer', now]);
  await gw.db.query(
    `INSERT INTO payment_methods (merchant_id, env, id, customer_id, method_type, token_id, card_type, last_4,
                                  card_exp_month, card_exp_year, secret_enc, created_at, updated_at)
     SELECT $1, 'test', md5('bulk' || g), 'bulk-customer', 'credit_card', 'tok' || g, 'visa', '1111', 1, 2027, 'sealed', $2, $2
       FROM generate_series(1, 9990) g`,
    [m.id, now],
  );
  const ids = (await gw.db.query<{ id: string }>("SELECT md5('bulk' || g) AS id FROM generate_series(1, 10000) g")).map((r) => r.id);
  // 9,990 stored cards and 10 unknown ids (the last ten).
  const batch = Object.fromEntries(ids.map((id, i) => [String(i), entry(id, (i % 12) + 1, 2030)]));

  const started = performance.now();
  const res = await submit(gw, api, batch, m.test.private_key);
  const elapsed = performance.now() - started;
  console.log(`account updater: 10,000 entries answered in ${elapsed.toFixed(0)} ms (${process.env.TESSERA_TEST_DB ?? 'pglite'})`);

  expect(res.status).toBe(200);
  const rec = res.body;
  expect(rec).toMatchObject({ accepted_count: 9990, rejected_count: 10, status: 'received' });
  expect(Object.keys(rec.payment_methods.accepted)).toHaveLength(9990);
  expect(Object.keys(rec.payment_methods.rejected)).toEqual(Array.from({ length: 10 }, (_, i) => String(9990 + i)));
  expect(rec.payment_methods.accepted['13']).toEqual({
    payment_id: ids[13], card_exp_month: 2, card_exp_year: 2030, result: { status: 'Received' }, applied: null,
  });

  gw.clock.advance(60_000);
  const reviewStarted = performance.now();
  const done = (await api.get(`/tokens/update/${rec.id}`, m.test.private_key)).body;
  console.log(`account updater: review of 9,990 cards and read-back in ${(performance.now() - reviewStarted).toFixed(0)} ms`);
  expect(done).toMatchObject({ status: 'completed', applied_count: 9990 });
  const [{ n }] = await gw.db.query(
    "SELECT count(*)::int AS n FROM payment_methods WHERE merchant_id = $1 AND card_exp_year = 2030", [m.id]);
  expect(n).toBe(9990);
});
