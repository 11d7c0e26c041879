import type { FastifyInstance, FastifyRequest } from 'fastify';
import { E, GatewayError, invalid } from '../errors.js';
import { anyBody, bool, int, nullableTime } from '../http/schemas.js';
import { SETTLE_DEFAULT_MS, SETTLE_MAX_MS, settle } from '../jobs/settle.js';
import { wholeNumber } from '../domain/validate.js';
import { resetPlan, resetTestEnvironment } from '../domain/reset.js';

const resetSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' },
    env: { type: 'string' },
    merchant_id: { type: 'string' },
    deleted: { type: 'object', additionalProperties: { type: 'integer' } },
    settings: { type: 'string' },
  },
};

const counts = { type: 'object', properties: { delivered: int, failed: int, pending_retry: int, pending: int } };
const messageCounts = { type: 'object', properties: { ...counts.properties, queued: int } };
const settleSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' },
    env: { type: 'string' },
    merchant_id: { type: 'string' },
    settled: bool,
    took_ms: int,
    webhooks: counts,
    callbacks: counts,
    emails: messageCounts,
    sms: messageCounts,
    scheduled: { type: 'object', properties: { due: int, errors: int, advancing: bool } },
    events: { type: 'object', properties: { undispatched: int } },
    next_retry_at: nullableTime,
  },
};

/** `timeout_ms` from the body or the query string: 0 to 60000 milliseconds, default 10000. */
function timeoutOf(req: FastifyRequest): number {
  const v = (req.body as Record<string, unknown> | undefined)?.timeout_ms ?? (req.query as Record<string, unknown>)?.timeout_ms;
  const ms = wholeNumber(v, 'timeout_ms', 9) ?? SETTLE_DEFAULT_MS;
  if (ms > SETTLE_MAX_MS) throw invalid('timeout_ms', `must be at most ${SETTLE_MAX_MS}`);
  return ms;
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

  app.post('/test_helpers/reset', { schema: { response: { 200: resetSchema } } }, async (req) => {
    if (req.identity.env !== 'test') throw new GatewayError(E.TEST_HELPER_NEEDS_TEST_KEY);
    const plan = await resetPlan(db);
    const { deleted } = await req.tx((q) => resetTestEnvironment(q, plan, req.identity.merchantId));
    // Cached key lookups carry the test clock's offset, which the reset just removed.
    app.services.keys?.forget();
    return { class: 'test_reset', env: 'test', merchant_id: req.identity.merchantId, deleted, settings: 'default' };
  });

  // POST /test_helpers/settle: answers when everything due for the merchant's test environment
  // (webhooks, callbacks, email, SMS, due billings) is delivered or failed, or at timeout_ms with
  // `settled: false`; counts per kind (jobs/settle.ts).
  app.post('/test_helpers/settle', { schema: { body: anyBody, response: { 200: settleSchema } } }, async (req) => {
    if (req.identity.env !== 'test') throw new GatewayError(E.TEST_HELPER_NEEDS_TEST_KEY, 'settle works only in the test environment; use a test private key');
    const timeoutMs = timeoutOf(req);
    const { vault, clock, settler } = app.services;
    return settle({ db, vault, clock, log: req.log, notify: app.services.notify, ...settler }, { merchantId: req.identity.merchantId, env: 'test' }, { timeoutMs });
  });
}
