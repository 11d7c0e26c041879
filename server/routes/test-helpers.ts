import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { E, GatewayError } from '../errors.js';
import { ResetSchema, SettleFields, SettleQuery, SettleSchema } from '../schemas/test-helpers.js';
import { take } from '../schemas/fields.js';
import { SETTLE_DEFAULT_MS, SETTLE_MAX_MS, settle } from '../jobs/settle.js';
import { ResetCancelled, resetGate, resetPlan, resetTestEnvironment } from '../domain/merchant/reset.js';

/** `timeout_ms` from the body or the query string: 0 to 60000 milliseconds, default 10000. */
function timeoutOf(req: FastifyRequest): number {
  return take(SettleFields.from(req).timeout_ms) ?? take(SettleQuery.from(req).timeout_ms) ?? SETTLE_DEFAULT_MS;
}

/**
 * A signal that aborts when nobody waits for the work's answer any more: the client closed the
 * connection (the response's 'close' without its 'finish'), or the request was answered by
 * something else meanwhile (the request deadline's 503 REQ06: a 'finish' before the work is done).
 * `done()` stops listening once the work is over.
 */
function whileConnected(reply: FastifyReply): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const res = reply.raw;
  const onClose = () => {
    if (!res.writableFinished) controller.abort(new ResetCancelled());
  };
  const onFinish = () => controller.abort(new ResetCancelled());
  if (res.destroyed || res.socket?.destroyed || reply.sent) controller.abort(new ResetCancelled());
  else {
    res.once('close', onClose);
    res.once('finish', onFinish);
  }
  return {
    signal: controller.signal,
    done: () => {
      res.off('close', onClose);
      res.off('finish', onFinish);
    },
  };
}

/**
 * Helpers for test suites, test environment only (private test key; a live key is TEST02).
 * POST /test_helpers/reset wipes the merchant's test records: tokens, transactions, refunds,
 * customers, receipts, outbox, idempotency keys, the test clock and every other merchant test
 * table, like a fresh start. Keys and the webhook signing secret stay; settings return to defaults.
 * POST /test_helpers/settle delivers what is due and answers with what happened (no polling, no sleeps).
 */
export default async function testHelperRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.post('/test_helpers/reset', {
    config: { errors: [E.TEST_HELPER_NEEDS_TEST_KEY, E.RESET_BUSY] },
    schema: { summary: 'Wipe the test environment (keys and signing secret stay)', response: { 200: ResetSchema } },
  }, async (req, reply) => {
    if (req.identity.env !== 'test') throw new GatewayError(E.TEST_HELPER_NEEDS_TEST_KEY);
    const { merchantId } = req.identity;
    const plan = await resetPlan(db);
    const client = whileConnected(reply);
    try {
      // One per merchant environment (409 TEST03), a few per pool, waiting without a connection (domain/merchant/reset.ts).
      const { deleted } = await resetGate(db).run(merchantId, () => req.tx((q) => resetTestEnvironment(q, plan, merchantId, {
        signal: client.signal, canceller: db.kind === 'pg' ? db : undefined,
      })), { busy: () => new GatewayError(E.RESET_BUSY), signal: client.signal });
      // Cached key lookups carry the test clock's offset, which the reset just removed.
      app.services.keys?.forget();
      return { class: 'test_reset', env: 'test', merchant_id: merchantId, deleted, settings: 'default' };
    } catch (err) {
      if (!(err instanceof ResetCancelled)) throw err;
      if (reply.sent) {
        // Answered already (the request deadline): the reset did not run, or rolled back.
        req.log.info({ merchant_id: merchantId }, 'test reset cancelled: the request was answered by its deadline; rolled back');
        return reply;
      }
      // Nobody is left to answer: the connection is closed already, the transaction rolled back.
      req.log.info({ merchant_id: merchantId }, 'test reset cancelled: the client left; rolled back');
      reply.hijack();
      reply.raw.destroy();
      return reply;
    } finally {
      client.done();
    }
  });

  // POST /test_helpers/settle: answers when everything due for the merchant's test environment
  // (webhooks, callbacks, email, SMS, due billings) is delivered or failed, or at timeout_ms with
  // `settled: false`; counts per kind (jobs/settle.ts).
  app.post('/test_helpers/settle', { config: { deadlineMs: SETTLE_MAX_MS + 15_000, errors: [E.TEST_HELPER_NEEDS_TEST_KEY] }, schema: { summary: 'Deliver what is due now and say what happened', querystring: SettleQuery, body: SettleFields, response: { 200: SettleSchema } } }, async (req) => {
    if (req.identity.env !== 'test') throw new GatewayError(E.TEST_HELPER_NEEDS_TEST_KEY, 'settle works only in the test environment; use a test private key');
    const timeoutMs = timeoutOf(req);
    const { vault, clock, settler, processors } = app.services;
    return settle({ db, vault, clock, processors, log: req.log, notify: app.services.notify, ...settler }, { merchantId: req.identity.merchantId, env: 'test' }, { timeoutMs });
  });
}
