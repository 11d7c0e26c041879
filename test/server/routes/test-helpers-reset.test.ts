import { request } from 'node:http';
import { buildApp } from '../../../server/app.js';
import type { Db, Queryable } from '../../../server/db/index.js';
import { ResetCancelled, planReset, resetTestEnvironment } from '../../../server/domain/merchant/reset.js';
import { DB_KIND } from '../../helpers/gateway.js';
import { Merchant, TestGateway, basic, describe, expect, expectError, test, tokenFor, visa } from '../../fixtures.js';

// POST /api/v1/test_helpers/reset under concurrency (issue 27, item 8): one reset at a time per
// merchant environment (409 TEST03 for a second one, from this node or another), and cancelled
// with its request (the client leaving rolls it back). Deterministic: a transaction of the test
// holds a row the reset must delete, so the reset is seen waiting (pg_blocking_pids), never timed.
// The row-lock tests need PostgreSQL (PGlite runs one transaction at a time: nothing can wait on a
// row there); the abort between statements runs on both.

const pgOnly = test.skipIf(DB_KIND !== 'pg');

const reset = (gw: TestGateway, m: Merchant) =>
  gw.app.inject({ method: 'POST', url: '/api/v1/test_helpers/reset', headers: basic(m.test.private_key) });

/** A transaction of the test, held open after `sql` until release(); `pid` is its backend. */
async function hold(db: Db, sql: string, params: unknown[]): Promise<{ pid: number; release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: (pid: number) => void;
  const pid = new Promise<number>((resolve) => (started = resolve));
  const done = db.tx(async (q) => {
    const [row] = await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await q.query(sql, params);
    started(row.pid);
    await released;
  });
  done.catch(() => {});
  return { pid: await pid, release: async () => (release(), await done) };
}

/** Returns once a backend waits for `pid`'s lock; resolves with that backend's pid. */
async function waiterOf(db: Db, pid: number): Promise<number> {
  for (;;) {
    const [row] = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [pid]);
    if (row) return row.pid;
  }
}

/** Returns once backend `waiter` no longer waits for `pid` (its statement ended: done, failed or cancelled). */
async function released(db: Db, waiter: number, pid: number): Promise<void> {
  for (;;) {
    const [row] = await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND $2 = ANY (pg_blocking_pids(pid))', [waiter, pid]);
    if (!row) return;
  }
}

/** What a merchant holds in its test environment, table by table (wiped tables only). */
async function census(db: Db, merchantId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const { table, envColumn } of (await planReset(db)).wipe) {
    const [{ n }] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${table}" WHERE merchant_id = $1${envColumn ? " AND env = 'test'" : ''}`, [merchantId]);
    if (n) out[table] = n;
  }
  return out;
}

/** A merchant with records in tables the reset deletes before tokens (methods, templates) and a token. */
async function seeded(gw: TestGateway): Promise<Merchant> {
  const m = await gw.newMerchant();
  const post = async (url: string, payload: object) => {
    const res = await gw.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: basic(m.test.private_key), payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  await post('/customers', { first_name: 'Ada', token: await tokenFor(gw, visa, m.test.public_key) });
  await post('/receipts/templates', { subject: 'Paid', receipt_text: 'Thanks' });
  await tokenFor(gw, visa, m.test.public_key);
  return m;
}

const LOCK_TOKENS = "SELECT 1 FROM tokens WHERE merchant_id = $1 AND env = 'test' FOR UPDATE";

describe('one reset at a time per merchant environment', () => {
  pgOnly('a second reset while one runs is 409 TEST03 at once; another merchant resets meanwhile; the first then completes', async ({ gateway: gw }) => {
    const m = await seeded(gw);
    const other = await seeded(gw);
    const blocker = await hold(gw.db, LOCK_TOKENS, [m.id]);
    const first = reset(gw, m);
    await waiterOf(gw.db, blocker.pid);

    expectError(await reset(gw, m), 409, 'TEST03', /under way/);
    const elsewhere = await reset(gw, other);
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    expect(await census(gw.db, other.id)).toEqual({});

    await blocker.release();
    const done = await first;
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().deleted.tokens).toBeGreaterThan(0);
    expect(await census(gw.db, m.id)).toEqual({});
  });

  pgOnly('a reset running on another node (its advisory lock held) makes this one 409 TEST03, deleting nothing', async ({ gateway: gw }) => {
    const m = await seeded(gw);
    const before = await census(gw.db, m.id);
    const node = await hold(gw.db, 'SELECT pg_advisory_xact_lock(32350, hashtext($1))', [m.id]);
    expectError(await reset(gw, m), 409, 'TEST03');
    expect(await census(gw.db, m.id)).toEqual(before);
    await node.release();
    expect((await reset(gw, m)).statusCode).toBe(200);
  });
});

