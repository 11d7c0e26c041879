import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Queryable } from '../db/index.js';
import { E, GatewayError } from '../errors.js';
import type { Vault } from '../vault.js';

export const KEEP_MS = 24 * 3600_000;
/**
 * A claim another PostgreSQL node holds is presumed alive this long: past it, a claim whose record
 * committed is answered from the record, and one with nothing committed (after ABANDONED_MS) runs
 * again. The request timeout is 30 s.
 */
export const LEASE_MS = 30_000;
const ABANDONED_MS = 60_000;
/** Fingerprints are `h2.<data key id>.<HMAC>`; anything else was written before they were keyed. */
const FINGERPRINT = 'h2';
/** Body fields never part of a fingerprint, at any depth (app.ts adds the names its log redaction lists). */
const CARD_FIELDS = ['card_number', 'csc', 'cvv', 'bank_account_number'];

/**
 * This process. A claim it owns counts in `inFlight` from before its INSERT until it is answered
 * (counted before, so another request never sees the row without the count); a claim it owns
 * with no count is a handler that died.
 */
export const NODE_ID = randomUUID();
const inFlight = new Map<string, number>();
const hold = (s: string) => inFlight.set(s, (inFlight.get(s) ?? 0) + 1);
const release = (s: string) => {
  const n = (inFlight.get(s) ?? 1) - 1;
  if (n > 0) inFlight.set(s, n);
  else inFlight.delete(s);
};

/** Test-only: `after-commit-before-answer` kills the process where a crash loses the answer of a committed record. */
const FAILPOINT = process.env.TESSERA_FAILPOINT;

interface Claim {
  merchantId: string;
  env: string;
  endpoint: string;
  key: string;
  /** Set inside the transaction that created the record (rememberResource). */
  resourceId?: string;
}

/**
 * How a route answers again for a record it created, when the node that created it died before
 * storing its answer: return the body (the route's 200 schema applies) or throw its GatewayError,
 * as the original request would have. Routes without one answer IDEM03 naming the record.
 */
export type IdempotentReplay = (req: FastifyRequest, resourceId: string) => Promise<unknown>;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: Claim | null;
  }
  interface FastifyContextConfig {
    idempotentReplay?: IdempotentReplay;
  }
}

/** Sorted-key JSON without card fields, so the same body in another key order is the same request. */
function canonical(v: unknown, skip: Set<string>): string {
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x, skip)).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v).filter((k) => !skip.has(k)).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as any)[k], skip)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** `*.card_number` -> `card_number`: the field names of pino redaction paths. */
function fieldNames(paths: readonly string[]): string[] {
  return paths.map((p) => p.split('.').pop()!).filter(Boolean);
}

/** The stored fingerprint matches this body (true), does not (false), or cannot be checked (null: legacy or dropped key). */
function sameBody(vault: Vault, stored: string, canonicalBody: string): boolean | null {
  const [version, kid] = stored.split('.');
  if (version !== FINGERPRINT) return null;
  const mine = vault.mac('idempotency', canonicalBody, kid);
  return mine === null ? null : `${FINGERPRINT}.${mine}` === stored;
}

const WHERE = 'merchant_id = $1 AND env = $2 AND endpoint = $3 AND key = $4';
const params = (c: Claim) => [c.merchantId, c.env, c.endpoint, c.key];
const slot = (c: Claim) => params(c).join('\u0000');

/**
 * Within the transaction that creates a record: remember which record this key produced, so a
 * crash between commit and the stored response can never run the request a second time.
 */
export async function rememberResource(q: Queryable, req: FastifyRequest, id: string): Promise<void> {
  if (!req.idempotency) return;
  await q.query(`UPDATE idempotency_keys SET resource_id = $5 WHERE ${WHERE}`, [...params(req.idempotency), id]);
  req.idempotency.resourceId = id;
}

/**
 * Every POST takes an Idempotency-Key (≤ 255 chars), scoped to merchant, environment and
 * endpoint, kept 24 hours in the database so it holds across processes: the same key and body
 * replay the stored answer; another body is IDEM02; a request still running is IDEM03. A request
 * whose node died after its record committed is answered from the record (the route's
 * `idempotentReplay`); one whose node died before anything committed runs again.
 */
/**
 * The endpoint a key belongs to: the matched route with its decoded parameters, never the raw URL,
 * so `/api/v1//charge`, `/api/v1/%63harge` and `/api/v1/charge/` are the one endpoint (and one
 * charge) that `/api/v1/charge` is.
 */
export function endpointOf(req: FastifyRequest): string {
  const params = (req.params ?? {}) as Record<string, string>;
  return (req.routeOptions.url ?? req.url.split('?')[0]).replace(/:(\w+)/g, (_, name: string) => params[name] ?? '');
}

