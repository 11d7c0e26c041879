import Fastify from 'fastify';
import { httpLoad } from '../lib/load.mjs';

/** The HTTP ceiling: a bare Fastify route on its own instance, same client, same connections. */
export default {
  name: 'bare',
  describe: 'GET /ping -> {ok:true} on a bare Fastify instance',
  async run(ctx) {
    const app = Fastify({ logger: false });
    app.get('/ping', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const url = `http://127.0.0.1:${app.server.address().port}/ping`;
      const r = await httpLoad({
        urls: [url],
        connections: ctx.cfg.connections,
        seconds: ctx.cfg.seconds,
        warmupSeconds: ctx.cfg.warmupSeconds,
        bodyIncludes: '"ok":true',
        name: 'bare',
      });
      return [{ name: 'bare', unit: 'req/s', ...r }];
    } finally {
      await app.close();
    }
  },
};
