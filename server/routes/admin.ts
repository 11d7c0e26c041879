import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { merchantKeys, newKeySet } from '../domain/merchant/key-commands.js';
import { ConnectionView, describeConnection, removeConnection, setConnection } from '../domain/merchant/processor-connections.js';
import { reconcilePending } from '../domain/payments/reconcile.js';
import { sendChargeReceipt } from '../domain/documents/receipts.js';
import { resolveRuns } from '../domain/billing/run-outcome.js';
import { E, GatewayError } from '../errors.js';

/** Outside /api/v1, so never in the OpenAPI document nor under the API's keys. */
export const ADMIN_KEYS_PATH = '/_tessera/admin/keys';
/** `tessera processor set|show|remove` (POST, GET, DELETE) and `tessera processor reconcile` (POST …/reconcile). */
export const ADMIN_PROCESSOR_PATH = '/_tessera/admin/processor';
export const ADMIN_RECONCILE_PATH = '/_tessera/admin/processor/reconcile';

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
const connectionSchema = {
  type: 'object',
  properties: {
    env: { type: 'string' }, connector: { type: ['string', 'null'] }, configured: { type: 'boolean' },
    settings: { type: 'object', additionalProperties: true }, secrets: { type: 'object', additionalProperties: { type: 'string' } },
    created_at: { type: ['string', 'null'] }, updated_at: { type: ['string', 'null'] },
  },
};
const presentConnection = (v: ConnectionView) => ({ ...v, created_at: iso(v.created_at), updated_at: iso(v.updated_at) });
const scopeQuery = {
  type: 'object',
  required: ['merchant'],
  properties: { merchant: { type: 'string', minLength: 1, maxLength: 100 }, env: { type: 'string', enum: ['test', 'live'], default: 'live' } },
};

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

  // `tessera processor …` (server/processor-command.ts): the same domain calls as on the database.
  const processors = () => app.services.processors;
  type ScopeQuery = { merchant: string; env: 'test' | 'live' };

  app.post(ADMIN_PROCESSOR_PATH, {
    config,
    onRequest: guard,
    schema: {
      body: {
        type: 'object',
        required: ['merchant', 'env', 'connector'],
        properties: {
          merchant: { type: 'string', minLength: 1, maxLength: 100 },
          env: { type: 'string', enum: ['test', 'live'] },
          connector: { type: 'string', minLength: 1, maxLength: 100 },
          fields: { type: 'object', maxProperties: 50, additionalProperties: { type: 'string', maxLength: 1000 }, default: {} },
          sandbox: { type: 'boolean', default: false },
          endpoint: { type: ['string', 'null'], maxLength: 2000 },
        },
      },
      response: { 200: { type: 'object', properties: { connection: connectionSchema } } },
    },
  }, async (req) => {
    const body = req.body as { merchant: string; env: 'test' | 'live'; connector: string; fields: Record<string, string>; sandbox: boolean; endpoint?: string | null };
    const input = { merchantId: body.merchant, env: body.env, connector: body.connector, fields: body.fields, sandbox: body.sandbox, endpoint: body.endpoint ?? null };
    const view = await req.tx((q) => setConnection(q, app.services.vault, processors(), input, clock.now()));
    return { connection: presentConnection(view) };
  });

  app.get(ADMIN_PROCESSOR_PATH, {
    config,
    onRequest: guard,
    schema: { querystring: scopeQuery, response: { 200: { type: 'object', properties: { connection: connectionSchema } } } },
  }, async (req) => {
    const { merchant, env } = req.query as ScopeQuery;
    return { connection: presentConnection(await describeConnection(db, { merchantId: merchant, env })) };
  });

  app.delete(ADMIN_PROCESSOR_PATH, {
    config,
    onRequest: guard,
    schema: { querystring: scopeQuery, response: { 200: { type: 'object', properties: { removed: { type: 'boolean' } } } } },
  }, async (req) => {
    const { merchant, env } = req.query as ScopeQuery;
    return { removed: await req.tx((q) => removeConnection(q, { merchantId: merchant, env })) };
  });

  app.post(ADMIN_RECONCILE_PATH, {
    config,
    onRequest: guard,
    schema: {
      body: {
        type: 'object',
        properties: { merchant: { type: 'string', minLength: 1, maxLength: 100 }, env: { type: 'string', enum: ['test', 'live'] } },
      },
      response: { 200: { type: 'object', properties: { summary: { type: 'object', additionalProperties: { type: 'integer' } } } } },
    },
  }, async (req) => {
    const body = (req.body ?? {}) as { merchant?: string; env?: 'test' | 'live' };
    const deps = { vault: app.services.vault, processors: processors(), clock, resolveRuns, sendReceipt: sendChargeReceipt };
    return { summary: await reconcilePending(db, deps, { merchantId: body.merchant, env: body.env, all: true }) };
  });
}
