// The routes' field tables at work (schemas/fields.ts): a route that declares a table as its
// schema.body or schema.querystring (or both) has it read before its handler, after the hooks every route
// runs (the key, the limits, the Idempotency-Key claim), so a refused field is answered with the
// spec's code exactly where the handler would have thrown it. The handler takes the typed result
// with `Table.from(req)`.
import type { FastifyInstance, FastifyRequest, RouteOptions, preHandlerHookHandler } from 'fastify';
import { tableOf } from '../schemas/fields.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the route's field tables read, by table (its body's, its query string's): `Table.from(req)`. */
    input?: Map<object, unknown>;
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
    const query = tableOf(schema?.querystring);
    const body = tableOf(schema?.body);
    // The JSONP route reads its table in its handler: its errors travel through the callback.
    if ((!body && !query) || (r.config as { readsInput?: 'handler' } | undefined)?.readsInput === 'handler') return;
    // The query string's first, then the body's, each field in its table's order.
    const read = async (req: FastifyRequest) => {
      const input = new Map<object, unknown>();
      if (query) input.set(query, query.read(req.query));
      if (body) input.set(body, body.read(req.body));
      req.input = input;
    };
    r.preHandler = [...[r.preHandler ?? []].flat(), read as preHandlerHookHandler];
  });
}
