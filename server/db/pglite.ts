import { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { Db, INT8_OID, Queryable, Row, normaliseParams } from './db.js';

type Runner = {
  query: (sql: string, params?: unknown[], opts?: any) => Promise<{ rows: any[] }>;
  exec: (sql: string) => Promise<unknown>;
};

// Set once at creation: passing parsers per query makes PGlite copy its parser table every time
// (measured: 100-170 µs a query).
const parsers = { [INT8_OID]: (v: string) => Number(v) };

function wrap(r: Runner): Queryable {
  return {
    async query<T extends Row>(sql: string, params?: unknown[]) {
      const res = await r.query(sql, normaliseParams(params));
      return res.rows as T[];
    },
    async exec(sql: string) {
      await r.exec(sql);
    },
  };
}

/**
 * Embedded PostgreSQL (WASM). dataDir undefined means in memory. `extra` passes PGlite options
 * through (snapshot.ts: a data directory to load, initdb parameters, a precompiled module).
 */
export async function openPglite(dataDir?: string, extra: PGliteOptions = {}): Promise<Db> {
  const pg = await PGlite.create(dataDir ? { ...extra, parsers, dataDir } : { ...extra, parsers });
  const q = wrap(pg);
  return {
    kind: 'pglite',
    query: q.query,
    exec: q.exec,
    tx: (fn) => pg.transaction((t) => fn(wrap(t))),
    close: () => pg.close(),
  };
}
