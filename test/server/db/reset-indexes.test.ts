import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Queryable } from '../../../server/db/index.js';
import { planReset, resetStatements } from '../../../server/domain/merchant/reset.js';
import { describe, expect, test } from '../../fixtures.js';

// The test reset in time linear in what it deletes (issue 27, item 8; migrations/022). Shown by the
// planner, not a stopwatch: with sequential scans priced out (enable_seqscan off), a statement that
// still plans a Seq Scan has no index to go by, and its cost grows with the whole table.
//  - each DELETE of the reset finds the merchant's rows through an index;
//  - each foreign key's check, which PostgreSQL runs once per deleted referenced row
//    (`SELECT 1 FROM ONLY child WHERE fk = $1 FOR KEY SHARE`), finds the referencing rows through
//    an index: without one every deleted row scanned the whole referencing table (N x N).
// Both as generic plans (the parameters unknown), as the key checks are kept, and not merely "no Seq
// Scan": the index sought must lead with the columns looked up (a full scan of an index that has
// them further on, as receipts_transaction for receipts.transaction_id, costs as much as the table).

const SERVER = join(import.meta.dirname, '../../../server');

interface ForeignKey { name: string; child: string; parent: string; columns: string[]; types: string[] }

async function foreignKeys(q: Queryable): Promise<ForeignKey[]> {
  return q.query<ForeignKey>(
    `SELECT con.conname AS name, ch.relname AS child, pa.relname AS parent,
            array_agg(a.attname::text ORDER BY k.ord) AS columns,
            array_agg(format_type(a.atttypid, a.atttypmod) ORDER BY k.ord) AS types
       FROM pg_constraint con
       JOIN pg_class ch ON ch.oid = con.conrelid
       JOIN pg_class pa ON pa.oid = con.confrelid
       JOIN pg_namespace n ON n.oid = ch.relnamespace
       CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
      WHERE con.contype = 'f' AND n.nspname = current_schema()
      GROUP BY con.conname, ch.relname, pa.relname
      ORDER BY 1`,
  );
}

interface PlanNode { 'Node Type': string; 'Index Name'?: string; 'Index Cond'?: string; Plans?: PlanNode[] }

