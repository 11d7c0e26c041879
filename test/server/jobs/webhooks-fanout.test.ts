import { describe, expect, test } from 'vitest';
import type { Db, Queryable } from '../../../server/db/index.js';
import { buildApp } from '../../../server/app.js';
import { deliverCallbacks } from '../../../server/jobs/callbacks.js';
import { basic, tokenFor, visa } from '../../fixtures.js';
import { deliveryHarness } from './webhooks-fixtures.js';

// Issue 27, item 5: an event's deliveries are decided when it is recorded, in the transaction that
// records it, against the rules and strategies as they are then. Deleting or changing a rule or a
// strategy afterwards neither loses nor redirects them (before, a dispatcher matched events a
// round later against the rules as they were then: 60 of 60 lost when the rule was deleted).

const h = deliveryHarness();
const { deps, at, receiver, setup, charge } = h;

/** Delivery rounds until nothing due is left (each of these deliveries succeeds at once). */
async function deliverAll() {
  for (let i = 0; i < 100 && (await deliverCallbacks(deps(), at(0))).claimed > 0; i++);
}

const ids = (bodies: { body: string }[]) => bodies.map((r) => JSON.parse(r.body).data.id as string).sort();

describe('deliveries are decided when the event is recorded', () => {
  test('60 events, then their rule is deleted: all 60 are delivered', async () => {
    const s = await setup({ event_resource: 'transaction', event_types: ['created'] }, { mode: 'webhook', url: 'http://placeholder.invalid/' });
    const rx = await receiver(s.secret);
    await s.a.ok('PUT', `/webhooks/strategies/${s.strategy.id}`, { url: rx.url });
    const charges: string[] = [];
    for (let i = 0; i < 60; i++) charges.push((await charge(s.m, 1000 + i)).id);
    await s.a.ok('DELETE', `/webhooks/rules/${s.rule.id}`);
    // An event after the delete goes nowhere.
    const late = await charge(s.m, 2000);

    await deliverAll();
    expect(ids(rx.received)).toEqual([...charges].sort());
    expect(rx.received.every((r) => r.verified && r.answered === 200)).toBe(true);
    const deliveries = (await s.a.ok('GET', '/webhooks/deliveries?limit=100')).list;
    expect(deliveries).toHaveLength(60);
    expect(deliveries.every((d: any) => d.rule_id === s.rule.id && d.status === 'delivered' && d.target === rx.url)).toBe(true);
    expect(ids(rx.received)).not.toContain(late.id);
  });

  test("a strategy's new URL, or its deletion, does not redirect or drop the deliveries made before", async () => {
    const s = await setup({ event_resource: 'transaction' }, { mode: 'webhook', url: 'http://placeholder.invalid/' });
    const [before, after] = [await receiver(s.secret), await receiver(s.secret)];
    await s.a.ok('PUT', `/webhooks/strategies/${s.strategy.id}`, { url: before.url });
    const first = [(await charge(s.m, 1100)).id, (await charge(s.m, 1101)).id];
    await s.a.ok('PUT', `/webhooks/strategies/${s.strategy.id}`, { url: after.url });
    const second = [(await charge(s.m, 1102)).id];
    await s.a.ok('DELETE', `/webhooks/strategies/${s.strategy.id}`);
    await charge(s.m, 1103); // no strategy left: goes nowhere

    await deliverAll();
    expect(ids(before.received)).toEqual([...first].sort());
    expect(ids(after.received)).toEqual(second);
  });

  test('an event recorded by a background run (a billing) is fanned out in its run, rule deleted after or not', async () => {
    const s = await setup({ event_resource: 'subscription', event_types: ['billed'] }, { mode: 'webhook', url: 'http://placeholder.invalid/' });
    const rx = await receiver(s.secret);
    await s.a.ok('PUT', `/webhooks/strategies/${s.strategy.id}`, { url: rx.url });
    const customer = await s.a.ok('POST', '/customers', { token: await tokenFor(h.gw, visa, s.m.test.public_key), first_name: 'Ada' });
    const plan = await s.a.ok('POST', '/plans', { name: 'Daily', amount: 700, frequency: 'daily' });
    const sub = await s.a.ok('POST', `/plans/${plan.id}/subscription/${customer.id}`, { bill_immediately: true });
    await s.a.ok('DELETE', `/webhooks/rules/${s.rule.id}`);
    await deliverAll();
    expect(rx.received.map((r) => JSON.parse(r.body))).toEqual([expect.objectContaining({ type: 'subscription.billed', data: expect.objectContaining({ id: sub.id }) })]);
  });
});

/** The gateway's database, except that queueing a delivery record fails; statements and transactions logged. */
function failingDeliveries(db: Db) {
  const log: string[] = [];
  const guard = (sql: string) => {
    log.push(sql);
    if (sql.includes('INSERT INTO webhook_deliveries')) throw new Error('injected: the delivery record cannot be written');
  };
  const wrap = (q: Queryable): Queryable => ({ query: async (sql, params) => (guard(sql), q.query(sql, params)), exec: (sql) => q.exec(sql) });
  const spy: Db = {
    kind: db.kind,
    query: async (sql, params) => (guard(sql), db.query(sql, params)),
    exec: (sql) => db.exec(sql),
    tx: (fn) => (log.push('BEGIN'), db.tx((q) => fn(wrap(q)))),
    close: async () => {},
  };
  return { spy, log };
}

describe('one transaction', () => {
  test('a charge whose delivery cannot be queued is not recorded: no charge, no event, the token still usable', async () => {
    const s = await setup({ event_resource: 'transaction' }, { mode: 'webhook', url: h.sink.url });
    const { spy, log } = failingDeliveries(h.gw.db);
    const app = await buildApp({ db: spy, vault: h.gw.vault, clock: h.gw.clock });
    try {
      const token = await tokenFor(h.gw, visa, s.m.test.public_key);
      const res = await app.inject({ method: 'POST', url: '/api/v1/charge', headers: basic(s.m.test.private_key), payload: { token, amount: 4300 } });
      expect({ status: res.statusCode, code: res.json().errors?.[0]?.code }).toEqual({ status: 500, code: 'INTERNAL' });
      // A rule listens: the test-mode charge ran in a transaction (without one it is a single statement).
      expect(log).toContain('BEGIN');
      const of = (table: string) => h.gw.db.query(`SELECT 1 FROM ${table} WHERE merchant_id = $1`, [s.m.id]);
      expect(await of('transactions')).toEqual([]);
      expect(await of('events')).toEqual([]);
      expect(await of('callbacks')).toEqual([]);
      // Rolled back whole: the token was not used.
      const again = await charge(s.m, 4300, {});
      expect(again.status).toBe('SETTLED');
      expect((await s.a.ok('GET', '/webhooks/deliveries')).list).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  test('so is a customer whose event cannot be fanned out', async () => {
    const s = await setup({ event_resource: 'customer' }, { mode: 'email', email_address: 'ops@example.com' });
    const { spy } = failingDeliveries(h.gw.db);
    const app = await buildApp({ db: spy, vault: h.gw.vault, clock: h.gw.clock });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/v1/customers', headers: basic(s.m.test.private_key), payload: { first_name: 'Ada' } });
      expect({ status: res.statusCode, code: res.json().errors?.[0]?.code }).toEqual({ status: 500, code: 'INTERNAL' });
      const of = (table: string) => h.gw.db.query(`SELECT 1 FROM ${table} WHERE merchant_id = $1`, [s.m.id]);
      expect(await of('customers')).toEqual([]);
      expect(await of('events')).toEqual([]);
      expect(await of('outbox')).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
