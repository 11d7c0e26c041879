import type { FastifyInstance, FastifyRequest } from 'fastify';
import { KeyIdentity, markKeyExposed } from '../domain/merchant/keys.js';
import { E, GatewayError } from '../errors.js';

/** Who may call a route: `private` (default), `public` (either key kind), `none` (the route decides). */
export type Access = 'private' | 'public' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    identity: KeyIdentity;
    /** "Now" for this request: real time, plus the merchant's test-clock offset in test mode. */
    now: Date;
  }
}

/** HTTP Basic: the key is the username, the password is empty (and ignored). */
export function basicUser(header: string | undefined): string | null {
  const m = header?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const user = decoded.split(':')[0];
  return user || null;
}

export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('identity', null as unknown as KeyIdentity);
  app.decorateRequest('now', null as unknown as Date);
  const limiter = app.services.limiter;
  if (limiter && !limiter.events) {
    limiter.events = { warn: (obj, msg) => app.log.warn(obj, msg), count: (name, help, labels) => app.metrics.inc(name, help, labels) };
  }
  // onRequest: a request without a valid key is refused before its body is read or validated.
  app.addHook('onRequest', async (req: FastifyRequest) => {
    const real = app.services.clock.now();
    req.now = real;
    const access = req.routeOptions.config?.access ?? 'private';
    if (access === 'none' || req.is404) return;
    const id = await identify(app, req, basicUser(req.headers.authorization), real);
    if (access === 'private' && id.kind !== 'sk') throw new GatewayError(E.PUBLIC_KEY_REFUSED);
    req.identity = id;
    req.now = nowFor(id, real);
  });
}

/**
 * The identity behind a presented key, or AUTH01. Failed attempts count against the client
 * address; past its ceiling the address's failures get 429 RATE01 (with Retry-After) instead, no
 * longer counted or logged, while a valid key from it still passes. `browser`: the key came where
 * only a public key belongs (the JSONP endpoint, in a page's URL); a private key there is answered exactly as an unknown key, and recorded as exposed for the
 * merchant's dashboard.
 */
export async function identify(
  app: FastifyInstance,
  req: FastifyRequest,
  key: string | null,
  real: Date,
  opts: { browser?: boolean } = {},
): Promise<KeyIdentity> {
  if (!key) throw new GatewayError(E.KEY_INVALID);
  const { limiter, keys, db } = app.services;
  let id = await keys!.authenticate(db, key, real); // keys expire in real time
  if (id && opts.browser && id.kind !== 'pk') {
    const exposed = await markKeyExposed(db, key, real);
    req.log.warn({ merchant_id: id.merchantId, env: id.env, key_set_id: exposed?.key_set_id },
      'a private key was sent from a browser: it is compromised; the merchant should roll the key set (dashboard, Keys)');
    app.metrics.inc('tessera_exposed_private_keys_total', 'Private keys seen where only a public key belongs (the JSONP endpoint).', { env: id.env });
    id = null;
  }
  // A valid key passes whatever its address did before: a page (a JSONP script tag) or a neighbour
  // behind the same NAT could otherwise lock shoppers and merchants out with made-up keys.
  if (id) return id;
  app.metrics.inc('tessera_auth_failures_total', 'Requests with an unknown, expired or misplaced API key.');
  const blocked = limiter?.authBlocked(req.ip, real); // past the ceiling: no more counting, no log line
  if (blocked) throw blocked;
  throw (await limiter?.noteAuthFailure(req.ip, key, real)) ?? new GatewayError(E.KEY_INVALID);
}

/** The request's "now": real time shifted by the merchant's test clock in test mode. */
export function nowFor(id: KeyIdentity, real: Date): Date {
  return id.clockOffsetMs ? new Date(real.getTime() + id.clockOffsetMs) : real;
}