export function registerIdempotency(app: FastifyInstance, opts: { secretFields?: readonly string[] } = {}): void {
  const skip = new Set([...CARD_FIELDS, ...fieldNames(opts.secretFields ?? [])]);
  app.decorateRequest('idempotency', null);
  app.addHook('preHandler', async (req, reply) => {
    const key = req.headers['idempotency-key'];
    // Private keys only: a public key is in every checkout page, so with it anyone who guessed a
    // shopper's Idempotency-Key (an order id) would be answered that shopper's token, and a card
    // corrected after a refusal would get the refusal again for a day. Making a token twice is harmless.
    if (req.method !== 'POST' || key === undefined || req.identity?.kind !== 'sk') return;
    if (typeof key !== 'string' || key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
      throw new GatewayError(E.IDEMPOTENCY_KEY_INVALID);
    }
    const { db, clock, vault } = app.services;
    const claim: Claim = { merchantId: req.identity.merchantId, env: req.identity.env, endpoint: endpointOf(req), key };
    const body = canonical(req.body, skip);
    const hash = `${FINGERPRINT}.${vault.mac('idempotency', body)}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = clock.now();
      hold(slot(claim));
      const [won] = await db.query(
        `INSERT INTO idempotency_keys (merchant_id, env, endpoint, key, request_hash, created_at, owner)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING key`,
        [...params(claim), hash, now, NODE_ID],
      ).catch((err) => {
        release(slot(claim));
        throw err;
      });
      if (won) {
        req.idempotency = claim;
        return;
      }
      release(slot(claim));
      const [row] = await db.query(`SELECT * FROM idempotency_keys WHERE ${WHERE}`, params(claim));
      if (!row) continue;
      const age = now.getTime() - new Date(row.created_at).getTime();
      if (age > KEEP_MS) {
        await db.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND created_at = $5`, [...params(claim), row.created_at]);
        continue;
      }
      // A fingerprint from before they were keyed (or under a dropped data key) cannot be checked:
      // the key alone decides, since running a payment twice is the worse mistake.
      if (sameBody(vault, row.request_hash, body) === false) throw new GatewayError(E.IDEMPOTENCY_KEY_REUSED);
      if (row.status_code !== null) {
        reply.code(row.status_code).header('idempotent-replayed', 'true').header('cache-control', 'no-store').type('application/json; charset=utf-8');
        return reply.send(row.response);
      }
      // In progress. Is its owner still working on it?
      const mine = row.owner === NODE_ID;
      const gone = mine ? !inFlight.has(slot(claim))
        // Embedded PGlite has one process (its data-dir lock): a claim of another process is a dead one's.
        : db.kind === 'pglite' && row.owner !== null ? true
          : age > (row.resource_id === null ? ABANDONED_MS : LEASE_MS);
      if (gone && row.resource_id === null) {
        // Nothing was committed: the request never happened, run it.
        await db.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND created_at = $5 AND resource_id IS NULL AND status_code IS NULL`,
          [...params(claim), row.created_at]);
        continue;
      }
      const replay = req.routeOptions.config?.idempotentReplay;
      if (gone && replay) {
        // Take the claim over (one retry at a time rebuilds), then answer as the lost request would have.
        hold(slot(claim));
        const [took] = await db.query(
          `UPDATE idempotency_keys SET owner = $5 WHERE ${WHERE} AND status_code IS NULL AND owner IS NOT DISTINCT FROM $6 RETURNING key`,
          [...params(claim), NODE_ID, row.owner],
        ).catch((err) => {
          release(slot(claim));
          throw err;
        });
        if (!took) {
          release(slot(claim));
          continue;
        }
        req.idempotency = { ...claim, resourceId: row.resource_id };
        reply.header('idempotent-replayed', 'true');
        return reply.send(await replay(req, row.resource_id));
      }
      const done = row.resource_id ? ` (it created ${row.resource_id})` : '';
      throw new GatewayError(E.IDEMPOTENCY_IN_PROGRESS, `a request with this Idempotency-Key is in progress or was interrupted${done}; retry later`);
    }
    throw new GatewayError(E.IDEMPOTENCY_IN_PROGRESS);
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const claim = req.idempotency;
    if (!claim) return payload;
    req.idempotency = null;
    try {
      if (FAILPOINT === 'after-commit-before-answer' && claim.resourceId) process.kill(process.pid, 'SIGKILL');
      if (reply.statusCode >= 500) {
        // Nothing was done (or we cannot tell the client what): let a retry run again. A committed
        // record stays claimed, and the retry is answered from it.
        await app.services.db.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND resource_id IS NULL`, params(claim));
      } else {
        await app.services.db.query(`UPDATE idempotency_keys SET status_code = $5, response = $6 WHERE ${WHERE} AND status_code IS NULL`, [
          ...params(claim), reply.statusCode, String(payload),
        ]);
      }
    } finally {
      release(slot(claim));
    }
    return payload;
  });
}

export async function purgeIdempotencyKeys(q: Queryable, now: Date): Promise<void> {
  await q.query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(now.getTime() - KEEP_MS)]);
}
