import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { badRequest, E, GatewayError, tooDeep, tooManyFields } from '../errors.js';
import { contentCoding, decodeBody, hasBody } from './content-encoding.js';
import { MAX_DEPTH, assertNoNul } from '../lib/input.js';
import { assertQueryText, decodeUtf8, formKeyLimit, parseForm } from './form.js';
import { parseMultipart } from './multipart.js';

/**
 * Wire compatibility (design §Wire): bodies arrive as JSON (`application/json`, `text/json`,
 * `application/*+json`), as JSON without a Content-Type, form-encoded and multipart/form-data with
 * nested keys (`metadata[color]=red`, `items[0][qty]=2`, `tags[]=a`), optionally compressed
 * (gzip, deflate, br). Anything else is 415 REQ03 before the body is read.
 */
export const ACCEPTED_TYPES = 'application/json, application/x-www-form-urlencoded or multipart/form-data';

/**
 * Refuses JSON text nested deeper than MAX_DEPTH, or with more object fields than a form may have,
 * before JSON.parse builds anything (one object of 400,000 names takes V8 seconds to build).
 */
function checkJsonShape(text: string, maxKeys: number): void {
  let depth = 0;
  let keys = 0;
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
      if (++depth > MAX_DEPTH) throw tooDeep('body', MAX_DEPTH);
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === 0x3a && ++keys > maxKeys) {
      throw tooManyFields(maxKeys);
    }
  }
}

function parseJson(text: string, maxKeys: number): unknown {
  if (text.trim() === '') return {};
  checkJsonShape(text, maxKeys);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('malformed JSON body');
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
    if (Number(declared) > limit) return fail(new GatewayError(E.BODY_TOO_LARGE));
    payload.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) fail(new GatewayError(E.BODY_TOO_LARGE));
      else chunks.push(chunk);
    });
    payload.on('error', (err) => fail(err instanceof GatewayError ? err : badRequest('the request body was not received whole')));
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
  const json = async (req: FastifyRequest, body: Buffer) => parseJson(bodyText(body), keyLimit(req));
  app.addContentTypeParser(['application/json', 'text/json'], { parseAs: 'buffer' }, json);
  app.addContentTypeParser(/^application\/[^;\s]+\+json(?:;|$)/, { parseAs: 'buffer' }, json);
  // A form's body never starts with `{` or `[`: JSON labelled as a form (libcurl's and PHP's default
  // type for a posted string, Ruby's Net::HTTP) is read as JSON, not as one empty-valued field.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' },
    async (req: FastifyRequest, body: Buffer) => jsonOrForm(bodyText(body), keyLimit(req)));
  app.addContentTypeParser('multipart/form-data',
    (req: FastifyRequest, payload: Readable) => parseMultipart(req.headers, payload, req.routeOptions.bodyLimit, keyLimit(req)));
  // No Content-Type: old clients send JSON bare, others a form. Any other type is refused unread.
  app.addContentTypeParser('*', async (req: FastifyRequest, payload: Readable) => {
    if (req.is404) return undefined; // an unknown path is 404 whatever it was sent with
    if (req.headers['content-type'] !== undefined) {
      throw new GatewayError(E.UNSUPPORTED_CONTENT, `unsupported content type ${JSON.stringify(req.headers['content-type'].slice(0, 80))}; send ${ACCEPTED_TYPES}`);
    }
    return jsonOrForm(bodyText(await readBody(payload, req.headers['content-length'], req.routeOptions.bodyLimit)), keyLimit(req));
  });
}

/** A body that starts with `{` or `[` is JSON, anything else a form. */
function jsonOrForm(text: string, limit: number) {
  const start = text.trimStart()[0];
  return start === '{' || start === '[' ? parseJson(text, limit) : parseForm(text.trim(), limit);
}
