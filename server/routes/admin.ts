import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { merchantKeys, newKeySet } from '../domain/key-commands.js';
import { E, GatewayError } from '../errors.js';

/** Outside /api/v1, so never in the OpenAPI document nor under the API's keys. */
export const ADMIN_KEYS_PATH = '/_tessera/admin/keys';

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

const digest = (s: string) => createHash('sha256').update(s).digest();

const keySetSchema = {
  type: 'object',
  properties: {
    key_set_id: { type: 'string' }, env: { type: 'string' }, public_key: { type: 'string' }, private_key: { type: 'string' },
  },
};
const listingSchema = {
  type: 'object',
  properties: {
    key_set_id: { type: 'string' }, env: { type: 'string' }, kind: { type: 'string' }, redacted: { type: 'string' },
    created_at: { type: 'string' }, expires_at: { type: ['string', 'null'] }, exposed_at: { type: ['string', 'null'] },
  },
};
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * `tessera keys create|list` against the embedded gateway that holds the data directory
 * (server/control-file.ts). Registered only with a token made at this start: answered only to a
 * connection from this machine's loopback (the socket's address, never X-Forwarded-For; anything
 * else is the ordinary 404), and only with that token (401 ADMIN01, compared in constant time).
 */
export default async function adminRoutes(app: FastifyInstance, opts: { token: string }) {
  const { db, clock } = app.services;
  const expected = digest(opts.token);
  const guard = async (req: FastifyRequest) => {
    if (!isLoopback(req.socket.remoteAddress)) {
      throw new GatewayError(E.NO_ENDPOINT, `no such endpoint: ${req.method} ${req.url.split('?')[0]}`);
    }
    const m = /^Bearer ([0-9a-f]{1,128})$/.exec(req.headers.authorization ?? '');
    if (!m || !timingSafeEqual(digest(m[1]), expected)) throw new GatewayError(E.ADMIN_TOKEN_INVALID);
  };
  const config = { access: 'none' as const };

  app.post(ADMIN_KEYS_PATH, {
    config,
    onRequest: guard,
    schema: {
      body: {
        type: 'object',
        properties: {
          merchant: { type: 'string', minLength: 1, maxLength: 100 },
          name: { type: 'string', minLength: 1, maxLength: 200 },
          env: { type: 'string', enum: ['test', 'live'], default: 'test' },
          expire_old: { type: 'string', enum: ['now', '1h', 'never'], default: 'now' },
        },
      },
      response: { 200: { type: 'object', properties: { merchant_id: { type: 'string' }, key_set: keySetSchema } } },
    },
  }, async (req) => {
    const body = req.body as { merchant?: string; name?: string; env: 'test' | 'live'; expire_old: 'now' | '1h' | 'never' };
    const { merchantId, set } = await req.tx((q) =>
      newKeySet(q, { merchantId: body.merchant, name: body.name, env: body.env, expireOld: body.expire_old }, clock.now()),
    );
    app.services.keys?.forget(merchantId); // older keys expired "now" stop at once on this node
    return { merchant_id: merchantId, key_set: set };
  });

  app.get(ADMIN_KEYS_PATH, {
    config,
    onRequest: guard,
    schema: {
      querystring: { type: 'object', required: ['merchant'], properties: { merchant: { type: 'string', minLength: 1, maxLength: 100 } } },
      response: { 200: { type: 'object', properties: { list: { type: 'array', items: listingSchema } } } },
    },
  }, async (req) => {
    const { merchant } = req.query as { merchant: string };
    const list = await merchantKeys(db, merchant);
    return { list: list.map((k) => ({ ...k, created_at: iso(k.created_at), expires_at: iso(k.expires_at), exposed_at: iso(k.exposed_at) })) };
  });
}
