import { runDue } from '../../../server/jobs/scheduler.js';
import { DAY, ISO, api, isolated, jobDeps } from './billings-fixtures.js';
import { bank, test as base, describe, expect, expectError, tokenFor, visa } from '../../fixtures.js';

// The gateway clock starts at 2026-01-15T12:00:00Z; tests that move time use a merchant of their own.
/** The gateway fixture, plus the billing calls of billings-fixtures.ts as the gateway's merchant. */
const test = base.extend<{ calls: ReturnType<typeof api> }>({ calls: [async ({ gateway }, use) => use(api(gateway)), { scope: 'file' }] });

const schedule = (a: ReturnType<typeof api>, body: Record<string, unknown>, k?: string) => a.post('/scheduled_transactions', { bill_on: '2026-02-01', amount: 1500, ...body }, k);

describe('POST /scheduled_transactions', () => {
  test('bills a customer later: every field of spec 2.7 with its type', async ({ calls: a }) => {
    const c = await a.customer();
    const res = await schedule(a, {
      customer_id: c.id, description: 'Annual fee', metadata: { order: 'A-1' }, zip: '94107', city: 'SF', state: 'CA',
      company: 'Engines', website: 'https://example.com', address_1: '1 Main', address_2: null, fax_number: '555',
      phone_number: '556', email_address: 'ada@example.com', receipt_template_id: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      class: 'scheduledtransaction', id: expect.stringMatching(/^[0-9a-f]{32}$/), status: 'scheduled', bill_on: '2026-02-01',
      created_at: expect.stringMatching(ISO), updated_at: expect.stringMatching(ISO), transaction_id: '', token: '',
      amount: '1500', send_receipt: '', metadata: '{"order":"A-1"}', ip_address: '127.0.0.1', new_record: false,
      zip: '94107', city: 'SF', state: 'CA', company: 'Engines', website: 'https://example.com', address_1: '1 Main',
      address_2: null, fax_number: '555', description: 'Annual fee', phone_number: '556', email_address: 'ada@example.com',
      card_owner_name: visa.card_owner_name, charge_bank_account: null, receipt_template_id: null,
      bank_account_holder_first_name: null, bank_account_holder_last_name: null, customer_id: c.id,
      method_id: c.default_method_id, error_code: null, error_message: null,
    });
  });

  test('a token is kept as a new customer (new_record true) and cannot be used again', async ({ gateway: gw, calls: a }) => {
    const token = await tokenFor(gw);
    const st = (await schedule(a, { token, send_receipt: true, email_address: 'a@example.com' })).body;
    expect(st).toMatchObject({ token, new_record: true, send_receipt: 'true', status: 'scheduled' });
    const customer = await a.ok('GET', `/customers/${st.customer_id}`);
    expect(customer).toMatchObject({ email: 'a@example.com', last_4: '1111' });
    expectError(await schedule(a, { token }), 400, '23489');
  });

  test('a bank account: charge_bank_account picks it; holder names shown', async ({ gateway: gw, calls: a }) => {
    const c = await a.customer();
    await a.ok('POST', `/customers/${c.id}/methods`, { token: await tokenFor(gw, bank) });
    const st = (await schedule(a, { customer_id: c.id, charge_bank_account: 'true' })).body;
    expect(st).toMatchObject({ charge_bank_account: true, card_owner_name: null, bank_account_holder_first_name: 'Grace', bank_account_holder_last_name: 'Hopper' });
  });

  test.for<[Record<string, unknown>, number, string]>([
    [{ amount: undefined }, 400, '48291'],
    [{ customer_id: undefined }, 400, '48291'],
    [{ amount: 0 }, 400, '99819'],
    [{ amount: 'x' }, 400, '59112'],
    [{ bill_on: '2026-01-14' }, 400, 'REQ01'],
    [{ bill_on: '2026-02-30' }, 400, 'REQ01'],
    [{ bill_on: 'tomorrow' }, 400, 'REQ01'],
    [{ bill_on: undefined }, 400, 'REQ01'],
    [{ bill_on: '2040-01-01' }, 400, 'REQ01'],
    [{ email_address: 'nope' }, 400, '69006'],
    [{ send_receipt: true }, 400, '69005'],
    [{ method_id: 'f'.repeat(32) }, 400, '34792'],
    [{ customer_id: 'nosuchcustomer' }, 400, '34798'],
    [{ send_receipt: 'perhaps' }, 400, 'REQ01'],
  ])('%j → %s %s', async ([patch, status, code], { calls: a }) => {
    const c = await a.customer({ email: '' });
    expectError(await schedule(a, { customer_id: c.id, ...patch }), status, code);
  });

  test('token shape codes: 69002 without amount; today is a valid bill_on; an ISO time counts by its UTC date', async ({ gateway: gw, calls: a }) => {
    expectError(await schedule(a, { token: await tokenFor(gw), amount: undefined }), 400, '69002');
    const c = await a.customer();
    expect((await schedule(a, { customer_id: c.id, bill_on: '2026-01-15' })).body.bill_on).toBe('2026-01-15');
    expect((await schedule(a, { customer_id: c.id, bill_on: '2026-03-01T10:00:00Z' })).body.bill_on).toBe('2026-03-01');
  });
});