describe('a reset is cancelled with its request', () => {
  pgOnly('a reset answered 503 REQ06 by the request deadline while it waits is cancelled: rolled back, nothing deleted', async ({ gateway: gw }) => {
    const m = await seeded(gw);
    const before = await census(gw.db, m.id);
    // The same database and keys, with a request deadline short enough to reach.
    const hurried = await buildApp({ db: gw.db, vault: gw.vault, clock: gw.clock }, { requestDeadlineMs: 2_000 });
    try {
      const lock = await hold(gw.db, LOCK_TOKENS, [m.id]);
      // Over a socket: the answer finishes the response while the connection stays open (keep-alive).
      const url = await hurried.listen({ port: 0, host: '127.0.0.1' });
      const answer = fetch(`${url}/api/v1/test_helpers/reset`, { method: 'POST', headers: basic(m.test.private_key) });
      // The reset's backend waiting for the lock (on a slow machine the deadline may come first: then none).
      let answered = false;
      void answer.finally(() => (answered = true));
      let waiter: number | null = null;
      while (waiter === null && !answered) {
        const [row] = await gw.db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [lock.pid]);
        waiter = row?.pid ?? null;
      }
      const res = await answer;
      expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 503, body: { errors: [{ code: 'REQ06' }] } });
      // The lock goes at once (well within lock_timeout): a reset still running would now delete everything.
      await lock.release();
      // Its transaction has ended once its backend is idle (or gone).
      for (;;) {
        if (waiter === null) break;
        const [row] = await gw.db.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE pid = $1', [waiter]);
        if (!row || row.state === 'idle') break;
      }
      // Nobody waited for its answer any more: cancelled and rolled back, nothing deleted.
      expect(await census(gw.db, m.id)).toEqual(before);
    } finally {
      await hurried.close();
    }
  });

  pgOnly('the client disconnecting cancels the statement running: rolled back, nothing deleted, the next reset runs', async ({ newGateway }) => {
    const gw = await newGateway();
    await gw.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = gw.app.server.address() as { port: number };
    const m = await seeded(gw);
    const before = await census(gw.db, m.id);

    const blocker = await hold(gw.db, LOCK_TOKENS, [m.id]);
    const client = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/test_helpers/reset', headers: basic(m.test.private_key) });
    const ended = new Promise<void>((resolve) => client.on('error', () => resolve()).on('close', resolve));
    client.end();
    // The reset has deleted the methods and templates and waits on the locked token.
    const resetPid = await waiterOf(gw.db, blocker.pid);
    client.destroy();
    await ended;
    // With the blocker still holding its lock, the reset's statement ends: it was cancelled.
    await released(gw.db, resetPid, blocker.pid);
    await blocker.release();
    expect(await census(gw.db, m.id)).toEqual(before);

    const again = await reset(gw, m);
    expect(again.statusCode, again.body).toBe(200);
    expect(await census(gw.db, m.id)).toEqual({});
  });

  test('an abort between statements starts no further statement and rolls the reset back', async ({ gateway: gw }) => {
    const m = await seeded(gw);
    const before = await census(gw.db, m.id);
    const plan = await planReset(gw.db);
    const abort = new AbortController();
    const sent: string[] = [];
    // The client leaves once the merchant's payment methods are deleted (in the transaction).
    const watching = (q: Queryable): Queryable => ({
      exec: (sql) => q.exec(sql),
      query: async (sql, params) => {
        sent.push(sql);
        const rows = await q.query(sql, params);
        if (sql.includes('DELETE FROM "payment_methods"')) abort.abort();
        return rows as any;
      },
    });
    await expect(gw.db.tx((q) => resetTestEnvironment(watching(q), plan, m.id, { signal: abort.signal }))).rejects.toBeInstanceOf(ResetCancelled);
    expect(sent.at(-1)).toContain('DELETE FROM "payment_methods"');
    expect(sent.length).toBeLessThan(plan.wipe.length);
    expect(before.payment_methods).toBeGreaterThan(0);
    expect(await census(gw.db, m.id)).toEqual(before);
  });

  test('an aborted signal starts nothing', async ({ gateway: gw }) => {
    const plan = await planReset(gw.db);
    const sent: string[] = [];
    const q: Queryable = { exec: async () => {}, query: async (sql) => (sent.push(sql), []) };
    await expect(resetTestEnvironment(q, plan, gw.merchant.id, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(ResetCancelled);
    expect(sent).toEqual([]);
  });
});
