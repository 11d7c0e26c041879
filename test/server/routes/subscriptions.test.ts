import { BILLING_TIME, ISO, api } from './billings-fixtures.js';
import { bank, test as base, describe, expect, expectError, tokenFor } from '../../fixtures.js';

// The test clock starts at 2026-01-15T12:00:00Z (a Thursday); nothing here moves it.
/** The gateway fixture, plus the billing calls of billings-fixtures.ts as the gateway's merchant. */
const test = base.extend<{ calls: ReturnType<typeof api> }>({ calls: [async ({ gateway }, use) => use(api(gateway)), { scope: 'file' }] });

describe('POST /plans/:id/subscription/:customer_id', () => {
  test('answers the subscription: integer id, the plan\'s terms, the method it bills, the next billing', async ({ calls: a }) => {
    const p = await a.plan({ amount: 1500, frequency: 'monthly' });
    const c = await a.customer();
    const res = await a.post(`/plans/${p.id}/subscription/${c.id}`, {});
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s).toEqual({
      class: 'subscription', id: expect.any(Number), plan_id: p.id, customer_id: c.id, method_id: c.default_method_id,
      status: 'active', amount: 1500, frequency: 'monthly', day: null, ends_after: null, billings_count: 0,
      next_billing: '2026-02-15T00:00:00.000Z', bill_immediately: false, charge_bank_account: null, metadata: {},
      created_at: expect.stringMatching(ISO), updated_at: expect.stringMatching(ISO), cancelled_at: null, last_billing: null,
    });
    expect(Number.isInteger(s.id)).toBe(true);
  });

  test('amount override, ends_after, metadata as a JSON string, form values as strings', async ({ calls: a }) => {
    const p = await a.plan({ amount: 1500 });
    const c = await a.customer();
    const s = await a.subscribe(p.id, c.id, { amount: '990', ends_after: '12', metadata: '{"seat":"A"}', bill_immediately: 'false' });
    expect(s).toMatchObject({ amount: 990, ends_after: 12, metadata: { seat: 'A' }, bill_immediately: false });
    const s2 = await a.subscribe((await a.plan()).id, c.id, { ends_after: 0, metadata: { x: 1 } });
    expect(s2).toMatchObject({ ends_after: null, metadata: { x: 1 } });
  });

  test('the method: method_id, else charge_bank_account picks the default of its type, else the default method', async ({ gateway: gw, calls: a }) => {
    const c = await a.customer();
    const bankMethod = (await a.ok('POST', `/customers/${c.id}/methods`, { token: await tokenFor(gw, bank) })).method.id;
    const byFlag = await a.subscribe((await a.plan()).id, c.id, { charge_bank_account: true });
    expect(byFlag).toMatchObject({ method_id: bankMethod, charge_bank_account: true });
    const byId = await a.subscribe((await a.plan()).id, c.id, { method_id: bankMethod });
    expect(byId.method_id).toBe(bankMethod);
    expect((await a.subscribe((await a.plan()).id, c.id, { charge_bank_account: false })).method_id).toBe(c.default_method_id);
  });

  test('bill_immediately: the first run happens before the answer and counts as one billing', async ({ calls: a }) => {
    const p = await a.plan({ amount: 2500, frequency: 'monthly' });
    const c = await a.customer();
    const s = await a.subscribe(p.id, c.id, { bill_immediately: true, ends_after: 3 });
    expect(s).toMatchObject({ billings_count: 1, next_billing: '2026-02-15T00:00:00.000Z', status: 'active' });
    expect(s.last_billing).toMatchObject({
      class: 'billing', plan_id: p.id, subscription_id: s.id, customer_id: c.id, amount: 2500, status: 'success',
      transaction_status: 'submitted', parent_id: null, sequence: 1, created_at: '2026-01-15 12:00:00',
      scheduled_for: '2026-01-15 12:00:00',
    });
    expect(s.last_billing.updated_at).toMatch(BILLING_TIME);
    const charge = (await a.get(`/charge/${s.last_billing.transaction_id}`)).body;
    expect(charge).toMatchObject({ amount_settled: 2500, customer_id: c.id, source: 'subscription', recurring: true, description: 'Gold' });
  });

  test('bill_immediately with a declined amount: subscribed anyway, the billing is failed', async ({ calls: a }) => {
    const c = await a.customer();
    const s = await a.subscribe((await a.plan({ amount: 80 })).id, c.id, { bill_immediately: true });
    expect(s).toMatchObject({ status: 'active', billings_count: 1 });
    expect(s.last_billing).toMatchObject({ status: 'failed', transaction_status: 'declined', error_code: '99820' });
  });

  test('errors: 17001, PLAN01, 34792, SUB01, 59112, REQ01', async ({ gateway: gw, calls: a }) => {
    const p = await a.plan();
    const c = await a.customer();
    expectError(await a.post(`/plans/${p.id}/subscription/nosuchcustomer`), 404, '17001');
    expectError(await a.post(`/plans/99999999/subscription/${c.id}`), 404, 'PLAN01');
    expectError(await a.post(`/plans/${p.id}/subscription/${c.id}`, {}, gw.other.test.private_key), 404, 'PLAN01');
    const empty = await a.ok('POST', '/customers', { first_name: 'No', last_name: 'Card' });
    expectError(await a.post(`/plans/${p.id}/subscription/${empty.id}`), 400, '34792');
    expectError(await a.post(`/plans/${p.id}/subscription/${c.id}`, { method_id: 'f'.repeat(32) }), 400, '34792');
    expectError(await a.post(`/plans/${p.id}/subscription/${c.id}`, { charge_bank_account: true }), 400, '34792');
    expectError(await a.post(`/plans/${p.id}/subscription/${c.id}`, { amount: -1 }), 400, '59112');
    expectError(await a.post(`/plans/${p.id}/subscription/${c.id}`, { ends_after: 'soon' }), 400, 'REQ01');
    expectError(await a.post(`/plans/${p.id}/subscription/${c.id}`, { bill_immediately: 'maybe' }), 400, 'REQ01');
    await a.subscribe(p.id, c.id);
    expectError(await a.post(`/plans/${p.id}/subscription/${c.id}`), 409, 'SUB01');
  });

  test('two concurrent subscribes of one customer to one plan: one wins, the other SUB01', async ({ calls: a }) => {
    const p = await a.plan();
    const c = await a.customer();
    const res = await Promise.all([1, 2, 3].map(() => a.post(`/plans/${p.id}/subscription/${c.id}`)));
    expect(res.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });
});

