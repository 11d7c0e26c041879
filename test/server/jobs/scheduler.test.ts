import type { Db, Queryable } from '../../../server/db/index.js';
import { openDatabase } from '../../../server/db/index.js';
import { JobDeps, RunSummary, Scheduler, runDue } from '../../../server/jobs/scheduler.js';
import { DAY, api, isolated, jobDeps } from '../routes/billings-fixtures.js';
import { DB_KIND } from '../../helpers/gateway.js';
import { Merchant, TestGateway, describe, expect, test } from '../../fixtures.js';

// The gateway clock (real time here) is a ManualClock at 2026-01-15T12:00:00Z; runDue(now) is
// what the scheduler loop calls every round, so tests call it instead of sleeping.

const count = async (gw: TestGateway, sql: string, params: unknown[]) => (await gw.db.query<{ n: number }>(sql, params))[0].n;
const charges = (gw: TestGateway, m: Merchant) => count(gw, "SELECT count(*)::int AS n FROM transactions WHERE merchant_id = $1 AND source = 'subscription'", [m.id]);
const billingRows = (gw: TestGateway, m: Merchant) => count(gw, 'SELECT count(*)::int AS n FROM billings WHERE merchant_id = $1', [m.id]);

/** `n` subscriptions of one customer (to n plans) whose first run fell due at 2026-01-15T00:00Z. */
async function dueSubscriptions(gw: TestGateway, m: Merchant, n: number): Promise<void> {
  const a = api(gw, m);
  const c = await a.customer();
  const now = gw.clock.now();
  await gw.db.query(
    `INSERT INTO plans (merchant_id, env, name, frequency, amount, created_at, updated_at)
     SELECT $1, 'test', 'Plan ' || g, 'monthly', 1000 + g, $2, $2 FROM generate_series(1, $3::int) g`,
    [m.id, now, n],
  );
  await gw.db.query(
    `WITH p AS (SELECT id, amount, nextval('subscription_numbers') AS num FROM plans WHERE merchant_id = $1 AND env = 'test')
     INSERT INTO subscriptions (merchant_id, env, id, number, customer_id, method_id, status, plan_id, amount, frequency,
       anchor_date, bill_immediately, billed_count, next_billing, metadata, created_at, updated_at)
     SELECT $1, 'test', num::text, num, $2, $3, 'active', id, amount, 'monthly', '2025-12-15', false, 0,
            '2026-01-15T00:00:00Z', '{}', $4, $4 FROM p`,
    [m.id, c.id, c.default_method_id, now],
  );
}

const add = (x: RunSummary, y: RunSummary) => x.billings + x.failed_billings + y.billings + y.failed_billings;

