import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../errors.js';
import { resetTestEnvironment } from '../testing/reset.js';

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

/**
 * Helpers for test suites, test environment only (private test key; a live key is TEST02).
 * POST /test_helpers/reset wipes the merchant's test records: tokens, transactions, refunds,
 * customers, receipts, outbox, idempotency keys, the test clock and every other merchant test
 * table, like a fresh start. Keys and the webhook signing secret stay; settings return to defaults.
 */
export default async function testHelperRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.post('/test_helpers/reset', { schema: { response: { 200: resetSchema } } }, async (req) => {
    if (req.identity.env !== 'test') throw new GatewayError('TEST02');
    const { deleted } = await resetTestEnvironment(db, req.identity.merchantId);
    // Cached key lookups carry the test clock's offset, which the reset just removed.
    app.services.keys?.forget();
    return { class: 'test_reset', env: 'test', merchant_id: req.identity.merchantId, deleted, settings: 'default' };
  });
}
