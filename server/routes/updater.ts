import type { FastifyInstance } from 'fastify';
import { BATCH_BODY_LIMIT, getUpdate, presentUpdate, readBatch, submitUpdate } from '../domain/updater.js';
import { E, GatewayError } from '../errors.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { anyBody, nullableTime, timestamp } from '../http/schemas.js';

const echoed = { type: ['integer', 'string', 'null'] };

const entrySchema = {
  type: 'object',
  properties: {
    payment_id: { type: ['string', 'null'] },
    card_exp_month: echoed,
    card_exp_year: echoed,
    result: {
      type: 'object',
      properties: {
        status: { type: 'string' },
        errors: { type: 'array', items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } } },
      },
    },
    applied: { type: ['boolean', 'null'] },
  },
};

/** Spec 2.9, plus the review's state (ours). */
export const accountUpdaterSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, id: { type: 'string' }, status: { type: 'string' },
    accepted_count: { type: 'integer' }, rejected_count: { type: 'integer' }, applied_count: { type: ['integer', 'null'] },
    created_at: timestamp, review_at: timestamp, completed_at: nullableTime,
    payment_methods: {
      type: 'object',
      properties: {
        accepted: { type: 'object', additionalProperties: entrySchema },
        rejected: { type: 'object', additionalProperties: entrySchema },
      },
    },
  },
};

// The domain reads payment_methods itself (122004 for a wrong shape, not a schema error).

/** Account updater (spec 4.7): submit a batch of stored cards; read the batch and its review back. */
export default async function updaterRoutes(app: FastifyInstance) {
  const { db } = app.services;

  const replay: IdempotentReplay = async (req, id) => presentUpdate(await db.tx((q) => getUpdate(q, req.identity, id, req.now)));
  app.post(
    '/tokens/update',
    { bodyLimit: BATCH_BODY_LIMIT, config: { idempotentReplay: replay }, schema: { body: anyBody, response: { 200: accountUpdaterSchema } } },
    async (req) => {
      try {
        const batch = readBatch(((req.body ?? {}) as Record<string, unknown>).payment_methods);
        const submitted = await req.tx((q) => submitUpdate(q, req.identity, batch, req.now), { resource: (s) => s.head.id });
        return presentUpdate(submitted);
      } catch (err) {
        if (err instanceof GatewayError) throw err;
        // Nothing was kept (one transaction): the whole batch can be sent again.
        req.log.error({ err }, 'account updater batch failed');
        throw new GatewayError(E.UPDATE_BATCH_FAILED);
      }
    },
  );

  app.get<{ Params: { id: string } }>(
    '/tokens/update/:id',
    { schema: { response: { 200: accountUpdaterSchema } } },
    async (req) => presentUpdate(await req.tx((q) => getUpdate(q, req.identity, req.params.id, req.now))),
  );
}
