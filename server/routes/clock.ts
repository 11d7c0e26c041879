import type { FastifyInstance, FastifyRequest } from 'fastify';
import { E, GatewayError } from '../errors.js';
import { readBool } from '../domain/validate.js';
import { AdvanceDeps, advanceTestClock, clockStatus, stopAdvances } from '../jobs/test-clock.js';
import { anyBody as advanceBody, bool, int, nullableTime, timestamp } from '../http/schemas.js';

const ran = {
  type: 'object',
  properties: { billings: int, failed_billings: int, scheduled_transactions: int, failed_scheduled_transactions: int, errors: int },
};
const clockSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, now: timestamp, offset_ms: int, real_now: timestamp, advancing: bool,
    // POST answers: where this advance started, where it goes, what ran (so far, when it is still advancing).
    previous: timestamp, to: timestamp, ran,
    // GET: the last advance, under way or finished.
    advance: {
      type: ['object', 'null'],
      properties: { previous: timestamp, to: timestamp, reached: timestamp, ran, started_at: timestamp, finished_at: nullableTime },
    },
  },
};

function testOnly(req: FastifyRequest): string {
  if (req.identity.env !== 'test') {
    throw new GatewayError(E.TEST_HELPER_NEEDS_TEST_KEY, 'the test clock exists only in the test environment; use a test private key');
  }
  return req.identity.merchantId;
}

/** `wait` from the query string or the body, read as every boolean is (readBool); absent is false. */
function waitOf(req: FastifyRequest): boolean {
  const v = (req.query as Record<string, unknown>)?.wait ?? (req.body as Record<string, unknown> | undefined)?.wait;
  return readBool(v, 'wait') ?? false;
}

/**
 * The merchant's test clock (test private key only): read it, and move it forward, which runs
 * everything that fell due in between — subscription billings and scheduled transactions — in
 * time order. A short advance answers 200 when done; a long one 202 with how far it got, and goes
 * on in the background (jobs/test-clock.ts); `?wait=true` answers either when it is done. Token
 * expiry follows by itself (requests see the moved "now").
 */
export default async function clockRoutes(app: FastifyInstance) {
  const { db, vault, clock } = app.services;
  const deps = (req: FastifyRequest): AdvanceDeps => ({
    db, vault, clock, log: req.log, notify: app.services.notify,
    onBilled: () => app.services.scheduler?.kick(),
    // Cached key lookups carry the clock offset: this node sees the new time at once, others within the cache's second.
    onMoved: () => app.services.keys?.forget(),
  });
  // Background advances stop with the server (after their current chunk), before it waits for open requests (a
  // `wait=true` one then answers 202); the next start, or another node, goes on.
  app.addHook('preClose', async () => {
    await stopAdvances(db);
  });

  app.get('/test_helpers/clock', { schema: { response: { 200: clockSchema } } }, async (req) => {
    const c = await clockStatus(deps(req), testOnly(req), { wait: waitOf(req) });
    return { class: 'test_clock', ...c };
  });

  app.post<{ Body: Record<string, unknown> }>(
    '/test_helpers/clock/advance',
    { schema: { body: advanceBody, response: { 200: clockSchema, 202: clockSchema } } },
    async (req, reply) => {
      const merchantId = testOnly(req);
      const out = await advanceTestClock(deps(req), merchantId, req.body ?? {}, { wait: waitOf(req) });
      if (out.advancing) reply.code(202);
      return { class: 'test_clock', ...out };
    },
  );
}
