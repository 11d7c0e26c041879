// The API suite's databases: in-memory PGlite, or a schema of TEST_DATABASE_URL, each as a
// freshly migrated database would be, and never shared by two files at once.
//
// A file that is done with its database hands it back (`drop`), and the next file of the same
// worker (vitest.config.ts runs the API files with isolate: false) gets it again instead of a new
// one, once it is exactly as new: every table emptied, every sequence restarted, and nothing else
// changed. Whatever else a file left behind (a table, column, index, constraint, trigger or
// function changed, added or renamed; a setting, temporary table, advisory lock or LISTEN of the
// session; a transaction left open; a recorded fault; the migrations' own record) is compared with
// the state of a new database, and any difference closes it instead. A handle that was dropped or
// closed refuses every statement, so a straggling job of one file cannot write into the next file's
// database. Why: a new in-memory PGlite costs ~0.3 s of CPU (the snapshot untarred, Postgres
// booted) and a new PostgreSQL schema ~0.2 s (its migrations, then its drop), in each of ~110 files
// per database; the reset costs ~0.08 s (docs/decisions/test-suite-time.md).
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { Db, Queryable, Row, openDatabase } from '../../server/db/index.js';

/** Which database this vitest project runs the API suite on (see vitest.config.ts). */
export const DB_KIND = process.env.TESSERA_TEST_DB === 'pg' ? 'pg' : 'pglite';

export type TestDb = Db & { drop(): Promise<void> };

declare module 'vitest' {
  export interface ProvidedContext {
    /** Every PostgreSQL schema of this run starts with it (test/setup/test-schemas.ts drops what is left). */
    testSchemaPrefix: string;
  }
}

/** What a file may change besides rows, as one text (without the schema's name): the same for every new database. */
const STATE = `SELECT replace(concat_ws(E'\\n',
  (SELECT string_agg(x, E'\\n' ORDER BY x) FROM (
    SELECT format('rel %s %s %s', c.relname, c.relkind, c.relpersistence) AS x FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace OR c.relpersistence = 't'
    UNION ALL SELECT format('col %s.%s %s %s %s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
        pg_get_expr(d.adbin, d.adrelid))
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE c.relnamespace = current_schema()::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL SELECT format('con %s %s', conname, pg_get_constraintdef(oid)) FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
    UNION ALL SELECT format('idx %s', pg_get_indexdef(indexrelid)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relnamespace = current_schema()::regnamespace
    UNION ALL SELECT format('trg %s %s', t.tgname, t.tgrelid::regclass) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace
    UNION ALL SELECT format('fn %s %s', p.oid::regprocedure, md5(p.prosrc)) FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace
    UNION ALL SELECT format('set %s=%s', name, setting) FROM pg_settings WHERE source = 'session'
    UNION ALL SELECT format('lock %s %s', locktype, objid) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
    UNION ALL SELECT format('listen %s', ch) FROM pg_listening_channels() ch
    UNION ALL SELECT format('migration %s', version) FROM schema_migrations
    UNION ALL SELECT 'open transaction' WHERE pg_current_xact_id_if_assigned() IS NOT NULL
  ) s)), current_schema() || '.', '') AS state`;

/** Empties every table but the migrations' record and restarts every sequence of the schema. */
const RESET = `DO $$
DECLARE r record;
BEGIN
  EXECUTE (SELECT 'TRUNCATE ' || string_agg(format('%I', tablename), ', ') FROM pg_tables
    WHERE schemaname = current_schema() AND tablename <> 'schema_migrations');
  FOR r IN SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema() LOOP
    EXECUTE format('ALTER SEQUENCE %I RESTART', r.sequencename);
  END LOOP;
END $$`;

const stateOf = async (q: Queryable) => String((await q.query(STATE))[0].state);

interface Spare {
  /** PGlite: the open database. PostgreSQL: closed; the schema is reopened with a new pool. */
  db?: Db;
  schema?: string;
}

/** This worker's databases handed back clean, and the state of a new one, per database kind. */
const spares: Spare[] = [];
let newState: string | null = null;
/** This worker's databases opened new, handed back clean, and handed to a next file (test-db.test.ts). */
export const testDbCounts = { opened: 0, handedBack: 0, reused: 0 };

async function open(): Promise<{ db: Db; schema?: string }> {
  const spare = spares.pop();
  if (spare) testDbCounts.reused++;
  else testDbCounts.opened++;
  if (DB_KIND === 'pglite') return { db: spare?.db ?? (await openDatabase({})) };
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TESSERA_TEST_DB=pg needs TEST_DATABASE_URL');
  const schema = spare?.schema ?? `${inject('testSchemaPrefix')}${randomBytes(6).toString('hex')}`;
  return { db: await openDatabase({ databaseUrl: url, schema }), schema };
}

/** Makes `db` as new and keeps it for the next file; false (and nothing kept) when it cannot be. */
async function handBack(db: Db, schema: string | undefined): Promise<boolean> {
  if (db.recentFault?.()) return false;
  try {
    await db.exec(RESET);
    if ((await stateOf(db)) !== newState) return false;
  } catch {
    return false;
  }
  if (schema) {
    await db.close();
    spares.push({ schema });
  } else spares.push({ db });
  testDbCounts.handedBack++;
  return true;
}

/** An empty database: in-memory PGlite, or a schema of TEST_DATABASE_URL, as freshly migrated. */
export async function testDb(): Promise<TestDb> {
  // Workers run several files without isolation (vitest.config.ts): never one that ran the other project.
  if ((process.env.TESSERA_TEST_DB === 'pg' ? 'pg' : 'pglite') !== DB_KIND && process.env.TESSERA_TEST_DB !== 'none') {
    throw new Error(`this worker imported the test helpers as ${DB_KIND} and now runs TESSERA_TEST_DB=${process.env.TESSERA_TEST_DB}`);
  }
  if (process.env.TESSERA_TEST_DB === 'none') {
    // The unit project (vitest.config.ts, PURE_SERVER) runs each file once, on no database.
    throw new Error('this test file opens a database: remove it from PURE_SERVER in vitest.config.ts so it runs on PGlite and PostgreSQL');
  }
  const { db, schema } = await open();
  newState ??= await stateOf(db); // the first database of the worker is a new one
  let live = true;
  // A use after drop or close rejects, as the real Db's async methods do (a synchronous throw is
  // what no caller of a Queryable expects: it escaped a fire-and-forget `.catch()` once).
  const gone = () => Promise.reject(new Error('this test database was dropped or closed'));
  const guarded = (q: Queryable): Queryable => ({
    query: <T extends Row>(sql: string, params?: unknown[]) => (live ? q.query<T>(sql, params) : gone()),
    exec: (sql: string) => (live ? q.exec(sql) : gone()),
  });
  return {
    ...db,
    ...guarded(db),
    tx: (fn, opts) => (live ? db.tx(fn, opts) : gone()),
    ...(db.relaxed ? { relaxed: guarded(db.relaxed) } : {}),
    async close() {
      live = false;
      await db.close();
    },
    async drop() {
      if (!live) return;
      live = false;
      if (await handBack(db, schema)) return;
      if (schema) await db.query(`DROP SCHEMA "${schema}" CASCADE`).catch(() => {});
      await db.close();
    },
  };
}
