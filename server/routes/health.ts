import type { FastifyInstance } from 'fastify';

/**
 * Liveness, readiness and Prometheus metrics, outside /api/v1 and without keys (expose them to
 * your orchestrator, not to the internet). Metrics carry route templates, never ids or values.
 */
export default async function healthRoutes(app: FastifyInstance) {
  const options = { config: { access: 'none' as const } };
  const status = { type: 'object', properties: { status: { type: 'string' }, database: { type: 'string' } } };

  app.get('/healthz', { ...options, schema: { response: { 200: status } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { ...options, schema: { response: { 200: status, 503: status } } }, async (_req, reply) => {
    try {
      await app.services.db.query('SELECT 1');
      return { status: 'ok', database: app.services.db.kind };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: app.services.db.kind });
    }
  });

  app.get('/metrics', options, async (_req, reply) => {
    reply.type('text/plain; version=0.0.4').header('cache-control', 'no-store');
    return app.metrics.render();
  });
}
