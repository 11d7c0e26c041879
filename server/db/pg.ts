import type postgresTypes from 'postgres';
import { postgres } from './pg-driver.js';
import { Db, INT8_OID, Queryable, Row, StatementNames, normaliseParams } from './db.js';

export { MAX_PREPARED } from './db.js';

const asText = (x: unknown) => String(x);
/**
 * int8 read as a number (cents and counts fit). Parameters go as the text normaliseParams made of
 * them (a JSON one is already a string, a Date already ISO): the driver's own JSON and date
 * serializers, picked by the type the server infers for a parameter, must not touch them again.
 */
const types = {
  int8: { to: INT8_OID, from: [INT8_OID], serialize: asText, parse: (v: string) => Number(v) },
  json: { to: 114, from: [114, 3802], serialize: asText, parse: (v: string) => JSON.parse(v) },
  date: { to: 1184, from: [1082, 1114, 1184], serialize: asText, parse: (v: string) => new Date(v) },
};

/**
 * `names`: which texts get a prepared statement on the connections of one pool (see db.ts), so one
 * Db's texts never use up another's MAX_PREPARED (as PGlite's adapter keeps its own).
 */
function wrap(sql: postgresTypes.Sql | postgresTypes.TransactionSql, prepare: boolean, names: StatementNames): Queryable {
  return {
    async query<T extends Row>(text: string, params?: unknown[]) {
      const named = prepare && names.nameOf(text) !== undefined;
      return (await sql.unsafe(text, normaliseParams(params) as any[], { prepare: named })) as unknown as T[];
    },
    async exec(text: string) {
      await sql.unsafe(text).simple();
    },
  };
}

export interface PgOptions {
  /** Sets search_path on every connection: tests isolate themselves in a schema. */
  schema?: string;
  max?: number;
  /**
   * Prepared statements (default true; StatementNames in db.ts says which texts). false
   * (DATABASE_PREPARED_STATEMENTS=off) sends everything unnamed, e.g. behind a connection pooler in
   * transaction mode that does not track prepared statements.
   */
  prepare?: boolean;
}

/** A pool; `settings` are server settings for each of its connections. */
function openPool(url: string, max: number, settings: Record<string, string>, prepare: boolean) {
  return postgres(url, { max, types, connection: settings, prepare, onnotice: () => {} });
}

/**
 * PostgreSQL through `postgres` (porsager): statements of requests that arrive together are
 * written to a connection together (pipelined, one socket write per turn of the event loop) where
 * `pg` made one write and one round trip per statement and connection.
 */
export async function openPg(url: string, opts: PgOptions = {}): Promise<Db> {
  const schema: Record<string, string> = opts.schema ? { search_path: opts.schema } : {};
  const prepare = opts.prepare ?? true;
  const sql = openPool(url, opts.max ?? 10, schema, prepare);
  try {
    await sql`SELECT 1`;
  } catch (err) {
    await sql.end({ timeout: 0 }).catch(() => {});
    throw err;
  }
  // Db.relaxed: a few connections (opened when first used) that commit without waiting for the WAL flush.
  const relaxed = openPool(url, 4, { ...schema, synchronous_commit: 'off' }, prepare);
  const names = new StatementNames();
  const q = wrap(sql, prepare, names);
  return {
    kind: 'pg',
    query: q.query,
    exec: q.exec,
    relaxed: wrap(relaxed, prepare, new StatementNames()),
    tx: (fn) => sql.begin((t) => fn(wrap(t, prepare, names))) as Promise<any>,
    close: async () => {
      await Promise.all([sql.end({ timeout: 5 }), relaxed.end({ timeout: 5 })]);
    },
  };
}
