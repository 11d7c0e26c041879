import type postgresTypes from 'postgres';
import { postgres } from './pg-driver.js';
import { Db, INT8_OID, Queryable, Row, StatementNames, normaliseParams } from './db.js';
import { Breaker, DatabaseTimeoutError, FaultLog } from './faults.js';

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
 * Deadlines: every wait on PostgreSQL ends. The server ends a statement after statementMs, a
 * lock wait after lockMs and a transaction left idle after idleTxMs (DEADLINES); a connection attempt
 * gives up after CONNECT_S. A server that does not answer at all (frozen, a network that drops
 * packets) cannot end anything: the client's own deadlines answer the caller then, a statement
 * after statementMs + GRACE_MS (and asks the server to cancel it), a transaction after
 * txMs, with a DatabaseTimeoutError (503 DB01 at the HTTP edge). What the server does
 * with a transaction we stopped waiting for is unknown to the caller; the Idempotency-Key's
 * record (http/idempotency.ts) tells a retry.
 */
export interface Deadlines {
  statementMs: number;
  lockMs: number;
  idleTxMs: number;
  txMs: number;
}
export const DEADLINES: Deadlines = { statementMs: 10_000, lockMs: 5_000, idleTxMs: 30_000, txMs: 25_000 };
const GRACE_MS = 2_000;
const CONNECT_S = 5;
/**
 * Seconds before a pool reconnects after its n-th failed connection in a row (n is the pool's,
 * reset by a success). The driver's own grows as 3^n / 100 up to 20 s, so after an outage of a few
 * seconds a node went on refusing for up to 20 s once the database was back; at most 1 s here.
 */
const reconnectAfter = (n: number) => Math.min(0.05 * 2 ** n, 1) * (0.5 + Math.random() / 2);

/** fn's promise, or a DatabaseTimeoutError after ms (then onLate, and fn's own outcome is dropped). */
function deadline<T>(p: Promise<T>, ms: number, what: string, onLate?: () => void, kind: 'statement' | 'transaction' = 'statement'): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      p.catch(() => {}); // settled later, by nobody's request
      onLate?.();
      reject(new DatabaseTimeoutError(what, ms, kind));
    }, ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** A transaction's own state: once its caller has its answer (commit, error or deadline), it runs nothing more. */
interface TxState {
  over: boolean;
}

/**
 * `names`: which texts get a prepared statement on the connections of one pool (see db.ts), so one
 * Db's texts never use up another's MAX_PREPARED (as PGlite's adapter keeps its own). `breaker`:
 * the pool's (Breaker); a transaction's statements pass none. `tx`: the transaction's state.
 */
function wrap(sql: postgresTypes.Sql | postgresTypes.TransactionSql, prepare: boolean, names: StatementNames, faults: FaultLog, limits: Deadlines, breaker?: Breaker, tx?: TxState): Queryable {
  const run = async <T extends Row>(text: string, params?: unknown[]) => {
    // A statement of a transaction whose caller was already answered (its deadline, its connection
    // lost while the function awaited something else) never reaches a connection: it would run in
    // autocommit on a reconnected one, or inside another request's transaction.
    if (tx?.over) throw new DatabaseTimeoutError('a statement of a transaction that has ended', 0, 'transaction');
    const named = prepare && names.nameOf(text) !== undefined;
    const pending = sql.unsafe(text, normaliseParams(params) as any[], { prepare: named });
    return (await deadline(pending, limits.statementMs + GRACE_MS, 'a statement', () => void Promise.resolve(pending.cancel() as unknown).catch(() => {}))) as unknown as T[];
  };
  return {
    async query<T extends Row>(text: string, params?: unknown[]) {
      try {
        // A statement of an open transaction has its connection: no breaker (the transaction went through it).
        return await (breaker ? breaker.run(() => run<T>(text, params)) : run<T>(text, params));
      } catch (err) {
        faults.record(err);
        throw err;
      }
    },
    async exec(text: string) {
      await sql.unsafe(text).simple();
    },
  };
}

export interface PgOptions {
  /** Sets search_path on every connection: tests isolate themselves in a schema. */
  schema?: string;
  /**
   * Connections for transactions (default 10), and half as many for single statements, which the
   * driver pipelines (fewer connections, longer pipelines: 13-22% less gateway CPU per charge than
   * 10; docs/decisions/database.md). Each is opened when first used.
   */
  max?: number;
  /**
   * Prepared statements (default true; StatementNames in db.ts says which texts). false
   * (DATABASE_PREPARED_STATEMENTS=off) sends everything unnamed, e.g. behind a connection pooler in
   * transaction mode that does not track prepared statements.
   */
  prepare?: boolean;
  /** Server timeouts and client deadlines (DEADLINES); tests shorten them. */
  deadlines?: Partial<Deadlines>;
}

