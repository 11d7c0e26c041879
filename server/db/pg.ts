import pg from 'pg';
import { Db, INT8_OID, Queryable, Row, StatementNames, normaliseParams } from './db.js';

const types = {
  getTypeParser(oid: number, format?: any) {
    if (oid === INT8_OID) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Names of prepared statements, for every connection of the process (db.ts says which texts get one). */
const names = new StatementNames();
export { MAX_PREPARED } from './db.js';

function wrap(c: pg.Pool | pg.PoolClient, prepare: boolean): Queryable {
  return {
    async query<T extends Row>(sql: string, params?: unknown[]) {
      const name = prepare ? names.nameOf(sql) : undefined;
      try {
        const res = await c.query({ name, text: sql, values: normaliseParams(params) as any[] });
        return res.rows as T[];
      } catch (err) {
        if (name) names.failed(sql, err);
        throw err;
      }
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
  /**
   * Named prepared statements (default true; StatementNames in db.ts). false
   * (DATABASE_PREPARED_STATEMENTS=off) sends everything unnamed, e.g. behind a connection pooler in
   * transaction mode that does not track prepared statements.
   */
  prepare?: boolean;
}

/** A pool; `settings` are server settings for each of its connections (`-c name=value`). */
function openPool(url: string, max: number, settings: Record<string, string>): pg.Pool {
  const options = Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`).join(' ');
  const pool = new pg.Pool({ connectionString: url, max, types: types as any, options: options || undefined });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => {});
  return pool;
}

export async function openPg(url: string, opts: PgOptions = {}): Promise<Db> {
  const schema: Record<string, string> = opts.schema ? { search_path: opts.schema } : {};
  const pool = openPool(url, opts.max ?? 10, schema);
  await pool.query('SELECT 1');
  // Db.relaxed: a few connections (opened when first used) that commit without waiting for the WAL flush.
  const relaxedPool = openPool(url, 4, { ...schema, synchronous_commit: 'off' });
  const prepare = opts.prepare ?? true;
  const q = wrap(pool, prepare);
  return {
    kind: 'pg',
    query: q.query,
    exec: q.exec,
    relaxed: wrap(relaxedPool, prepare),
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client, prepare));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    close: async () => {
      await Promise.all([pool.end(), relaxedPool.end()]);
    },
  };
}
