import type { ServerResponse } from 'node:http';
import { CallbackDeliverer } from '../../../server/jobs/deliverer.js';
import { OutboundPolicy, configureOutbound, restoreOutbound } from '../../../server/net/outbound.js';
import { ScriptedServer, fakeDns, startScripted } from '../net/outbound-fixtures.js';
import { Merchant, TestGateway, describe, expect, test } from '../../fixtures.js';

// Issue 27, item 4: the process's callback deliverer claims whenever a request ends and whenever
// it is kicked, up to a cap of requests in flight per merchant environment, instead of a few per
// merchant per scheduler round: a merchant's backlog drains as fast as its endpoint answers, and
// one merchant's hanging endpoint holds only its own share. Each deliverer here runs its own
// rounds an hour apart: whatever it delivers, it delivers because work was there, not on a timer.

const dns = fakeDns();
let saved: OutboundPolicy;
const open: ScriptedServer[] = [];
const running: CallbackDeliverer[] = [];
test.beforeAll(() => {
  saved = configureOutbound({ resolve: dns.resolve });
});
test.afterEach(async () => {
  for (const s of open) s.release(200);
  while (running.length) await running.pop()!.stop();
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

/** A started deliverer whose own rounds are an hour apart (its first claim is at once). */
function deliverer(gw: TestGateway, opts: ConstructorParameters<typeof CallbackDeliverer>[1] = {}): CallbackDeliverer {
  const d = new CallbackDeliverer({ db: gw.db, vault: gw.vault, clock: gw.clock }, { timeoutMs: 600_000, ...opts });
  running.push(d);
  d.start(3_600_000);
  return d;
}

/** Queues `n` due callbacks of the merchant's test environment to `url` + `/<i>`. */
async function queue(gw: TestGateway, m: Merchant, url: string, n: number): Promise<void> {
  await gw.db.query(
    `INSERT INTO callbacks (merchant_id, env, billing_id, url, body, next_attempt_at, created_at, max_attempts)
     SELECT $1, 'test', NULL, $2 || '/' || i, '{}', $3, $3, 5 FROM generate_series(1, $4::int) i`,
    [m.id, url, gw.clock.now(), n]);
}

const sent = async (gw: TestGateway, m: Merchant) =>
  (await gw.db.query<{ n: number }>("SELECT count(*)::int AS n FROM callbacks WHERE merchant_id = $1 AND status = 'sent'", [m.id]))[0].n;

/** Waits (without a clock) until `cond` holds. */
async function until(cond: () => boolean | Promise<boolean>) {
  while (!(await cond())) await new Promise((r) => setImmediate(r));
}

/** Answers each request on the next turn of the event loop, noting how many were open at once. */
function counting(s: ScriptedServer) {
  const seen = { open: 0, max: 0 };
  s.handler = (_req, res: ServerResponse) => {
    seen.max = Math.max(seen.max, ++seen.open);
    setImmediate(() => {
      seen.open--;
      res.writeHead(204).end();
    });
  };
  return seen;
}

describe('continuous delivery', () => {
  test("one merchant's backlog of 200 drains without rounds, at most perScope requests at its endpoint at once", async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const rx = await server();
    const seen = counting(rx);
    const d = deliverer(gw, { perScope: 4 });
    await queue(gw, m, rx.origin, 200);
    d.kick();
    await until(async () => (await sent(gw, m)) === 200);
    expect(rx.requests).toHaveLength(200);
    expect(new Set(rx.requests.map((r) => r.url)).size).toBe(200);
    expect(seen.max).toBeLessThanOrEqual(4);
    await until(() => d.inFlightNow() === 0);
    const attempts = await gw.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM callback_attempts WHERE merchant_id = $1', [m.id]);
    expect(attempts[0].n).toBe(200);
  });

  test("merchant A's hanging endpoint holds perScope requests; B's backlog is delivered past it, then A's drains", async ({ gateway: gw }) => {
    const [a, b] = [await gw.newMerchant(), await gw.newMerchant()];
    const slow = await server();
    slow.handler = () => 'hold';
    const fast = await server();
    // A's 50 are older than B's 30: a queue worked in order would send A's first.
    await queue(gw, a, slow.origin, 50);
    await queue(gw, b, fast.origin, 30);
    const d = deliverer(gw, { perScope: 3 });
    await until(async () => (await sent(gw, b)) === 30);
    await slow.arrived(3);
    expect(slow.held).toHaveLength(3);
    expect(slow.requests).toHaveLength(3);
    expect(d.inFlightNow(`${a.id}/test`)).toBe(3);
    expect(fast.requests).toHaveLength(30);

    slow.handler = (_req, res) => {
      res.writeHead(200).end();
    };
    slow.release(200);
    await until(async () => (await sent(gw, a)) === 50);
    expect(slow.requests).toHaveLength(50);
    expect(new Set(slow.requests.map((r) => r.url)).size).toBe(50);
  });

  test('the cap of requests in flight holds across merchants; each ending request lets the next one in', async ({ gateway: gw }) => {
    const merchants = [await gw.newMerchant(), await gw.newMerchant(), await gw.newMerchant()];
    const rx = await server();
    rx.handler = () => 'hold';
    for (const m of merchants) await queue(gw, m, rx.origin, 4);
    const d = deliverer(gw, { concurrency: 5, perScope: 2 });
    await rx.arrived(5);
    expect(d.inFlightNow()).toBe(5);
    expect(rx.requests).toHaveLength(5);
    // Round-robin: every merchant has one or two in flight, none more than two.
    const per = merchants.map((m) => d.inFlightNow(`${m.id}/test`));
    expect(per.every((n) => n >= 1 && n <= 2)).toBe(true);
    rx.handler = (_req, res) => {
      res.writeHead(200).end();
    };
    rx.release(200);
    await until(async () => (await Promise.all(merchants.map((m) => sent(gw, m)))).every((n) => n === 4));
    expect(rx.requests).toHaveLength(12);
  });

  test('stop() waits for the requests in flight and claims nothing more', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const rx = await server();
    rx.handler = () => 'hold';
    await queue(gw, m, rx.origin, 5);
    const d = deliverer(gw, { perScope: 2 });
    await rx.arrived(2);
    let stopped = false;
    const stopping = d.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    rx.release(200);
    await stopping;
    expect(rx.requests).toHaveLength(2);
    expect(await sent(gw, m)).toBe(2);
    running.splice(running.indexOf(d), 1);
  });
});
