import { mkdirSync } from 'node:fs';
import { Db } from './db.js';
import { lockDataDir } from './lock.js';
import { migrate } from './migrate.js';
import { openPg } from './pg.js';
import { openPglite } from './pglite.js';

export type { Db, Queryable, Row } from './db.js';

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite data directory; undefined keeps the database in memory. */
  dataDir?: string;
  /** PostgreSQL schema (tests isolate themselves this way). */
  schema?: string;
}

/** Opens the configured database, holds the data-dir lock for PGlite, and applies migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Db> {
  if (opts.databaseUrl) {
    const db = await openPg(opts.databaseUrl, { schema: opts.schema });
    if (opts.schema) await db.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
    await migrate(db);
    return db;
  }
  let unlock = () => {};
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    unlock = lockDataDir(opts.dataDir);
  }
  try {
    const db = await openPglite(opts.dataDir);
    await migrate(db);
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
