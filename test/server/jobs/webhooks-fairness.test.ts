import { claimSql, deliverCallbacks } from '../../../server/jobs/callbacks.js';
import { webhookSecret } from '../../../server/domain/merchant/signing.js';
import { OutboundPolicy, configureOutbound, restoreOutbound } from '../../../server/net/outbound.js';
import { ScriptedServer, endless, fakeDns, latch, startScripted } from '../net/outbound-fixtures.js';
import { verifySignature } from './webhooks-fixtures.js';
import { Merchant, TestGateway, describe, expect, test } from '../../fixtures.js';
import { onTestFinished } from 'vitest';

// Delivery under bad receivers: one merchant's hanging endpoints do not hold up another's
// deliveries, each request is signed when it leaves, and an answer is never read past 4 KiB.

const dns = fakeDns();
let saved: OutboundPolicy;
const open: ScriptedServer[] = [];
test.beforeAll(() => {
  saved = configureOutbound({ resolve: dns.resolve });
});
test.afterEach(async () => {
  dns.gate = null;
  while (open.length) await open.pop()!.close();
});
test.afterAll(() => {
  restoreOutbound(saved);
});

async function server(): Promise<ScriptedServer> {
  const s = await startScripted();
  open.push(s);
  return s;
}

const deps = (gw: TestGateway) => ({ db: gw.db, vault: gw.vault, clock: gw.clock });
const at = (gw: TestGateway, ms: number) => new Date(gw.clock.now().getTime() + ms);

/** Queues a callback of the merchant's test environment, as the dispatcher or a billing does. */
async function queue(gw: TestGateway, m: Merchant, url: string, body = '{"n":1}'): Promise<number> {
  const [row] = await gw.db.query<{ id: number }>(
    `INSERT INTO callbacks (merchant_id, env, billing_id, url, body, next_attempt_at, created_at, max_attempts)
     VALUES ($1, 'test', NULL, $2, $3, $4, $4, 5) RETURNING id`, [m.id, url, body, at(gw, 0)]);
  return row.id;
}

const statusOf = async (gw: TestGateway, id: number) => (await gw.db.query('SELECT status FROM callbacks WHERE id = $1', [id]))[0].status;

/** Waits (without a clock) until `cond` holds. */
async function until(cond: () => Promise<boolean>) {
  while (!(await cond())) await new Promise((r) => setImmediate(r));
}

