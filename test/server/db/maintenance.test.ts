import { afterEach, expect, test } from 'vitest';
import type { Db } from '../../../server/db/db.js';
import { openDatabase } from '../../../server/db/index.js';
import { checkpointDue, isDue, maintain, tableSizes, walState } from '../../../server/db/maintenance.js';
import { openPglite } from '../../../server/db/pglite.js';
import { startTessera } from '../../../server/start.js';

// PGlite has no autovacuum: db/maintenance.ts analyzes what grew, so a prepared statement's plan
// follows the data instead of the plan it got while the tables were empty.
let db: Db | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  await db?.close();
  db = stop = undefined;
});

test.for([
  [{ name: 't', recorded: 0, tuples: 0, pages: 0 }, false, 'empty'],
  [{ name: 't', recorded: 0, tuples: -1, pages: 1 }, true, 'holds data, never analyzed'],
  [{ name: 't', recorded: 10, tuples: 500, pages: 13 }, false, 'grew by less than a fifth and a page'],
  [{ name: 't', recorded: 10, tuples: 500, pages: 14 }, true, 'grew by more'],
  [{ name: 't', recorded: 0, tuples: 0, pages: 2 }, true, 'analyzed empty, two pages since'],
  [{ name: 't', recorded: 40, tuples: 900, pages: 30 }, false, 'shrank'],
] as const)('isDue %j -> %s (%s)', ([size, due]) => {
  expect(isDue(size)).toBe(due);
});

const MB = 1024 * 1024;
test.for([
  [{ since: 200, age: 10, max: 64 * MB, timeout: 300 }, false, 'nothing written'],
  [{ since: 31 * MB, age: 10, max: 64 * MB, timeout: 300 }, false, 'under half of max_wal_size'],
  [{ since: 32 * MB, age: 10, max: 64 * MB, timeout: 300 }, true, 'half of max_wal_size'],
  [{ since: 2 * MB, age: 301, max: 64 * MB, timeout: 300 }, true, 'past checkpoint_timeout with WAL written'],
  [{ since: 200, age: 3000, max: 64 * MB, timeout: 300 }, false, 'past checkpoint_timeout, idle'],
] as const)('checkpointDue %j -> %s (%s)', ([w, due]) => {
  expect(checkpointDue(w)).toBe(due);
});

test('WAL written past half of max_wal_size is checkpointed, and its segments recycled', async () => {
  db = await openPglite(undefined, { postgresqlconf: ['max_wal_size = 32MB'] });
  const segments = async () => (await db!.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_ls_waldir()'))[0].n;
  await db.exec(`CREATE TABLE filler AS SELECT g, repeat('x', 200) AS v FROM generate_series(1, 100000) g`); // ~26 MB of WAL
  const before = await walState(db);
  expect(before.max).toBe(32 * MB);
  expect(before.since).toBeGreaterThan(16 * MB);
  const held = await segments();
  const { checkpoint } = await maintain(db);
  expect(checkpoint).toBe(true);
  expect((await walState(db)).since).toBeLessThan(MB);
  expect(await segments()).toBeLessThan(held);
});

/** The plan a prepared statement uses now (after 6 runs PostgreSQL settles on its generic plan). */
async function planOf(q: Db, args: string): Promise<string> {
  for (let i = 0; i < 6; i++) await q.exec(`EXECUTE by_id(${args})`);
  const rows = await q.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE by_id(${args})`);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

test('a customer read prepared on an empty table uses the primary key once the table has grown and been maintained', async () => {
  db = await openDatabase({}); // in memory and migrated, nothing analyzed: a new gateway's database
  await db.exec(`INSERT INTO merchants (id, name, created_at) VALUES ('mer_a', 'A', now())`);
  await db.exec(`PREPARE by_id(text, text, text) AS
    SELECT id, first_name FROM customers WHERE merchant_id = $1 AND env = $2 AND id = $3 AND deleted_at IS NULL`);
  const args = `'mer_a', 'test', 'c7'`;
  await planOf(db, args); // planned while the table is empty, as a new gateway's first charge would
  await db.exec(`INSERT INTO customers (merchant_id, env, id, first_name, created_at, updated_at)
    SELECT 'mer_a', 'test', 'c' || g, 'x', now(), now() FROM generate_series(1, 20000) g`);
  expect((await tableSizes(db)).find((t) => t.name === 'customers')).toMatchObject({ tuples: -1 });
  expect(await planOf(db, args)).not.toMatch(/customers_pkey/); // the plan of the empty table, kept

  const { tables } = await maintain(db);
  expect(tables).toContain('customers');
  expect(tables).toContain('merchants');
  const customers = (await tableSizes(db)).find((t) => t.name === 'customers')!;
  expect(customers.tuples).toBeGreaterThan(19_000);
  expect(isDue(customers)).toBe(false);
  expect(await planOf(db, args)).toMatch(/Index Scan using customers_pkey/);
  // Nothing grew since: the next round does nothing.
  await expect(maintain(db)).resolves.toEqual({ tables: [], checkpoint: false });
});

test('an embedded gateway runs the maintenance on its own', async () => {
  const running = await startTessera({ port: 0, storage: 'memory', maintenanceIntervalMs: 50 });
  stop = () => running.close();
  // The demo merchant, its keys and settings were written at start: analyzed by the first rounds.
  await expect.poll(async () => (await tableSizes(running.db)).filter(isDue).map((t) => t.name), { timeout: 10_000 }).toEqual([]);
  const keys = (await tableSizes(running.db)).find((t) => t.name === 'api_keys')!;
  expect(keys.tuples).toBeGreaterThan(0);
  // Its WAL between checkpoints is memory: the snapshot keeps it small (db/snapshot.ts).
  expect((await walState(running.db)).max).toBe(16 * MB);
});
