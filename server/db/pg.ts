import pg from 'pg';
import { Db, INT8_OID, Queryable, Row, normaliseParams } from './db.js';

const types = {
  getTypeParser(oid: number, format?: any) {
    if (oid === INT8_OID) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

function wrap(c: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T extends Row>(sql: string, params?: unknown[]) {
      const res = await c.query(sql, normaliseParams(params) as any[]);
      return res.rows as T[];
    },
    async exec(sql: string) {
      await c.query(sql);
    },
  };
}

export interface PgOptions {
  /** Sets search_path on every connection: tests isolate themselves in a schema. */
  schema?: string;
  max?: number;
}

export async function openPg(url: string, opts: PgOptions = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    types: types as any,
    options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
  });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => {});
  await pool.query('SELECT 1');
  const q = wrap(pool);
  return {
    kind: 'pg',
    query: q.query,
    exec: q.exec,
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
