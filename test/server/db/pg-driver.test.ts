import { AddressInfo, Socket, connect, createServer } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Db } from '../../../server/db/index.js';
import { driverPatched } from '../../../server/db/pg-driver.js';
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

test('the guards are in the driver this process runs (an upgrade that changed its text fails here: check the crash below again)', () => {
  expect(driverPatched).toBe(true);
});

test('transactions on connections the pool opens for them (their BEGIN is the connection\'s first statement) run whole', async () => {
  const fresh = await openPg(url, { max: 5 });
  try {
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => fresh.tx(async (q) => {
      const [{ a }] = await q.query<{ a: number }>('SELECT $1::int AS a', [i]);
      const [{ b }] = await q.query<{ b: number }>('SELECT $1::int + 1 AS b', [a]);
      return b;
    })));
    expect(results).toEqual([1, 2, 3, 4, 5]);
  } finally {
    await fresh.close();
  }
});

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
    // Refused before it reaches a connection (the transaction has ended), or by the driver's guard.
    expect(await next).toMatchObject({ code: expect.stringMatching(/^(DB_DEADLINE|CONNECTION_CLOSED)$/) });
    // Turns for any stray immediate the closed connection scheduled.
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 10));
    expect(uncaught).toEqual([]);
    expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  }
});

/** A TCP proxy to PostgreSQL that can stop forwarding in both directions, as a frozen server or a black-holed network does. */
async function freezableProxy(target: URL) {
  const sockets: Socket[] = [];
  let frozen = false;
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.push(client, upstream);
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      from.on('data', (d) => {
        if (!frozen) to.write(d);
      });
      from.on('error', () => to.destroy());
      from.on('close', () => to.destroy());
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    freeze: () => void (frozen = true),
    /** As a stopped server: every connection is cut, new ones are closed at once. */
    refuse: () => {
      refusing = true;
      for (const sock of sockets.splice(0)) sock.destroy();
    },
    accept: () => void (refusing = false),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

test('a server that stops answering: a statement and a transaction end at their deadlines, and the database counts as away', async () => {
  const proxy = await freezableProxy(new URL(url));
  const stalled = await openPg(proxy.url, { max: 2, deadlines: { statementMs: 300, txMs: 1_500 } });
  try {
    expect(await stalled.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    proxy.freeze();
    await expect(stalled.query('SELECT 2 AS two')).rejects.toMatchObject({ code: 'DB_DEADLINE' });
    await expect(stalled.tx(async (q) => q.query('SELECT 3 AS three'))).rejects.toMatchObject({ code: 'DB_DEADLINE' });
    // A statement the server never answered, past its own statement_timeout: the database counts as away.
    expect(stalled.recentFault?.()).toBe('unavailable');
  } finally {
    await proxy.close();
    await stalled.close().catch(() => {});
  }
});

test('a database found away: one statement at a time finds out whether it is back, the others are refused at once; the first answer closes it', async () => {
  const proxy = await freezableProxy(new URL(url));
  // Short deadlines: a BEGIN waits for the driver's reconnect loop until the transaction's deadline.
  const away = await openPg(proxy.url, { max: 4, deadlines: { statementMs: 1_000, txMs: 2_000 } });
  try {
    expect(await away.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    proxy.refuse();
    // The first statement meets the outage (the closed connection, or the driver reconnecting until our deadline).
    await expect(away.query('SELECT 2 AS two')).rejects.toMatchObject({ code: expect.stringMatching(/^(CONNECTION_CLOSED|ECONNRESET|DB_DEADLINE)$/) });
    expect(away.recentFault?.()).toBe('unavailable');
    const settled = await Promise.allSettled(Array.from({ length: 6 }, () => away.query('SELECT 3 AS three')));
    const codes = settled.map((r) => (r.status === 'rejected' ? (r.reason as { code?: string }).code : 'answered'));
    // One probe waited for the driver; five were refused without waiting.
    expect(codes.filter((c) => c === 'DB_AWAY')).toHaveLength(5);
    await expect(away.tx(async (q) => q.query('SELECT 4'))).rejects.toMatchObject({ code: expect.stringMatching(/^(DB_AWAY|DB_DEADLINE|CONNECTION_CLOSED|ECONNRESET)$/) });
    proxy.accept();
    // Probes until one gets through (the driver reconnects with its own backoff), then everyone again.
    for (;;) {
      const r = await away.query('SELECT 5 AS five').catch(() => null);
      if (r) break;
    }
    expect(away.recentFault?.()).toBeNull();
    expect(await Promise.all(Array.from({ length: 4 }, () => away.query('SELECT 6 AS six')))).toEqual(Array(4).fill([{ six: 6 }]));
  } finally {
    await proxy.close();
    await away.close().catch(() => {});
  }
});

test('a transaction past its deadline never commits: neither one whose function finished late nor one whose BEGIN waited in the pool', async () => {
  const short = await openPg(url, { max: 1, deadlines: { txMs: 400 } });
  const table = `late_${Date.now()}`;
  await admin.query(`CREATE TABLE ${table} (n int)`);
  try {
    // The function finishes after its caller was answered: it rolls back instead of committing.
    let finished!: () => void;
    const done = new Promise<void>((r) => (finished = r));
    await expect(short.tx(async (q) => {
      await q.query(`INSERT INTO ${table} VALUES (1)`);
      await new Promise((r) => setTimeout(r, 700));
      finished();
    })).rejects.toMatchObject({ code: 'DB_DEADLINE' });
    await done;
    // The only connection is held: the next BEGIN waits in the pool past its deadline, and its function never runs.
    let release!: () => void;
    const holding = short.tx(() => new Promise<void>((r) => (release = r)), { deadlineMs: null });
    let ran = false;
    await expect(short.tx(async (q) => {
      ran = true;
      await q.query(`INSERT INTO ${table} VALUES (2)`);
    })).rejects.toMatchObject({ code: 'DB_DEADLINE' });
    release();
    await holding;
    // Both late transactions have had their turn on the connection by now.
    expect(await short.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(ran).toBe(false);
    expect(await admin.query(`SELECT n FROM ${table}`)).toEqual([]);
  } finally {
    await admin.query(`DROP TABLE ${table}`);
    await short.close();
  }
});
