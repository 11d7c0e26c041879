import { dist } from '../lib/dist.mjs';
import { startGateway } from '../lib/gateway.mjs';
import { httpLoad, loopLoad } from '../lib/load.mjs';

const CARD = {
  card_owner_name: 'Bench Owner',
  card_number: '4111111111111111',
  card_exp_month: '12',
  card_exp_year: '2030',
  csc: '123',
};

/**
 * Diagnostic (BENCH_DIAG=1 or BENCH_ONLY=token-steps): the JSONP token request taken apart, each
 * step as an in-process loop with `connections` concurrent callers, no HTTP:
 *  - auth-select      authenticate(): SHA-256 of the key + one SELECT on api_keys
 *  - token-insert     createToken(): validation, 2 x AES-GCM, INSERT ... RETURNING *
 *  - token-insert-nr  the same INSERT statement and parameters without RETURNING *
 *  - token-domain     authenticate() + createToken(), i.e. the route minus Fastify
 *  - token-js         createToken() against a stub database: the JavaScript cost alone
 *  - jsonp-stubdb     the real JSONP route over HTTP (autocannon) on a gateway whose database is a
 *                     stub answering with canned rows: Fastify + route + crypto, no database
 */
export default {
  name: 'token-steps',
  diagnostic: true,
  describe: 'the token request step by step, in process (diagnostic)',
  async run(ctx) {
    const { authenticate } = await dist('domain/merchant/keys.js');
    const { createToken } = await dist('domain/instruments/tokens.js');
    const { db, vault, clock } = ctx.backend;
    const gw = await startGateway(ctx); // only for its merchant and keys
    const key = gw.keys.public_key;
    const scope = { merchantId: gw.merchantId, env: 'test' };
    const opts = { seconds: ctx.cfg.seconds, warmupSeconds: ctx.cfg.warmupSeconds, concurrency: ctx.cfg.connections };
    const out = [];
    const step = async (name, fn) => {
      const r = await loopLoad(fn, { ...opts, name });
      out.push({ name, unit: 'ops/s', ...r });
    };
    try {
      // The INSERT createToken sends, captured once, to replay without RETURNING *.
      let captured;
      await createToken(
        { query: async (sql, params) => ((captured = { sql, params }), [{ id: 'x' }]), exec: async () => {} },
        vault, scope, CARD, clock.now(),
      );
      if (!/RETURNING \*/.test(captured.sql)) throw new Error('token-steps: createToken no longer ends in RETURNING *');
      const noReturn = captured.sql.replace(/ON CONFLICT \(id\) DO NOTHING\s+RETURNING \*/, '').replace(/RETURNING \*/, '');
      let n = 0;

      await step('auth-select', () => authenticate(db, key, clock.now()));
      await step('token-insert', () => createToken(db, vault, scope, CARD, clock.now()));
      await step('token-insert-nr', () => db.query(noReturn, [`nr${n++}`, ...captured.params.slice(1)]));
      await step('token-domain', async () => {
        const id = await authenticate(db, key, clock.now());
        return createToken(db, vault, id, CARD, clock.now());
      });
      const stub = { query: async () => [{ id: 'x' }], exec: async () => {} };
      await step('token-js', () => createToken(stub, vault, scope, CARD, clock.now()));

      const { buildApp } = await dist('app.js');
      const tokenRow = await createToken(db, vault, scope, CARD, clock.now());
      const identity = { merchant_id: gw.merchantId, env: 'test', kind: 'pk' };
      const stubDb = {
        kind: db.kind,
        query: async (sql) => (/FROM api_keys/.test(sql) ? [identity] : /INSERT INTO tokens/.test(sql) ? [tokenRow] : []),
        exec: async () => {},
        tx: (fn) => fn(stubDb),
        close: async () => {},
      };
      const app = await buildApp({ db: stubDb, vault, clock }, { logLevel: 'silent' });
      await app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const path = `/api/v1/tokens/jsonp?${new URLSearchParams({ public_api_key: key, callback: 'cb', ...CARD })}`;
        const r = await httpLoad({
          urls: [`http://127.0.0.1:${app.server.address().port}${path}`],
          connections: ctx.cfg.connections,
          seconds: ctx.cfg.seconds,
          warmupSeconds: ctx.cfg.warmupSeconds,
          bodyIncludes: '"class":"token"',
          name: 'jsonp-stubdb',
        });
        out.push({ name: 'jsonp-stubdb', unit: 'req/s', ...r });
      } finally {
        await app.close();
      }
      return out;
    } finally {
      await gw.close();
    }
  },
};
