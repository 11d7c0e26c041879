import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/index.js';
import { fenceClaim } from './idempotency.js';

export interface TxOptions<T> {
  /**
   * The id of the record fn created. With an Idempotency-Key, it is remembered in the same
   * transaction, so a crash between commit and the stored answer never runs the request again
   * (the route's `idempotentReplay` rebuilds the answer from it). null or undefined: nothing to remember.
   */
  resource?: (result: T) => string | number | null | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Runs fn in one database transaction (rolled back when it throws) and returns its result
     * once committed. Domain commands take the open transaction; the route owns it.
     */
    tx<T>(fn: (q: Queryable) => Promise<T>, opts?: TxOptions<T>): Promise<T>;
  }
}

export function registerTx(app: FastifyInstance): void {
  app.decorateRequest('tx', function tx<T>(this: FastifyRequest, fn: (q: Queryable) => Promise<T>, opts?: TxOptions<T>): Promise<T> {
    return app.services.db.tx(async (q) => {
      const result = await fn(q);
      const id = opts?.resource?.(result);
      // With an Idempotency-Key: still this request's claim, or roll back (idempotency.ts).
      await fenceClaim(q, this, id === null || id === undefined ? undefined : String(id));
      return result;
    });
  });
}
