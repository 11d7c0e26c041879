import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors.js';
import { advanceTestClock, readTestClock } from '../jobs/test-clock.js';
import { anyBody as advanceBody, int, timestamp } from '../http/schemas.js';


const clockSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, now: timestamp, offset_ms: int, real_now: timestamp, previous: timestamp,
    ran: {
      type: 'object',
      properties: { billings: int, failed_billings: int, scheduled_transactions: int, failed_scheduled_transactions: int, errors: int },
    },
  },
};


function testOnly(req: FastifyRequest): string {
  if (req.identity.env !== 'test') {
    throw new GatewayError('TEST02', 'the test clock exists only in the test environment; use a test private key');
  }
  return req.identity.merchantId;
}

/**
 * The merchant's test clock (test private key only): read it, and move it forward, which runs at
 * once everything that fell due in between — subscription billings and scheduled transactions —
 * in time order. Token expiry follows by itself (requests see the moved "now").
 */
export default async function clockRoutes(app: FastifyInstance) {
  const { db, vault, clock } = app.services;

  app.get('/test_helpers/clock', { schema: { response: { 200: clockSchema } } }, async (req) => {
    const c = await readTestClock(db, testOnly(req), clock.now());
    return { class: 'test_clock', ...c };
  });

  app.post<{ Body: Record<string, unknown> }>(
    '/test_helpers/clock/advance',
    { schema: { body: advanceBody, response: { 200: clockSchema } } },
    async (req) => {
      const merchantId = testOnly(req);
      const out = await advanceTestClock({ db, vault, clock, log: req.log, notify: app.services.notify }, merchantId, req.body ?? {});
      // Cached key lookups carry the clock offset: this node sees the new time at once, others within the cache's second.
      app.services.keys?.forget();
      if (out.ran.billings + out.ran.failed_billings > 0) app.services.scheduler?.kick();
      return { class: 'test_clock', ...out };
    },
  );
}
