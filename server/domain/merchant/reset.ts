import { randomBytes } from 'node:crypto';
import { Db, Queryable } from '../../db/index.js';
import { E, GatewayError } from '../../errors.js';
import { Gate } from '../../lib/gate.js';

// Reset of one merchant's test environment: every record goes, as on a fresh start; the keys stay
// (the caller keeps access) and the settings return to their defaults. Live data is never touched:
// the route refuses live keys, and every statement here filters on env = 'test'.
//
// The tables are discovered from the catalogue, not listed, so a table added by a later migration
// is covered by the rule every table follows (merchant_id + env on every row). Only exceptions are
// named below; test/qa/reset-coverage.test.ts fails when a new merchant table fits no rule.

/** Merchant + env credentials, not records: they survive a reset (API keys, the webhook signing secret, a processor connection). */
export const KEEP = new Set(['api_keys', 'webhook_secrets', 'processor_connections']);
/** Merchant + env configuration: its columns go back to their defaults. */
export const RESET_TO_DEFAULTS = new Set(['merchant_settings']);
/** Tables with merchant_id but no env whose rows exist only for the test environment. */
export const TEST_ONLY = new Set(['test_clocks']);
/** Tables with merchant_id but no env that are about the merchant as a whole: untouched. */
export const MERCHANT_WIDE = new Set<string>([]);

export interface ResetPlan {
  /** Deleted in this order: a table always before the tables it references. */
  wipe: { table: string; envColumn: boolean }[];
  defaults: { table: string; columns: string[] }[];
  /** Tables with merchant_id that fit no rule; non-empty means reset.ts needs a decision. */
  unclassified: string[];
}

/** Reads the current schema and decides what a reset does to each merchant table. */
export async function planReset(q: Queryable): Promise<ResetPlan> {
  const columns = await q.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const { table_name, column_name } of columns) {
    byTable.set(table_name, [...(byTable.get(table_name) ?? []), column_name]);
  }
  const wiped = new Map<string, boolean>(); // table -> has env column
  const defaults: ResetPlan['defaults'] = [];
  const unclassified: string[] = [];
  for (const [table, cols] of byTable) {
    if (!cols.includes('merchant_id') || KEEP.has(table) || MERCHANT_WIDE.has(table)) continue;
    const env = cols.includes('env');
    if (RESET_TO_DEFAULTS.has(table)) {
      defaults.push({ table, columns: cols.filter((c) => c !== 'merchant_id' && c !== 'env') });
    } else if (env) {
      wiped.set(table, true);
    } else if (TEST_ONLY.has(table)) {
      wiped.set(table, false);
    } else {
      unclassified.push(table);
    }
  }

  const edges = await q.query<{ child: string; parent: string }>(
    `SELECT ch.relname AS child, pa.relname AS parent
       FROM pg_constraint con
       JOIN pg_class ch ON ch.oid = con.conrelid
       JOIN pg_class pa ON pa.oid = con.confrelid
       JOIN pg_namespace n ON n.oid = ch.relnamespace
      WHERE con.contype = 'f' AND n.nspname = current_schema()`,
  );
  // A table outside the reset that points at a wiped one would make the delete fail (or orphan it).
  for (const { child, parent } of edges) {
    if (wiped.has(parent) && !wiped.has(child) && child !== parent) unclassified.push(`${child} (references ${parent})`);
  }

  const order = deletionOrder([...wiped.keys()], edges);
  return { wipe: order.map((table) => ({ table, envColumn: wiped.get(table)! })), defaults, unclassified };
}

/**
 * Children first: a table comes before every table it references, so no delete ever trips a
 * foreign key. Self-references do not constrain (one statement deletes both ends). Ties sort by
 * name, so the order is stable.
 */
export function deletionOrder(tables: string[], edges: { child: string; parent: string }[]): string[] {
  const order: string[] = [];
  const remaining = new Set(tables);
  while (remaining.size) {
    const ready = [...remaining]
      .filter((t) => !edges.some((e) => e.parent === t && e.child !== t && remaining.has(e.child)))
      .sort();
    if (!ready.length) throw new Error(`reset: foreign keys form a cycle among ${[...remaining].sort().join(', ')}`);
    for (const t of ready) {
      order.push(t);
      remaining.delete(t);
    }
  }
  return order;
}

const plans = new WeakMap<Db, Promise<ResetPlan>>();

