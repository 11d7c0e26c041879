import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../errors.js';

/**
 * Wire compatibility (design §Wire): bodies arrive as JSON, as JSON without a Content-Type, and
 * form-encoded with nested keys (`metadata[color]=red`, `items[0][qty]=2`, `tags[]=a`).
 */
export function parseForm(body: string): Record<string, unknown> {
  const out: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.match(/^([^[\]]+)((?:\[[^[\]]*\])*)$/);
    if (!path) {
      out[key] = value;
      continue;
    }
    const parts = [path[1], ...[...path[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
    // Drop the whole pair: skipping only the bad segment would let `__proto__[amount]` set `amount`.
    if (parts.some((p) => p === '__proto__' || p === 'constructor' || p === 'prototype')) continue;
    let node = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const slot = part === '' && Array.isArray(node) ? node.length : part;
      if (last) {
        (node as any)[slot] = value;
      } else {
        if (typeof (node as any)[slot] !== 'object' || (node as any)[slot] === null) {
          (node as any)[slot] = parts[i + 1] === '' ? [] : {};
        }
        node = (node as any)[slot];
      }
    });
  }
  return out;
}

function parseJson(body: string): unknown {
  if (body.trim() === '') return {};
  try {
    return JSON.parse(body);
  } catch {
    throw new GatewayError('REQ01', 'malformed JSON body');
  }
}

export function registerBodyParsers(app: FastifyInstance): void {
  // A POST without a body (a full refund, a cancel) reads as an empty object.
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined || req.body === null) req.body = {};
    // The JSONP route checks its query itself, so the error reaches the callback.
    if (req.routeOptions.url !== '/api/v1/tokens/jsonp') assertNoNul({ query: req.query, params: req.params, body: req.body });
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', 'text/json'], { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJson(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, parseForm(body as string));
  });
  // No (or an unknown) Content-Type: old clients send JSON bare; otherwise treat it as a form.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    try {
      done(null, text.startsWith('{') || text.startsWith('[') ? parseJson(text) : parseForm(text));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

/** Deeper than this is no payment request; recursive code further on (idempotency hashing) must not meet it. */
const MAX_DEPTH = 32;

/**
 * PostgreSQL text cannot hold U+0000: such a value would fail inside the database (a 500).
 * Refuse it up front as a malformed request, naming the field; likewise absurdly deep nesting.
 * Iterative, so a hostile body cannot exhaust the stack.
 */
export function assertNoNul(value: unknown, path = ''): void {
  const stack: [unknown, string, number][] = [[value, path, 0]];
  while (stack.length) {
    const [v, at, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw new GatewayError('REQ01', `${at || 'request'} must not contain the NUL character`);
    } else if (v && typeof v === 'object') {
      if (depth >= MAX_DEPTH) throw new GatewayError('REQ01', `${at || 'request'} is nested more than ${MAX_DEPTH} levels deep`);
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) throw new GatewayError('REQ01', `${at || 'request'} has a field name with the NUL character`);
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
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new GatewayError('REQ01', `${name} must be an object or a JSON-encoded object`);
  }
  return v as Record<string, unknown>;
}
