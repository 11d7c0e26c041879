// A/B of the charge path in one process, for changes too small for the machine's noise between
// two bench runs: `node bench/tools/ab-charges.mjs <treeA> <treeB>`, each a checkout with its
// dist/ built (e.g. `git archive <commit> | tar -x -C /tmp/a`, node_modules linked, `npx tsc -p
// tsconfig.build.json`). One in-memory gateway per tree in this process; batches of BATCH (300)
// sequential charges, a token's and a stored customer's, alternated between the two for ROUNDS (8)
// rounds (the first warms up); CPU of the process per charge, client included, median per gateway.
// RULE=1: the merchant has a rule with a webhook strategy, and the delivery loops are stopped (the
// charge's own cost only).
if (process.argv.length < 4) throw new Error('usage: node bench/tools/ab-charges.mjs <treeA> <treeB>');
const [treeA, treeB] = process.argv.slice(2).map((t) => new URL(t, `file://${process.cwd()}/`).pathname.replace(/\/$/, ''));
const ROUNDS = Number(process.env.ROUNDS ?? 8), BATCH = Number(process.env.BATCH ?? 300);
const card = { card_owner_name: 'Bench Owner', card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2099, csc: '123' };
async function open(tree) {
  const { startTessera } = await import(`${tree}/dist/server/start.js`);
  const gw = await startTessera({ storage: 'memory', port: 0, warn: () => {}, rateLimits: { perIp: 0, perKey: 0, failures: 0 } });
  const auth = (k) => 'Basic ' + Buffer.from(`${k}:`).toString('base64');
  const call = async (method, path, body, key = gw.privateKey) => {
    const res = await fetch(`${gw.url}/api/v1${path}`, { method, headers: { authorization: auth(key), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
  const tok = async () => (await call('POST', '/tokens', card, gw.publicKey)).body.id;
  const customer = (await call('POST', '/customers', { token: await tok(), first_name: 'Ada' })).body.id;
  if (process.env.RULE) {
    const rule = await call('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: ['created'] });
    const s = await call('POST', '/webhooks/strategies', { mode: 'webhook', url: 'http://127.0.0.1:9/hook' });
    await call('POST', `/webhooks/rules/${rule.body.id}/strategies`, { strategy_id: s.body.id });
    await gw.scheduler.stop();
    await gw.webhooks.stop(); // the dispatcher before issue 27, the deliverer after
  }
  return { name: tree, gw, call, tok, customer, cpu: { token: [], customer: [] } };
}
const gws = [await open(treeA), await open(treeB)];
for (let r = 0; r < ROUNDS; r++) {
  for (const g of (r % 2 ? [...gws].reverse() : gws)) {
    for (const kind of ['token', 'customer']) {
      const tokens = kind === 'token' ? await Promise.all(Array.from({ length: BATCH }, () => g.tok())) : [];
      const c0 = process.cpuUsage();
      for (let i = 0; i < BATCH; i++) {
        const res = await g.call('POST', '/charge', kind === 'token' ? { token: tokens[i], amount: 1000 } : { customer_id: g.customer, amount: 1000 });
        if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      }
      const c = process.cpuUsage(c0);
      if (r > 0) g.cpu[kind].push((c.user + c.system) / BATCH); // round 0 warms up
    }
  }
}
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const g of gws) console.log(`${g.name}: token charge ${med(g.cpu.token).toFixed(0)} µs CPU (median of ${g.cpu.token.length} batches of ${BATCH}; ${g.cpu.token.map((x) => x.toFixed(0)).join(' ')}), stored customer ${med(g.cpu.customer).toFixed(0)} µs (${g.cpu.customer.map((x) => x.toFixed(0)).join(' ')})`);
for (const g of gws) await g.gw.close();
