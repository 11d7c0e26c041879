import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dist } from './dist.mjs';

/**
 * The database the scenarios share, opened and migrated like production:
 *  - default: embedded PGlite in a fresh temp data directory (on disk), removed on close;
 *  - BENCH_DATABASE_URL: PostgreSQL, in a dedicated schema `bench_<random>` dropped on close,
 *    so nothing is left in the target database.
 * Extension point for the two-node PostgreSQL mode: add a backend kind here that also reports how
 * many gateway nodes to start (lib/gateway.mjs takes `nodes`), e.g. BENCH_NODES=2 with a URL.
 */
export async function openBackend(cfg) {
  const { openDatabase } = await dist('db/index.js');
  const { Vault } = await dist('vault.js');
  const { systemClock } = await dist('clock.js');
  // TESSERA_DATA_KEY-free: a throwaway key, the same cost as a configured one.
  const vault = new Vault(randomBytes(32));

  if (cfg.databaseUrl) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    const dropSchema = async () => {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: cfg.databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    };
    let db;
    try {
      db = await openDatabase({ databaseUrl: cfg.databaseUrl, schema });
    } catch (err) {
      await dropSchema().catch(() => {});
      throw err;
    }
    return {
      kind: 'pg',
      label: `PostgreSQL ${redactUrl(cfg.databaseUrl)} (schema ${schema}, pool max 10 per node)`,
      db,
      vault,
      clock: systemClock,
      async close() {
        await db.close();
        await dropSchema();
      },
    };
  }

  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-'));
  let db;
  try {
    db = await openDatabase({ dataDir: dir });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    kind: 'pglite',
    label: `PGlite on disk (${dir})`,
    db,
    vault,
    clock: systemClock,
    async close() {
      try {
        await db.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function redactUrl(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(database url)';
  }
}
