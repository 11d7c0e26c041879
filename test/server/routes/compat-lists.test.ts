// Issue 16, items 6 and 7: lists the spec calls "all" answer every row without `limit`, and the
// plan-and-customer subscription is one object, as clients of this API family read them.
import { isolated } from './billings-fixtures.js';
import { describe, expect, expectError, test } from '../../fixtures.js';

const MANY = 12; // more than the old default page of 10

describe('"all" means all (item 6)', () => {
  test('GET /plans without limit answers every plan; limit and offset still page', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    for (let i = 0; i < MANY; i++) await a.plan({ name: `P${i}` });
    const all = (await a.get('/plans')).body;
    expect(all.list).toHaveLength(MANY);
    expect(all.meta).toEqual({ limit: MANY, offset: 0, total_results: MANY });
    expect(all.list[0].name).toBe(`P${MANY - 1}`);
    const page = (await a.get('/plans?limit=10')).body;
    expect([page.list.length, page.meta]).toEqual([10, { limit: 10, offset: 0, total_results: MANY }]);
    const rest = (await a.get('/plans?offset=10')).body;
    expect([rest.list.map((p: any) => p.name), rest.meta]).toEqual([['P1', 'P0'], { limit: 2, offset: 10, total_results: MANY }]);
    expectError(await a.get('/plans?limit=0'), 400, 'PAGE01');
  });

  test('GET /subscriptions, /subscriptions/customer/:id and /subscriptions/plan/:id answer every row', async ({ gateway: gw }) => {
    const { m, a } = await isolated(gw);
    const plans = [];
    for (let i = 0; i < MANY; i++) plans.push(await a.plan({ name: `P${i}` }));
    const one = await a.customer({}, undefined, m.test);
    for (const p of plans) await a.subscribe(p.id, one.id);
    const others = [];
    for (let i = 1; i < MANY; i++) others.push(await a.customer({}, undefined, m.test));
    for (const c of others) await a.subscribe(plans[0].id, c.id);

    const count = async (url: string) => {
      const res = (await a.get(url)).body;
      expect(res.meta.total_results, url).toBe(res.list.length);
      expect(res.meta.limit, url).toBe(res.list.length);
      return res.list.length;
    };
    expect(await count('/subscriptions')).toBe(2 * MANY - 1);
    expect(await count(`/subscriptions/customer/${one.id}`)).toBe(MANY);
    expect(await count(`/subscriptions/plan/${plans[0].id}`)).toBe(MANY);
    const paged = (await a.get(`/subscriptions/plan/${plans[0].id}?limit=5&offset=10`)).body;
    expect([paged.list.length, paged.meta]).toEqual([2, { limit: 5, offset: 10, total_results: MANY }]);
    expectError(await a.get('/subscriptions?limit=abc'), 400, 'PAGE01');
  });
});

describe('GET /subscriptions/plan/:plan_id/customer/:customer_id (item 7)', () => {
  test('one subscription object: the active one, else the newest; the pair\'s history in `subscriptions`', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const p = await a.plan();
    const c = await a.customer();
    const url = `/subscriptions/plan/${p.id}/customer/${c.id}`;
    expectError(await a.get(url), 404, 'SUB02');

    const first = await a.subscribe(p.id, c.id);
    let res = await a.get(url);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ class: 'subscription', id: first.id, status: 'active', plan_id: p.id, customer_id: c.id });
    expect(res.body.subscriptions.map((s: any) => s.id)).toEqual([first.id]);
    expect(res.body).not.toHaveProperty('list');

    await a.del(`/plans/${p.id}/subscription/${c.id}`);
    const second = await a.subscribe(p.id, c.id);
    await a.del(`/plans/${p.id}/subscription/${c.id}`);
    const third = await a.subscribe(p.id, c.id);
    // An active subscription that is not the newest row: the active one is answered.
    await gw.db.query(`UPDATE subscriptions SET status = 'cancelled' WHERE number = $1`, [third.id]);
    await gw.db.query(`UPDATE subscriptions SET status = 'active' WHERE number = $1`, [second.id]);
    res = await a.get(url);
    expect(res.body).toMatchObject({ id: second.id, status: 'active' });
    expect(res.body.subscriptions.map((s: any) => [s.id, s.status])).toEqual([
      [third.id, 'cancelled'], [second.id, 'active'], [first.id, 'cancelled'],
    ]);

    await gw.db.query(`UPDATE subscriptions SET status = 'cancelled' WHERE number = $1`, [second.id]);
    expect((await a.get(url)).body).toMatchObject({ id: third.id, status: 'cancelled' });
    expectError(await a.get(`/subscriptions/plan/424242424/customer/${c.id}`), 404, 'PLAN01');
    expectError(await a.get(`/subscriptions/plan/${p.id}/customer/nobody`), 404, '17001');
  });
});
