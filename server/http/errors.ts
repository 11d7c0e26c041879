import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { databaseFault } from '../db/faults.js';
import { badRequest, E, GatewayError } from '../errors.js';

/** Seconds a client is asked to wait after a database fault: a restart takes a few. */
const DATABASE_RETRY_AFTER = { unavailable: '5', disk: '30', timeout: '2', busy: '1' } as const;

/** Maps anything thrown to the catalogue: the client never sees a Fastify error or a stack. */
export function toGatewayError(err: FastifyError | Error): GatewayError | null {
  if (err instanceof GatewayError) return err;
  const fault = databaseFault(err);
  if (fault) {
    const why = fault === 'disk' ? 'cannot write (its disk is full or failing)' : fault === 'timeout' ? 'did not answer in time'
      : fault === 'busy' ? 'is busy' : 'is unavailable';
    return new GatewayError(E.DATABASE_UNAVAILABLE, `the database ${why}; retry later (with the same Idempotency-Key, a retry is answered from whatever was recorded)`,
      { retry_after: DATABASE_RETRY_AFTER[fault] });
  }
  const e = err as FastifyError;
  if (e.validation) {
    const first = e.validation[0];
    const where = `${e.validationContext ?? 'request'}${first?.instancePath ?? ''}`.replace(/\//g, '.');
    return badRequest(`${where} ${first?.message ?? 'is invalid'}`);
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatewayError(E.BODY_TOO_LARGE);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError(E.UNSUPPORTED_CONTENT);
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return badRequest(e.message);
  }
  return null;
}

/**
 * A request that came without credentials is answered with a Basic challenge (RFC 7235), for the
 * clients that send the key only once asked (curl --anyauth, PHP CURLAUTH_ANY, Java's Authenticator,
 * .NET's NetworkCredential). Not to a browser's fetch (Sec-Fetch-Mode): the dashboard would get the
 * browser's own sign-in dialog; and not to a wrong key, which asking again would not make right.
 */
const challenges = (req: FastifyRequest, ge: GatewayError) =>
  ge.status === 401 && ge.code === E.KEY_INVALID && req.headers.authorization === undefined && req.headers['sec-fetch-mode'] === undefined;

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    let ge = toGatewayError(err);
    if (!ge) {
      req.log.error({ err }, 'unhandled error');
      ge = new GatewayError(E.INTERNAL);
    } else if (ge.code === E.DATABASE_UNAVAILABLE) {
      req.log.warn({ err }, 'database fault: answered 503 DB01');
    }
    if (ge.details.retry_after) reply.header('retry-after', ge.details.retry_after);
    if (challenges(req, ge)) reply.header('www-authenticate', 'Basic realm="Tessera API", charset="UTF-8"');
    reply.code(ge.status).header('cache-control', 'no-store').send(ge.toJSON());
  });
  app.setNotFoundHandler((req, reply) => {
    const ge = new GatewayError(E.NO_ENDPOINT, `no such endpoint: ${req.method} ${req.url.split('?')[0]}`);
    reply.code(ge.status).send(ge.toJSON());
  });
}

/**
 * Fastify's own refusals before routing (`frameworkErrors`: an undecodable URL, a path parameter
 * over 100 characters) in the catalogue's shape, not Fastify's.
 */
export function frameworkErrorHandler(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const ge = err.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? badRequest('a path parameter is longer than 100 characters')
    : badRequest('the URL is not valid (bad percent-encoding)');
  reply.code(ge.status).header('cache-control', 'no-store').send(ge.toJSON());
}

/**
 * Node's refusals of malformed HTTP (`clientError`: a bad request line, headers over 16 KiB, a
 * request not received within requestTimeout, as a slow-loris is) in the catalogue's shape.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const ge = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? new GatewayError(E.REQUEST_TIMEOUT)
    : err.code === 'HPE_HEADER_OVERFLOW' ? new GatewayError(E.HEADERS_TOO_LARGE)
      : badRequest('malformed HTTP request');
  this.log.trace({ err }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(ge.toJSON());
    socket.write(`HTTP/1.1 ${ge.status} ${STATUS_CODES[ge.status]}\r\nContent-Type: application/json; charset=utf-8\r\n`
      + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}
