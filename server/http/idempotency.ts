import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Queryable } from '../db/index.js';
import { GatewayError } from '../errors.js';

export const KEEP_MS = 24 * 3600_000;
/** An in-progress claim older than this, with nothing committed, was abandoned (the request timeout is 30 s). */
const ABANDONED_MS = 60_000;

interface Claim {
  merchantId: string;
  env: string;
  endpoint: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: Claim | null;
  }
}

/** Sorted-key JSON, so the same body in another key order is the same request. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as any)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

const WHERE = 'merchant_id = $1 AND env = $2 AND endpoint = $3 AND key = $4';
const params = (c: Claim) => [c.merchantId, c.env, c.endpoint, c.key];

/**
 * Within the transaction that creates a record: remember which record this key produced, so a
 * crash between commit and the stored response can never run the request a second time.
 */
export async function rememberResource(q: Queryable, req: FastifyRequest, id: string): Promise<void> {
  if (req.idempotency) await q.query(`UPDATE idempotency_keys SET resource_id = $5 WHERE ${WHERE}`, [...params(req.idempotency), id]);
}

/**
 * Every POST takes an Idempotency-Key (≤ 255 chars), scoped to merchant, environment and
 * endpoint, kept 24 hours in the database so it holds across processes: the same key and body
 * replay the stored answer; another body is IDEM02; a request still running is IDEM03.
 */
export function registerIdempotency(app: FastifyInstance): void {
  app.decorateRequest('idempotency', null);
  app.addHook('preHandler', async (req, reply) => {
    const key = req.headers['idempotency-key'];
    if (req.method !== 'POST' || key === undefined || !req.identity) return;
    if (typeof key !== 'string' || key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
      throw new GatewayError('IDEM01');
    }
    const { db, clock } = app.services;
    const claim: Claim = { merchantId: req.identity.merchantId, env: req.identity.env, endpoint: req.url.split('?')[0], key };
    const hash = createHash('sha256').update(canonical(req.body)).digest('hex');
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = clock.now();
      const [won] = await db.query(
        `INSERT INTO idempotency_keys (merchant_id, env, endpoint, key, request_hash, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING key`,
        [...params(claim), hash, now],
      );
      if (won) {
        req.idempotency = claim;
        return;
      }
      const [row] = await db.query(`SELECT * FROM idempotency_keys WHERE ${WHERE}`, params(claim));
      if (!row) continue;
      const age = now.getTime() - new Date(row.created_at).getTime();
      const abandoned = row.status_code === null && row.resource_id === null && age > ABANDONED_MS;
      if (age > KEEP_MS || abandoned) {
        await db.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND created_at = $5`, [...params(claim), row.created_at]);
        continue;
      }
      if (row.request_hash !== hash) throw new GatewayError('IDEM02');
      if (row.status_code === null) {
        const done = row.resource_id ? ` (it created ${row.resource_id})` : '';
        throw new GatewayError('IDEM03', `a request with this Idempotency-Key is in progress or was interrupted${done}; retry later`);
      }
      reply.code(row.status_code).header('idempotent-replayed', 'true').header('cache-control', 'no-store').type('application/json; charset=utf-8');
      return reply.send(row.response);
    }
    throw new GatewayError('IDEM03');
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const claim = req.idempotency;
    if (!claim) return payload;
    req.idempotency = null;
    if (reply.statusCode >= 500) {
      // Nothing was done (or we cannot tell the client what): let a retry run again.
      await app.services.db.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND resource_id IS NULL`, params(claim));
    } else {
      await app.services.db.query(`UPDATE idempotency_keys SET status_code = $5, response = $6 WHERE ${WHERE}`, [
        ...params(claim), reply.statusCode, String(payload),
      ]);
    }
    return payload;
  });
}

export async function purgeIdempotencyKeys(q: Queryable, now: Date): Promise<void> {
  await q.query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(now.getTime() - KEEP_MS)]);
}
