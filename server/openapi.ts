import type { FastifyInstance, RouteOptions } from 'fastify';
import { CATALOGUE } from './errors.js';

interface Collected {
  method: string;
  url: string;
  schema?: Record<string, any>;
  access: string;
}

const errorSchema = {
  type: 'object',
  properties: {
    errors: {
      type: 'array',
      items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

/** `/charge/:id` → `/charge/{id}` */
const openPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

/**
 * Builds OpenAPI 3.1 from the routes' own JSON schemas, so the document cannot drift from what
 * the server validates and serialises. Call before registering routes.
 */
export function collectRoutes(app: FastifyInstance): () => object {
  const routes: Collected[] = [];
  app.addHook('onRoute', (r: RouteOptions) => {
    for (const method of [r.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({ method: method.toLowerCase(), url: r.url, schema: r.schema as any, access: (r.config as any)?.access ?? 'private' });
    }
  });
  let doc: object | null = null;
  return () => (doc ??= build(routes));
}

function build(routes: Collected[]): object {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (!r.url.startsWith('/api/v1')) continue;
    const params = [...r.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
      name: m[1], in: 'path', required: true, schema: { type: 'string' },
    }));
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(r.schema?.response ?? {})) {
      responses[status] = { description: `${status} response`, content: { 'application/json': { schema } } };
    }
    if (!responses['200']) responses['200'] = { description: 'success' };
    responses['4XX'] = { description: 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } } };
    const op: Record<string, unknown> = {
      operationId: `${r.method}_${r.url.replace('/api/v1/', '').replace(/[/:{}]+/g, '_')}`,
      parameters: params,
      responses,
      security: r.access === 'none' ? [] : [{ basic: [] }],
    };
    if (r.access === 'public') op.description = 'Accepts the public key.';
    if (r.schema?.body) {
      op.requestBody = {
        content: {
          'application/json': { schema: r.schema.body },
          'application/x-www-form-urlencoded': { schema: r.schema.body },
        },
      };
    }
    (paths[openPath(r.url.replace('/api/v1', ''))] ??= {})[r.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tessera payment gateway',
      version: '1',
      description: 'HTTP Basic: the API key is the username, the password is empty. Error codes: see x-error-codes.',
    },
    servers: [{ url: '/api/v1' }],
    components: {
      securitySchemes: { basic: { type: 'http', scheme: 'basic' } },
      schemas: { Errors: errorSchema },
    },
    paths,
    'x-error-codes': Object.fromEntries(Object.entries(CATALOGUE).map(([code, [status, message]]) => [code, { status, message }])),
  };
}
