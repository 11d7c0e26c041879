import { Db, Queryable } from '../db/index.js';

// Reset of one merchant's test environment: every record goes, as on a fresh start; the keys stay
// (the caller keeps access) and the settings return to their defaults. Live data is never touched:
// the route refuses live keys, and every statement here filters on env = 'test'.
//
// The tables are discovered from the catalogue, not listed, so a table added by a later migration
// is covered by the rule every table follows (merchant_id + env on every row). Only exceptions are
// named below; test/qa/reset-coverage.test.ts fails when a new merchant table fits no rule.

/** Merchant + env credentials, not records: they survive a reset (API keys, the webhook signing secret). */
export const KEEP = new Set(['api_keys', 'webhook_secrets']);
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

export interface ResetResult {
  /** Rows deleted per table, every wiped table listed (0 included). */
  deleted: Record<string, number>;
}

/** Wipes the test records of one merchant in the caller's transaction, by the database's plan (resetPlan). */
export async function resetTestEnvironment(q: Queryable, plan: ResetPlan, merchantId: string): Promise<ResetResult> {
  if (plan.unclassified.length) {
    throw new Error(`reset: no rule for ${plan.unclassified.join(', ')}; classify it in server/domain/reset.ts`);
  }
  const deleted: Record<string, number> = {};
  for (const { table, envColumn } of plan.wipe) {
    const rows = await q.query<{ n: number }>(
      `WITH gone AS (DELETE FROM ${ident(table)} WHERE merchant_id = $1${envColumn ? " AND env = 'test'" : ''} RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [merchantId],
    );
    deleted[table] = rows[0]?.n ?? 0;
  }
  for (const { table, columns } of plan.defaults) {
    if (!columns.length) continue;
    await q.query(
      `UPDATE ${ident(table)} SET ${columns.map((c) => `${ident(c)} = DEFAULT`).join(', ')}
        WHERE merchant_id = $1 AND env = 'test'`,
      [merchantId],
    );
  }
  return { deleted };
}
