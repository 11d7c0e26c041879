import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { GatewayError } from '../errors.js';
import { contentCoding, decodeBody, hasBody } from './content-encoding.js';
import { MAX_DEPTH, assertQueryText, decodeUtf8, formKeyLimit, parseForm } from './form.js';
import { parseMultipart } from './multipart.js';

export { MAX_DEPTH, parseForm } from './form.js';

/**
 * Wire compatibility (design §Wire): bodies arrive as JSON (`application/json`, `text/json`,
 * `application/*+json`), as JSON without a Content-Type, form-encoded and multipart/form-data with
 * nested keys (`metadata[color]=red`, `items[0][qty]=2`, `tags[]=a`), optionally compressed
 * (gzip, deflate, br). Anything else is 415 REQ03 before the body is read.
 */
export const ACCEPTED_TYPES = 'application/json, application/x-www-form-urlencoded or multipart/form-data';

/** Refuses JSON text nested deeper than MAX_DEPTH before JSON.parse builds anything. */
function checkJsonDepth(text: string): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: a bracket inside it is text.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_DEPTH) throw new GatewayError('REQ01', `body is nested more than ${MAX_DEPTH} levels deep`);
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  checkJsonDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new GatewayError('REQ01', 'malformed JSON body');
  }
  // The PHP library sends `[]` for "no parameters": an empty array is an empty body.
  return Array.isArray(value) && value.length === 0 ? {} : value;
}

const bodyText = (body: Buffer) => decodeUtf8(body, 'the body');
const keyLimit = (req: FastifyRequest) => formKeyLimit(req.routeOptions.bodyLimit, req.server.initialConfig.bodyLimit ?? req.routeOptions.bodyLimit);

/** A body without a Content-Type, read within the route's limit. */
function readBody(payload: Readable, declared: string | undefined, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      payload.resume();
      reject(err);
    };
    if (Number(declared) > limit) return fail(new GatewayError('REQ02'));
    payload.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) fail(new GatewayError('REQ02'));
      else chunks.push(chunk);
    });
    payload.on('error', (err) => fail(err instanceof GatewayError ? err : new GatewayError('REQ01', 'the request body was not received whole')));
    payload.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size));
    });
  });
}

export function registerBodyParsers(app: FastifyInstance): void {
  // A compressed body is decoded before any parser sees it; its decoded size is what the limit bounds.
  app.addHook('preParsing', async (req, _reply, payload) => {
    if (!hasBody(req.headers)) return payload;
    const coding = contentCoding(req.headers['content-encoding']);
    return coding ? decodeBody(payload, coding, req.routeOptions.bodyLimit) : payload;
  });
  // A POST without a body (a full refund, a cancel) reads as an empty object.
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined || req.body === null) req.body = {};
    // The JSONP route checks its query itself, so the error reaches the callback.
    if (req.routeOptions.url === '/api/v1/tokens/jsonp') return;
    assertNoNul(req.params, 'params');
    assertQueryText(req.url);
    assertNoNul(req.query, 'query');
    assertNoNul(req.body, 'body');
  });
  app.removeAllContentTypeParsers();
  const json = async (_req: FastifyRequest, body: Buffer) => parseJson(bodyText(body));
  app.addContentTypeParser(['application/json', 'text/json'], { parseAs: 'buffer' }, json);
  app.addContentTypeParser(/^application\/[^;\s]+\+json(?:;|$)/, { parseAs: 'buffer' }, json);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' },
    async (req: FastifyRequest, body: Buffer) => parseForm(bodyText(body), keyLimit(req)));
  app.addContentTypeParser('multipart/form-data',
    (req: FastifyRequest, payload: Readable) => parseMultipart(req.headers, payload, req.routeOptions.bodyLimit, keyLimit(req)));
  // No Content-Type: old clients send JSON bare, others a form. Any other type is refused unread.
  app.addContentTypeParser('*', async (req: FastifyRequest, payload: Readable) => {
    if (req.is404) return undefined; // an unknown path is 404 whatever it was sent with
    if (req.headers['content-type'] !== undefined) {
      throw new GatewayError('REQ03', `unsupported content type ${JSON.stringify(req.headers['content-type'].slice(0, 80))}; send ${ACCEPTED_TYPES}`);
    }
    const text = bodyText(await readBody(payload, req.headers['content-length'], req.routeOptions.bodyLimit));
    const start = text.trimStart()[0];
    return start === '{' || start === '[' ? parseJson(text) : parseForm(text.trim(), keyLimit(req));
  });
}

type Wellformed = string & { isWellFormed(): boolean };
const wellFormed = (s: string) => (s as Wellformed).isWellFormed();

/**
 * Text PostgreSQL cannot store would fail inside the database (a 500 for a request that can never
 * succeed): refuse it up front as a malformed request, naming the field, in values and in field
 * names: U+0000, and ill-formed UTF-16 (a lone surrogate such as JSON's "\ud800"). Likewise nesting
 * deeper than MAX_DEPTH (`value` itself is level 1). Iterative, so a hostile body cannot exhaust the stack.
 */
export function assertNoNul(value: unknown, path = ''): void {
  const stack: [unknown, string, number][] = [[value, path, 1]];
  while (stack.length) {
    const [v, at, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw new GatewayError('REQ01', `${at || 'request'} must not contain the NUL character`);
      if (!wellFormed(v)) throw new GatewayError('REQ01', `${at || 'request'} is not well-formed text (a lone UTF-16 surrogate)`);
    } else if (v && typeof v === 'object') {
      if (depth > MAX_DEPTH) throw new GatewayError('REQ01', `${at || 'request'} is nested more than ${MAX_DEPTH} levels deep`);
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) throw new GatewayError('REQ01', `${at || 'request'} has a field name with the NUL character`);
        if (!wellFormed(k)) throw new GatewayError('REQ01', `${at || 'request'} has a field name that is not well-formed text (a lone UTF-16 surrogate)`);
        stack.push([x, at ? `${at}.${k}` : k, depth + 1]);
      }
    }
  }
}

/** Objects such as metadata may arrive as a JSON-encoded string; accept both forms. */
export function parseObjectParam(value: unknown, name: string): Record<string, unknown> | null {
  if (value === undefined || value === null || value === '') return null;
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      throw new GatewayError('REQ01', `${name} must be an object or a JSON-encoded object`);
    }
    // Decoded here, after the request's own check: "\ud800" inside the string is a lone surrogate now.
    assertNoNul(v, name);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new GatewayError('REQ01', `${name} must be an object or a JSON-encoded object`);
  }
  return v as Record<string, unknown>;
}