describe('GET /scheduled_transactions', () => {
  test('newest first; limit positive ≤ 100 (1800, 1802); offset a whole number, 0 the first page (1801)', async ({ gateway: gw, calls: a }) => {
    const { m, a: b } = await isolated(gw);
    const c = await b.customer();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await b.ok('POST', '/scheduled_transactions', { customer_id: c.id, amount: 100 + i, bill_on: '2026-02-01' })).id);
    const all = await b.ok('GET', '/scheduled_transactions');
    expect(all.meta).toEqual({ limit: 10, offset: 0, total_results: 3 });
    expect(all.list.map((s: any) => s.id)).toEqual(ids.reverse());
    expect((await b.ok('GET', '/scheduled_transactions?limit=1&offset=0')).list.map((s: any) => s.id)).toEqual([ids[0]]);
    expect((await b.ok('GET', '/scheduled_transactions?limit=100&offset=2')).list.map((s: any) => s.id)).toEqual([ids[2]]);
    for (const limit of ['0', '-1', 'abc', '1.5', '1e2']) expectError(await b.get(`/scheduled_transactions?limit=${limit}`), 400, '1800');
    for (const limit of ['101', '1000']) expectError(await b.get(`/scheduled_transactions?limit=${limit}`), 400, '1802');
    for (const offset of ['-1', 'x', '2.5']) expectError(await b.get(`/scheduled_transactions?offset=${offset}`), 400, '1801');
    expect((await a.ok('GET', '/scheduled_transactions', undefined, m.live.private_key)).meta.total_results).toBe(0);
    expect((await b.ok('GET', `/scheduled_transactions/${ids[1]}`)).id).toBe(ids[1]);
    expectError(await a.get(`/scheduled_transactions/${ids[1]}`), 404, 'SCHED01');
  });
});

