import { fork } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { basic, benchCard as card, call as request } from '../lib/api.mjs';
import { dist } from '../lib/dist.mjs';
import { startGateway } from '../lib/gateway.mjs';
import { summarise } from '../lib/stats.mjs';

const PROBE = fileURLToPath(new URL('../lib/steady-probe.mjs', import.meta.url));
/** Monthly subscriptions of merchant A for the 2-year advance (about 24 runs each) and the 10-year one (about 120 each). */
const SUBSCRIPTIONS = Number(process.env.BENCH_CLOCK_SUBSCRIPTIONS ?? 100);
const SUBSCRIPTIONS_10Y = Number(process.env.BENCH_CLOCK_SUBSCRIPTIONS_10Y ?? 25);
/** Merchant B's steady request rate (requests per second) while A's clock advances. */
const RATE = Number(process.env.BENCH_CLOCK_RATE ?? 20);
/** Seconds of B alone before the advances (its latencies without one, on this machine now). */
const BASELINE_SECONDS = Number(process.env.BENCH_CLOCK_BASELINE_SECONDS ?? 10);
/** Which advances to run (years, of 2 and 10). */
const YEARS = (process.env.BENCH_CLOCK_YEARS ?? '2,10').split(',').map(Number);
/** A request that must succeed: its JSON body. */
async function call(url, method, key, body) {
  const res = await request(url, method, key, body);
  if (res.status >= 300) throw new Error(`clock-advance: ${method} ${url} answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

/** Merchant A: a fresh merchant with one customer (a card) and `n` monthly subscriptions due from tomorrow on. */
async function merchantWithSubscriptions(ctx, gw, n) {
  const { createMerchant, createKeySet } = await dist('domain/merchant/keys.js');
  const { db, clock } = ctx.backend;
  const now = clock.now();
  const { id, keys } = await db.tx(async (q) => {
    const id = await createMerchant(q, 'Bench clock merchant', now);
    return { id, keys: await createKeySet(q, { merchantId: id, env: 'test' }, now) };
  });
  const token = await call(`${gw.url}/api/v1/tokens`, 'POST', keys.public_key, card);
  const customer = await call(`${gw.url}/api/v1/customers`, 'POST', keys.private_key, { first_name: 'Ada', token: token.id });
  const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  await db.query(
    `INSERT INTO plans (merchant_id, env, name, frequency, amount, created_at, updated_at)
     SELECT $1, 'test', 'Plan ' || g, 'monthly', 1000 + g, $2, $2 FROM generate_series(1, $3::int) g`,
    [id, now, n],
  );
  await db.query(
    `WITH p AS (SELECT id, amount, nextval('subscription_numbers') AS num FROM plans WHERE merchant_id = $1 AND env = 'test')
     INSERT INTO subscriptions (merchant_id, env, id, number, customer_id, method_id, status, plan_id, amount, frequency,
       anchor_date, bill_immediately, billed_count, next_billing, metadata, created_at, updated_at)
     SELECT $1, 'test', num::text, num, $2, $3, 'active', id, amount, 'monthly', $5::date, false, 0,
            $5::date::timestamp AT TIME ZONE 'UTC', '{}', $4, $4 FROM p`,
    [id, customer.id, customer.default_method_id, now, tomorrow],
  );
  return { id, keys };
}

/** Polls the clock of a 202-answered advance until it is done (a client of the old gateway never gets here); its summary. */
async function finished(url, key) {
  for (;;) {
    const c = await call(url, 'GET', key);
    if (!c.advancing) return c.advance;
    await new Promise((r) => setTimeout(r, 250));
  }
}

function probe(url, key) {
  const child = fork(PROBE, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const started = new Promise((resolve, reject) => {
    child.once('message', (m) => (m.started ? resolve() : reject(new Error('probe did not start'))));
    child.once('error', reject);
  });
  child.send({ url, headers: { authorization: basic(key) }, rate: RATE });
  return {
    started,
    mark: () => child.send({ mark: true }),
    stop: () => new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('error', reject);
      child.send({ stop: true });
    }),
  };
}

/**
 * Merchant A (BENCH_CLOCK_SUBSCRIPTIONS, BENCH_CLOCK_SUBSCRIPTIONS_10Y monthly subscriptions)
 * advances its test clock by 2 and by 10 years (a 202 answer is followed by polling GET
 * /test_helpers/clock until it is done; an older gateway answers when done); meanwhile merchant B lists its live transactions at a
 * steady RATE per second from a child process. Reported: B's latencies during the advance (the
 * p99 is the number that matters: it must stay under 100 ms), and how long the advance took.
 */
export default {
  name: 'clock-advance',
  describe: `merchant B's GET /transactions (live key, ${RATE}/s, open loop) while merchant A's test clock advances 2 years `
    + `(${SUBSCRIPTIONS} monthly subscriptions) and 10 years (${SUBSCRIPTIONS_10Y})`,
  async run(ctx) {
    const gw = await startGateway(ctx);
    const { createKeySet } = await dist('domain/merchant/keys.js');
    const { db, clock } = ctx.backend;
    const results = [];
    try {
      const live = await db.tx((q) => createKeySet(q, { merchantId: gw.merchantId, env: 'live' }, clock.now()));
      const target = `${gw.url}/api/v1/transactions?limit=10`;
      await call(target, 'GET', live.private_key);
      {
        // B alone, as a yardstick: what its latencies are on this machine right now without any advance.
        const b = probe(target, live.private_key);
        await b.started;
        await new Promise((r) => setTimeout(r, 500));
        b.mark();
        const t0 = performance.now();
        const cpu0 = process.cpuUsage(); // the gateway (this process) answering B's list requests
        await new Promise((r) => setTimeout(r, BASELINE_SECONDS * 1000));
        const got = await b.stop();
        const cpu = process.cpuUsage(cpu0);
        results.push({
          name: 'clock-advance-none', unit: 'B req/s', rps: got.times.length / ((performance.now() - t0) / 1000),
          ...summarise(got.times), ok: got.times.length - got.non2xx, non2xx: got.non2xx, errors: got.errors,
          cpuUsPerOp: (cpu.user + cpu.system) / Math.max(1, got.times.length),
        });
      }
      const variants = [['2y', 730, SUBSCRIPTIONS], ['10y', 3650, SUBSCRIPTIONS_10Y]].filter(([, days]) => YEARS.includes(days === 730 ? 2 : 10));
      for (const [label, days, subscriptions] of variants) {
        const a = await merchantWithSubscriptions(ctx, gw, subscriptions);
        const b = probe(target, live.private_key);
        await b.started;
        await new Promise((r) => setTimeout(r, 500)); // connections open, first requests answered
        b.mark();
        const t0 = performance.now();
        const cpu0 = process.cpuUsage();
        const loop = monitorEventLoopDelay({ resolution: 5 });
        loop.enable();
        const answer = await call(`${gw.url}/api/v1/test_helpers/clock/advance`, 'POST', a.keys.private_key, { days });
        const answerMs = performance.now() - t0;
        const out = answer.advancing ? await finished(`${gw.url}/api/v1/test_helpers/clock`, a.keys.private_key) : answer;
        const advanceMs = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        loop.disable();
        const got = await b.stop();
        const billings = (out.ran?.billings ?? 0) + (out.ran?.failed_billings ?? 0);
        console.log(`  clock-advance-${label}: answered ${answer.advancing ? 202 : 200} after ${(answerMs / 1000).toFixed(2)} s; the advance took `
          + `${(advanceMs / 1000).toFixed(1)} s for ${billings} billings (${subscriptions} subscriptions); B sent ${got.times.length} requests meanwhile; `
          + `the gateway's event loop was late by ${(loop.percentile(99) / 1e6).toFixed(1)} ms at p99, ${(loop.max / 1e6).toFixed(1)} ms at most`);
        results.push({
          name: `clock-advance-${label}`,
          unit: 'B req/s',
          rps: got.times.length / (advanceMs / 1000),
          ...summarise(got.times),
          ok: got.times.length - got.non2xx,
          non2xx: got.non2xx,
          errors: got.errors,
          // CPU time of this process (the gateway: A's advance and B's requests) per billing: what the
          // advance costs with the CPU to itself; on a shared machine wall time mostly measures the neighbours.
          cpuUsPerOp: (cpu.user + cpu.system) / Math.max(1, billings),
          answerMs,
          advanceMs,
          billings,
        });
      }
    } finally {
      await gw.close();
    }
    return results;
  },
};