/** The generic plan of `sql` (parameters of `types`), sequential scans priced out: its nodes, flattened. */
async function genericPlan(q: Queryable, sql: string, types: string[]): Promise<PlanNode[]> {
  await q.query('SET LOCAL enable_seqscan = off');
  await q.query("SET LOCAL plan_cache_mode = 'force_generic_plan'");
  await q.exec(`PREPARE reset_audit (${types.join(', ')}) AS ${sql}`);
  try {
    const args = types.map(() => 'NULL').join(', ');
    const [row] = await q.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) EXECUTE reset_audit (${args})`);
    const json = typeof row['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row['QUERY PLAN'];
    const nodes: PlanNode[] = [];
    const walk = (n: PlanNode) => {
      nodes.push(n);
      n.Plans?.forEach(walk);
    };
    walk((json as { Plan: PlanNode }[])[0].Plan);
    return nodes;
  } finally {
    await q.exec('DEALLOCATE reset_audit');
  }
}

/** An index's key columns (or expressions), in order, and its predicate. */
async function indexKeys(q: Queryable, name: string): Promise<{ keys: string[]; predicate: string | null }> {
  const rows = await q.query<{ key: string; predicate: string | null }>(
    `SELECT pg_get_indexdef(i.indexrelid, k, true) AS key, pg_get_expr(i.indpred, i.indrelid) AS predicate
       FROM pg_index i CROSS JOIN LATERAL generate_series(1, i.indnkeyatts) k
      WHERE i.indexrelid = (SELECT oid FROM pg_class WHERE relname = $1 AND relnamespace = current_schema()::regnamespace)
      ORDER BY k`,
    [name],
  );
  return { keys: rows.map((r) => r.key), predicate: rows[0]?.predicate ?? null };
}

/**
 * How the plan reaches its rows: 'seq' for a scan of the whole table; otherwise the indexes it
 * seeks in (with an Index Cond), each with its key columns and predicate.
 */
async function access(q: Queryable, nodes: PlanNode[]) {
  if (nodes.some((n) => n['Node Type'] === 'Seq Scan')) return 'seq' as const;
  return Promise.all(nodes.filter((n) => n['Index Name'] && n['Index Cond']).map((n) => indexKeys(q, n['Index Name']!)));
}

/** The statement of a foreign key's check, as ri_triggers.c writes it. */
const keyCheck = (fk: ForeignKey) =>
  `SELECT 1 FROM ONLY "${fk.child}" x WHERE ${fk.columns.map((c, i) => `"${c}" = $${i + 1}`).join(' AND ')} FOR KEY SHARE OF x`;

/** Whether the key's check seeks in an index whose leading keys are the key's columns (any order). */
async function seeks(q: Queryable, fk: ForeignKey): Promise<boolean> {
  const how = await access(q, await genericPlan(q, keyCheck(fk), fk.types));
  const want = [...fk.columns].sort().join();
  return how !== 'seq' && how.some(({ keys }) => [...keys.slice(0, fk.columns.length)].sort().join() === want);
}

/** Rolled back: the SET LOCALs and the prepared statement end with it. */
const inTx = async <T>(q: { tx<R>(fn: (t: Queryable) => Promise<R>): Promise<R> }, fn: (t: Queryable) => Promise<T>): Promise<T> => {
  let out!: T;
  await q.tx(async (t) => {
    out = await fn(t);
    throw Object.assign(new Error('rollback'), { rollback: true });
  }).catch((err) => {
    if (!err.rollback) throw err;
  });
  return out;
};

describe('the test reset reads only what it deletes (migrations/022)', () => {
  test('every DELETE of the reset finds the merchant rows through an index', async ({ gateway: gw }) => {
    const plan = await planReset(gw.db);
    const scans = await inTx(gw.db, async (q) => {
      const out: Record<string, string> = {};
      for (const { table, sql, deletes } of resetStatements(plan)) {
        if (!deletes) continue;
        const how = await access(q, await genericPlan(q, sql, ['text']));
        const env = plan.wipe.find((w) => w.table === table)!.envColumn;
        // An index that starts with the merchant (the column, or 022's expression for tokens), then
        // the environment (or holds test rows only): it reaches this merchant's test rows alone.
        const narrow = how !== 'seq' && how.some(({ keys, predicate }) => /^\(?merchant_id\b/.test(keys[0] ?? '')
          && (!env || keys[1] === 'env' || /env = 'test'/.test(predicate ?? '')));
        if (!narrow) out[table] = JSON.stringify(how);
      }
      return out;
    });
    expect(scans).toEqual({});
    expect(resetStatements(plan).filter((s) => s.deletes).map((s) => s.table).sort()).toEqual(plan.wipe.map((w) => w.table).sort());
  });

  test('every foreign key into a table the reset wipes is checked through an index', async ({ gateway: gw }) => {
    const wiped = new Set((await planReset(gw.db)).wipe.map((w) => w.table));
    const keys = (await foreignKeys(gw.db)).filter((fk) => wiped.has(fk.parent));
    // The keys whose lack made the reset quadratic (issue 27) are among those checked.
    expect(keys.map((k) => `${k.child}.${k.columns.join(',')}`)).toEqual(expect.arrayContaining([
      'webhook_deliveries.callback_id', 'webhook_deliveries.outbox_id', 'receipts.outbox_id', 'receipts.transaction_id',
      'billings.parent_id', 'billings.plan_id', 'subscriptions.plan_id', 'invoices.merchant_id,env,customer_id',
    ]));
    const scans = await inTx(gw.db, async (q) => {
      const out: Record<string, string> = {};
      for (const fk of keys) {
        if (!(await seeks(q, fk))) out[`${fk.child}.${fk.columns.join(',')} -> ${fk.parent}`] = JSON.stringify(await access(q, await genericPlan(q, keyCheck(fk), fk.types)));
      }
      return out;
    });
    expect(scans).toEqual({});
  });

  test('every foreign key of the schema has an index, but the tokens -> merchants one (merchants are never deleted)', async ({ gateway: gw }) => {
    // A rule for the migrations to come: a new key without an index fails here, reset or not.
    const unindexed = await inTx(gw.db, async (q) => {
      const out: string[] = [];
      for (const fk of await foreignKeys(q)) {
        if (!(await seeks(q, fk))) out.push(`${fk.child}.${fk.columns.join(',')} -> ${fk.parent}`);
      }
      return out;
    });
    // tokens: 012 dropped the (merchant_id, ...) index on purpose; 022's reset index is on an expression no key can use.
    expect(unindexed).toEqual(['tokens.merchant_id -> merchants']);
    // The exception holds while no statement of the server deletes a merchant.
    const sources = readdirSync(SERVER, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|sql)$/.test(f));
    expect(sources.filter((f) => /DELETE\s+FROM\s+merchants\b/i.test(readFileSync(join(SERVER, f), 'utf8')))).toEqual([]);
  });
});
