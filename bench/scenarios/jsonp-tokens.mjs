import { startGateway } from '../lib/gateway.mjs';
import { httpLoad } from '../lib/load.mjs';

const MARK = '"class":"token"';

/** Card tokenisation through the JSONP route, the path the browser tokenizer takes. */
export default {
  name: 'jsonp-tokens',
  describe: 'GET /api/v1/tokens/jsonp with a valid test card on the real gateway',
  async run(ctx) {
    const gw = await startGateway(ctx);
    try {
      const path = `/api/v1/tokens/jsonp?${new URLSearchParams({
        public_api_key: gw.keys.public_key,
        callback: 'cb',
        card_owner_name: 'Bench Owner',
        card_number: '4111111111111111',
        card_exp_month: '12',
        card_exp_year: '2030',
        csc: '123',
      })}`;
      // JSONP answers errors with 200 too: check a sample by body before trusting a 2xx count.
      for (let i = 0; i < 3; i++) {
        const res = await fetch(gw.url + path);
        const body = await res.text();
        if (res.status !== 200 || !body.includes(MARK)) {
          throw new Error(`jsonp-tokens: sample request got ${res.status} ${body.slice(0, 300)}`);
        }
      }
      const count = async () => (await gw.db.query('SELECT count(*)::int AS n FROM tokens'))[0].n;
      const before = await count();
      const r = await httpLoad({
        urls: gw.urls.map((u) => u + path),
        connections: ctx.cfg.connections,
        seconds: ctx.cfg.seconds,
        warmupSeconds: ctx.cfg.warmupSeconds,
        bodyIncludes: MARK,
        name: 'jsonp-tokens',
      });
      const rows = (await count()) - before;
      // autocannon drops the requests in flight when a run (warm-up, measured) ends; the server still
      // completes them, so up to 2 x connections more rows than counted responses is expected.
      const expected = r.ok + r.warmupOk;
      if (rows < expected || rows > expected + 2 * ctx.cfg.connections) {
        console.error(`  jsonp-tokens: ${rows} token rows written for ${expected} token responses`);
      }
      return [{ name: 'jsonp-tokens', unit: 'req/s', ...r, rowsWritten: rows }];
    } finally {
      await gw.close();
    }
  },
};