describe('runDue', () => {
  test('bills what is due at real time; a test environment is judged at real time + its clock offset', async ({ gateway: gw }) => {
    const { m: early, a: ea } = await isolated(gw);
    const { m: ahead, a: aa } = await isolated(gw);
    const se = await ea.subscribe((await ea.plan({ frequency: 'daily' })).id, (await ea.customer()).id);
    const sa = await aa.subscribe((await aa.plan({ frequency: 'daily' })).id, (await aa.customer()).id);
    // Merchant `ahead` is 10 days ahead, set directly: nothing has run for it yet.
    await gw.db.query('INSERT INTO test_clocks (merchant_id, offset_ms, updated_at) VALUES ($1, $2, $3)', [ahead.id, 10 * DAY, gw.clock.now()]);
    await runDue(jobDeps(gw), gw.clock.now());
    expect(await billingRows(gw, early)).toBe(0);
    // 2026-01-16..25 fell due for `ahead`: catch-up bills each run once, stamped at that merchant's now.
    const b = await aa.billings(sa.id);
    expect(b.map((x) => x.scheduled_for.slice(0, 10))).toEqual(Array.from({ length: 10 }, (_, i) => `2026-01-${String(16 + i)}`));
    expect(new Set(b.map((x) => x.created_at))).toEqual(new Set(['2026-01-25 12:00:00']));
    await runDue(jobDeps(gw), new Date(gw.clock.now().getTime() + DAY));
    expect((await ea.billings(se.id)).map((x) => x.created_at)).toEqual(['2026-01-16 12:00:00']);
    expect(await charges(gw, early)).toBe(1);
    expect(await charges(gw, ahead)).toBe(11);
  });

  test('leaves a test environment whose clock is being advanced to the advance', async ({ gateway: gw }) => {
    // The advance bills each run at the moment it fell due; the loop would bill them at the clock's current point.
    const { m, a } = await isolated(gw);
    const s = await a.subscribe((await a.plan({ frequency: 'daily' })).id, (await a.customer()).id);
    await gw.db.query(
      `INSERT INTO test_clocks (merchant_id, offset_ms, updated_at, advance_state, advance_lease) VALUES ($1, $2, $3, 'background', $4)`,
      [m.id, 10 * DAY, gw.clock.now(), new Date(gw.clock.now().getTime() + 60_000)],
    );
    await runDue(jobDeps(gw), gw.clock.now());
    expect(await billingRows(gw, m)).toBe(0);
    await gw.db.query(`UPDATE test_clocks SET advance_state = 'ready' WHERE merchant_id = $1`, [m.id]);
    await runDue(jobDeps(gw), gw.clock.now());
    expect((await a.billings(s.id)).length).toBe(10);
  });

  test('a run again at the same time bills nothing more', async ({ gateway: gw }) => {
    const { m } = await isolated(gw);
    await dueSubscriptions(gw, m, 5);
    expect((await runDue(jobDeps(gw), gw.clock.now())).billings).toBeGreaterThanOrEqual(5);
    expect(await billingRows(gw, m)).toBe(5);
    await runDue(jobDeps(gw), gw.clock.now());
    expect(await billingRows(gw, m)).toBe(5);
    expect(await charges(gw, m)).toBe(5);
  });
});

describe('crash safety', () => {
  /** Deps whose database fails the first time a billing is recorded: the process "dies" between charge and record. */
  function crashingOnce(gw: TestGateway, db: Db, m: Merchant): { deps: JobDeps; crashed: () => boolean } {
    let crashed = false;
    const wrap = (q: Queryable): Queryable => ({
      exec: (sql) => q.exec(sql),
      async query(sql, params) {
        if (!crashed && sql.includes('INSERT INTO billings') && params?.[0] === m.id) {
          crashed = true;
          throw new Error('simulated crash after the charge, before the billing was recorded');
        }
        return q.query(sql, params);
      },
    });
    const crashy: Db = { ...db, query: (sql, p) => db.query(sql, p), exec: (s) => db.exec(s), tx: (fn) => db.tx((q) => fn(wrap(q))) };
    return { deps: { ...jobDeps(gw), db: crashy }, crashed: () => crashed };
  }

  test('a charge whose billing was not recorded is rolled back with it; the next run charges once', async ({ gateway: gw }) => {
    const { m } = await isolated(gw);
    await dueSubscriptions(gw, m, 1);
    const { deps, crashed } = crashingOnce(gw, gw.db, m);
    const first = await runDue(deps, gw.clock.now());
    expect(crashed()).toBe(true);
    expect(first).toMatchObject({ billings: 0, errors: 1 });
    expect(await charges(gw, m)).toBe(0); // the charge of the crashed run is gone with it
    expect(await count(gw, "SELECT count(*)::int AS n FROM events WHERE merchant_id = $1 AND type <> 'customer.created'", [m.id])).toBe(0);
    const [sub] = await gw.db.query('SELECT billed_count FROM subscriptions WHERE merchant_id = $1', [m.id]);
    expect(sub.billed_count).toBe(0);

    expect((await runDue(jobDeps(gw), gw.clock.now())).billings).toBeGreaterThanOrEqual(1);
    expect(await runDue(jobDeps(gw), gw.clock.now())).toMatchObject({ billings: 0, errors: 0 });
    expect(await charges(gw, m)).toBe(1);
    expect(await billingRows(gw, m)).toBe(1);
  });

  test('one broken run does not hold up the others (it is retried next round)', async ({ gateway: gw }) => {
    const { m } = await isolated(gw);
    await dueSubscriptions(gw, m, 3);
    const { deps } = crashingOnce(gw, gw.db, m);
    const out = await runDue(deps, gw.clock.now());
    expect(out.errors).toBe(1);
    expect(await charges(gw, m)).toBe(2);
    await runDue(jobDeps(gw), gw.clock.now());
    expect(await charges(gw, m)).toBe(3);
  });

  test('the database itself refuses a second billing of one run', async ({ gateway: gw }) => {
    const { m } = await isolated(gw);
    await dueSubscriptions(gw, m, 1);
    await runDue(jobDeps(gw), gw.clock.now());
    const dup = gw.db.query(
      `INSERT INTO billings (merchant_id, env, plan_id, subscription_id, sequence, customer_id, transaction_id, transaction_status,
         amount, customer_display_name, status, scheduled_for, created_at, updated_at)
       SELECT merchant_id, env, plan_id, subscription_id, sequence, customer_id, 'dup', transaction_status, amount,
              customer_display_name, status, scheduled_for, created_at, updated_at FROM billings WHERE merchant_id = $1`,
      [m.id],
    );
    await expect(dup).rejects.toThrow(/billings_one_per_run|duplicate key/);
  });
});

