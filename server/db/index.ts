import { Db, Queryable } from './db.js';
import { lockDataDir } from './lock.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { ensurePrivateDir } from './private-dir.js';
import { migratedSnapshot, pgliteAssets } from './snapshot.js';

export type { Db, Queryable, Row } from './db.js';
export { pageSql } from './db.js';

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite data directory; undefined keeps the database in memory. */
  dataDir?: string;
  /** PostgreSQL schema (tests isolate themselves this way). */
  schema?: string;
  /** PostgreSQL named prepared statements (DATABASE_PREPARED_STATEMENTS); default on. */
  prepare?: boolean;
  /** First-start work, run after the migrations in their transaction and under their lock (see migrate). */
  setup?: (q: Queryable) => Promise<void>;
}

/** Opens the configured database, holds the data-dir lock for PGlite, and applies migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Db> {
  if (opts.databaseUrl) {
    // Loaded only when used: an in-memory gateway starts without the pg driver.
    const { openPg } = await import('./pg.js');
    const db = await openPg(opts.databaseUrl, { schema: opts.schema, prepare: opts.prepare });
    if (opts.schema) await db.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
    await migrate(db, opts.setup);
    return db;
  }
  let unlock = () => {};
  if (opts.dataDir) {
    ensurePrivateDir(opts.dataDir);
    unlock = lockDataDir(opts.dataDir);
  }
  try {
    const db = opts.dataDir ? await openPglite(opts.dataDir) : await openMemory();
    await migrate(db, opts.setup);
    return {
      ...db,
      async close() {
        await db.close();
        unlock();
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/**
 * In memory: start from the cached migrated snapshot (snapshot.ts) when there is one, so no
 * initdb and no migrations run; migrate() afterwards is then a no-op. Without one, plain initdb.
 */
async function openMemory(): Promise<Db> {
  const [snapshot, assets] = await Promise.all([migratedSnapshot(), pgliteAssets()]);
  const extra = assets ? { pgliteWasmModule: assets.module, fsBundle: assets.fsBundle } : {};
  if (snapshot) {
    try {
      return await openPglite(undefined, { ...extra, loadDataDir: snapshot });
    } catch {
      // A damaged cache file must never stop a test run: fall through to initdb.
    }
  }
  return openPglite(undefined, extra);
}
