// Scale-out: two real `tessera serve` processes on one PostgreSQL database, driven round-robin.
// Runs only when TEST_DATABASE_URL is set (CI sets it); each run creates a database of its own
// and drops it afterwards.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  Client, PG_URL, PgDatabase, Reply, ServerProcess, basic, checkLedger, figure, freshPgDatabase, pgQueryable, sleep, spawnServer,
} from './helpers.js';

const ATTEMPTS = 1000;
/** Requests in flight per node at most (the agent's socket pool); both nodes together hold 2x this. */
const PER_NODE = 200;
const CARD = { card_owner_name: 'Scale Out', card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2099, csc: '123' };

const SKIP = PG_URL ? null : 'TEST_DATABASE_URL is not set: the two-node proof needs PostgreSQL (e.g. TEST_DATABASE_URL=postgres://root@127.0.0.1:5432/test)';
if (SKIP) console.log(`[proof] scale-out skipped: ${SKIP}`);

let db: PgDatabase;
let nodes: ServerProcess[] = [];
let clients: Client[] = [];
let keys: { pk: string; sk: string };
/** Every node of one database holds the same data key (a node with another one refuses to start). */
const dataKey = randomBytes(32).toString('base64');

beforeAll(async () => {
  if (SKIP) return;
  db = await freshPgDatabase('proof_scale');
  // The first node migrates the empty database and creates the demo merchant; the second joins it.
  // Scheduler loops every 250 ms (SCHEDULER_INTERVAL_MS) instead of 5 s: the scheduler test waits for a round of each.
  nodes.push(await spawnServer({ databaseUrl: db.url, dataKey, env: { SCHEDULER_INTERVAL_MS: '250' } }));
  nodes.push(await spawnServer({ databaseUrl: db.url, dataKey, env: { SCHEDULER_INTERVAL_MS: '250' } }));
  keys = { pk: nodes[0].publicKey!, sk: nodes[0].privateKey! };
  expect(nodes[1].publicKey, 'the second node found the merchant the first one created').toBeNull();
  clients = nodes.map((n) => new Client(n.url, PER_NODE));
});

afterAll(async () => {
  for (const c of clients) c.close();
  await Promise.all(nodes.map((n) => n.stop()));
  await db?.drop();
});

async function token(client = clients[0]): Promise<string> {
  const res = await client.request({ method: 'POST', path: '/api/v1/tokens', headers: basic(keys.pk), body: CARD });
  expect(res.status, res.body).toBe(200);
  return res.json().id;
}

/** Fires all requests at once, alternating nodes; transport errors are counted, not thrown. */
async function roundRobin(n: number, spec: (i: number) => Parameters<Client['request']>[0]) {
  for (const c of clients) c.maxActive = 0;
  const t0 = Date.now();
  const settled = await Promise.allSettled(Array.from({ length: n }, (_, i) => clients[i % clients.length].request(spec(i))));
  const ms = Date.now() - t0;
  const replies = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const transportErrors = settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason));
  const byStatus: Record<string, number> = {};
  for (const r of replies) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const perNode = clients.map((c) => c.maxActive);
  return { replies, transportErrors, byStatus, ms, perNode };
}

const codes = (replies: Reply[]) => {
  const out: Record<string, number> = {};
  for (const r of replies) if (r.status >= 400) {
    const c = r.json().errors[0].code;
    out[c] = (out[c] ?? 0) + 1;
  }
  return out;
};

