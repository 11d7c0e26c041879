import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dist } from '../lib/dist.mjs';
import { httpLoad } from '../lib/load.mjs';
import { cpuReading } from '../lib/proc.mjs';

const MAIN = fileURLToPath(new URL('../../dist/server/main.js', import.meta.url));
const TOKENS = Number(process.env.BENCH_CHARGE_TOKENS ?? 6000);
const WARM_UP = 1000;
/** Extra node flags for the gateway processes, e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof". */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

const card = { card_owner_name: 'Bench Owner', card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2030, csc: '123' };

/** A real `tessera serve` process; resolves with its URL and whatever it printed (keys on first start). */
function serve(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_ARGS, MAIN, 'serve'], {
      env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', TESSERA_RATE_LIMITS: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let started = false;
    const timer = setTimeout(() => reject(new Error(`node did not start:\n${out}`)), 60_000);
    const read = (b) => {
      out += b;
      const m = out.match(/Tessera listening on (\S+)/);
      if (m && !started) {
        started = true;
        clearTimeout(timer);
        resolve({ url: m[1], out, pid: child.pid, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`node exited with ${code}:\n${out}`)));
  });
}

/**
 * Scale-out: the same charges-by-token load on one node, then spread over two nodes, both real
 * processes on one fresh PostgreSQL database (created and dropped here). PostgreSQL only.
 */
export default {
  name: 'two-node',
  describe: `charges/s by token on one node and on two node processes sharing PostgreSQL (${TOKENS} tokens each)`,
  pgOnly: true,
  async run(ctx) {
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: ctx.cfg.databaseUrl });
    await admin.connect();
    const name = `bench_nodes_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(ctx.cfg.databaseUrl);
    url.pathname = `/${name}`;
    const dataKey = randomBytes(32).toString('base64');
    const env = { DATABASE_URL: url.href, TESSERA_DATA_KEY: dataKey };
    const nodes = [];
    let db;
    try {
      nodes.push(await serve(env)); // first start: migrates
      nodes.push(await serve(env));
      // A production start makes no merchant: `tessera keys create` does, and prints its keys once.
      const keys = execFileSync(process.execPath, [MAIN, 'keys', 'create', '--name', 'Bench'], { env: { ...process.env, ...env }, encoding: 'utf8' });
      const merchantId = keys.match(/merchant\s+(mer_[0-9a-f]+)/)[1];
      const privateKey = keys.match(/private key\s+(test_sk_[0-9a-f]+)/)[1];
      const { openDatabase } = await dist('db/index.js');
      const { Vault } = await dist('vault.js');
      const { createToken } = await dist('domain/instruments/tokens.js');
      db = await openDatabase({ databaseUrl: url.href });
      const vault = new Vault(Buffer.from(dataKey, 'base64'));
      const authorization = 'Basic ' + Buffer.from(`${privateKey}:`).toString('base64');
      const run = async (label, running, count = TOKENS) => {
        const urls = running.map((n) => n.url);
        const tokens = [];
        for (let i = 0; i < count; i++) tokens.push((await createToken(db, vault, { merchantId, env: 'test' }, card, new Date())).id);
        const sequence = tokens.map((token) => ({
          method: 'POST', path: '/api/v1/charge',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ token, amount: 1999 }),
        }));
        // Every node's CPU counts: an idle node still dispatches the events the charges write.
        const cpu = cpuReading(nodes.map((n) => n.pid));
        const r = await httpLoad({ urls, connections: ctx.cfg.connections, amount: tokens.length, seconds: 600, sequence, bodyIncludes: '"status":"SETTLED"', name: label });
        const used = cpu.stop(r.ok);
        // CPU/op: the gateway processes' own (PostgreSQL's and the rest's are in `cpu`).
        return { name: label, unit: 'req/s', ...r, cpu: used, cpuUsPerOp: used ? used.msPerOp.nodes * 1000 : null };
      };
      // Unmeasured: both processes compile their hot paths and fill their pools first.
      await run('warm-up', nodes, WARM_UP);
      const one = await run('charges-1-node', [nodes[0]]);
      const two = await run('charges-2-nodes', nodes);
      return [one, two];
    } finally {
      await db?.close();
      await Promise.all(nodes.map((n) => n.stop()));
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
  },
};
