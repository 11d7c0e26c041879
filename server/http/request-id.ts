import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** An incoming X-Request-Id worth keeping: 1 to 128 printable ASCII characters, no spaces. */
const SANE = /^[\x21-\x7e]{1,128}$/;

/**
 * Fastify's `genReqId`: the caller's X-Request-Id when it is sane (a proxy's or a client's, to
 * follow one request across hops), else a random UUID, so ids never repeat across nodes or
 * restarts (Fastify's default counts from 1 in every process).
 */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE.test(given) ? given : randomUUID();
}

/** Every answer carries the id its log lines carry as `reqId`. */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
}

/** Refusals before routing (Fastify's frameworkErrors: an undecodable URL) run no hook: they get the header here. */
export function withRequestId<R extends { id: string }, P extends { header(name: string, value: string): unknown }, E>(
  handler: (err: E, req: R, reply: P) => void,
): (err: E, req: R, reply: P) => void {
  return (err, req, reply) => {
    reply.header('x-request-id', req.id);
    handler(err, req, reply);
  };
}
