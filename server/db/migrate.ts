import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../paths.js';
import { performance } from 'node:perf_hooks';
import { Db, Queryable } from './db.js';

// Any constant: serialises migrations when several nodes start on one PostgreSQL.
const MIGRATION_LOCK = 7_305_551;

/** Told of each migration as it is applied (its file name, how long it took); nothing when the schema is up to date. */
export type MigrationLog = (applied: { migration: string; ms: number }) => void;

/**
 * Applies the migrations not yet recorded, then runs `setup` (first-start work: the demo merchant)
 * in the same transaction, under the same lock: nodes starting together on an empty database
 * take turns, and the second one sees what the first one created. `onApplied` hears of each one
 * as it is applied (start.ts logs a line per migration); they commit together at the end.
 */
export async function migrate(db: Db, setup?: (q: Queryable) => Promise<void>, onApplied?: MigrationLog): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort();
  return db.tx(async (q) => {
    // A migration may rewrite a large table, and a node starting beside another waits for its
    // lock as long as that takes: no statement or lock timeout here, and no deadline (pg.ts).
    if (db.kind === 'pg') await q.query("SELECT set_config('statement_timeout', '0', true), set_config('lock_timeout', '0', true)");
    await q.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await q.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL)',
    );
    const done = new Set((await q.query('SELECT version FROM schema_migrations')).map((r) => r.version));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const t0 = performance.now();
      await q.exec(readFileSync(join(MIGRATIONS_DIR, file), 'utf8'));
      await q.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [file, new Date()]);
      applied.push(file);
      onApplied?.({ migration: file, ms: Math.round(performance.now() - t0) });
    }
    await setup?.(q);
    return applied;
  }, { deadlineMs: null });
}