/** A pool; `settings` are server settings for each of its connections. */
function openPool(url: string, max: number, settings: Record<string, string>, prepare: boolean, limits: Deadlines) {
  const timeouts = { statement_timeout: limits.statementMs, lock_timeout: limits.lockMs, idle_in_transaction_session_timeout: limits.idleTxMs };
  return postgres(url, { max, types, connection: { ...timeouts, ...settings }, prepare, connect_timeout: CONNECT_S, backoff: reconnectAfter, onnotice: () => {} });
}

/**
 * Connections lent to one transaction at a time, each a driver of its own (`max: 1`), so nothing
 * but that transaction's statements ever reaches it. The driver's pool (3.4.9) cannot be trusted
 * with transactions beside pipelined statements: a BEGIN that fills a connection's pipeline is sent
 * without reserving the connection, and a socket that drains hands back a connection a transaction
 * holds, so another caller's statement ran inside that transaction (committed or rolled back with
 * it); see docs/decisions/database.md. A connection comes back once the driver's transaction has
 * settled, never earlier (a caller answered by its deadline does not free it).
 */
class TxConnections {
  private readonly idle: postgresTypes.Sql[] = [];
  private readonly all: postgresTypes.Sql[] = [];
  private readonly waiting: { resolve(c: postgresTypes.Sql): void; reject(err: Error): void }[] = [];
  private ended = false;

  constructor(private readonly open: () => postgresTypes.Sql, private readonly size: number) {}

  take(): Promise<postgresTypes.Sql> {
    if (this.ended) return Promise.reject(endedError());
    const idle = this.idle.pop();
    if (idle) return Promise.resolve(idle);
    if (this.all.length < this.size) {
      const c = this.open();
      this.all.push(c);
      return Promise.resolve(c);
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  give(c: postgresTypes.Sql) {
    const next = this.waiting.shift();
    if (next) next.resolve(c);
    else this.idle.push(c);
  }

  async end(timeout: number) {
    this.ended = true;
    for (const w of this.waiting.splice(0)) w.reject(endedError());
    await Promise.all(this.all.map((c) => c.end({ timeout })));
  }
}

/** The driver's own code for a pool that was ended: a connection fault to the caller (faults.ts). */
const endedError = () => Object.assign(new Error('the database connections were closed'), { code: 'CONNECTION_ENDED' });

/**
 * PostgreSQL through `postgres` (porsager): statements of requests that arrive together are
 * written to a connection together (pipelined, one socket write per turn of the event loop) where
 * `pg` made one write and one round trip per statement and connection.
 */
export async function openPg(url: string, opts: PgOptions = {}): Promise<Db> {
  const schema: Record<string, string> = opts.schema ? { search_path: opts.schema } : {};
  const prepare = opts.prepare ?? true;
  const limits = { ...DEADLINES, ...opts.deadlines };
  const max = opts.max ?? 10;
  const sql = openPool(url, Math.ceil(max / 2), schema, prepare, limits);
  try {
    await sql`SELECT 1`;
  } catch (err) {
    await sql.end({ timeout: 0 }).catch(() => {});
    throw err;
  }
  // Db.relaxed: a few connections (opened when first used) that commit without waiting for the WAL flush.
  const relaxed = openPool(url, 4, { ...schema, synchronous_commit: 'off' }, prepare, limits);
  const txs = new TxConnections(() => openPool(url, 1, schema, prepare, limits), max);
  const names = new StatementNames();
  const faults = new FaultLog();
  const breaker = new Breaker(faults);
  const q = wrap(sql, prepare, names, faults, limits, breaker);
  return {
    kind: 'pg',
    query: q.query,
    exec: q.exec,
    relaxed: wrap(relaxed, prepare, new StatementNames(), faults, limits, breaker),
    tx: async (fn, opts) => {
      const ms = opts?.deadlineMs === undefined ? limits.txMs : opts.deadlineMs;
      const state: TxState = { over: false };
      const ended = () => new DatabaseTimeoutError('a transaction (its deadline passed before it committed)', ms ?? 0, 'transaction');
      const inTx = async (c: postgresTypes.Sql) => {
        try {
          // A transaction that waited for a connection past its deadline sends nothing; a function
          // that finished after it rolls back instead of committing what its caller was told had failed.
          if (state.over) throw ended();
          return await (c.begin(async (t) => {
            if (state.over) throw ended();
            const result = await fn(wrap(t, prepare, names, faults, limits, undefined, state));
            if (state.over) throw ended();
            return result;
          }) as Promise<any>);
        } finally {
          txs.give(c);
        }
      };
      const begin = () => {
        const run = txs.take().then(inTx).finally(() => {
          state.over = true;
        });
        return ms === null ? run : deadline(run, ms, 'a transaction', () => {
          state.over = true;
        }, 'transaction');
      };
      try {
        return await breaker.run(begin);
      } catch (err) {
        faults.record(err);
        throw err;
      }
    },
    recentFault: () => faults.recent(),
    close: async () => {
      await Promise.all([sql.end({ timeout: 5 }), relaxed.end({ timeout: 5 }), txs.end(5)]);
    },
  };
}
