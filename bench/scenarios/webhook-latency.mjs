import { createServer } from 'node:http';
import { benchCard as card, call } from '../lib/api.mjs';
import { dist } from '../lib/dist.mjs';
import { summarise } from '../lib/stats.mjs';

/** Charges per variant, one after another (each waits for its webhook before the next). */
const CHARGES = Number(process.env.BENCH_WEBHOOK_CHARGES ?? 20);
/** A webhook that has not arrived after this long counts as an error (the old dispatcher took up to ~2 s). */
const GIVE_UP_MS = 15_000;

/**
 * CPU of this process per operation since cpu0: the gateway, its in-memory database, the receiver
 * AND the client (a token and a charge per operation) all run here.
 */
function cpuPer(cpu0, ops) {
  const d = process.cpuUsage(cpu0);
  return ops > 0 ? (d.user + d.system) / ops : null;
}

/** A merchant's webhook endpoint on 127.0.0.1: notes when each transaction's webhook arrived. */
async function receiver() {
  const arrived = new Map();
  const waiters = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      const id = JSON.parse(Buffer.concat(chunks).toString('utf8'))?.data?.id;
      arrived.set(id, at);
      waiters.get(id)?.(at);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    arrived,
    /** Resolves with the arrival time of the transaction's webhook, or null after GIVE_UP_MS. */
    when(id) {
      if (arrived.has(id)) return Promise.resolve(arrived.get(id));
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), GIVE_UP_MS);
        waiters.set(id, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    close: () => new Promise((r) => {
      server.closeAllConnections();
      server.close(r);
    }),
  };
}

/**
 * A gateway as `tessera serve` / startTestGateway runs it (in memory, its own scheduler, callback
 * deliverer and outbox loops), one rule `transaction.created` -> a webhook strategy on a local receiver.
 * `webhook-arrival`: time from the charge's answer to the webhook's arrival, nobody asking for it.
 * `webhook-settle`: time from the charge's answer to POST /test_helpers/settle answering (the
 * webhook must have arrived by then); skipped on a gateway without settle (404).
 * `charges-kicked` / `charges-rounds`: charges/s of 16 clients (BENCH_SECONDS each, twice, in turn)
 * with the callback deliverer kicked after every charge, and without (its own rounds and the claims
 * as requests end only): what the kick costs under load.
 */
export default {
  name: 'webhook-latency',
  describe: `test mode: ${CHARGES} charges one after another, each with one transaction.created webhook to a local receiver`,
  async run(ctx) {
    const { startTessera } = await dist('start.js');
    // Token limits off, as startTestGateway: one client tokenizes far faster than a shopper.
    const gw = await startTessera({ storage: 'memory', port: 0, warn: () => {}, rateLimits: { perIp: 0, perKey: 0, failures: 0 } });
    const rx = await receiver();
    const api = (method, path, body, key = gw.privateKey) => call(`${gw.url}/api/v1${path}`, method, key, body);
    const results = [];
    try {
      const rule = await api('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: ['created'] });
      const strategy = await api('POST', '/webhooks/strategies', { mode: 'webhook', url: rx.url });
      await api('POST', `/webhooks/rules/${rule.body.id}/strategies`, { strategy_id: strategy.body.id });
      const hasSettle = (await api('POST', '/test_helpers/settle', {})).status === 200;
      for (const variant of hasSettle ? ['arrival', 'settle'] : ['arrival']) {
        const times = [];
        let errors = 0;
        const t0 = performance.now();
        const cpu0 = process.cpuUsage();
        for (let i = 0; i < CHARGES; i++) {
          const token = await api('POST', '/tokens', card, gw.publicKey);
          const charge = await api('POST', '/charge', { token: token.body.id, amount: 1000 + i });
          const answered = performance.now();
          if (charge.status !== 200) {
            errors++;
            continue;
          }
          if (variant === 'settle') {
            const settled = await api('POST', '/test_helpers/settle', {});
            const done = performance.now();
            if (settled.status !== 200 || !rx.arrived.has(charge.body.id)) errors++;
            else times.push(done - answered);
          } else {
            const at = await rx.when(charge.body.id);
            if (at === null) errors++;
            else times.push(at - answered);
          }
        }
        const seconds = (performance.now() - t0) / 1000;
        const s = summarise(times);
        console.log(`  webhook-${variant}: ${times.length} webhooks, after the charge's answer p50 ${s.p50?.toFixed(1)} ms, `
          + `p99 ${s.p99?.toFixed(1)} ms, max ${s.max?.toFixed(1)} ms`);
        results.push({ name: `webhook-${variant}`, unit: 'webhooks/s', rps: times.length / seconds, ...s, ok: times.length, errors, cpuUsPerOp: cpuPer(cpu0, times.length) });
      }
      // What the kick per write costs under load: charges/s of 16 clients with the deliverer
      // kicked after each one, then with kicks switched off (its rounds and its own claims only).
      const kick = gw.webhooks.kick.bind(gw.webhooks);
      for (const [label, on] of [['kicked', true], ['rounds', false], ['kicked', true], ['rounds', false]]) {
        gw.webhooks.kick = on ? kick : () => {};
        const times = [];
        let errors = 0;
        const end = performance.now() + ctx.cfg.seconds * 1000;
        const client = async () => {
          while (performance.now() < end) {
            const token = await api('POST', '/tokens', card, gw.publicKey);
            const t0 = performance.now();
            const charge = await api('POST', '/charge', { token: token.body.id, amount: 1000 });
            if (charge.status === 200) times.push(performance.now() - t0);
            else errors++;
          }
        };
        const t0 = performance.now();
        const cpu0 = process.cpuUsage();
        await Promise.all(Array.from({ length: 16 }, client));
        results.push({ name: `charges-${label}`, unit: 'charges/s', rps: times.length / ((performance.now() - t0) / 1000), ...summarise(times), ok: times.length, errors, cpuUsPerOp: cpuPer(cpu0, times.length) });
      }
      gw.webhooks.kick = kick;
    } finally {
      await gw.close();
      await rx.close();
    }
    return results;
  },
};
