import { createHash } from 'node:crypto';
import pg from 'pg';
import { Db, INT8_OID, Queryable, Row, normaliseParams } from './db.js';

const types = {
  getTypeParser(oid: number, format?: any) {
    if (oid === INT8_OID) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * Statements are prepared once per connection under a name derived from their text, so PostgreSQL
 * parses and plans them once instead of on every call. A prepared statement lives as long as its
 * connection, and some texts depend on the request (an update names the fields it was given), so
 * only the first MAX_PREPARED distinct texts of the process get a name: the hot paths, seen at
 * once, and a bound on what each connection keeps. Later texts run unnamed, as before.
 */
export const MAX_PREPARED = 200;
const names = new Map<string, string>();
function nameOf(sql: string): string | undefined {
  let name = names.get(sql);
  if (!name && names.size < MAX_PREPARED) {
    name = 't' + createHash('sha1').update(sql).digest('hex').slice(0, 20);
    names.set(sql, name);
  }
  return name;
}

function wrap(c: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T extends Row>(sql: string, params?: unknown[]) {
      const res = await c.query({ name: nameOf(sql), text: sql, values: normaliseParams(params) as any[] });
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
