import type { FastifyInstance, FastifyRequest } from 'fastify';
import { E, GatewayError } from '../errors.js';
import { AdvanceDeps, advanceTestClock, clockStatus, stopAdvances } from '../jobs/test-clock.js';
import { take } from '../schemas/fields.js';
import { AdvanceFields, ClockSchema, WaitQuery } from '../schemas/test-helpers.js';

function testOnly(req: FastifyRequest): string {
  if (req.identity.env !== 'test') {
    throw new GatewayError(E.TEST_HELPER_NEEDS_TEST_KEY, 'the test clock exists only in the test environment; use a test private key');
  }
  return req.identity.merchantId;
}

/** `wait` of an advance, from the query string, else the body, read as every boolean is; absent is false (after the test-key check). */
function waitOf(req: FastifyRequest): boolean {
  const inQuery = take(WaitQuery.from(req).wait);
  return inQuery ?? take(AdvanceFields.from(req).wait) ?? false;
}

/**
 * The merchant's test clock (test private key only): read it, and move it forward, which runs
 * everything that fell due in between — subscription billings and scheduled transactions — in
 * time order. A short advance answers 200 when done; a long one 202 with how far it got, and goes
 * on in the background (jobs/test-clock.ts); `?wait=true` answers either when it is done. Token
 * expiry follows by itself (requests see the moved "now").
 */
export default async function clockRoutes(app: FastifyInstance) {
  const { db, vault, clock, processors } = app.services;
  const deps = (req: FastifyRequest): AdvanceDeps => ({
    db, vault, clock, processors, log: req.log, notify: app.services.notify,
    // Runs queued billing callbacks, and their events' deliveries: wake the deliverer and the outbox.
    onBilled: () => {
      app.services.scheduler?.kick();
      app.services.events?.kick(req.identity);
    },
    // Cached key lookups carry the clock offset: this node sees the new time at once, others within the cache's second.
    onMoved: () => app.services.keys?.forget(),
  });
  // Background advances stop with the server (after their current chunk), before it waits for open requests (a
  // `wait=true` one then answers 202); the next start, or another node, goes on.
  app.addHook('preClose', async () => {
    await stopAdvances(db);
  });

  app.get('/test_helpers/clock', {
    config: { errors: [E.TEST_HELPER_NEEDS_TEST_KEY] },
    schema: { summary: "Read the merchant's test clock", querystring: WaitQuery, response: { 200: ClockSchema } },
  }, async (req) => {
    const merchantId = testOnly(req);
    const c = await clockStatus(deps(req), merchantId, { wait: take(WaitQuery.from(req).wait) ?? false });
    return { class: 'test_clock', ...c };
  });

  app.post(
    '/test_helpers/clock/advance',
    {
      config: { errors: [E.TEST_HELPER_NEEDS_TEST_KEY, E.CLOCK_BACKWARDS, E.CLOCK_BUSY] },
      schema: {
        summary: 'Move the test clock forward, running what falls due',
        description: 'A short advance answers 200 when done; a long one 202 with how far it got, and goes on in the background.',
        querystring: WaitQuery, body: AdvanceFields, response: { 200: ClockSchema, 202: ClockSchema },
      },
    },
    async (req, reply) => {
      const merchantId = testOnly(req);
      const out = await advanceTestClock(deps(req), merchantId, AdvanceFields.from(req), { wait: waitOf(req) });
      if (out.advancing) reply.code(202);
      return { class: 'test_clock', ...out };
    },
  );
}
