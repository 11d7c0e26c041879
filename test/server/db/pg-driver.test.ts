import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Db } from '../../../server/db/index.js';
import { openPg } from '../../../server/db/pg.js';

// A connection PostgreSQL closes under an open transaction (a restart, an administrator's
// pg_terminate_backend) must fail that transaction, never the process: the driver wrote the
// transaction's next statement (its own ROLLBACK, or the function's next query) to the closed
// socket from a setImmediate, an uncaught TypeError (server/db/pg-driver.ts). PostgreSQL only.

const url = process.env.TEST_DATABASE_URL!;
let db: Db;
let admin: Db;
const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  db = await openPg(url, { max: 2 });
  admin = await openPg(url, { max: 1 });
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await db?.close();
  await admin?.close();
});

/** Resolves once PostgreSQL no longer lists the backend, then after the client has had turns of its event loop to see the close. */
async function gone(pid: number) {
  for (;;) {
    const [{ n }] = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (n === 0) break;
  }
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 20));
}

test('a transaction whose connection was terminated fails with a connection error; the process lives and the pool serves the next statement', async () => {
  for (let round = 0; round < 3; round++) {
    // The transaction fails as soon as its connection closes; its function goes on until its next statement.
    let fnDone!: (err: unknown) => void;
    const next = new Promise<unknown>((resolve) => (fnDone = resolve));
    const failure = await db.tx(async (q) => {
      const [{ pid }] = await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await gone(pid);
      // The connection is closed now: this statement, and the ROLLBACK the driver sends after it, meet a closed socket.
      await q.query('SELECT 1 AS one').then(() => fnDone(null), (err) => {
        fnDone(err);
        throw err;
      });
    }).then(() => null, (err: { code?: string }) => err);
    expect(failure).toMatchObject({ code: expect.stringMatching(/^(CONNECTION_CLOSED|ECONNRESET|57P01)$/) });
    expect(await next).toMatchObject({ code: 'CONNECTION_CLOSED' });
    // Turns for any stray immediate the closed connection scheduled.
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 10));
    expect(uncaught).toEqual([]);
    expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  }
});