/** The plan of this database, read once: the schema changes only by migrations, at start. */
export function resetPlan(db: Db): Promise<ResetPlan> {
  let plan = plans.get(db);
  if (!plan) {
    plan = planReset(db);
    plans.set(db, plan);
    plan.catch(() => plans.delete(db));
  }
  return plan;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * How a table's rows of one merchant are found, where `merchant_id` alone would reach no index of
 * the table. Tokens: migrations/022's tokens_test_reset is on (merchant_id || '') so that only the
 * reset's statement can choose it (012 says why no other statement may).
 */
const MERCHANT_EXPRESSION: Record<string, string> = { tokens: "(merchant_id || '')" };

/** The statements of a reset, in order, each with the merchant id as $1 (EXPLAINed by the tests). */
export function resetStatements(plan: ResetPlan): { table: string; sql: string; deletes: boolean }[] {
  const deletes = plan.wipe.map(({ table, envColumn }) => ({
    table, deletes: true,
    sql: `WITH gone AS (DELETE FROM ${ident(table)} WHERE ${MERCHANT_EXPRESSION[table] ?? 'merchant_id'} = $1${envColumn ? " AND env = 'test'" : ''} RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
  }));
  const updates = plan.defaults.filter(({ columns }) => columns.length).map(({ table, columns }) => ({
    table, deletes: false,
    sql: `UPDATE ${ident(table)} SET ${columns.map((c) => `${ident(c)} = DEFAULT`).join(', ')}
        WHERE merchant_id = $1 AND env = 'test'`,
  }));
  return [...deletes, ...updates];
}

export interface ResetResult {
  /** Rows deleted per table, every wiped table listed (0 included). */
  deleted: Record<string, number>;
}

/** The reset stopped because its signal aborted (the client left); its transaction must roll back. */
export class ResetCancelled extends Error {
  constructor() {
    super('test reset cancelled: the client closed the connection; nothing was deleted');
  }
}

export interface ResetControl {
  /** Aborted when the reset's client is gone: no further statement starts, the statement running is cancelled. */
  signal?: AbortSignal;
  /**
   * PostgreSQL only: a connection other than the reset's (the pool), on which an abort cancels the
   * statement running in the reset's transaction (pg_cancel_backend), so a long DELETE stops at once.
   * Without it (PGlite: one connection, busy with the reset) the reset stops before its next statement.
   */
  canceller?: Queryable;
}

/** Advisory-lock class of the reset (the two-key form: apart from migrate.ts's one-key lock). */
const RESET_LOCK = 0x7e5e;

/**
 * Cancels the reset statement that runs in backend `pid` now, if it is still that reset's: the
 * backend's application_name is the reset's own mark only inside the reset's transaction (SET
 * LOCAL), and only an active statement is cancelled, so a connection back in the pool serving
 * another request is never touched.
 */
async function cancelRunning(canceller: Queryable, pid: number, mark: string): Promise<void> {
  await canceller.query(
    "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid = $1 AND application_name = $2 AND state = 'active'",
    [pid, mark],
  );
}

/**
 * Wipes the test records of one merchant in the caller's transaction, by the database's plan
 * (resetPlan). One at a time per merchant across nodes: a reset of the same environment holding
 * the advisory lock makes this one RESET_BUSY (409). An aborted `control.signal` throws
 * ResetCancelled (the caller's transaction rolls back, nothing is deleted).
 */
export async function resetTestEnvironment(q: Queryable, plan: ResetPlan, merchantId: string, control: ResetControl = {}): Promise<ResetResult> {
  if (plan.unclassified.length) {
    throw new Error(`reset: no rule for ${plan.unclassified.join(', ')}; classify it in server/domain/merchant/reset.ts`);
  }
  const { signal, canceller } = control;
  const stop = () => {
    if (signal?.aborted) throw new ResetCancelled();
  };
  stop();
  const [{ got }] = await q.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS got', [RESET_LOCK, merchantId]);
  if (!got) throw new GatewayError(E.RESET_BUSY);
  let onAbort: (() => void) | null = null;
  if (signal && canceller) {
    const mark = `tessera reset ${randomBytes(8).toString('hex')}`;
    const [{ pid }] = await q.query<{ pid: number }>("SELECT pg_backend_pid() AS pid, set_config('application_name', $1, true)", [mark]);
    onAbort = () => void cancelRunning(canceller, pid, mark).catch(() => {});
    signal.addEventListener('abort', onAbort, { once: true });
  }
  try {
    const deleted: Record<string, number> = {};
    for (const { table, sql, deletes } of resetStatements(plan)) {
      stop();
      const rows = await q.query<{ n: number }>(sql, [merchantId]);
      if (deletes) deleted[table] = rows[0]?.n ?? 0;
    }
    stop();
    return { deleted };
  } catch (err) {
    // A statement cancelled by the abort fails with query_canceled (57014): the abort is the cause.
    stop();
    throw err;
  } finally {
    if (onAbort) signal!.removeEventListener('abort', onAbort);
  }
}

const gates = new WeakMap<Db, Gate>();

/**
 * Resets at once per database: on PostgreSQL 2 of the 10 transactions' connections (db/pg.ts), so
 * resets, however many merchants ask, never take the connections other requests need; PGlite has
 * one connection, which a reset holds whatever the gate says. One reset per merchant environment.
 */
export const RESET_SLOTS = 2;

export function resetGate(db: Db): Gate {
  let gate = gates.get(db);
  if (!gate) {
    gate = new Gate(db.kind === 'pg' ? RESET_SLOTS : 1);
    gates.set(db, gate);
  }
  return gate;
}