describe.skipIf(!!SKIP)(`two nodes on one PostgreSQL${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  test(`${ATTEMPTS} concurrent charges of one token: exactly one succeeds, zero 5xx`, async () => {
    const id = await token();
    const run = await roundRobin(ATTEMPTS, () => ({
      method: 'POST', path: '/api/v1/charge', headers: basic(keys.sk), body: { token: id, amount: 1999 },
    }));
    figure('scale-out one token', { attempts: ATTEMPTS, statuses: run.byStatus, codes: codes(run.replies), ms: run.ms, max_in_flight_per_node: run.perNode });
    expect(run.transportErrors).toEqual([]);
    expect(run.byStatus['200']).toBe(1);
    expect(run.replies.filter((r) => r.status >= 500)).toEqual([]);
    expect(codes(run.replies)).toEqual({ 69201: ATTEMPTS - 1 });
    // Concurrency was real: both nodes had many requests open at once.
    for (const n of run.perNode) expect(n).toBeGreaterThan(PER_NODE / 2);
    for (const n of run.perNode) expect(n).toBeLessThanOrEqual(PER_NODE);
    const q = pgQueryable(db.url);
    try {
      const [{ n }] = await q.query('SELECT count(*)::int AS n FROM transactions WHERE token_id = $1', [id]);
      expect(n).toBe(1);
    } finally {
      await q.close();
    }
  });

  test(`${ATTEMPTS} idempotent retries (one key, one body) split across both nodes: one charge`, async () => {
    // A direct card charge: nothing but the Idempotency-Key stands between 1,000 retries and 1,000 charges.
    const key = `proof-${randomBytes(8).toString('hex')}`;
    const description = `idempotent across nodes ${key}`;
    const body = { ...CARD, amount: 4321, description };
    const run = await roundRobin(ATTEMPTS, () => ({
      method: 'POST', path: '/api/v1/charge', headers: { ...basic(keys.sk), 'idempotency-key': key }, body,
    }));
    figure('scale-out idempotent retries', { attempts: ATTEMPTS, statuses: run.byStatus, codes: codes(run.replies), ms: run.ms, max_in_flight_per_node: run.perNode });
    expect(run.transportErrors).toEqual([]);
    expect(run.replies.filter((r) => r.status >= 500)).toEqual([]);
    // Each answer is the charge (first run or replay) or "still in progress, retry".
    const ok = run.replies.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok.length + (run.byStatus['409'] ?? 0)).toBe(ATTEMPTS);
    expect(Object.keys(codes(run.replies)).filter((c) => c !== 'IDEM03')).toEqual([]);
    const ids = new Set(ok.map((r) => r.json().id));
    expect(ids.size).toBe(1);
    // Once it is over, every retry on either node replays the same charge.
    for (const c of clients) {
      const again = await c.request({ method: 'POST', path: '/api/v1/charge', headers: { ...basic(keys.sk), 'idempotency-key': key }, body });
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().id).toBe([...ids][0]);
    }
    const q = pgQueryable(db.url);
    try {
      const [{ n }] = await q.query('SELECT count(*)::int AS n FROM transactions WHERE description = $1', [description]);
      expect(n, 'transactions made by the 1,000 retries').toBe(1);
      const [{ k }] = await q.query('SELECT count(*)::int AS k FROM idempotency_keys WHERE key = $1', [key]);
      expect(k).toBe(1);
    } finally {
      await q.close();
    }
  });

  test('mixed load on both nodes: every token charged at most once, the ledger is consistent', async () => {
    // 200 tokens, each charged 5 times at once through alternating nodes, with refunds on the side.
    const tokens = await Promise.all(Array.from({ length: 200 }, (_, i) => token(clients[i % 2])));
    const run = await roundRobin(tokens.length * 5, (i) => ({
      method: 'POST', path: '/api/v1/charge', headers: basic(keys.sk), body: { token: tokens[i % tokens.length], amount: 500 + (i % 7) },
    }));
    expect(run.transportErrors).toEqual([]);
    expect(run.replies.filter((r) => r.status >= 500)).toEqual([]);
    expect(run.byStatus['200']).toBe(tokens.length);
    const charged = run.replies.filter((r) => r.status === 200).map((r) => r.json().id as string);
    const refunds = await roundRobin(charged.length * 3, (i) => ({
      method: 'POST', path: `/api/v1/charge/${charged[i % charged.length]}/cancel`, headers: basic(keys.sk), body: { amount: 200 },
    }));
    expect(refunds.replies.filter((r) => r.status >= 500)).toEqual([]);
    // 500..506 cents allow two refunds of 200 each, never a third: the row lock serialises them across nodes.
    expect(refunds.byStatus['200']).toBe(charged.length * 2);
    expect(codes(refunds.replies)).toEqual({ REFUND01: charged.length });
    figure('scale-out mixed', { charges: run.byStatus, charge_ms: run.ms, refunds: refunds.byStatus, refund_ms: refunds.ms });
    const q = pgQueryable(db.url);
    try {
      expect((await checkLedger(q)).violations).toEqual([]);
    } finally {
      await q.close();
    }
  });

  /** Two more nodes with a per-IP ceiling of 40 token requests a minute; 100 requests split across them. */
  async function sharedCeiling(label: string, env: Record<string, string> = {}) {
    const limited = [
      await spawnServer({ databaseUrl: db.url, dataKey, rateLimits: 'ip=40,key=0,failures=0', env }),
      await spawnServer({ databaseUrl: db.url, dataKey, rateLimits: 'ip=40,key=0,failures=0', env }),
    ];
    const lc = limited.map((n) => new Client(n.url, 20));
    try {
      // Fixed one-minute windows: do not straddle a boundary.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 50_000) await sleep(60_000 - intoMinute + 500);
      const settled = await Promise.all(Array.from({ length: 100 }, (_, i) =>
        lc[i % 2].request({ method: 'POST', path: '/api/v1/tokens', headers: basic(keys.pk), body: CARD })));
      const byStatus: Record<string, number> = {};
      for (const r of settled) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      figure(label, byStatus);
      expect(byStatus).toEqual({ 200: 40, 429: 60 });
      expect(settled.find((r) => r.status === 429)!.headers['retry-after']).toMatch(/^\d+$/);
    } finally {
      for (const c of lc) c.close();
      await Promise.all(limited.map((n) => n.stop()));
    }
  }
  const countedInDb = async () => {
    const q = pgQueryable(db.url);
    try {
      return (await q.query('SELECT coalesce(sum(count), 0)::int AS n FROM rate_counters'))[0].n as number;
    } finally {
      await q.close();
    }
  };

  test('rate limits hold across nodes (shared PostgreSQL counters)', async () => {
    const before = await countedInDb();
    await sharedCeiling('scale-out shared rate limit');
    expect(await countedInDb()).toBe(before + 100);
  });

  const REDIS = process.env.TEST_REDIS_URL;
  test.skipIf(!REDIS)(`rate limits hold across nodes (Redis counters, REDIS_URL)${REDIS ? '' : ' (skipped: set TEST_REDIS_URL)'}`, async () => {
    const before = await countedInDb();
    await sharedCeiling('scale-out shared rate limit in Redis', { REDIS_URL: REDIS!, REDIS_KEY_PREFIX: `tessera-proof:${randomBytes(6).toString('hex')}:` });
    expect(await countedInDb(), 'nothing was counted in PostgreSQL').toBe(before);
  });

  test('scheduler on both nodes bills each subscription run once', async () => {
    // 40 customers on a daily plan; then 20 test-clock advances of 6 hours fired at once, half on
    // each node. Each advance runs what fell due up to its new time, and both nodes' scheduler
    // loops run too: they all compete for the same due runs (FOR UPDATE SKIP LOCKED).
    const CUSTOMERS = 40;
    const sk = keys.sk;
    const plan = await clients[0].request({ method: 'POST', path: '/api/v1/plans', headers: basic(sk), body: { name: 'Daily proof', frequency: 'daily', amount: 1000 } });
    expect(plan.status, plan.body).toBe(200);
    const planId = plan.json().id;
    await Promise.all(Array.from({ length: CUSTOMERS }, async (_, i) => {
      const c = clients[i % 2];
      const t = await token(c);
      const cust = await c.request({ method: 'POST', path: '/api/v1/customers', headers: basic(sk), body: { first_name: `Sub ${i}`, token: t } });
      expect(cust.status, cust.body).toBe(200);
      const sub = await c.request({ method: 'POST', path: `/api/v1/plans/${planId}/subscription/${cust.json().id}`, headers: basic(sk), body: {} });
      expect(sub.status, sub.body).toBe(200);
    }));
    const t0 = Date.now();
    const advances = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      clients[i % 2].request({ method: 'POST', path: '/api/v1/test_helpers/clock/advance', headers: basic(sk), body: { hours: 6 } })));
    const ms = Date.now() - t0;
    for (const a of advances) expect(a.status, a.body).toBe(200);
    const ran = advances.map((a) => a.json().ran);
    const inline = ran.reduce((s, r) => s + r.billings + r.failed_billings, 0);
    const byNode = [0, 1].map((n) => ran.filter((_, i) => i % 2 === n).reduce((s, r) => s + r.billings + r.failed_billings, 0));
    expect(ran.reduce((s, r) => s + r.errors, 0)).toBe(0);
    // Let both scheduler loops take a few rounds at the final time (they run every 250 ms here).
    await sleep(1000);
    const q = pgQueryable(db.url);
    try {
      const subs = await q.query('SELECT number, billed_count FROM subscriptions WHERE plan_id = $1', [planId]);
      expect(subs).toHaveLength(CUSTOMERS);
      const runs = await q.query(
        `SELECT subscription_id, count(*)::int AS n, count(DISTINCT sequence)::int AS d, min(sequence) AS lo, max(sequence) AS hi
           FROM billings WHERE plan_id = $1 AND parent_id IS NULL GROUP BY subscription_id`, [planId]);
      const counts = new Set(subs.map((s) => s.billed_count));
      // 5 days of 6-hour steps: every subscription was billed the same number of times, each run once.
      expect(counts.size, `billed counts ${[...counts]}`).toBe(1);
      const billed = [...counts][0];
      expect(billed).toBeGreaterThanOrEqual(4);
      for (const r of runs) expect([r.n, r.d, Number(r.lo), Number(r.hi)]).toEqual([billed, billed, 1, billed]);
      expect(runs).toHaveLength(CUSTOMERS);
      const [{ b, t, dup }] = await q.query(
        `SELECT (SELECT count(*)::int FROM billings WHERE plan_id = $1) AS b,
                (SELECT count(*)::int FROM transactions WHERE source = 'subscription') AS t,
                (SELECT count(*)::int FROM (SELECT transaction_id FROM billings GROUP BY transaction_id HAVING count(*) > 1) x) AS dup`, [planId]);
      expect(b).toBe(CUSTOMERS * billed);
      expect(t, 'one charge per billing, none without a billing').toBe(b);
      expect(dup).toBe(0);
      expect((await checkLedger(q)).violations).toEqual([]);
      figure('scale-out scheduler', { subscriptions: CUSTOMERS, runs_each: billed, billings: b, by_advances: inline, by_advances_per_node: byNode, by_scheduler_loops: b - inline, advances: 20, advance_ms: ms });
    } finally {
      await q.close();
    }
    for (const n of nodes) expect(n.output(), 'no error was logged by either node').not.toMatch(/"level":50/);
  });
});
