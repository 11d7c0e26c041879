import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Queryable } from '../db/index.js';
import { E, GatewayError } from '../errors.js';
import type { Vault } from '../vault.js';

export const KEEP_MS = 24 * 3600_000;
/**
 * A claim another PostgreSQL node holds is presumed alive this long, by the database's clock
 * (`claimed_at`): past it, a claim whose request committed is answered from its record, and one
 * with nothing committed (after ABANDONED_MS) runs again. Taking a claim over is safe whenever it
 * happens: the first request's transactions check their claim (fenceClaim) and roll back once it
 * is gone, and a takeover waits for a commit under way (its row lock). The times only decide when
 * a silent owner is given up on; db/pg.ts's deadlines end its waits well before.
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
  /** This request's fencing token: the row's `claim` while this request holds the key. */
  token: string;
  /** Set inside the transaction that created the record (fenceClaim). */
  resourceId?: string;
  /** The request has been answered (onSend ran): the claim stays for fenceClaim, whose check it still is. */
  answered?: boolean;
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
/** Removes this request's claim if nothing it ran committed, so a retry runs the request again. */
const giveBack = (q: Queryable, c: Claim) => q.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND claim = $5 AND NOT committed`, [...params(c), c.token]);

/**
 * Inside every transaction a request with an Idempotency-Key commits (http/tx.ts): the request
 * still holds its claim, or the transaction rolls back (IDEM03), so a retry that took the claim
 * over never runs beside it; the key is marked committed (a later takeover answers from the record
 * instead of running again) and, given one, the record it created is remembered, so a crash between
 * commit and the stored response never runs the request a second time. The UPDATE holds the key's
 * row until commit: a takeover under way waits for it and then sees the commit.
 */
export async function fenceClaim(q: Queryable, req: FastifyRequest, resourceId?: string): Promise<void> {
  const claim = req.idempotency;
  if (!claim) return;
  const [held] = await q.query(`UPDATE idempotency_keys SET committed = true, resource_id = COALESCE($6, resource_id) WHERE ${WHERE} AND claim = $5 RETURNING key`,
    [...params(claim), claim.token, resourceId ?? null]);
  if (!held) {
    throw new GatewayError(E.IDEMPOTENCY_IN_PROGRESS,
      'a retry with this Idempotency-Key took this request over after it stalled; this one changed nothing, the retry\'s answer stands');
  }
  if (resourceId) claim.resourceId = resourceId;
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
    const body = canonical(req.body, skip);
    const hash = `${FINGERPRINT}.${vault.mac('idempotency', body)}`;
    const base = { merchantId: req.identity.merchantId, env: req.identity.env, endpoint: endpointOf(req), key };
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = clock.now();
      const claim: Claim = { ...base, token: randomUUID() };
      hold(slot(claim));
      const [won] = await db.query(
        `INSERT INTO idempotency_keys (merchant_id, env, endpoint, key, request_hash, created_at, owner, claim)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING key`,
        [...params(claim), hash, now, NODE_ID, claim.token],
      ).catch((err) => {
        release(slot(claim));
        throw err;
      });
      if (won) {
        if (reply.sent) {
          // Answered meanwhile (the request deadline): the handler will not run; give the key back.
          release(slot(claim));
          await giveBack(db, claim).catch(() => {});
          return;
        }
        req.idempotency = claim;
        return;
      }
      release(slot(claim));
      // How long the claim has been held is the database's reckoning, never this node's clock.
      const [row] = await db.query(
        `SELECT *, (extract(epoch FROM now() - claimed_at) * 1000)::float8 AS held_ms FROM idempotency_keys WHERE ${WHERE}`, params(claim));
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
          : Number(row.held_ms) > (row.committed ? LEASE_MS : ABANDONED_MS);
      if (gone && !row.committed) {
        // Nothing was committed: the request never happened, run it. Should its first run still be
        // committing, this waits for its row lock and deletes nothing; should it commit later, its
        // fence finds the claim gone and rolls it back.
        await db.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND claim IS NOT DISTINCT FROM $5 AND NOT committed AND status_code IS NULL`,
          [...params(claim), row.claim]);
        continue;
      }
      const replay = req.routeOptions.config?.idempotentReplay;
      if (gone && replay && row.resource_id !== null) {
        // Take the claim over (one retry at a time rebuilds), then answer as the lost request would have.
        hold(slot(claim));
        const [took] = await db.query(
          `UPDATE idempotency_keys SET owner = $5, claim = $6, claimed_at = now() WHERE ${WHERE} AND status_code IS NULL AND claim IS NOT DISTINCT FROM $7 RETURNING key`,
          [...params(claim), NODE_ID, claim.token, row.claim],
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
    if (!claim || claim.answered) return payload;
    // Kept on the request: a transaction of this request still running (the answer was a deadline)
    // must still meet its fence, which fails once the clean-up below has removed the claim.
    claim.answered = true;
    try {
      if (FAILPOINT === 'after-commit-before-answer' && claim.resourceId) process.kill(process.pid, 'SIGKILL');
      // Only while this request still holds the claim: a request taken over stores nothing.
      if (reply.statusCode >= 500) {
        // Nothing was done (or we cannot tell the client what): let a retry run again. A committed
        // request stays claimed, and the retry is answered from its record, by any node at once
        // (its claim is dated a day back, past the lease: what a replay does is read).
        await giveBack(app.services.db, claim);
        if (claim.resourceId) {
          await app.services.db.query(`UPDATE idempotency_keys SET claimed_at = now() - interval '1 day' WHERE ${WHERE} AND claim = $5 AND committed`,
            [...params(claim), claim.token]);
        }
      } else {
        await app.services.db.query(`UPDATE idempotency_keys SET status_code = $5, response = $6 WHERE ${WHERE} AND claim = $7 AND status_code IS NULL`, [
          ...params(claim), reply.statusCode, String(payload), claim.token,
        ]);
      }
    } catch (err) {
      // The answer stands (the database went away after it was decided): a retry finds the claim
      // committed and is answered from the record, or uncommitted and runs again once it is free.
      req.log.warn({ err }, 'the answer of an Idempotency-Key request could not be stored');
    } finally {
      release(slot(claim));
    }
    return payload;
  });
}

export async function purgeIdempotencyKeys(q: Queryable, now: Date): Promise<void> {
  await q.query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(now.getTime() - KEEP_MS)]);
}
