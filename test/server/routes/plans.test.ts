import { ISO, api, code } from './billings-fixtures.js';
import { basic, test as base, describe, expect, expectError } from '../../fixtures.js';

/** The gateway fixture, plus the billing calls of billings-fixtures.ts as the gateway's merchant. */
const test = base.extend<{ calls: ReturnType<typeof api> }>({ calls: [async ({ gateway }, use) => use(api(gateway)), { scope: 'file' }] });

describe('POST /plans', () => {
  test('answers the plan: integer id, the request fields, counts and ISO timestamps', async ({ gateway: gw, calls: a }) => {
    const res = await a.post('/plans', { name: 'Gold', frequency: 'weekly', amount: 1500, day: 1, callback_url: 'https://example.com/hook' });
    expect(res.status).toBe(200);
    const p = res.body;
    expect(p).toEqual({
      class: 'plan', id: expect.any(Number), name: 'Gold', frequency: 'weekly', day: 1, amount: 1500,
      callback_url: 'https://example.com/hook', active_subscriptions: 0, created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(Number.isInteger(p.id)).toBe(true);
    expect(p.created_at).toBe(gw.clock.now().toISOString());
  });

  test('every frequency; the meaning of day per frequency', async ({ calls: a }) => {
    const day = async (frequency: string, d: unknown) => (await a.plan({ frequency, day: d })).day;
    expect(await day('daily', 5)).toBeNull(); // ignored
    expect(await day('weekly', 0)).toBe(0); // Sunday
    expect(await day('weekly', 7)).toBe(0); // ISO Sunday
    expect(await day('weekly', '3')).toBe(3);
    expect(await day('monthly', 31)).toBe(31);
    expect(await day('quarterly', 15)).toBe(15);
    expect(await day('yearly', undefined)).toBeNull(); // the subscription's start
    expect((await a.plan({ frequency: 'MONTHLY' })).frequency).toBe('monthly');
  });

  test('form-encoded bodies with numbers as strings', async ({ gateway: gw }) => {
    const res = await gw.app.inject({
      method: 'POST', url: '/api/v1/plans', headers: { ...basic(gw.merchant.test.private_key), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Silver&frequency=daily&amount=250',
    });
    expect(res.json()).toMatchObject({ name: 'Silver', frequency: 'daily', amount: 250, day: null, callback_url: null });
  });

  test.for<[Record<string, unknown>, string]>([
    [{ frequency: 'hourly' }, 'REQ01'],
    [{ frequency: undefined }, 'REQ01'],
    [{ name: '' }, 'REQ01'],
    [{ name: 'x'.repeat(256) }, 'REQ01'],
    [{ amount: undefined }, '59112'],
    [{ amount: 0 }, '59112'],
    [{ amount: -5 }, '59112'],
    [{ amount: 10.5 }, '59112'],
    [{ amount: 'ten' }, '59112'],
    [{ frequency: 'weekly', day: 8 }, 'REQ01'],
    [{ frequency: 'weekly', day: -1 }, 'REQ01'],
    [{ frequency: 'monthly', day: 0 }, 'REQ01'],
    [{ frequency: 'monthly', day: 32 }, 'REQ01'],
    [{ frequency: 'yearly', day: 'first' }, 'REQ01'],
    [{ callback_url: 'not a url' }, 'REQ01'],
    [{ callback_url: 'ftp://example.com/x' }, 'REQ01'],
    [{ callback_url: 'https://user:pw@example.com/x' }, 'REQ01'],
    // 2,048 characters as sent, 18,000 percent-encoded as it would be stored.
    [{ callback_url: `https://example.com/${'€'.repeat(2020)}` }, 'REQ01'],
  ])('%j → %s', async ([patch, expected], { calls: a }) => {
    const res = await a.post('/plans', { name: 'P', frequency: 'monthly', amount: 100, ...patch });
    expectError(res, 400, expected);
  });

  test('live mode requires an https callback_url', async ({ gateway: gw, calls: a }) => {
    const live = gw.merchant.live.private_key;
    expectError(await a.post('/plans', { name: 'P', frequency: 'daily', amount: 100, callback_url: 'http://example.com/' }, live), 400, 'REQ01');
    expect((await a.plan({ callback_url: 'https://example.com/' }, live)).callback_url).toBe('https://example.com/');
  });

  test('a public key is refused', async ({ gateway: gw, calls: a }) => {
    expectError(await a.post('/plans', { name: 'P', frequency: 'daily', amount: 100 }, gw.merchant.test.public_key), 403, 'AUTH02');
  });
});

describe('GET /plans, GET /plans/:id', () => {
  test('list envelope, newest first, paging; other merchants and environments never show', async ({ gateway: gw, calls: a }) => {
    const m = await gw.newMerchant();
    const k = m.test.private_key;
    const ids = [];
    for (const name of ['A', 'B', 'C']) ids.push((await a.plan({ name }, k)).id);
    await a.plan({ name: 'live one' }, m.live.private_key);
    const all = (await a.get('/plans', k)).body;
    expect(all.meta).toEqual({ limit: 3, offset: 0, total_results: 3 });
    expect(all.list.map((p: any) => p.name)).toEqual(['C', 'B', 'A']);
    const page = (await a.get('/plans?limit=1&offset=1', k)).body;
    expect(page.list.map((p: any) => p.id)).toEqual([ids[1]]);
    expectError(await a.get('/plans?limit=0', k), 400, 'PAGE01');
    expectError(await a.get('/plans?limit=101', k), 400, 'PAGE01');
  });

  test('one plan; PLAN01 for unknown, non-integer, foreign and other-environment ids', async ({ gateway: gw, calls: a }) => {
    const p = await a.plan({ name: 'Mine' });
    expect((await a.get(`/plans/${p.id}`)).body).toMatchObject({ id: p.id, name: 'Mine' });
    expectError(await a.get('/plans/999999999'), 404, 'PLAN01');
    expectError(await a.get('/plans/abc'), 404, 'PLAN01');
    expectError(await a.get(`/plans/${p.id}`, gw.other.test.private_key), 404, 'PLAN01');
    expectError(await a.get(`/plans/${p.id}`, gw.merchant.live.private_key), 404, 'PLAN01');
  });
});

describe('DELETE /plans/:id', () => {
  test('{success: true}; then gone from reads', async ({ calls: a }) => {
    const p = await a.plan();
    expect((await a.del(`/plans/${p.id}`)).body).toEqual({ success: true });
    expectError(await a.get(`/plans/${p.id}`), 404, 'PLAN01');
    expectError(await a.del(`/plans/${p.id}`), 404, 'PLAN01');
    expect((await a.get('/plans?limit=100')).body.list.map((x: any) => x.id)).not.toContain(p.id);
  });

  test('10010 while a customer is subscribed; deletable once unsubscribed; history stays readable', async ({ calls: a }) => {
    const p = await a.plan();
    const c = await a.customer();
    const s = await a.subscribe(p.id, c.id);
    expect((await a.get(`/plans/${p.id}`)).body.active_subscriptions).toBe(1);
    const res = await a.del(`/plans/${p.id}`);
    expectError(res, 409, '10010');
    expect(res.body.errors[0].message).toMatch(/1 active subscription/);
    expect((await a.del(`/plans/${p.id}/subscription/${c.id}`)).status).toBe(200);
    expect((await a.del(`/plans/${p.id}`)).body).toEqual({ success: true });
    const history = (await a.get(`/subscriptions/plan/${p.id}`)).body;
    expect(history.list.map((x: any) => [x.id, x.status])).toEqual([[s.id, 'cancelled']]);
    expectError(await a.post(`/plans/${p.id}/subscription/${c.id}`), 404, 'PLAN01');
  });

  test('another merchant cannot delete', async ({ gateway: gw, calls: a }) => {
    const p = await a.plan();
    expect(code(await a.del(`/plans/${p.id}`, gw.other.test.private_key))).toBe('PLAN01');
    expect((await a.get(`/plans/${p.id}`)).status).toBe(200);
  });
});
