import { dist } from '../lib/dist.mjs';
import { startGateway } from '../lib/gateway.mjs';
import { httpLoad } from '../lib/load.mjs';

export const MARK = '"status":"SETTLED"';
const TOKENS = Number(process.env.BENCH_CHARGE_TOKENS ?? 6000);
const card = { card_owner_name: 'Bench Owner', card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2030, csc: '123' };

/**
 * `n` charge requests by token for the gateway `gw` (tokens made through the token domain, not
 * timed), after 3 sample charges checked by status and body: { tokens, request(token) }.
 */
export async function chargeRequests(ctx, gw, n) {
  const { createToken } = await dist('domain/instruments/tokens.js');
  const scope = { merchantId: gw.merchantId, env: 'test' };
  const { db, vault, clock } = ctx.backend;
  const tokens = [];
  for (let i = 0; i < n + 3; i++) tokens.push((await createToken(db, vault, scope, card, clock.now())).id);
  const authorization = 'Basic ' + Buffer.from(`${gw.keys.private_key}:`).toString('base64');
  const request = (token) => ({
    method: 'POST',
    path: '/api/v1/charge',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ token, amount: 1999 }),
  });
  for (const token of tokens.splice(0, 3)) {
    const r = request(token);
    const res = await fetch(gw.url + r.path, { method: 'POST', headers: r.headers, body: r.body });
    const body = await res.text();
    if (res.status !== 200 || !body.includes(MARK)) throw new Error(`charges: sample request got ${res.status} ${body.slice(0, 300)}`);
  }
  return { tokens, request };
}

/**
 * Charges by token: every request spends its own token, made in a setup phase through the token
 * domain (not timed). The run stops when the tokens are spent (autocannon `amount`); the warm-up
 * before it spends tokens of its own.
 */
export default {
  name: 'charges',
  describe: `POST /api/v1/charge with a fresh token per request (${TOKENS} tokens made beforehand)`,
  async run(ctx) {
    const gw = await startGateway(ctx);
    try {
      // Warm-up: 1,000 charges per BENCH_WARMUP_SECONDS on tokens of their own, not measured (the
      // new app's code compiled; the measured run's CPU per charge is the steady state's).
      const warm = Math.round(1000 * ctx.cfg.warmupSeconds);
      const { tokens, request } = await chargeRequests(ctx, gw, TOKENS + warm);
      const load = (list, name) => httpLoad({
        urls: gw.urls,
        connections: ctx.cfg.connections,
        amount: list.length,
        seconds: 600, // a ceiling: the run ends when the tokens are spent
        sequence: list.map(request),
        bodyIncludes: MARK,
        name,
      });
      if (warm > 0) await load(tokens.splice(0, warm), 'charges-warmup');
      const count = async () => (await gw.db.query('SELECT count(*)::int AS n FROM transactions'))[0].n;
      const before = await count();
      const r = await load(tokens, 'charges');
      const rows = (await count()) - before;
      if (rows !== r.ok) console.error(`  charges: ${rows} transactions written for ${r.ok} settled responses`);
      return [{ name: 'charges', unit: 'req/s', ...r, rowsWritten: rows }];
    } finally {
      await gw.close();
    }
  },
};