describe('several scheduler instances', () => {
  test('two runDue at once on one database: each due billing exactly once', async ({ gateway: gw }) => {
    const { m } = await isolated(gw);
    await dueSubscriptions(gw, m, 200);
    const [x, y] = await Promise.all([runDue(jobDeps(gw), gw.clock.now()), runDue(jobDeps(gw), gw.clock.now())]);
    expect(add(x, y)).toBeGreaterThanOrEqual(200);
    expect(await billingRows(gw, m)).toBe(200);
    expect(await charges(gw, m)).toBe(200);
  });

  test.runIf(DB_KIND === 'pg')('two nodes (two pools) on one PostgreSQL over 1,000 due billings: each billed exactly once', async ({ gateway: gw }) => {
    const { m } = await isolated(gw);
    await dueSubscriptions(gw, m, 1000);
    const [{ schema }] = await gw.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    const second = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, schema });
    try {
      const started = Date.now();
      const [x, y] = await Promise.all([
        runDue(jobDeps(gw), gw.clock.now()),
        runDue({ ...jobDeps(gw), db: second }, gw.clock.now()),
      ]);
      const ms = Date.now() - started;
      expect(x.errors + y.errors).toBe(0);
      expect(x.billings).toBeGreaterThan(0);
      expect(y.billings).toBeGreaterThan(0);
      expect(await billingRows(gw, m)).toBe(1000);
      expect(await charges(gw, m)).toBe(1000);
      expect(await count(gw, 'SELECT count(DISTINCT subscription_id)::int AS n FROM billings WHERE merchant_id = $1', [m.id])).toBe(1000);
      expect(await count(gw, 'SELECT count(*)::int AS n FROM subscriptions WHERE merchant_id = $1 AND billed_count = 1', [m.id])).toBe(1000);
      console.log(`two nodes billed 1000 runs in ${ms} ms (${x.billings} + ${y.billings})`);
    } finally {
      await second.close();
    }
  }, 60_000);
});

describe('Scheduler (the per-process loop)', () => {
  test('start() runs rounds every intervalMs; tick() runs one now; stop() waits for the round in flight', async ({ gateway: gw }) => {
    const { m, a } = await isolated(gw);
    const s = await a.subscribe((await a.plan({ frequency: 'daily' })).id, (await a.customer()).id);
    const scheduler = new Scheduler(jobDeps(gw), { intervalMs: 20 });
    scheduler.start();
    try {
      gw.clock.advance(DAY);
      for (let i = 0; i < 100 && (await billingRows(gw, m)) === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect((await a.billings(s.id)).length).toBe(1);
      gw.clock.advance(DAY);
      // tick() runs a round now (the loop may have billed this run first; the count below decides);
      // it bills every merchant's due runs, so only its errors are this test's business.
      expect((await scheduler.tick()).ran.errors).toBe(0);
      expect((await a.billings(s.id)).length).toBe(2);
    } finally {
      await scheduler.stop();
      gw.clock.advance(-2 * DAY);
    }
  });
});
