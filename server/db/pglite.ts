import { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { Db, INT8_OID, Queryable, Row, StatementNames, normaliseParams } from './db.js';
import { FaultLog } from './faults.js';
import { frontendMessage, readRows } from './pglite-wire.js';
import { makeTreePrivate } from './private-dir.js';

/** How often an open data directory's files are made private again (private-dir.ts: PGlite sets its own modes). */
export const FILE_MODES_EVERY_MS = 60_000;

// Set once at creation: passing parsers per query makes PGlite copy its parser table every time
// (measured: 100-170 µs a query).
const parsers = { [INT8_OID]: (v: string) => Number(v) };

/** A parameter as PostgreSQL's text input reads it (what `pg` sends): bytes as hex, the rest as text. */
const asText = (v: unknown): string | null =>
  v == null ? null : v instanceof Uint8Array ? `\\x${Buffer.from(v).toString('hex')}` : String(v);

/**
 * A statement with parameters as ONE protocol message (Parse, Bind, Describe, Execute, Sync), where
 * PGlite's own query() makes six passes through the backend (it describes the statement first to
 * pick a serializer for each parameter; here PostgreSQL infers the types from the text, as it does
 * for `pg`), and as a named prepared statement where db.ts allows: parsed and planned once.
 * Measured on one in-memory INSERT + SELECT pair: ~280 µs CPU a statement through query(), ~230 one
 * message unnamed, ~135 one message named. `inTx`: the caller holds PGlite's transaction lock (the
 * statement runs inside pg.transaction()); otherwise it is taken, so a statement never lands inside
 * another caller's open transaction. No syncToFs() after it, which query() makes: this adapter opens
 * only a directory (NodeFS) or memory, whose syncToFs is empty (NodeFS writes through to the files
 * as PostgreSQL writes), and the call alone took a lock and ~4% of a statement's CPU. The message is
 * written and its answer read by pglite-wire.ts, not by PGlite's protocol parser.
 */
function runner(pg: PGlite, names: StatementNames, prepared: Set<string>) {
  const internal = pg as unknown as {
    _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
    _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  };
  return async (sql: string, params: unknown[], inTx: boolean): Promise<Row[]> => {
    const name = names.nameOf(sql);
    const values = params.map(asText);
    // Built under the lock: whether the name is prepared may change while a caller waits for it.
    const run = () => internal._runExclusiveQuery(async () => {
      const parse = !name || !prepared.has(name);
      const chunks: Buffer[] = [];
      try {
        // The backend writes its answer through this callback, a view of its memory: copied at once.
        await pg.execProtocolRawStream(frontendMessage({ name: name ?? '', sql, values, parse }), {
          syncToFs: false, onRawData: (bytes) => chunks.push(Buffer.from(bytes)),
        });
        const rows = readRows(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), pg.parsers);
        if (name) prepared.add(name);
        return rows;
      } catch (err) {
        if (name) prepared.delete(name);
        throw err;
      }
    });
    try {
      return await (inTx ? run() : internal._runExclusiveTransaction(run));
    } catch (err) {
      if (name) names.failed(sql, err);
      throw err;
    }
  };
}

/**
 * Embedded PostgreSQL (WASM). dataDir undefined means in memory. `extra` passes PGlite options
 * through (snapshot.ts: a data directory to load, initdb parameters, a precompiled module). A data
 * directory's files are made 0600 and its folders 0700 once PGlite has opened it (initdb writes
 * mode 666 files; an older Tessera left them so), every `modesEveryMs` while open, and at close.
 */
export async function openPglite(dataDir?: string, extra: PGliteOptions = {}, { modesEveryMs = FILE_MODES_EVERY_MS } = {}): Promise<Db> {
  const pg = await PGlite.create(dataDir ? { ...extra, parsers, dataDir } : { ...extra, parsers });
  let modes: NodeJS.Timeout | undefined;
  if (dataDir) {
    try {
      await makeTreePrivate(dataDir);
    } catch (err) {
      await pg.close();
      throw new Error(`cannot make the files of ${dataDir} private: ${(err as Error).message}`);
    }
    let running = false;
    modes = setInterval(() => {
      if (running) return;
      running = true;
      // The pass at open showed every file is ours: a failure now is a file that vanished midway.
      void makeTreePrivate(dataDir).catch(() => {}).finally(() => (running = false));
    }, modesEveryMs).unref();
  }
  const run = runner(pg, new StatementNames(), new Set());
  // A full disk fails writes while reads go on: /readyz asks what the statements met (faults.ts).
  const faults = new FaultLog();
  const noted = <T>(p: Promise<T>) => p.catch((err) => {
    faults.record(err);
    throw err;
  });
  const wrap = (inTx: boolean, exec: (sql: string) => Promise<unknown>): Queryable => ({
    query: async <T extends Row>(sql: string, params?: unknown[]) => (await noted(run(sql, normaliseParams(params), inTx))) as T[],
    exec: async (sql: string) => {
      await noted(exec(sql));
    },
  });
  const q = wrap(false, (sql) => pg.exec(sql));
  return {
    kind: 'pglite',
    query: q.query,
    exec: q.exec,
    tx: (fn) => noted(pg.transaction((t) => fn(wrap(true, (sql) => t.exec(sql))))),
    recentFault: () => faults.recent(),
    close: async () => {
      clearInterval(modes);
      await pg.close();
      // What PGlite wrote last (its relation-cache files at shutdown among them), before a backup copies it.
      if (dataDir) await makeTreePrivate(dataDir);
    },
  };
}
