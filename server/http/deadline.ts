import type { FastifyInstance } from 'fastify';
import { E, GatewayError } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's request deadline, when it may wait longer than the gateway's (settle). */
    deadlineMs?: number;
  }
}

/**
 * The request deadline: a request not answered within `ms` of its arrival (receiving included) is
 * answered 503 REQ06 with Retry-After. Every wait inside has its own, shorter deadline (db/pg.ts,
 * net/outbound.ts); this bounds what they do not. Our own timer, not Fastify's handlerTimeout:
 * Fastify 5.12 takes the `close` Node emits once a request body has been read for a disconnect,
 * clears that timer and never fires it for a request with a body (fastify#6725). Work the request
 * started may go on after the answer; with an Idempotency-Key its transactions then fail their
 * fence (http/idempotency.ts), and db/pg.ts refuses statements of a transaction past its own deadline.
 */
export function registerDeadline(app: FastifyInstance, ms: number): void {
  app.addHook('onRequest', (req, reply, done) => {
    const timer = setTimeout(() => {
      if (!reply.sent && !reply.raw.headersSent) reply.send(new GatewayError(E.REQUEST_DEADLINE, undefined, { retry_after: '5' }));
    }, req.routeOptions.config?.deadlineMs ?? ms);
    const clear = () => clearTimeout(timer);
    reply.raw.once('finish', clear);
    reply.raw.once('close', clear);
    done();
  });
}
