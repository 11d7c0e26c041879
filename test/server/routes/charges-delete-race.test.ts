import { simulator } from '../../../server/processor/processor.js';
import type { Db, Queryable } from '../../../server/db/index.js';
import { readChargeInput } from '../../../server/domain/payments/charge-input.js';
import { ChargeFields } from '../../../server/schemas/transactions.js';
import { createCharge } from '../../../server/domain/payments/charges.js';
import { deleteCustomer } from '../../../server/domain/instruments/customers.js';
import type { Scope } from '../../../server/domain/merchant/keys.js';
import { deleteMethod } from '../../../server/domain/instruments/methods.js';
import { DB_KIND } from '../../helpers/gateway.js';
import { TestGateway, basic, describe, expect, expectError, test, tokenFor, visa } from '../../fixtures.js';

// A charge of a stored customer against that customer's deletion (issue 27, item 10b), on
// PostgreSQL with two transactions at once. The method was read without a lock, so a charge could
// be recorded after the deletion had committed. Now the charge holds the customer (and the method)
// until it commits: a deletion in progress makes the charge wait and then refuse it as a charge of
// a deleted customer (34798) or method (34792); a charge in progress makes the deletion wait, and
// the charge commits first. Deterministic: the test holds one transaction open and sees the other
// wait on it (pg_blocking_pids) before letting it go. PGlite runs one transaction at a time, so
// there is nothing to race there.

const pgOnly = test.skipIf(DB_KIND !== 'pg');

/** `work` in a transaction held open until release(); `pid` is its backend. */
async function hold(db: Db, work: (q: Queryable) => Promise<unknown>): Promise<{ pid: number; release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: (pid: number) => void;
  let failed!: (err: unknown) => void;
  const pid = new Promise<number>((resolve, reject) => ((started = resolve), (failed = reject)));
  const done = db.tx(async (q) => {
    const [row] = await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await work(q);
    started(row.pid);
    await released;
  });
  done.catch(failed);
  return { pid: await pid, release: async () => (release(), await done) };
}

/**
 * Returns once a backend waits for `pid`'s locks. Fails at once if `other` (the request that should
 * be waiting) answers first: it did not wait.
 */
async function waitsOn(db: Db, pid: number, other: Promise<{ statusCode: number; body: string }>): Promise<void> {
  let answered: string | null = null;
  void other.then((r) => (answered = `${r.statusCode} ${r.body}`), (err) => (answered = String(err)));
  for (;;) {
    if (answered !== null) throw new Error(`it did not wait for the other transaction; it answered ${answered}`);
    const [row] = await db.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [pid]);
    if (row) return;
  }
}

