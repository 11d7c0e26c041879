import { afterEach, expect, test } from 'vitest';
import type { Db } from '../../../server/db/db.js';
import { openDatabase } from '../../../server/db/index.js';
import { DB_KIND } from '../../helpers/gateway.js';

// The PGlite adapter sends each statement as one protocol message, prepared under its name
// (server/db/pglite.ts). What that must not change.
let db: Db | undefined;
/** In memory through the adapter, from the migrated snapshot where there is one (no initdb): these tests make their own table. */
const fresh = () => openDatabase({});
afterEach(async () => {
  await db?.close();
  db = undefined;
});

test.skipIf(DB_KIND !== 'pglite')('a statement is prepared once and reused; a failure (duplicate key) leaves the next call working', async () => {
  db = await fresh();
  await db.exec('CREATE TABLE t (id text PRIMARY KEY, n int NOT NULL)');
  const insert = 'INSERT INTO t (id, n) VALUES ($1, $2) RETURNING id, n';
  expect(await db.query(insert, ['a', 1])).toEqual([{ id: 'a', n: 1 }]);
  await expect(db.query(insert, ['a', 2])).rejects.toMatchObject({ code: '23505' });
  expect(await db.query(insert, ['b', 3])).toEqual([{ id: 'b', n: 3 }]);
  const prepared = await db.query("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO t %'");
  expect(prepared).toEqual([{ n: 1 }]);
  // A text with * is never named (a migration may change its columns): it still runs.
  expect(await db.query('SELECT * FROM t WHERE n > $1 ORDER BY id', [0])).toEqual([{ id: 'a', n: 1 }, { id: 'b', n: 3 }]);
});

test.skipIf(DB_KIND !== 'pglite')('parameters are read as PostgreSQL reads text: bytes, booleans, null, numbers, JSON', async () => {
  db = await fresh();
  const [row] = await db.query('SELECT $1::bytea AS b, $2::boolean AS t, $3::text AS z, $4::numeric AS x, $5::jsonb AS j', [
    Buffer.from([0, 1, 255]), true, null, 12.5, { a: [1, 'x'] },
  ]);
  expect(Buffer.from(row.b)).toEqual(Buffer.from([0, 1, 255]));
  expect(row).toMatchObject({ t: true, z: null, x: '12.5', j: { a: [1, 'x'] } });
});

test.skipIf(DB_KIND !== 'pglite')('a statement outside a transaction never runs inside another caller\'s open one', async () => {
  db = await fresh();
  await db.exec('CREATE TABLE t (id text PRIMARY KEY)');
  let inside!: () => void;
  const started = new Promise<void>((r) => (inside = r));
  let finish!: () => void;
  const held = new Promise<void>((r) => (finish = r));
  const tx = db.tx(async (q) => {
    await q.query('INSERT INTO t (id) VALUES ($1)', ['in-tx']);
    inside();
    await held;
    throw new Error('roll back');
  });
  await started;
  const outside = db.query('INSERT INTO t (id) VALUES ($1)', ['outside']);
  finish();
  await expect(tx).rejects.toThrow('roll back');
  await outside;
  expect(await db.query('SELECT id FROM t ORDER BY id')).toEqual([{ id: 'outside' }]);
});