describe('POST /scheduled_transactions/:id/cancel', () => {
  test('before it bills: `cancelled` (again: unchanged); then it never bills', async ({ gateway: gw, calls: a }) => {
    const { a: b } = await isolated(gw);
    const c = await b.customer();
    const st = await b.ok('POST', '/scheduled_transactions', { customer_id: c.id, amount: 500, bill_on: '2026-01-20' });
    const res = await b.post(`/scheduled_transactions/${st.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: st.id, status: 'cancelled', transaction_id: '' });
    expect((await b.ok('POST', `/scheduled_transactions/${st.id}/cancel`)).status).toBe('cancelled');
    expect((await b.advance({ days: 10 })).ran.scheduled_transactions).toBe(0);
    expect((await b.ok('GET', `/scheduled_transactions/${st.id}`)).status).toBe('cancelled');
  });

  test('once billed: SCHED02; unknown or foreign: SCHED01', async ({ gateway: gw, calls: a }) => {
    const { a: b } = await isolated(gw);
    const c = await b.customer();
    const st = await b.ok('POST', '/scheduled_transactions', { customer_id: c.id, amount: 500, bill_on: '2026-01-16' });
    expectError(await a.post(`/scheduled_transactions/${st.id}/cancel`), 404, 'SCHED01');
    await b.advance({ days: 1 });
    expectError(await b.post(`/scheduled_transactions/${st.id}/cancel`), 409, 'SCHED02');
    expectError(await b.post('/scheduled_transactions/nope/cancel'), 404, 'SCHED01');
  });
});

describe('billing a scheduled transaction', () => {
  test('on bill_on (00:00 UTC) it is charged: `billed` with its transaction; a declined amount is `failed`', async ({ gateway: gw, calls: a }) => {
    const { a: b } = await isolated(gw);
    const c = await b.customer();
    const ok = await b.ok('POST', '/scheduled_transactions', { customer_id: c.id, amount: 1200, bill_on: '2026-01-17', description: 'Later', metadata: '{"k":"v"}' });
    const bad = await b.ok('POST', '/scheduled_transactions', { customer_id: c.id, amount: 88, bill_on: '2026-01-17' });
    expect((await b.advance({ hours: 35 })).ran.scheduled_transactions).toBe(0); // 2026-01-16T23:00Z
    const out = await b.advance({ hours: 1 });
    expect(out.ran).toMatchObject({ scheduled_transactions: 1, failed_scheduled_transactions: 1 });
    const billed = await b.ok('GET', `/scheduled_transactions/${ok.id}`);
    expect(billed).toMatchObject({ status: 'billed', error_code: null });
    expect(billed.transaction_id).toMatch(/^[0-9a-f]{32}$/);
    expect(await b.ok('GET', `/charge/${billed.transaction_id}`)).toMatchObject({
      source: 'scheduled', recurring: false, amount_settled: 1200, description: 'Later', metadata: { k: 'v' },
      created_at: '2026-01-17T00:00:00.000Z',
    });
    const failed = await b.ok('GET', `/scheduled_transactions/${bad.id}`);
    expect(failed).toMatchObject({ status: 'failed', error_code: '99820' });
    expect((await b.ok('GET', `/charge/${failed.transaction_id}`)).status).toBe('DECLINED');
  });

  test('the method is held until billed (17104), then free', async ({ gateway: gw, calls: a }) => {
    const { m, a: b } = await isolated(gw);
    const c = await b.customer();
    const second = (await b.ok('POST', `/customers/${c.id}/methods`, { token: await tokenFor(gw, visa, m.test.public_key) })).method.id;
    await b.ok('POST', '/scheduled_transactions', { customer_id: c.id, method_id: second, amount: 300, bill_on: '2026-01-16' });
    expectError(await b.del(`/customers/${c.id}/methods/${second}`), 409, '17104');
    await b.advance({ days: 1 });
    expect(await b.ok('DELETE', `/customers/${c.id}/methods/${second}`)).toEqual({ success: true });
  });

  test('runDue at real time bills what is due, across merchants, each test env at its clock', async ({ gateway: gw, calls: a }) => {
    const { a: b } = await isolated(gw);
    const c = await b.customer();
    const st = await b.ok('POST', '/scheduled_transactions', { customer_id: c.id, amount: 700, bill_on: '2026-01-15' });
    const other = await b.ok('POST', '/scheduled_transactions', { customer_id: c.id, amount: 700, bill_on: '2026-01-18' });
    const out = await runDue(jobDeps(gw), gw.clock.now());
    expect(out.scheduled_transactions).toBeGreaterThanOrEqual(1);
    expect((await b.ok('GET', `/scheduled_transactions/${st.id}`)).status).toBe('billed');
    expect((await b.ok('GET', `/scheduled_transactions/${other.id}`)).status).toBe('scheduled');
    await runDue(jobDeps(gw), new Date(gw.clock.now().getTime() + 3 * DAY));
    expect((await b.ok('GET', `/scheduled_transactions/${other.id}`)).status).toBe('billed');
  });
});
