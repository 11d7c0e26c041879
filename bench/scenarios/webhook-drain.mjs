import { createServer } from 'node:http';
import { benchCard as card, call } from '../lib/api.mjs';
import { dist } from '../lib/dist.mjs';
import { summarise } from '../lib/stats.mjs';

// Issue 27, item 4: how fast one merchant's webhooks drain when its events come faster than a
// few a second. EVENTS charges of one merchant are sent open loop over BURST_MS (each leaves on
// schedule, whatever the answers), each matching a rule with a webhook strategy on a local
// receiver; nobody calls settle or a round: the gateway's own loops deliver. Counted: webhooks
// arrived when the last charge was answered, then 1 s, 5 s, 30 s and 120 s later (the watch stops
// when all have arrived, or after WATCH_MS).

const EVENTS = Number(process.env.BENCH_DRAIN_EVENTS ?? 200);
const BURST_MS = Number(process.env.BENCH_DRAIN_BURST_MS ?? 1000);
const WATCH_MS = Number(process.env.BENCH_DRAIN_WATCH_MS ?? 120_000);
const MARKS_MS = [1000, 5000, 30_000, 120_000];

async function receiver() {
  const arrived = new Map();
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const id = JSON.parse(Buffer.concat(chunks).toString('utf8'))?.data?.id;
      if (!arrived.has(id)) arrived.set(id, performance.now());
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      inFlight--;
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    arrived,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () => new Promise((r) => {
      server.closeAllConnections();
      server.close(r);
    }),
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export default {
  name: 'webhook-drain',
  describe: `test mode: ${EVENTS} charges of one merchant sent over ${BURST_MS} ms, each with a webhook to a local receiver; arrivals counted over time`,
  async run() {
    const { startTessera } = await dist('start.js');
    // Token limits off, as startTestGateway: the tokens are made before the burst, as fast as it goes.
    const gw = await startTessera({ storage: 'memory', port: 0, warn: () => {}, rateLimits: { perIp: 0, perKey: 0, failures: 0 } });
    const rx = await receiver();
    const api = (method, path, body, key = gw.privateKey) => call(`${gw.url}/api/v1${path}`, method, key, body);
    try {
      const rule = await api('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: ['created'] });
      const strategy = await api('POST', '/webhooks/strategies', { mode: 'webhook', url: rx.url });
      await api('POST', `/webhooks/rules/${rule.body.id}/strategies`, { strategy_id: strategy.body.id });
      const tokens = [];
      for (let i = 0; i < EVENTS; i++) tokens.push((await api('POST', '/tokens', card, gw.publicKey)).body.id);

      const answered = new Map();
      let errors = 0;
      const t0 = performance.now();
      const sent = tokens.map(async (token, i) => {
        await sleep(t0 + (i * BURST_MS) / EVENTS - performance.now());
        const charge = await api('POST', '/charge', { token, amount: 1000 + i });
        if (charge.status === 200) answered.set(charge.body.id, performance.now());
        else errors++;
      });
      await Promise.all(sent);
      const tEnd = performance.now();
      const counts = [[`end of burst (${((tEnd - t0) / 1000).toFixed(2)} s)`, rx.arrived.size]];
      let all = null;
      for (const mark of MARKS_MS) {
        if (mark > WATCH_MS) break;
        while (performance.now() < tEnd + mark && rx.arrived.size < answered.size) await sleep(20);
        if (all === null && rx.arrived.size >= answered.size) all = performance.now();
        counts.push([`+${mark / 1000} s`, rx.arrived.size]);
        if (all !== null) break;
      }
      console.log(`  webhooks arrived: ${counts.map(([at, n]) => `${n} at ${at}`).join(', ')}`
        + (all === null ? `; ${answered.size - rx.arrived.size} never arrived` : `; all ${answered.size} ${((all - t0) / 1000).toFixed(2)} s after the first charge`)
        + `; at most ${rx.maxInFlight} requests at the receiver at once`);
      const lag = [...answered].filter(([id]) => rx.arrived.has(id)).map(([id, at]) => rx.arrived.get(id) - at);
      const seconds = ((all ?? performance.now()) - t0) / 1000;
      return [{
        name: 'webhook-drain', unit: 'webhooks/s', rps: rx.arrived.size / seconds, ...summarise(lag),
        ok: rx.arrived.size, errors: errors + (answered.size - rx.arrived.size),
      }];
    } finally {
      await gw.close();
      await rx.close();
    }
  },
};
