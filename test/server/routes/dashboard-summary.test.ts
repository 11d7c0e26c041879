import { Merchant, TestGateway, basic, test as base, describe, expect, expectError, tokenFor, visa } from '../../fixtures.js';
import { api } from './billings-fixtures.js';

// GET /api/v1/dashboard/summary (issue 19): per-UTC-day charges, declines, refunds and new
// customers of the key's merchant and environment, grouped in SQL, "now" moved by the test clock.
// The gateway's clock starts at 2026-01-15T12:00:00Z.

const summary = (gw: TestGateway, m: Merchant, query = '', key = m.test.private_key) => gw.app.inject({ url: `/api/v1/dashboard/summary${query}`, headers: basic(key) });
const declined = { ...visa, card_number: '4000000000000002' };
const zero = { gross_volume: 0, successful: 0, declined: 0, refunded: 0, refunds: 0, new_customers: 0 };

async function charge(gw: TestGateway, a: ReturnType<typeof api>, amount: number, keys: Merchant['test'], card: Record<string, unknown> = visa): Promise<string> {
  const res = await a.post('/charge', { token: await tokenFor(gw, card, keys.public_key), amount }, keys.private_key);
  return res.status === 200 ? res.body.id : res.body.errors[0].transaction_id;
}

/** The merchant whose figures the tests read, with its records of two days; made once per file. */
async function seed(gw: TestGateway): Promise<Merchant> {
  const m = await gw.newMerchant();
  const a = api(gw, m);
  // 2026-01-15: two charges, a decline, a partial refund, a new customer.
  const first = await charge(gw, a, 1000, m.test);
  const second = await charge(gw, a, 2000, m.test);
  await charge(gw, a, 80, m.test, declined);
  await a.ok('POST', `/charge/${first}/cancel`, { amount: 500 });
  await a.customer();
  // 2026-01-16 (the merchant's test clock, a day on): a charge, and a refund of yesterday's charge.
  await a.advance({ days: 1 });
  await charge(gw, a, 3000, m.test);
  await a.ok('POST', `/charge/${second}/cancel`, { amount: 2000 });
  // Never counted: another merchant's charge and customer, and this merchant's live customer.
  const other = api(gw, gw.other);
  await other.post('/charge', { token: await tokenFor(gw, visa, gw.other.test.public_key), amount: 7777 });
  await other.customer();
  await a.customer({}, visa.card_number, m.live);
  return m;
}
const test = base.extend<{ m: Merchant }>({ m: [async ({ gateway }, use) => use(await seed(gateway)), { scope: 'file' }] });

