import { describe, expect, test } from 'vitest';
import type { Db, Queryable } from '../../../server/db/index.js';
import { buildApp } from '../../../server/app.js';
import { deliverCallbacks } from '../../../server/jobs/callbacks.js';
import { TestGateway, basic, tokenFor, visa } from '../../fixtures.js';
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

describe('real time', () => {
  test("a test clock 30 days ahead: the event keeps its environment's time, its deliveries are due at once on the real clock", async () => {
    const s = await setup({ event_resource: 'transaction' }, { mode: 'webhook', url: 'http://placeholder.invalid/' });
    const rx = await receiver(s.secret);
    await s.a.ok('PUT', `/webhooks/strategies/${s.strategy.id}`, { url: rx.url });
    const mail = await s.a.ok('POST', '/webhooks/strategies', { mode: 'email', email_address: 'ops@example.com' });
    await s.a.ok('POST', `/webhooks/rules/${s.rule.id}/strategies`, { strategy_id: mail.id });
    await s.a.ok('POST', '/test_helpers/clock/advance', { days: 30 });
    const txn = await charge(s.m, 1700);
    const [event] = (await s.a.ok('GET', '/events')).list;
    expect(new Date(event.created_at).getTime()).toBe(at(30 * 86_400_000).getTime());
    const due = await h.gw.db.query<{ at: Date }>(
      `SELECT next_attempt_at AS at FROM callbacks WHERE merchant_id = $1
       UNION ALL SELECT next_attempt_at FROM outbox WHERE merchant_id = $1`, [s.m.id]);
    expect(due.map((r) => new Date(r.at).getTime())).toEqual([at(0).getTime(), at(0).getTime()]);
    await deliverAll();
    expect(ids(rx.received)).toEqual([txn.id]);
  });
});

/**
 * Makes the database refuse the merchant's delivery records (a trigger raising an error), as a
 * failure half-way through would: returns the undo.
 */
async function refuseDeliveries(gw: TestGateway, merchantId: string): Promise<() => Promise<void>> {
  const name = `refuse_${merchantId.replace(/\W/g, '')}`;
  await gw.db.exec(`CREATE OR REPLACE FUNCTION refuse_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'injected: the delivery record cannot be written'; END $$`);
  await gw.db.exec(`CREATE TRIGGER ${name} BEFORE INSERT ON webhook_deliveries FOR EACH ROW
    WHEN (NEW.merchant_id = '${merchantId}') EXECUTE FUNCTION refuse_delivery()`);
  return () => gw.db.exec(`DROP TRIGGER ${name} ON webhook_deliveries`);
}

/** The gateway's database with each statement logged, and BEGIN for each transaction. */
function logged(db: Db) {
  const log: string[] = [];
  const wrap = (q: Queryable): Queryable => ({ query: (sql, params) => (log.push(sql), q.query(sql, params)), exec: (sql) => q.exec(sql) });
  const spy: Db = {
    kind: db.kind,
    query: (sql, params) => (log.push(sql), db.query(sql, params)),
    exec: (sql) => db.exec(sql),
    tx: (fn) => (log.push('BEGIN'), db.tx((q) => fn(wrap(q)))),
    close: async () => {},
  };
  return { spy, log };
}

const of = (table: string, merchantId: string) => h.gw.db.query(`SELECT 1 FROM ${table} WHERE merchant_id = $1`, [merchantId]);

describe('one transaction, or one statement', () => {
  test('a test-mode charge with a rule listening: its deliveries are written by its one statement, no transaction', async () => {
    const s = await setup({ event_resource: 'transaction' }, { mode: 'webhook', url: h.sink.url });
    const mail = await s.a.ok('POST', '/webhooks/strategies', { mode: 'email', email_address: 'ops@example.com' });
    await s.a.ok('POST', `/webhooks/rules/${s.rule.id}/strategies`, { strategy_id: mail.id });
    const { spy, log } = logged(h.gw.db);
    const app = await buildApp({ db: spy, vault: h.gw.vault, clock: h.gw.clock });
    try {
      const token = await tokenFor(h.gw, visa, s.m.test.public_key);
      log.length = 0;
      const res = await app.inject({ method: 'POST', url: '/api/v1/charge', headers: basic(s.m.test.private_key), payload: { token, amount: 4200 } });
      expect(res.statusCode, res.body).toBe(200);
      const own = log.filter((q) => !/FROM api_keys/.test(q));
      expect(own).not.toContain('BEGIN');
      // The first read (settings, and whether a rule listens), the rules' targets, then one statement.
      expect(own).toHaveLength(3);
      for (const table of ['tokens', 'transactions', 'events', 'callbacks', 'outbox', 'webhook_deliveries']) {
        expect(own[2], table).toMatch(new RegExp(`(UPDATE|INSERT INTO) ${table}\\b`));
      }
      const list = (await s.a.ok('GET', '/webhooks/deliveries')).list;
      expect(list.map((d: any) => d.mode).sort()).toEqual(['email', 'webhook']);
      expect(new Set(list.map((d: any) => d.event_id)).size).toBe(1);
    } finally {
      await app.close();
    }
  });

  for (const key of [false, true]) {
    test(`a charge whose delivery cannot be recorded is not recorded: no charge, no event, the token still usable${key ? ' (Idempotency-Key: in a transaction)' : ''}`, async () => {
      const s = await setup({ event_resource: 'transaction' }, { mode: 'webhook', url: h.sink.url });
      const undo = await refuseDeliveries(h.gw, s.m.id);
      const token = await tokenFor(h.gw, visa, s.m.test.public_key);
      try {
        const res = await h.gw.app.inject({
          method: 'POST', url: '/api/v1/charge', payload: { token, amount: 4300 },
          headers: { ...basic(s.m.test.private_key), ...(key ? { 'idempotency-key': `fanout-${s.m.id}` } : {}) },
        });
        expect({ status: res.statusCode, code: res.json().errors?.[0]?.code }).toEqual({ status: 500, code: 'INTERNAL' });
      } finally {
        await undo();
      }
      for (const table of ['transactions', 'events', 'callbacks', 'webhook_deliveries']) expect(await of(table, s.m.id), table).toEqual([]);
      const again = await h.gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: basic(s.m.test.private_key), payload: { token, amount: 4300 } });
      expect(again.json().status).toBe('SETTLED');
      expect((await s.a.ok('GET', '/webhooks/deliveries')).list).toHaveLength(1);
    });
  }

  test('so is a customer whose event cannot be fanned out', async () => {
    const s = await setup({ event_resource: 'customer' }, { mode: 'email', email_address: 'ops@example.com' });
    const undo = await refuseDeliveries(h.gw, s.m.id);
    try {
      const res = await s.a.post('/customers', { first_name: 'Ada' });
      expect({ status: res.statusCode, code: res.json().errors?.[0]?.code }).toEqual({ status: 500, code: 'INTERNAL' });
    } finally {
      await undo();
    }
    for (const table of ['customers', 'events', 'outbox', 'webhook_deliveries']) expect(await of(table, s.m.id), table).toEqual([]);
  });
});
