import type { FastifyError, FastifyInstance } from 'fastify';
import { GatewayError } from '../errors.js';

/** Maps anything thrown to the catalogue: the client never sees a Fastify error or a stack. */
export function toGatewayError(err: FastifyError | Error): GatewayError | null {
  if (err instanceof GatewayError) return err;
  const e = err as FastifyError;
  if (e.validation) {
    const first = e.validation[0];
    const where = `${e.validationContext ?? 'request'}${first?.instancePath ?? ''}`.replace(/\//g, '.');
    return new GatewayError('REQ01', `${where} ${first?.message ?? 'is invalid'}`);
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatewayError('REQ02');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError('REQ03');
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new GatewayError('REQ01', e.message);
  }
  return null;
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    let ge = toGatewayError(err);
    if (!ge) {
      req.log.error({ err }, 'unhandled error');
      ge = new GatewayError('INTERNAL');
    }
    if (ge.details.retry_after) reply.header('retry-after', ge.details.retry_after);
    reply.code(ge.status).header('cache-control', 'no-store').send(ge.toJSON());
  });
  app.setNotFoundHandler((req, reply) => {
    const ge = new GatewayError('NOTFOUND', `no such endpoint: ${req.method} ${req.url.split('?')[0]}`);
    reply.code(ge.status).send(ge.toJSON());
  });
}