describe('GET /dashboard/summary', () => {
  test('per-day figures, oldest first, zero-filled, today last; totals of today, 7 and 30 days', async ({ gateway: gw, m }) => {
    const res = await summary(gw, m, '?days=7');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const jan15 = { gross_volume: 3000, successful: 2, declined: 1, refunded: 500, refunds: 1, new_customers: 1 };
    const jan16 = { gross_volume: 3000, successful: 1, declined: 0, refunded: 2000, refunds: 1, new_customers: 0 };
    expect(body).toMatchObject({ class: 'summary', days: 7, now: '2026-01-16T12:00:00.000Z' });
    expect(body.series).toEqual([
      ...['2026-01-10', '2026-01-11', '2026-01-12', '2026-01-13', '2026-01-14'].map((day) => ({ day, ...zero })),
      { day: '2026-01-15', ...jan15 },
      { day: '2026-01-16', ...jan16 },
    ]);
    const both = { gross_volume: 6000, successful: 3, declined: 1, refunded: 2500, refunds: 2, new_customers: 1 };
    expect(body.totals).toEqual({ today: jan16, last_7_days: both, last_30_days: both, period: both });
  });

  test('totals.period is the figures of the `days` asked for (the home page\'s chosen period)', async ({ gateway: gw, m }) => {
    // 2026-01-16 is today: one day holds only its figures; two days hold 2026-01-15's too.
    const day = (await summary(gw, m, '?days=1')).json();
    expect(day.series).toHaveLength(1);
    expect(day.totals.period).toEqual({ gross_volume: 3000, successful: 1, declined: 0, refunded: 2000, refunds: 1, new_customers: 0 });
    const two = (await summary(gw, m, '?days=2')).json();
    expect(two.totals.period).toEqual({ gross_volume: 6000, successful: 3, declined: 1, refunded: 2500, refunds: 2, new_customers: 1 });
    expect(two.totals.period).toEqual(two.series.reduce((t: Record<string, number>, d: Record<string, number>) =>
      Object.fromEntries(Object.keys(zero).map((k) => [k, t[k] + d[k]])), zero));
  });

  test('days defaults to 30; the 30-day total does not depend on days', async ({ gateway: gw, m }) => {
    const body = (await summary(gw, m)).json();
    expect(body.days).toBe(30);
    expect(body.series).toHaveLength(30);
    expect(body.series[0].day).toBe('2025-12-18');
    expect(body.series.at(-1).day).toBe('2026-01-16');
    const { period: _, ...fixed } = body.totals;
    expect((await summary(gw, m, '?days=1')).json()).toMatchObject({ series: [{ day: '2026-01-16' }], totals: fixed });
    expect((await summary(gw, m, '?days=90')).json().series).toHaveLength(90);
  });

  test('recent events: the 10 newest, as GET /events lists them', async ({ gateway: gw, m }) => {
    expect((await summary(gw, m)).json().recent_events.map((e: any) => e.type)).toEqual([
      'transaction.refunded', 'transaction.created', 'customer.created', 'transaction.refunded',
      'transaction.failed', 'transaction.created', 'transaction.created',
    ]);
    const n = await gw.newMerchant();
    for (let i = 0; i < 12; i++) await api(gw, n).ok('POST', '/customers', { first_name: `C${i}` });
    const body = (await summary(gw, m, '', n.test.private_key)).json();
    expect(body.recent_events).toHaveLength(10);
    expect(body.recent_events).toEqual((await api(gw, n).ok('GET', '/events?limit=10')).list);
    expect(body.recent_events[0].data.first_name).toBe('C11');
  });

  test('the live environment and other merchants see only their own', async ({ gateway: gw, m }) => {
    const live = (await summary(gw, m, '?days=7', m.live.private_key)).json();
    expect(live.totals.today).toEqual({ ...zero, new_customers: 1 });
    expect(live.recent_events.every((e: any) => e.data.id !== undefined)).toBe(true);
    const other = (await summary(gw, m, '?days=7', gw.other.test.private_key)).json();
    expect(other.totals.last_7_days).toEqual({ gross_volume: 7777, successful: 1, declined: 0, refunded: 0, refunds: 0, new_customers: 1 });
  });

  test('the test clock moves "now": a month later the days have left the window', async ({ gateway: gw, m }) => {
    await api(gw, m).advance({ days: 30 });
    const body = (await summary(gw, m, '?days=30')).json();
    expect(body.now).toBe('2026-02-15T12:00:00.000Z');
    expect(body.series.at(-1).day).toBe('2026-02-15');
    expect(body.series[0].day).toBe('2026-01-17');
    expect(body.totals).toEqual({ today: zero, last_7_days: zero, last_30_days: zero, period: zero });
    // 31 days back still reaches 2026-01-16.
    expect((await summary(gw, m, '?days=31')).json().series[0]).toEqual({ day: '2026-01-16', gross_volume: 3000, successful: 1, declined: 0, refunded: 2000, refunds: 1, new_customers: 0 });
  });

  test('a UTC day ends at midnight: 23:59:59.999 is that day, 00:00:00.000 the next', async ({ gateway: gw, m }) => {
    // Last in the file: it moves the gateway's own clock (every merchant's "now").
    const n = await gw.newMerchant();
    const c = api(gw, n);
    gw.clock.advance(12 * 3600_000 - 1); // 2026-01-15T23:59:59.999Z
    await c.ok('POST', '/charge', { token: await tokenFor(gw, visa, n.test.public_key), amount: 1000 });
    gw.clock.advance(1);
    await c.ok('POST', '/charge', { token: await tokenFor(gw, visa, n.test.public_key), amount: 200 });
    const body = (await summary(gw, m, '?days=2', n.test.private_key)).json();
    expect(body.series).toEqual([
      { day: '2026-01-15', ...zero, gross_volume: 1000, successful: 1 },
      { day: '2026-01-16', ...zero, gross_volume: 200, successful: 1 },
    ]);
  });

  test('days out of 1..90 or not a whole number is 400 DASH01; public key 403; no key 401', async ({ gateway: gw, m }) => {
    for (const q of ['?days=0', '?days=91', '?days=abc', '?days=1.5', '?days=-1', '?days=1e1', '?days=7&days=8', '?days=0090']) {
      expectError(await summary(gw, m, q), 400, 'DASH01');
    }
    // Up to three digits, padded or not, and blank is the default.
    expect((await summary(gw, m, '?days=090')).json().days).toBe(90);
    expect((await summary(gw, m, '?days=')).json().days).toBe(30);
    expectError(await summary(gw, m, '?days=%00'), 400, 'REQ01'); // NUL: refused for every query string
    expectError(await summary(gw, m, '', m.test.public_key), 403, 'AUTH02');
    expectError(await gw.app.inject({ url: '/api/v1/dashboard/summary' }), 401, 'AUTH01');
  });
});
