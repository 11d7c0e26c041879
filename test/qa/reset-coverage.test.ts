import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Db, openDatabase } from '../../server/db/index.js';
import { KEEP, MERCHANT_WIDE, RESET_TO_DEFAULTS, TEST_ONLY, deletionOrder, planReset } from '../../server/domain/merchant/reset.js';

// The reset discovers its tables from the catalogue. These tests keep that honest as migrations
// are added: every merchant table falls under a rule, and the delete order never trips a key.

let db: Db;
beforeAll(async () => {
  db = await openDatabase({});
});
afterAll(() => db.close());

describe('the reset plan of the current schema', () => {
  test('every table with a merchant_id is wiped, kept, reset to defaults or merchant-wide, by a rule', async () => {
    const plan = await planReset(db);
    // Non-empty: a new table carries merchant_id without env (or is referenced from outside the
    // reset). Decide in server/domain/merchant/reset.ts whether it is TEST_ONLY, MERCHANT_WIDE or KEEP.
    expect(plan.unclassified).toEqual([]);

    const merchantTables = (
      await db.query<{ table_name: string }>(
        `SELECT DISTINCT table_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND column_name = 'merchant_id' ORDER BY 1`,
      )
    ).map((r) => r.table_name);
    const covered = new Set([...plan.wipe.map((w) => w.table), ...plan.defaults.map((d) => d.table), ...KEEP, ...MERCHANT_WIDE]);
    expect(merchantTables.filter((t) => !covered.has(t))).toEqual([]);
    // The rule is the design's: a merchant table has an env column unless it is named as an exception.
    for (const w of plan.wipe) expect(w.envColumn || TEST_ONLY.has(w.table), w.table).toBe(true);
  });

  test('the records of a checkout are wiped; keys are never', async () => {
    const wiped = (await planReset(db)).wipe.map((w) => w.table);
    for (const t of ['tokens', 'transactions', 'refunds', 'idempotency_keys', 'customers', 'payment_methods']) expect(wiped).toContain(t);
    expect(wiped).not.toContain('api_keys');
    expect(wiped).not.toContain('merchants');
    expect((await planReset(db)).defaults.map((d) => d.table)).toEqual([...RESET_TO_DEFAULTS]);
  });

  test('children come before their parents in the delete order', async () => {
    const plan = await planReset(db);
    const edges = await db.query<{ child: string; parent: string }>(
      `SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint con
         JOIN pg_class ch ON ch.oid = con.conrelid JOIN pg_class pa ON pa.oid = con.confrelid
        WHERE con.contype = 'f'`,
    );
    const at = new Map(plan.wipe.map((w, i) => [w.table, i]));
    for (const { child, parent } of edges) {
      if (at.has(child) && at.has(parent) && child !== parent) expect(at.get(child)!, `${child} -> ${parent}`).toBeLessThan(at.get(parent)!);
    }
  });
});

describe('deletionOrder', () => {
  // Random DAGs: an edge only from a later table to an earlier one, so there is never a cycle.
  const dag = fc.integer({ min: 1, max: 12 }).chain((n) =>
    fc.record({
      tables: fc.constant(Array.from({ length: n }, (_, i) => `t${i}`)),
      edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 30 }).map((pairs) =>
        pairs.map(([a, b]) => ({ child: `t${Math.max(a, b)}`, parent: `t${Math.min(a, b)}` })),
      ),
    }),
  );

  test('lists every table once and each child before its parent', () => {
    fc.assert(
      fc.property(dag, ({ tables, edges }) => {
        const order = deletionOrder(tables, edges);
        expect([...order].sort()).toEqual([...tables].sort());
        for (const { child, parent } of edges) {
          if (child !== parent) expect(order.indexOf(child)).toBeLessThan(order.indexOf(parent));
        }
      }),
    );
  });

  test('is the same whatever order the tables are given in', () => {
    fc.assert(
      fc.property(dag.chain((g) => fc.record({ g: fc.constant(g), shuffled: fc.shuffledSubarray(g.tables, { minLength: g.tables.length }) })), ({ g, shuffled }) => {
        expect(deletionOrder(shuffled, g.edges)).toEqual(deletionOrder(g.tables, g.edges));
      }),
    );
  });

  test('ignores edges to tables outside the reset and self-references; refuses a cycle', () => {
    expect(deletionOrder(['a', 'b'], [{ child: 'a', parent: 'merchants' }, { child: 'b', parent: 'b' }])).toEqual(['a', 'b']);
    expect(() => deletionOrder(['a', 'b'], [{ child: 'a', parent: 'b' }, { child: 'b', parent: 'a' }])).toThrow(/cycle among a, b/);
  });
});