const call = (gw: TestGateway, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
  gw.app.inject({ method, url: `/api/v1${url}`, headers: { ...basic(gw.merchant.test.private_key), ...headers }, payload });

/** A customer with a card as its default method and a second card; their ids. */
async function customer(gw: TestGateway): Promise<{ id: string; defaultMethod: string; second: string }> {
  const c = await call(gw, 'POST', '/customers', { first_name: 'Ada', token: await tokenFor(gw, visa) });
  expect(c.statusCode, c.body).toBe(200);
  const id = c.json().id;
  const added = await call(gw, 'POST', `/customers/${id}/methods`, { token: await tokenFor(gw, visa) });
  expect(added.statusCode, added.body).toBe(200);
  return { id, defaultMethod: c.json().default_method_id ?? c.json().customer?.default_method_id, second: added.json().method.id };
}

const chargesOf = async (gw: TestGateway, customerId: string) =>
  (await gw.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE merchant_id = $1 AND customer_id = $2', [gw.merchant.id, customerId]))[0].n;

const scope = (gw: TestGateway): Scope => ({ merchantId: gw.merchant.id, env: 'test' });

describe('a charge of a customer being deleted', () => {
  for (const [how, withKey] of [['in one statement (no Idempotency-Key)', false], ['in a transaction (Idempotency-Key)', true]] as const) {
    pgOnly(`${how}: waits for the deletion, then is refused 34798 and records nothing`, async ({ gateway: gw }) => {
      const c = await customer(gw);
      const deletion = await hold(gw.db, (q) => deleteCustomer(q, scope(gw), c.id, gw.clock.now()));
      const key: Record<string, string> = withKey ? { 'idempotency-key': `race-${c.id}` } : {};
      const charge = call(gw, 'POST', '/charge', { customer_id: c.id, amount: 1200 }, key);
      await waitsOn(gw.db, deletion.pid, charge);
      await deletion.release();
      expectError(await charge, 400, '34798');
      expect(await chargesOf(gw, c.id)).toBe(0);
    });
  }

  pgOnly('a charge of a method being deleted waits, then is refused 34792 and records nothing', async ({ gateway: gw }) => {
    const c = await customer(gw);
    const deletion = await hold(gw.db, (q) => deleteMethod(q, scope(gw), c.id, c.second, gw.clock.now()));
    const charge = call(gw, 'POST', '/charge', { customer_id: c.id, method_id: c.second, amount: 1200 });
    await waitsOn(gw.db, deletion.pid, charge);
    await deletion.release();
    expectError(await charge, 400, '34792');
    expect(await chargesOf(gw, c.id)).toBe(0);
    // The customer and its other method stand: a charge of the default goes through.
    expect((await call(gw, 'POST', '/charge', { customer_id: c.id, amount: 1200 })).statusCode).toBe(200);
  });

  pgOnly('a charge in progress makes the deletion wait; the charge commits first, then the customer is deleted', async ({ gateway: gw }) => {
    const c = await customer(gw);
    const s = scope(gw);
    let charged = '';
    const charge = await hold(gw.db, async (q) => {
      const input = readChargeInput(s, ChargeFields.read({ customer_id: c.id, amount: 1300 }), gw.clock.now());
      charged = (await createCharge(q, { vault: gw.vault, connector: simulator }, s, input, gw.clock.now())).txn.id;
    });
    const deletion = call(gw, 'DELETE', `/customers/${c.id}`);
    await waitsOn(gw.db, charge.pid, deletion);
    await charge.release();
    expect((await deletion).statusCode).toBe(200);
    const [txn] = await gw.db.query('SELECT customer_id, method_id FROM transactions WHERE id = $1', [charged]);
    expect(txn).toEqual({ customer_id: c.id, method_id: c.defaultMethod });
    expectError(await call(gw, 'POST', '/charge', { customer_id: c.id, amount: 1200 }), 400, '34798');
  });

  pgOnly('a scheduled transaction for a customer being deleted waits, then is refused 34798; none is left scheduled', async ({ gateway: gw }) => {
    const c = await customer(gw);
    const deletion = await hold(gw.db, (q) => deleteCustomer(q, scope(gw), c.id, gw.clock.now()));
    const made = call(gw, 'POST', '/scheduled_transactions', { customer_id: c.id, amount: 1500, bill_on: '2026-02-01' });
    await waitsOn(gw.db, deletion.pid, made);
    await deletion.release();
    expectError(await made, 400, '34798');
    const [{ n }] = await gw.db.query<{ n: number }>("SELECT count(*)::int AS n FROM scheduled_transactions WHERE customer_id = $1 AND status = 'scheduled'", [c.id]);
    expect(n).toBe(0);
  });
});

describe('charges of a deleted customer, one after the other (both databases)', () => {
  test('after the deletion, a charge of the customer is 34798 and of a deleted method 34792, with and without an Idempotency-Key', async ({ gateway: gw }) => {
    const c = await customer(gw);
    expect((await call(gw, 'DELETE', `/customers/${c.id}/methods/${c.second}`)).statusCode).toBe(200);
    expectError(await call(gw, 'POST', '/charge', { customer_id: c.id, method_id: c.second, amount: 1200 }), 400, '34792');
    expectError(await call(gw, 'POST', '/charge', { customer_id: c.id, method_id: c.second, amount: 1200 }, { 'idempotency-key': `m-${c.id}` }), 400, '34792');
    expect((await call(gw, 'DELETE', `/customers/${c.id}`)).statusCode).toBe(200);
    expectError(await call(gw, 'POST', '/charge', { customer_id: c.id, amount: 1200 }), 400, '34798');
    expectError(await call(gw, 'POST', '/charge', { customer_id: c.id, amount: 1200 }, { 'idempotency-key': `c-${c.id}` }), 400, '34798');
    expect(await chargesOf(gw, c.id)).toBe(0);
  });
});
