import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Db } from '../../../server/db/index.js';
import { openPg } from '../../../server/db/pg.js';

// Transactions run on connections lent to one transaction at a time (server/db/pg.ts
// TxConnections): the driver's pool (postgres 3.4.9) sent a BEGIN that filled a connection's
// pipeline without reserving the connection, and later statements of other callers then ran inside
// that transaction, which nobody committed. PostgreSQL only.

const url = process.env.TEST_DATABASE_URL!;
let db: Db;

beforeAll(async () => {
  db = await openPg(url, { max: 1 });
});
afterAll(async () => {
  await db?.close();
});

/**
 * The id of the transaction a statement ran in (assigned by this call). Statements outside a
 * transaction block each get one of their own; statements inside one share its id. (now() =
 * statement_timestamp() is no such signal: for a prepared statement sent with parameters they differ
 * even in a transaction of its own.)
 */
const XID = 'SELECT pg_current_xact_id()::text AS xid';

test('a transaction begun behind a full pipeline of statements commits, and no later statement runs inside it', async () => {
  // 100 statements (the driver's max_pipeline) on the one connection, the first holding it.
  const before = [db.query('SELECT pg_sleep(0.1)'), ...Array.from({ length: 99 }, () => db.query('SELECT 1'))];
  await new Promise((r) => setTimeout(r, 10));
  const tx = db.tx(async (q) => (await q.query<{ xid: string }>(XID))[0].xid);
  await new Promise((r) => setTimeout(r, 10));
  const after = Array.from({ length: 5 }, () => db.query<{ xid: string }>(XID));
  await Promise.all(before);
  const outcome = await tx.then((xid) => `committed ${xid}`, (e: unknown) => String(e));
  const xids = (await Promise.all(after)).map((r) => r[0].xid);
  expect(outcome).toMatch(/^committed \d+$/);
  // Five transactions of their own: five ids, none the transaction's.
  expect(new Set([outcome.split(' ')[1], ...xids]).size).toBe(6);
});

test('transactions beyond the connections for them wait for one, then all commit; each ran on a backend of its own at a time', async () => {
  const two = await openPg(url, { max: 2 });
  try {
    let inside = 0;
    let most = 0;
    const pids = await Promise.all(Array.from({ length: 6 }, () => two.tx(async (q) => {
      most = Math.max(most, ++inside);
      const [{ pid, xid }] = await q.query<{ pid: number; xid: string }>('SELECT pg_backend_pid() AS pid, pg_current_xact_id()::text AS xid, pg_sleep(0.03)');
      const [second] = await q.query<{ xid: string }>(XID);
      inside--;
      return { pid, same: second.xid === xid };
    })));
    expect(most).toBe(2);
    expect(new Set(pids.map((p) => p.pid)).size).toBe(2);
    expect(pids.every((p) => p.same)).toBe(true); // each second statement ran inside its transaction
  } finally {
    await two.close();
  }
});

test('a closed database refuses a transaction waiting for a connection with a connection error', async () => {
  const one = await openPg(url, { max: 1 });
  const holding = one.tx(async (q) => q.query('SELECT pg_sleep(0.1)'));
  const waiting = one.tx(async (q) => q.query('SELECT 1')).then(() => 'committed', (e: unknown) => e);
  await new Promise((r) => setTimeout(r, 20));
  await one.close();
  expect(await waiting).toMatchObject({ code: 'CONNECTION_ENDED' });
  await holding.catch(() => {});
});
