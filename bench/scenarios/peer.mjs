import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchCard, call } from '../lib/api.mjs';
import { dist } from '../lib/dist.mjs';
import { httpLoad } from '../lib/load.mjs';

const MOCK = fileURLToPath(new URL('../lib/stripe-mock-child.cjs', import.meta.url));

/** stripe-stateful-mock in a child process: { url, mark(), cpuUs(), close() }. */
function startMock() {
  return new Promise((resolve, reject) => {
    const child = fork(MOCK, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ask = (m) => new Promise((r) => (child.once('message', r), child.send(m)));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`stripe-stateful-mock exited with ${code}`)));
    child.once('message', ({ port }) => resolve({
      url: `http://127.0.0.1:${port}`,
      mark: () => child.send({ mark: true }),
      cpuUs: async () => (await ask({ read: true })).cpuUs,
      close: () => new Promise((r) => (child.once('exit', r), child.disconnect())),
    }));
  });
}

/**
 * The peer baseline, side by side in one run, both at ONE connection (each charge answered before
 * the next is sent), so the figure is the cost of one charge, not how well either uses the cores:
 *  - peer-stripe-mock: stripe-stateful-mock (an in-memory Express mock of Stripe, its own process),
 *    POST /v1/charges with its fixed test token `tok_visa`; CPU/op is the mock process's;
 *  - peer-tessera-qa: Tessera's QA gateway (startTestGateway: in memory, as a test worker runs it,
 *    in this process), POST /api/v1/charge of a stored customer; CPU/op is this process's (the
 *    gateway with its in-memory PGlite; the load generator is a child).
 */
export default {
  name: 'peer',
  describe: 'sequential charges/s: stripe-stateful-mock (tok_visa) and the in-memory QA gateway (a stored customer)',
  async run(ctx) {
    const { seconds, warmupSeconds } = ctx.cfg;
    const out = [];
    const mock = await startMock();
    try {
      const stripe = {
        urls: [mock.url + '/v1/charges'],
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_bench', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'amount=1999&currency=usd&source=tok_visa',
        bodyIncludes: '"status":"succeeded"',
        connections: 1,
      };
      if (warmupSeconds > 0) await httpLoad({ ...stripe, seconds: warmupSeconds });
      const r = await httpLoad({ ...stripe, seconds, name: 'peer-stripe-mock', onStart: mock.mark });
      out.push({ name: 'peer-stripe-mock', unit: 'charges/s', ...r, cpuUsPerOp: r.ok ? (await mock.cpuUs()) / r.ok : null });
    } finally {
      await mock.close();
    }

    const { startTestGateway } = await dist('testing/index.js');
    const gw = await startTestGateway();
    try {
      const token = await gw.tokenize(benchCard);
      const customer = await call(`${gw.url}/api/v1/customers`, 'POST', gw.privateKey, { token, first_name: 'Bench' });
      if (customer.status !== 200) throw new Error(`peer: customer refused: ${JSON.stringify(customer.body)}`);
      const tessera = {
        urls: [gw.url + '/api/v1/charge'],
        method: 'POST',
        headers: { authorization: 'Basic ' + Buffer.from(`${gw.privateKey}:`).toString('base64'), 'content-type': 'application/json' },
        body: JSON.stringify({ customer_id: customer.body.id, amount: 1999 }),
        bodyIncludes: '"status":"SETTLED"',
        connections: 1,
      };
      if (warmupSeconds > 0) await httpLoad({ ...tessera, seconds: warmupSeconds });
      out.push({ name: 'peer-tessera-qa', unit: 'charges/s', ...(await httpLoad({ ...tessera, seconds, name: 'peer-tessera-qa' })) });
    } finally {
      await gw.close();
    }
    return out;
  },
};
