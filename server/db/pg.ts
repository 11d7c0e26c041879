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
 * parses and plans them once instead of on every call. Which ones:
 *  - not a text with `*` in it (`SELECT *`, `RETURNING t.*`): a migration that adds a column while
 *    this node runs would change its result and PostgreSQL would refuse the cached plan (0A000)
 *    on every later call; texts that name their columns are re-planned silently instead;
 *  - only the first MAX_PREPARED texts of the process: a prepared statement lives as long as its
 *    connection and some texts depend on the request (an update names the fields it was given);
 *  - never again, a text PostgreSQL refused the cached plan of (a column type changed under it).
 * `prepare: false` (DATABASE_PREPARED_STATEMENTS=off) sends everything unnamed, e.g. behind a
 * connection pooler in transaction mode that does not track prepared statements.
 */
export const MAX_PREPARED = 200;
const names = new Map<string, string | null>();
let named = 0;
/** `SELECT *`, `t.*`, `RETURNING *`: a result whose columns a migration can change (count(*) cannot). */
const selectsStar = (sql: string) => sql.replace(/count\(\*\)/gi, '').includes('*');
function nameOf(sql: string): string | undefined {
  if (selectsStar(sql)) return undefined;
  let name = names.get(sql);
  if (name === undefined && named < MAX_PREPARED) {
    name = 't' + createHash('sha1').update(sql).digest('hex').slice(0, 20);
    names.set(sql, name);
    named++;
  }
  return name ?? undefined;
}
const CACHED_PLAN_CHANGED = '0A000';

function wrap(c: pg.Pool | pg.PoolClient, prepare: boolean): Queryable {
  return {
    async query<T extends Row>(sql: string, params?: unknown[]) {
      const name = prepare ? nameOf(sql) : undefined;
      try {
        const res = await c.query({ name, text: sql, values: normaliseParams(params) as any[] });
        return res.rows as T[];
      } catch (err) {
        if (name && (err as { code?: string }).code === CACHED_PLAN_CHANGED) names.set(sql, null);
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
  /** Named prepared statements (default true); see nameOf. */
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
