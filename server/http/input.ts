// The routes' field tables at work (schemas/fields.ts): a route that declares a table as its
// schema.body or schema.querystring has it read before its handler, after the hooks every route
// runs (the key, the limits, the Idempotency-Key claim), so a refused field is answered with the
// spec's code exactly where the handler would have thrown it. The handler takes the typed result
// with `Table.from(req)`.
import type { FastifyInstance, FastifyRequest, RouteOptions, preHandlerHookHandler } from 'fastify';
import { tableOf } from '../schemas/fields.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the route's field table read from its body (or, for a bodiless route, its query string). */
    input?: unknown;
  }
  interface FastifyContextConfig {
    /** 'handler': the route reads its field table itself (the JSONP route, whose errors go to its callback). */
    readsInput?: 'handler';
  }
}

/** Call before registering routes. */
export function readFieldTables(app: FastifyInstance): void {
  app.addHook('onRoute', (r: RouteOptions) => {
    const schema = r.schema as { body?: unknown; querystring?: unknown } | undefined;
    const body = tableOf(schema?.body);
    const query = tableOf(schema?.querystring);
    if (body && query) throw new Error(`${r.url}: a route reads one field table (its body or its query string)`);
    const table = body ?? query;
    // The JSONP route reads its table in its handler: its errors travel through the callback.
    if (!table || (r.config as { readsInput?: 'handler' } | undefined)?.readsInput === 'handler') return;
    const read = async (req: FastifyRequest) => {
      req.input = table.read(body ? req.body : req.query);
    };
    r.preHandler = [...[r.preHandler ?? []].flat(), read as preHandlerHookHandler];
  });
}
