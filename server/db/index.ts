import { Db, Queryable } from './db.js';
import { lockDataDir } from './lock.js';
import { MigrationLog, migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { ensurePrivateDir } from './private-dir.js';
import { migratedSnapshot, pgliteAssets } from './snapshot.js';

export type { Db, Queryable, Row } from './db.js';
export { pagedQuery } from './db.js';

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
  /** Told of each migration applied (start.ts logs one line each). */
  onMigration?: MigrationLog;
}

/** DATABASE_URL names a server Tessera cannot reach or use: an operator's fix, said in one line. */
export class DatabaseUnavailableError extends Error {}

/** How long a first connection may take before the start gives up (a firewall that drops packets never answers). */
const CONNECT_MS = 10_000;

/** Network errors, and PostgreSQL's connection (08), authorization (28) and unknown-database (3D000) refusals. */
function unavailable(err: any, url: string): DatabaseUnavailableError | null {
  const code = String(err?.code ?? '');
  const network = /^E[A-Z]+$/.test(code) && err?.syscall !== undefined;
  if (!network && !/^(08|28)/.test(code) && code !== '3D000' && code !== '57P03' && !/SSL|timeout/i.test(String(err?.message))) return null;
  let where = 'the server';
  try {
    const u = new URL(url); // never the password
    where = `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch { /* config.ts checked the form */ }
  return new DatabaseUnavailableError(`DATABASE_URL: cannot use PostgreSQL at ${where}: ${err?.message || code}${code && !String(err?.message).includes(code) ? ` (${code})` : ''}`);
}

/** Opens the configured database, holds the data-dir lock for PGlite, and applies migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Db> {
  if (opts.databaseUrl) {
    // Loaded only when used: an in-memory gateway starts without the pg driver.
    const { openPg } = await import('./pg.js');
    const url = opts.databaseUrl;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DatabaseUnavailableError(`DATABASE_URL: no answer from PostgreSQL within ${CONNECT_MS / 1000} s`)), CONNECT_MS);
    });
    const db = await Promise.race([openPg(url, { schema: opts.schema, prepare: opts.prepare }), late])
      .catch((err) => {
        throw unavailable(err, url) ?? err;
      })
      .finally(() => clearTimeout(timer));
    if (opts.schema) await db.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
    await migrate(db, opts.setup, opts.onMigration);
    return db;
  }
  let unlock = () => {};
  if (opts.dataDir) {
    ensurePrivateDir(opts.dataDir);
    unlock = lockDataDir(opts.dataDir);
  }
  try {
    const db = opts.dataDir ? await openPglite(opts.dataDir) : await openMemory();
    await migrate(db, opts.setup, opts.onMigration);
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