describe('DELETE /plans/:id/subscription/:customer_id', () => {
  test('unsubscribes: {success, subscription} cancelled with no next billing; then SUB02; resubscribing is allowed', async ({ gateway: gw, calls: a }) => {
    const p = await a.plan();
    const c = await a.customer();
    const s = await a.subscribe(p.id, c.id);
    const res = await a.del(`/plans/${p.id}/subscription/${c.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true, subscription: { id: s.id, status: 'cancelled', next_billing: null, cancelled_at: gw.clock.now().toISOString() },
    });
    expectError(await a.del(`/plans/${p.id}/subscription/${c.id}`), 404, 'SUB02');
    expectError(await a.del(`/plans/9999999/subscription/${c.id}`), 404, 'PLAN01');
    const again = await a.subscribe(p.id, c.id);
    expect(again.id).not.toBe(s.id);
    const history = (await a.get(`/subscriptions/plan/${p.id}/customer/${c.id}`)).body;
    expect(history.subscriptions.map((x: any) => x.status)).toEqual(['active', 'cancelled']);
  });
});

describe('GET /subscriptions…', () => {
  test('all, by customer, by plan, by plan and customer: list envelope, newest first', async ({ gateway: gw, calls: a }) => {
    const m = await gw.newMerchant();
    const k = m.test.private_key;
    const [p1, p2] = [await a.plan({}, k), await a.plan({}, k)];
    const [c1, c2] = [await a.customer({}, undefined, m.test), await a.customer({}, undefined, m.test)];
    const s11 = await a.subscribe(p1.id, c1.id, {}, k);
    const s12 = await a.subscribe(p1.id, c2.id, {}, k);
    const s21 = await a.subscribe(p2.id, c1.id, {}, k);
    const ids = async (url: string) => {
      const res = (await a.get(url, k)).body;
      expect(res.meta.total_results).toBe(res.list.length);
      return res.list.map((s: any) => s.id);
    };
    expect(await ids('/subscriptions')).toEqual([s21.id, s12.id, s11.id]);
    expect(await ids(`/subscriptions/customer/${c1.id}`)).toEqual([s21.id, s11.id]);
    expect(await ids(`/subscriptions/plan/${p1.id}`)).toEqual([s12.id, s11.id]);
    expect((await a.get(`/subscriptions/plan/${p1.id}/customer/${c2.id}`, k)).body).toMatchObject({ id: s12.id, subscriptions: [{ id: s12.id }] });
    expect((await a.get('/subscriptions?limit=1&offset=2', k)).body).toMatchObject({ list: [{ id: s11.id }], meta: { limit: 1, offset: 2, total_results: 3 } });
    expect((await a.get(`/subscriptions/${s12.id}`, k)).body).toMatchObject({ id: s12.id, customer_id: c2.id });
    expectError(await a.get(`/subscriptions/${s12.id}`), 404, 'SUB02');
    expectError(await a.get('/subscriptions/customer/nobody', k), 404, '17001');
    expectError(await a.get('/subscriptions/plan/424242424', k), 404, 'PLAN01');
    expectError(await a.get('/subscriptions?limit=500', k), 400, 'PAGE01');
    expect((await a.get('/subscriptions')).body.list.map((s: any) => s.id)).not.toContain(s11.id);
  });
});

describe('POST /subscriptions/:id', () => {
  test('changes amount, method, ends_after and metadata of an active subscription; SUB03 once cancelled', async ({ gateway: gw, calls: a }) => {
    const p = await a.plan();
    const c = await a.customer();
    const bankMethod = (await a.ok('POST', `/customers/${c.id}/methods`, { token: await tokenFor(gw, bank) })).method.id;
    const s = await a.subscribe(p.id, c.id);
    const u = await a.ok('POST', `/subscriptions/${s.id}`, { amount: 4200, method_id: bankMethod, ends_after: 6, metadata: { tier: 2 } });
    expect(u).toMatchObject({ amount: 4200, method_id: bankMethod, ends_after: 6, metadata: { tier: 2 } });
    expectError(await a.post(`/subscriptions/${s.id}`, { amount: 0 }), 400, '59112');
    expectError(await a.post(`/subscriptions/${s.id}`, { method_id: 'nope' }), 400, '34792');
    await a.del(`/plans/${p.id}/subscription/${c.id}`);
    expectError(await a.post(`/subscriptions/${s.id}`, { amount: 100 }), 409, 'SUB03');
    expectError(await a.post('/subscriptions/77777777', { amount: 100 }), 404, 'SUB02');
  });
});

describe('methods and customers', () => {
  test('a subscribed method cannot be deleted (10208) until the customer is unsubscribed', async ({ gateway: gw, calls: a }) => {
    const p = await a.plan();
    const c = await a.customer();
    const second = (await a.ok('POST', `/customers/${c.id}/methods`, { token: await tokenFor(gw) })).method.id;
    await a.subscribe(p.id, c.id, { method_id: second });
    expectError(await a.del(`/customers/${c.id}/methods/${second}`), 409, '10208');
    await a.del(`/plans/${p.id}/subscription/${c.id}`);
    expect((await a.del(`/customers/${c.id}/methods/${second}`)).body).toEqual({ success: true });
  });

  test('deleting the customer cancels its subscriptions', async ({ calls: a }) => {
    const p = await a.plan();
    const c = await a.customer();
    const s = await a.subscribe(p.id, c.id);
    await a.del(`/customers/${c.id}`);
    expect((await a.get(`/subscriptions/${s.id}`)).body).toMatchObject({ status: 'cancelled' });
    expect((await a.get(`/plans/${p.id}`)).body.active_subscriptions).toBe(0);
  });
});
