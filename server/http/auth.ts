import type { FastifyInstance, FastifyRequest } from 'fastify';
import { KeyIdentity } from '../domain/keys.js';
import { GatewayError } from '../errors.js';

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
  // onRequest: a request without a valid key is refused before its body is read or validated.
  app.addHook('onRequest', async (req: FastifyRequest) => {
    const real = app.services.clock.now();
    req.now = real;
    const access = req.routeOptions.config?.access ?? 'private';
    if (access === 'none' || req.is404) return;
    const key = basicUser(req.headers.authorization);
    const id = key ? await app.services.keys!.authenticate(app.services.db, key, real) : null; // keys expire in real time
    if (!id) throw new GatewayError('AUTH01');
    if (access === 'private' && id.kind !== 'sk') throw new GatewayError('AUTH02');
    req.identity = id;
    req.now = nowFor(id, real);
  });
}

/** The request's "now": real time shifted by the merchant's test clock in test mode. */
export function nowFor(id: KeyIdentity, real: Date): Date {
  return id.clockOffsetMs ? new Date(real.getTime() + id.clockOffsetMs) : real;
}
