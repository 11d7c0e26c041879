import type { FastifyInstance } from 'fastify';

/**
 * One dependency /readyz asks about. `critical`: the node cannot serve without it (the database,
 * the data key), so a failure is 503; otherwise (Redis: rate limits fall back to the database) a
 * failure is reported and the node stays ready, `status: 'degraded'`.
 */
export interface ReadinessCheck {
  critical: boolean;
  /** Resolves true when ready; false, a throw or no answer within CHECK_MS is not ready. */
  check(): Promise<boolean>;
}

/** An orchestrator's probe must get an answer: a dependency that hangs counts as down. */
const CHECK_MS = 2_000;

async function probe(c: ReadinessCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_MS)));
  try {
    return await Promise.race([c.check().then((ok) => ok === true, () => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness, readiness and Prometheus metrics, outside /api/v1 and without keys (expose them to
 * your orchestrator, not to the internet). Metrics carry route templates, never ids or values.
 */
export default async function healthRoutes(app: FastifyInstance) {
  const options = { config: { access: 'none' as const } };
  const alive = { type: 'object', properties: { status: { type: 'string' } } };
  const ready = {
    type: 'object',
    properties: { status: { type: 'string' }, checks: { type: 'object', additionalProperties: { type: 'string' } } },
  };

  app.get('/healthz', { ...options, schema: { response: { 200: alive } } }, async () => ({ status: 'ok' }));

  /** `{status: ok|degraded|unavailable, checks: {database: ok|unavailable, redis?, ...}}`; 503 when a critical one fails. */
  app.get('/readyz', { ...options, schema: { response: { 200: ready, 503: ready } } }, async (_req, reply) => {
    const { db, readiness } = app.services;
    const all: [string, ReadinessCheck][] = [
      // Answering is not enough: a full disk fails every write while SELECT 1 still answers, so a
      // fault a statement met in the last seconds (db/faults.ts) keeps the database unavailable.
      ['database', { critical: true, check: async () => (await db.query('SELECT 1 AS one'))[0]?.one === 1 && !db.recentFault?.() }],
      ...Object.entries(readiness ?? {}),
    ];
    const results = await Promise.all(all.map(async ([name, c]) => ({ name, critical: c.critical, ok: await probe(c) })));
    const checks = Object.fromEntries(results.map((r) => [r.name, r.ok ? 'ok' : 'unavailable']));
    const down = results.some((r) => !r.ok && r.critical);
    const status = down ? 'unavailable' : results.every((r) => r.ok) ? 'ok' : 'degraded';
    reply.header('cache-control', 'no-store');
    return reply.code(down ? 503 : 200).send({ status, checks });
  });

  app.get('/metrics', options, async (_req, reply) => {
    reply.type('text/plain; version=0.0.4').header('cache-control', 'no-store');
    return app.metrics.render();
  });
}
