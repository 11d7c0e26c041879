// The API suite's database reuse (test/helpers/test-db.ts): a database handed back is reset to new
// or not reused at all, and a handle handed back refuses statements. On both databases.
import { describe, expect, test } from 'vitest';
import { DB_KIND, testDb, testDbCounts } from '../../helpers/test-db.js';

const count = async (db: { query: (s: string) => Promise<any[]> }, table: string) => Number((await db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
const now = new Date('2026-11-28T00:00:00Z');

describe('a database handed back to the next file', () => {
  test('comes back with every table empty and every sequence restarted', async () => {
    const first = await testDb();
    await first.query('INSERT INTO merchants (id, name, created_at) VALUES ($1, $2, $3), ($4, $5, $3)', ['mer_a', 'A', now, 'mer_b', 'B']);
    const numbers = (await first.query('SELECT number FROM merchants ORDER BY number')).map((r) => Number(r.number));
    await first.query("SELECT nextval('subscription_numbers'), nextval('subscription_numbers')");
    const handedBack = testDbCounts.handedBack;
    await first.drop();
    expect(testDbCounts.handedBack, 'reset and kept').toBe(handedBack + 1);
    const reused = testDbCounts.reused;
    const next = await testDb();
    try {
      expect(testDbCounts.reused, 'the handed-back database was taken').toBe(reused + 1);
      expect(await count(next, 'merchants')).toBe(0);
      await next.query('INSERT INTO merchants (id, name, created_at) VALUES ($1, $2, $3)', ['mer_c', 'C', now]);
      expect((await next.query('SELECT number FROM merchants'))[0].number).toBe(numbers[0]);
      expect(Number((await next.query("SELECT nextval('subscription_numbers') AS n"))[0].n)).toBe(1);
      expect((await next.query('SELECT count(*)::int AS n FROM schema_migrations'))[0].n).toBeGreaterThan(20);
    } finally {
      await next.drop();
    }
  });

  test('is closed, not kept, when the file changed its schema; a setting of its session never reaches the next file', async () => {
    const changes: [string, boolean][] = [
      ['CREATE TABLE left_behind (a int)', true],
      ['ALTER TABLE merchants ADD COLUMN left_behind int', true],
      // PGlite has one session: not reused. PostgreSQL's next file gets a new pool either way.
      ["SET TIME ZONE 'Asia/Tokyo'", DB_KIND === 'pglite'],
      // A transaction left open: the reset's TRUNCATE would run inside it (PGlite's one session; the
      // PostgreSQL driver refuses a BEGIN outside its own transactions, and the next file gets a new pool).
      ...(DB_KIND === 'pglite' ? [["BEGIN; INSERT INTO merchants (id, name, created_at) VALUES ('mer_open', 'Open', now())", true] as [string, boolean]] : []),
    ];
    for (const [change, closed] of changes) {
      const db = await testDb();
      await db.exec(change);
      const handedBack = testDbCounts.handedBack;
      await db.drop();
      if (closed) expect(testDbCounts.handedBack, `${change}: closed, not kept`).toBe(handedBack);
      const next = await testDb();
      try {
        expect(await next.query("SELECT 1 FROM pg_class WHERE relname = 'left_behind' AND relnamespace = current_schema()::regnamespace"), change).toEqual([]);
        expect(await next.query("SELECT 1 FROM pg_attribute WHERE attrelid = 'merchants'::regclass AND attname = 'left_behind'"), change).toEqual([]);
        expect((await next.query("SELECT current_setting('TimeZone') AS tz"))[0].tz, change).not.toBe('Asia/Tokyo');
        expect(await next.query("SELECT id FROM merchants WHERE id = 'mer_open'"), change).toEqual([]);
      } finally {
        await next.drop();
      }
    }
  });

  test('a handle handed back or closed refuses every statement, rejecting as a Db does (never a synchronous throw)', async () => {
    const db = await testDb();
    await db.drop();
    await expect(db.query('SELECT 1')).rejects.toThrow('this test database was dropped or closed');
    await expect(db.exec('SELECT 1')).rejects.toThrow('this test database was dropped or closed');
    await expect(db.tx(async () => {})).rejects.toThrow('this test database was dropped or closed');
    if (db.kind === 'pg') await expect(db.relaxed!.query('SELECT 1')).rejects.toThrow('this test database was dropped or closed'); // PostgreSQL's counters' connections
    const other = await testDb();
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toThrow('this test database was dropped or closed');
  });
});
