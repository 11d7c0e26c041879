import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { Db, normaliseParams } from '../../../server/db/db.js';
import { migrate } from '../../../server/db/migrate.js';
import { MAX_PREPARED, openPg } from '../../../server/db/pg.js';
import { loadConfig } from '../../../server/config.js';
import { openPglite } from '../../../server/db/pglite.js';
import { MIGRATIONS_DIR } from '../../../server/paths.js';
import { DB_KIND, testDb } from '../../helpers/gateway.js';

const MIGRATIONS = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort();

/** A database with no migrations applied yet, and how to get rid of it. */
async function blankDb(): Promise<{ open(): Promise<Db>; drop(): Promise<void> }> {
  if (DB_KIND === 'pg') {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = await openPg(url);
    await admin.query(`CREATE SCHEMA "${schema}"`);
    const opened: Db[] = [];
    return {
      async open() {
        const db = await openPg(url, { schema });
        opened.push(db);
        return db;
      },
      async drop() {
        for (const db of opened) await db.close();
        await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
        await admin.close();
      },
    };
  }
  const db = await openPglite();
  return { open: async () => db, drop: () => db.close() };
}

describe('migrations', () => {
  test('a blank database gets every migration once; migrating again applies nothing', async () => {
    const blank = await blankDb();
    try {
      const db = await blank.open();
      // The start logs a line per migration applied (start.ts): each is told, in order; none when up to date.
      const told: { migration: string; ms: number }[] = [];
      expect(await migrate(db, undefined, (m) => told.push(m))).toEqual(MIGRATIONS);
      expect(told.map((m) => m.migration)).toEqual(MIGRATIONS);
      expect(told.every((m) => Number.isInteger(m.ms) && m.ms >= 0)).toBe(true);
      expect(await migrate(db, undefined, (m) => told.push(m))).toEqual([]);
      expect(told).toHaveLength(MIGRATIONS.length);
      const rows = await db.query('SELECT version, applied_at FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS);
      expect(rows[0].applied_at).toBeInstanceOf(Date);
      expect(await db.query('SELECT count(*)::int AS n FROM tokens')).toEqual([{ n: 0 }]);
    } finally {
      await blank.drop();
    }
  });

  test('two nodes starting at once: one applies, the other waits and applies nothing', async () => {
    const blank = await blankDb();
    try {
      const [a, b] = [await blank.open(), await blank.open()];
      const results = await Promise.all([migrate(a), migrate(b)]);
      expect(results.map((r) => r.length).sort()).toEqual([0, MIGRATIONS.length]);
    } finally {
      await blank.drop();
    }
  });

  test('openDatabase migrates: the harness database has nothing left to apply', async () => {
    const db = await testDb();
    try {
      expect(await migrate(db)).toEqual([]);
    } finally {
      await db.drop();
    }
  });
});

describe('parameters', () => {
  test('normaliseParams converts what PGlite would not', () => {
    const buf = Buffer.from('x');
    const bytes = new Uint8Array([1, 2]);
    expect(
      normaliseParams([new Date('2026-01-15T12:00:00.000Z'), { color: 'red', n: [1] }, 12n, undefined, null, 'a', 7, true, buf, bytes]),
    ).toEqual(['2026-01-15T12:00:00.000Z', '{"color":"red","n":[1]}', '12', null, null, 'a', 7, true, buf, bytes]);
    expect(normaliseParams()).toEqual([]);
  });

  test('both adapters read back what they were given (Date, object, bigint, undefined, int8 as number)', async () => {
    const db = await testDb();
    try {
      const at = new Date('2026-01-15T12:34:56.789Z');
      const [row] = await db.query('SELECT $1::timestamptz AS at, $2::jsonb AS obj, $3::int8 AS big, $4::text AS missing, $5::int8 AS cents', [
        at, { color: 'red', nested: { a: 1 } }, 9007199254740991n, undefined, 1999,
      ]);
      expect(row.at).toBeInstanceOf(Date);
      expect(row.at.toISOString()).toBe(at.toISOString());
      expect(row.obj).toEqual({ color: 'red', nested: { a: 1 } });
      expect(row.big).toBe(9007199254740991);
      expect(row.missing).toBeNull();
      expect(row.cents).toBe(1999);
      expect(typeof (await db.query('SELECT count(*) AS n FROM merchants'))[0].n).toBe('number');
    } finally {
      await db.drop();
    }
  });

  test('both adapters read bytes, booleans, numeric and JSON alike; a text parameter stays text', async () => {
    const db = await testDb();
    try {
      const [row] = await db.query('SELECT $1::bytea AS b, $2::boolean AS t, $3::numeric AS x, $4::jsonb AS j, $5::text AS s', [
        Buffer.from([0, 1, 255]), true, 12.5, ['a', { n: 1 }], '{"not":"parsed"}',
      ]);
      expect(Buffer.from(row.b)).toEqual(Buffer.from([0, 1, 255]));
      expect(row).toMatchObject({ t: true, x: '12.5', j: ['a', { n: 1 }], s: '{"not":"parsed"}' });
    } finally {
      await db.drop();
    }
  });

  test('tx rolls back when its function throws and commits otherwise', async () => {
    const db = await testDb();
    try {
      const insert = (q: { query: Db['query'] }, id: string) =>
        q.query('INSERT INTO merchants (id, name, created_at) VALUES ($1, $2, $3)', [id, 'm', new Date()]);
      await expect(db.tx(async (q) => { await insert(q, 'mer_rolled'); throw new Error('boom'); })).rejects.toThrow('boom');
      expect(await db.tx(async (q) => { await insert(q, 'mer_kept'); return 'done'; })).toBe('done');
      expect((await db.query('SELECT id FROM merchants')).map((r) => r.id)).toEqual(['mer_kept']);
    } finally {
      await db.drop();
    }
  });

  test.skipIf(DB_KIND !== 'pg')('PostgreSQL: a statement is parsed and planned once per connection, then reused', async () => {
    const db = await testDb();
    try {
      const sql = 'SELECT count(*)::int AS n FROM merchants WHERE id <> $1';
      const prepared = await db.tx(async (q) => {
        for (let i = 0; i < 3; i++) await q.query(sql, [`mer_${i}`]);
        return q.query('SELECT name FROM pg_prepared_statements WHERE statement = $1', [sql]);
      });
      // One named statement for three calls (an unnamed one would not be listed at all).
      expect(prepared).toHaveLength(1);
    } finally {
      await db.drop();
    }
  });

  test.skipIf(DB_KIND !== 'pg')('PostgreSQL: a text with * is never prepared, so a migration that adds a column breaks nothing', async () => {
    const db = await testDb();
    try {
      await db.query('CREATE TABLE star (a int)');
      await db.query('INSERT INTO star (a) VALUES ($1)', [1]);
      const [before, prepared] = await db.tx(async (q) => [
        await q.query('SELECT * FROM star WHERE a = $1', [1]),
        await q.query("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE 'SELECT * FROM star%'"),
      ]);
      expect(before).toEqual([{ a: 1 }]);
      expect(prepared[0].n).toBe(0);
      await db.query('ALTER TABLE star ADD COLUMN b text');
      expect(await db.query('SELECT * FROM star WHERE a = $1', [1])).toEqual([{ a: 1, b: null }]);
    } finally {
      await db.drop();
    }
  });

  test.skipIf(DB_KIND !== 'pg')('PostgreSQL: a statement whose cached plan PostgreSQL refuses (0A000) is prepared again: unseen outside a transaction, fails a transaction once', async () => {
    // One connection for statements and one for transactions, so the statement is prepared where it runs next.
    const db = await openPg(process.env.TEST_DATABASE_URL!, { max: 1 });
    const table = `typed_${process.pid}_${Date.now()}`;
    try {
      await db.query(`CREATE TABLE ${table} (a int)`);
      await db.query(`INSERT INTO ${table} (a) VALUES ($1)`, [7]);
      const select = `SELECT a FROM ${table} WHERE $1::int >= 0`;
      expect(await db.query(select, [0])).toEqual([{ a: 7 }]);
      expect(await db.tx((q) => q.query(select, [0]))).toEqual([{ a: 7 }]);
      await db.query(`ALTER TABLE ${table} ALTER COLUMN a TYPE text`);
      expect(await db.query(select, [0])).toEqual([{ a: '7' }]);
      // Inside a transaction the refusal has aborted it: that transaction fails, the next one runs.
      await expect(db.tx((q) => q.query(select, [0]))).rejects.toMatchObject({ code: '0A000' });
      expect(await db.tx((q) => q.query(select, [0]))).toEqual([{ a: '7' }]);
    } finally {
      await db.query(`DROP TABLE IF EXISTS ${table}`);
      await db.close();
    }
  });

  test.skipIf(DB_KIND !== 'pg')('PostgreSQL: prepare: false (DATABASE_PREPARED_STATEMENTS=off) sends every statement unnamed', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const db = await openPg(url, { prepare: false, max: 1 });
    try {
      for (let i = 0; i < 3; i++) await db.query('SELECT $1::int AS unnamed_probe', [i]);
      expect(await db.query("SELECT name FROM pg_prepared_statements WHERE statement LIKE '%unnamed_probe%'")).toEqual([]);
    } finally {
      await db.close();
    }
    expect(loadConfig({}).preparedStatements).toBe(true);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).preparedStatements).toBe(false);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'no' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
  });

  test.skipIf(DB_KIND !== 'pg')('PostgreSQL: a connection keeps at most MAX_PREPARED statements; texts past the bound run unnamed', async () => {
    const db = await testDb();
    try {
      const text = (i: number) => `SELECT $1::int + ${i} AS n`;
      const [kept, last] = await db.tx(async (q) => {
        for (let i = 0; i < MAX_PREPARED + 5; i++) expect((await q.query(text(i), [1]))[0].n).toBe(i + 1);
        return Promise.all([
          q.query('SELECT count(*)::int AS n FROM pg_prepared_statements'),
          q.query('SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1', [text(MAX_PREPARED + 4)]),
        ]);
      });
      expect(kept[0].n).toBeLessThanOrEqual(MAX_PREPARED);
      expect(last[0].n).toBe(0);
    } finally {
      await db.drop();
    }
  });
});
