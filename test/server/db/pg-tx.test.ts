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

/** true for a statement that ran in a transaction of its own: now() is its transaction's start. */
const OWN = 'SELECT now() = statement_timestamp() AS own';

test('a transaction begun behind a full pipeline of statements commits, and no later statement runs inside it', async () => {
  // 100 statements (the driver's max_pipeline) on the one connection, the first holding it.
  const before = [db.query('SELECT pg_sleep(0.1)'), ...Array.from({ length: 99 }, () => db.query(OWN))];
  await new Promise((r) => setTimeout(r, 10));
  const tx = db.tx(async (q) => {
    await q.query('SELECT pg_current_xact_id()');
    return 'committed';
  });
  await new Promise((r) => setTimeout(r, 10));
  const after = Array.from({ length: 5 }, () => db.query<{ own: boolean }>(OWN));
  await Promise.all(before);
  const outcome = await tx.then((x) => x, (e: unknown) => String(e));
  const rows = (await Promise.all(after)).map((r) => r[0]);
  expect({ outcome, rows }).toEqual({ outcome: 'committed', rows: Array.from({ length: 5 }, () => ({ own: true })) });
});

test('transactions beyond the connections for them wait for one, then all commit; each ran on a backend of its own at a time', async () => {
  const two = await openPg(url, { max: 2 });
  try {
    let inside = 0;
    let most = 0;
    const pids = await Promise.all(Array.from({ length: 6 }, () => two.tx(async (q) => {
      most = Math.max(most, ++inside);
      const [{ pid }] = await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.03)');
      const [{ own }] = await q.query<{ own: boolean }>(OWN);
      inside--;
      return { pid, own };
    })));
    expect(most).toBe(2);
    expect(new Set(pids.map((p) => p.pid)).size).toBe(2);
    expect(pids.every((p) => p.own === false)).toBe(true); // each second statement ran inside its transaction
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