describe('fairness', () => {
  test("merchant B's delivery completes while merchant A's endpoints hang; A has at most 2 in flight", async ({ gateway: gw }) => {
    const [a, b] = [await gw.newMerchant(), await gw.newMerchant()];
    const slow = await server();
    slow.handler = () => 'hold';
    const fast = await server();
    // A's three are older than B's one: a queue worked in order would send A's first.
    const aIds = [await queue(gw, a, `${slow.origin}/a1`), await queue(gw, a, `${slow.origin}/a2`), await queue(gw, a, `${slow.origin}/a3`)];
    const bId = await queue(gw, b, `${fast.origin}/b`);

    const round = deliverCallbacks(deps(gw), at(gw, 0), { timeoutMs: 600_000 });
    await until(async () => (await statusOf(gw, bId)) === 'sent');
    // B is delivered while A's requests are still held open by A's endpoint.
    await slow.arrived(2);
    expect(slow.held).toHaveLength(2);
    expect(slow.held.map((x) => x.req.url).sort()).toEqual(['/a1', '/a2']);
    expect(fast.requests.map((r) => r.url)).toEqual(['/b']);
    expect(await Promise.all(aIds.map((id) => statusOf(gw, id)))).toEqual(['pending', 'pending', 'pending']);

    slow.release(200);
    expect(await round).toEqual({ claimed: 3, sent: 3, retrying: 0, failed: 0 });
    // A's third comes in the next round.
    slow.handler = (_req, res) => {
      res.writeHead(204).end();
    };
    expect(await deliverCallbacks(deps(gw), at(gw, 0))).toMatchObject({ claimed: 1, sent: 1 });
    expect(await Promise.all(aIds.map((id) => statusOf(gw, id)))).toEqual(['sent', 'sent', 'sent']);
  });

  test('a round claims round-robin across merchant environments, not oldest first', async ({ gateway: gw }) => {
    const [a, b] = [await gw.newMerchant(), await gw.newMerchant()];
    const rx = await server();
    await queue(gw, a, `${rx.origin}/a1`);
    await queue(gw, a, `${rx.origin}/a2`);
    await queue(gw, a, `${rx.origin}/a3`);
    await queue(gw, b, `${rx.origin}/b1`);
    expect(await deliverCallbacks(deps(gw), at(gw, 0), { batchSize: 2, roundBudgetMs: 0 })).toMatchObject({ claimed: 2, sent: 2 });
    expect(rx.requests.map((r) => r.url).sort()).toEqual(['/a1', '/b1']);
    expect(await deliverCallbacks(deps(gw), at(gw, 0), { batchSize: 2, roundBudgetMs: 0 })).toMatchObject({ claimed: 2, sent: 2 });
    expect(rx.requests.map((r) => r.url).sort()).toEqual(['/a1', '/a2', '/a3', '/b1']);
  });

  test("a batch reads each merchant environment's first callbacks, not the whole backlog", async ({ gateway: gw }) => {
    const [a, b] = [await gw.newMerchant(), await gw.newMerchant()];
    // Removed at the end: the other tests' rounds claim every merchant's due callbacks.
    onTestFinished(async () => {
      await gw.db.query('DELETE FROM callbacks WHERE merchant_id = $1 OR merchant_id = $2', [a.id, b.id]);
    });
    await gw.db.query(
      `INSERT INTO callbacks (merchant_id, env, billing_id, url, body, next_attempt_at, created_at, max_attempts)
       SELECT $1, 'test', NULL, 'http://a.invalid/', '{}', $2, $2, 5 FROM generate_series(1, 2000)`, [a.id, at(gw, 0)]);
    const bId = await queue(gw, b, 'http://b.invalid/');
    await gw.db.exec('ANALYZE callbacks');
    // The claim as a batch runs it, under EXPLAIN ANALYZE in a transaction rolled back: the rows
    // it read from callbacks, every scan of it counted (the old ranking read all 2,001).
    let plan: any;
    await gw.db.tx(async (q) => {
      const [row] = await q.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${claimSql(false)}`, [at(gw, 0), 32, at(gw, 60_000), 2]);
      const text = row['QUERY PLAN'];
      plan = (typeof text === 'string' ? JSON.parse(text) : text)[0];
      throw new Error('roll back');
    }).catch((err) => expect(err.message).toBe('roll back'));
    const read = (node: any): number => (node['Relation Name'] === 'callbacks' ? node['Actual Rows'] * node['Actual Loops'] : 0)
      + (node.Plans ?? []).reduce((n: number, p: any) => n + read(p), 0);
    const rows = read(plan.Plan);
    // The plan, one node a line, as the failure's message.
    const flat = (node: any, d = 0): string[] => [
      `${' '.repeat(d)}${node['Node Type']} ${node['Relation Name'] ?? ''} ${node['Index Name'] ?? ''} rows=${node['Actual Rows']} loops=${node['Actual Loops']}`,
      ...(node.Plans ?? []).flatMap((p: any) => flat(p, d + 1)),
    ];
    expect(rows).toBeGreaterThan(0);
    expect(rows, flat(plan.Plan).join('\n')).toBeLessThan(50);
    expect(await statusOf(gw, bId)).toBe('pending'); // rolled back
    // And run for real: two of A's, B's one.
    const claimed = await gw.db.query(claimSql(false), [at(gw, 0), 32, at(gw, 60_000), 2]);
    expect(claimed.map((c) => c.merchant_id).sort()).toEqual([a.id, a.id, b.id].sort());
  });

  test('a full batch is followed by another while the round is young: a backlog drains in one round', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const rx = await server();
    for (let i = 0; i < 7; i++) await queue(gw, m, `${rx.origin}/n${i}`);
    // Two per merchant environment per batch: four batches (2, 2, 2, 1) in one call.
    expect(await deliverCallbacks(deps(gw), at(gw, 0), { batchSize: 2, roundBudgetMs: 600_000 })).toEqual({ claimed: 7, sent: 7, retrying: 0, failed: 0 });
    expect(rx.requests).toHaveLength(7);
  });
});

describe('signing and answers', () => {
  test('the signature timestamp is taken when the request leaves, not when the round started', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const rx = await server();
    dns.names.set('slow-dns.test', ['127.0.0.1']);
    const gate = latch();
    dns.gate = gate.promise;
    const id = await queue(gw, m, `http://slow-dns.test:${rx.port}/hook`, '{"n":2}');
    const roundStart = gw.clock.now();
    const round = deliverCallbacks(deps(gw), roundStart);
    await until(async () => dns.asked.includes('slow-dns.test'));
    gw.clock.advance(100_000); // the name takes 100 s to resolve
    gate.open();
    expect(await round).toMatchObject({ claimed: 1, sent: 1 });
    const { secret } = await webhookSecret(gw.db, gw.vault, { merchantId: m.id, env: 'test' }, gw.clock.now());
    const got = rx.requests[0];
    const { ok, t } = verifySignature(secret, got.headers['tessera-signature'] as string, got.body);
    expect(ok).toBe(true);
    expect(t).toBe(Math.floor(roundStart.getTime() / 1000) + 100);
    expect(await statusOf(gw, id)).toBe('sent');
  });

  test('an endless answer is cut: a 200 is delivered and a 500 retried, without reading the stream', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const ok = await server();
    ok.handler = endless(200);
    const bad = await server();
    bad.handler = endless(500);
    const good = await queue(gw, m, `${ok.origin}/hook`);
    const failing = await queue(gw, m, `${bad.origin}/hook`);
    const r = await deliverCallbacks(deps(gw), at(gw, 0), { timeoutMs: 600_000 });
    expect(r).toEqual({ claimed: 2, sent: 1, retrying: 1, failed: 0 });
    expect(await statusOf(gw, good)).toBe('sent');
    const [attempt] = await gw.db.query('SELECT status_code, error FROM callback_attempts WHERE callback_id = $1', [failing]);
    expect(attempt).toEqual({ status_code: 500, error: 'HTTP 500' });
    await until(async () => ok.closed >= 1 && bad.closed >= 1);
  });
});
