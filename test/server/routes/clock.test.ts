import { DAY, api, isolated } from './billings-fixtures.js';
import { basic, describe, expect, expectError, test, tokenFor } from '../../fixtures.js';

// The gateway clock (real time, for these tests) is a ManualClock at 2026-01-15T12:00:00Z.

const START = '2026-01-15T12:00:00.000Z';

describe('GET /test_helpers/clock', () => {
  test('starts at real time, offset 0; test private key only', async ({ gateway: gw }) => {
    const { m, a } = await isolated(gw);
    expect(await a.ok('GET', '/test_helpers/clock')).toEqual({ class: 'test_clock', now: START, offset_ms: 0, real_now: START, advancing: false, advance: null });
    expectError(await a.get('/test_helpers/clock', m.live.private_key), 403, 'TEST02');
    expectError(await a.get('/test_helpers/clock', m.test.public_key), 403, 'AUTH02');
  });
});

describe('POST /test_helpers/clock/advance', () => {
  test('by units or to a time; forward only; every request of the merchant\'s test env sees it', async ({ gateway: gw }) => {
    const { m, a } = await isolated(gw);
    const moved = await a.advance({ days: 1, hours: 2, minutes: 3, seconds: 4 });
    expect(moved).toMatchObject({ class: 'test_clock', previous: START, now: '2026-01-16T14:03:04.000Z', offset_ms: DAY + 7384_000 });
    expect(moved.ran).toEqual({ billings: 0, failed_billings: 0, scheduled_transactions: 0, failed_scheduled_transactions: 0, errors: 0 });
    expect((await a.advance({ to: '2026-03-01T00:00:00Z' })).now).toBe('2026-03-01T00:00:00.000Z');
    expect((await a.advance({ months: 1 })).now).toBe('2026-04-01T00:00:00.000Z');
    expect((await a.advance({ seconds: 0 })).now).toBe('2026-04-01T00:00:00.000Z');
    expectError(await a.post('/test_helpers/clock/advance', { to: '2026-03-31T23:59:59Z' }), 400, 'CLOCK02');
    // "now" of the test environment: new records are stamped with it; live and other merchants are untouched.
    expect((await a.plan()).created_at).toBe('2026-04-01T00:00:00.000Z');
    expect((await a.plan({}, m.live.private_key)).created_at).toBe(START);
    expect((await api(gw).plan()).created_at).toBe(START);
    // real time passing adds to the offset
    gw.clock.advance(1000);
    try {
      expect((await a.ok('GET', '/test_helpers/clock')).now).toBe('2026-04-01T00:00:01.000Z');
    } finally {
      gw.clock.advance(-1000);
    }
  });

  test.for<[Record<string, unknown>, number, string]>([
    [{}, 400, 'REQ01'],
    [{ days: -1 }, 400, 'REQ01'],
    [{ days: 1.5 }, 400, 'REQ01'],
    [{ hours: 'x' }, 400, 'REQ01'],
    [{ to: 'yesterday' }, 400, 'REQ01'],
    [{ days: 3700 }, 400, 'REQ01'],
    [{ to: '2000-01-01T00:00:00Z' }, 400, 'CLOCK02'],
    [{ days: 1, to: '2035-01-01T00:00:00Z' }, 400, 'REQ01'], // which one was meant is not ours to guess
  ])('%j → %s %s', async ([body, status, code], { gateway: gw }) => {
    const { a } = await isolated(gw);
    expectError(await a.post('/test_helpers/clock/advance', body), status, code);
    expect((await a.ok('GET', '/test_helpers/clock')).offset_ms).toBe(0);
  });

  test('each refusal names its field, in the order the clock reads them; the query string\'s wait wins over the body\'s', async ({ gateway: gw }) => {
    const { m, a } = await isolated(gw);
    const refused = async (body: Record<string, unknown>, path = '/test_helpers/clock/advance') => {
      const res = await a.post(path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return res.body.errors[0] as { code: string; message: string };
    };
    expect(await refused({ hours: 'x', days: 'y' })).toMatchObject({ code: 'REQ01', message: 'hours must be a whole number of 0 or more' });
    expect((await refused({ days: 'y', months: 'z' })).message).toBe('days must be a whole number of 0 or more');
    expect((await refused({ months: 'z' })).message).toBe('months must be a whole number of 0 or more');
    // Both ways of saying how far, even when a unit could not be read: which one was meant is not ours to guess.
    expect((await refused({ to: 'soon', days: 'x', months: 1 })).message).toBe('say how far once: to, or months, days, not both');
    expect((await refused({ to: 'soon' })).message).toBe('to must be an ISO 8601 time, e.g. 2026-03-01T00:00:00Z');
    expect((await refused({ days: '' , to: null })).message).toBe('say how far: to, or any of months, days, hours, minutes, seconds');
    expect((await refused({ days: 'a\u0000' })).message).toMatch(/days must not contain/);
    expect((await refused({ days: 1, wait: 'maybe' })).message).toMatch(/^wait /);
    expect((await a.ok('GET', '/test_helpers/clock')).offset_ms).toBe(0);
    // A bad body wait is not read when the query string says.
    const res = await a.post('/test_helpers/clock/advance?wait=true', { days: 1, wait: 'maybe' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await a.ok('GET', '/test_helpers/clock')).offset_ms).toBe(DAY);
    // Live keys are refused before any field is read.
    expectError(await a.post('/test_helpers/clock/advance', { days: 'x' }, m.live.private_key), 403, 'TEST02');
  });

  test('live keys cannot move a clock', async ({ gateway: gw }) => {
    const { m, a } = await isolated(gw);
    expectError(await a.post('/test_helpers/clock/advance', { days: 1 }, m.live.private_key), 403, 'TEST02');
  });

  test('tokens expire by the test clock (15 minutes)', async ({ gateway: gw }) => {
    // Through POST /scheduled_transactions; testclock-routes.test.ts covers the other routes.
    const { m, a } = await isolated(gw);
    const schedule = (token: string) => a.post('/scheduled_transactions', { token, amount: 500, bill_on: '2026-12-01' });
    const token = await tokenFor(gw, undefined, m.test.public_key);
    await a.advance({ minutes: 16 });
    expectError(await schedule(token), 400, '23489');
    const fresh = await tokenFor(gw, undefined, m.test.public_key);
    await a.advance({ minutes: 14 });
    expect((await schedule(fresh)).status).toBe(200);
  });

  test('advancing 3 months on a monthly plan bills exactly 3 runs, stamped at their dates; in steps the same', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const p = await a.plan({ frequency: 'monthly' });
    const s1 = await a.subscribe(p.id, (await a.customer()).id);
    const s2 = await a.subscribe(p.id, (await a.customer()).id);
    const out = await a.advance({ months: 3 });
    expect(out.ran).toMatchObject({ billings: 6, failed_billings: 0, errors: 0 });
    for (const s of [s1, s2]) {
      expect((await a.billings(s.id)).map((b) => b.created_at)).toEqual(['2026-02-15 00:00:00', '2026-03-15 00:00:00', '2026-04-15 00:00:00']);
    }
    expect((await a.advance({ seconds: 1 })).ran.billings).toBe(0);

    const { a: b } = await isolated(gw);
    const s = await b.subscribe((await b.plan({ frequency: 'monthly' })).id, (await b.customer()).id);
    expect((await b.advance({ months: 1 })).ran.billings).toBe(1);
    expect((await b.advance({ days: 20 })).ran.billings).toBe(0);
    expect((await b.advance({ to: '2026-04-15T12:00:00Z' })).ran.billings).toBe(2);
    expect((await b.billings(s.id)).map((x) => x.sequence)).toEqual([1, 2, 3]);
  });

  test('a year of a weekly plan in one call: 52 billings', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const s = await a.subscribe((await a.plan({ frequency: 'weekly', day: 4 })).id, (await a.customer()).id);
    expect((await a.advance({ days: 364 })).ran.billings).toBe(52);
    expect((await a.ok('GET', `/subscriptions/${s.id}`)).billings_count).toBe(52);
  });

  test('runs billings and scheduled transactions in time order, only for this merchant\'s test environment', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const { a: other } = await isolated(gw);
    const c = await a.customer();
    const s = await a.subscribe((await a.plan({ frequency: 'daily' })).id, c.id);
    const st = await a.ok('POST', '/scheduled_transactions', { customer_id: c.id, amount: 321, bill_on: '2026-01-17' });
    const os = await other.subscribe((await other.plan({ frequency: 'daily' })).id, (await other.customer()).id);
    const out = await a.advance({ days: 3 });
    expect(out.ran).toMatchObject({ billings: 3, scheduled_transactions: 1 });
    expect((await a.billings(s.id)).map((b) => b.created_at.slice(0, 10))).toEqual(['2026-01-16', '2026-01-17', '2026-01-18']);
    const billed = await a.ok('GET', `/scheduled_transactions/${st.id}`);
    expect((await a.ok('GET', `/charge/${billed.transaction_id}`)).created_at).toBe('2026-01-17T00:00:00.000Z');
    expect(await other.billings(os.id)).toEqual([]);
    const req = await gw.app.inject({ url: '/api/v1/test_helpers/clock', headers: basic(gw.merchant.test.private_key) });
    expect(req.json().offset_ms).toBe(0);
  });
});
