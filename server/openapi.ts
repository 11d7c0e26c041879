import type { FastifyInstance, RouteOptions } from 'fastify';
import { CATALOGUE, E, type ErrorCode } from './errors.js';
import { Errors } from './schemas/common.js';
import { documentedOf, tableOf } from './schemas/fields.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The catalogue codes this route can answer besides the ones every route of its kind can (see build). */
    errors?: readonly ErrorCode[];
    /** false: a POST that refuses an Idempotency-Key (its answer may never be stored). */
    idempotency?: false;
  }
  interface FastifySchema {
    /** One line in the OpenAPI document and on /docs. */
    summary?: string;
    description?: string;
    /** A 200 answer that is not JSON serialised by a response schema: its media type, schema and example. */
    produces?: Record<string, { schema: object; example: unknown }>;
  }
}

interface Collected {
  method: string;
  url: string;
  schema: Record<string, any>;
  access: string;
  errors: readonly ErrorCode[];
  /** An authenticated POST that takes an Idempotency-Key. */
  idempotent: boolean;
}

/** `/charge/:id` → `/charge/{id}` */
const openPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

/** The documented form of a body or query schema: a field table's (closed, with what is required), else the schema. */
const documented = (schema: any) => {
  const table = tableOf(schema);
  return table ? documentedOf(table) : schema;
};

/**
 * Builds OpenAPI 3.1 from the routes' own schemas and error lists, so the document cannot drift
 * from what the server serialises. Call before registering routes.
 */
export function collectRoutes(app: FastifyInstance): () => object {
  const routes: Collected[] = [];
  app.addHook('onRoute', (r: RouteOptions) => {
    for (const method of [r.method].flat()) {
      if (method === 'HEAD') continue;
      const config = (r.config ?? {}) as { access?: string; errors?: readonly ErrorCode[]; idempotency?: false };
      const access = config.access ?? 'private';
      routes.push({
        method: method.toLowerCase(), url: r.url, schema: (r.schema ?? {}) as Record<string, any>, access, errors: config.errors ?? [],
        idempotent: method === 'POST' && access !== 'none' && config.idempotency !== false,
      });
    }
  });
  let doc: object | null = null;
  return () => (doc ??= build(routes));
}

/** A value for a schema: its first `examples` entry, else one built from its properties and types. */
export function exampleOf(s: any): unknown {
  if (!s || typeof s !== 'object') return null;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.anyOf)) return exampleOf(s.anyOf[0]);
  const types: string[] = [s.type ?? (s.properties ? 'object' : 'null')].flat();
  if (types.includes('null')) return null;
  switch (types[0]) {
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, exampleOf(v)]));
    case 'array':
      return s.items ? [exampleOf(s.items)] : [];
    case 'string':
      return s.format === 'date-time' ? '2026-01-15T12:00:00.000Z' : 'text';
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/**
 * The codes a route can answer whatever it does: REQ01 for ill-formed input anywhere; a key's
 * codes unless the route is open; a body's codes on every method that may carry one (Fastify reads
 * a body whether or not the route declares one); NOTFOUND for an empty path parameter (`/charge/`
 * is no route); the Idempotency-Key's codes on authenticated POSTs.
 */
function commonErrors(r: Collected): ErrorCode[] {
  const codes: ErrorCode[] = [E.INVALID_REQUEST];
  if (r.access !== 'none') codes.push(E.KEY_INVALID, E.RATE_LIMITED);
  if (r.access === 'private') codes.push(E.PUBLIC_KEY_REFUSED);
  if (r.method !== 'get') codes.push(E.BODY_TOO_LARGE, E.UNSUPPORTED_CONTENT);
  if (r.url.includes('/:')) codes.push(E.NO_ENDPOINT);
  if (r.idempotent) codes.push(E.IDEMPOTENCY_KEY_INVALID, E.IDEMPOTENCY_KEY_REUSED, E.IDEMPOTENCY_IN_PROGRESS);
  return codes;
}

function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = CATALOGUE[code][0];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries([...byStatus].sort(([a], [b]) => a - b).map(([status, list]) => [String(status), {
    description: list.map((c) => `\`${c}\` ${CATALOGUE[c][1]}`).join('; '),
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/Errors' },
        example: { errors: [{ code: list[0], message: CATALOGUE[list[0]][1] }] },
      },
    },
  }]));
}

function operation(r: Collected): Record<string, unknown> {
  const parameters: object[] = [...r.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
    name: m[1], in: 'path', required: true, schema: { type: 'string' },
  }));
  const query = documented(r.schema.querystring);
  for (const [name, schema] of Object.entries<any>(query?.properties ?? {})) {
    const { description, ...rest } = schema;
    parameters.push({ name, in: 'query', required: (query.required ?? []).includes(name), schema: rest, ...(description ? { description } : {}) });
  }
  if (r.idempotent) {
    parameters.push({
      name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 },
      description: 'Sent again with the same body, answers what the first request answered, without doing it twice.',
    });
  }
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries<any>(r.schema.response ?? {})) {
    responses[status] = { description: 'success', content: { 'application/json': { schema, example: exampleOf(schema) } } };
  }
  if (Object.keys(responses).length === 0) responses['200'] = { description: 'success', content: r.schema.produces ?? {} };
  Object.assign(responses, errorResponses([...commonErrors(r), ...r.errors]));
  const op: Record<string, unknown> = {
    operationId: `${r.method}_${r.url.replace('/api/v1/', '').replace(/[/:{}]+/g, '_')}`,
    summary: r.schema.summary,
    // Grouped on /docs by the path's first segment: charge, customers, webhooks…
    tags: [r.url.split('/')[3]],
    parameters,
    responses,
    security: r.access === 'none' ? [] : [{ basic: [] }],
  };
  const notes = [r.schema.description, r.access === 'public' ? 'Accepts the public key.' : undefined].filter(Boolean);
  if (notes.length) op.description = notes.join(' ');
  const body = documented(r.schema.body);
  if (body) {
    const media = { schema: body, example: exampleOf(body) };
    op.requestBody = {
      required: (body.required ?? []).length > 0,
      content: { 'application/json': media, 'application/x-www-form-urlencoded': media, 'multipart/form-data': media },
    };
  }
  return op;
}

function build(routes: Collected[]): object {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (!r.url.startsWith('/api/v1/')) continue;
    (paths[openPath(r.url.replace('/api/v1', ''))] ??= {})[r.method] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tessera payment gateway',
      version: '1',
      description: 'HTTP Basic: the API key is the username, the password is empty. Bodies: JSON, form-encoded or '
        + 'multipart/form-data. Every error answers `{ errors: [{ code, message }] }`; x-error-codes lists every code. '
        + 'Request bodies are documented closed (`additionalProperties: false`) so that a client generated from this '
        + 'document catches a misspelt field; the gateway itself ignores fields it does not know, as existing clients '
        + 'of this API family send extra ones. Form bodies may send numbers and booleans as text.',
    },
    servers: [{ url: '/api/v1' }],
    components: {
      securitySchemes: { basic: { type: 'http', scheme: 'basic' } },
      schemas: { Errors },
    },
    paths,
    'x-error-codes': Object.fromEntries(Object.entries(CATALOGUE).map(([code, [status, message]]) => [code, { status, message }])),
  };
}
