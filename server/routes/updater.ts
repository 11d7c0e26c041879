import type { FastifyInstance } from 'fastify';
import { BATCH_BODY_LIMIT, getUpdate, submitUpdate } from '../domain/instruments/updater.js';
import { UpdateFields, UpdateSchema, presentUpdate } from '../schemas/updater.js';
import { E, GatewayError } from '../errors.js';
import { IdempotentReplay } from '../http/idempotency.js';

/** Account updater (spec 4.7): submit a batch of stored cards; read the batch and its review back. */
export default async function updaterRoutes(app: FastifyInstance) {
  const { db } = app.services;

  const replay: IdempotentReplay = async (req, id) => presentUpdate(await db.tx((q) => getUpdate(q, req.identity, id, req.now)));
  app.post(
    '/tokens/update',
    {
      bodyLimit: BATCH_BODY_LIMIT,
      config: { idempotentReplay: replay, errors: [E.UPDATE_BODY_INVALID, E.UPDATE_BATCH_TOO_LARGE, E.UPDATE_BATCH_FAILED] },
      schema: { summary: 'Submit stored cards with new expiry dates (account updater)', body: UpdateFields, response: { 200: UpdateSchema } },
    },
    async (req) => {
      const batch = UpdateFields.from(req).payment_methods;
      try {
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
    { config: { errors: [E.UPDATE_RECORD_NOT_FOUND] }, schema: { summary: 'Retrieve an account updater batch and its review', response: { 200: UpdateSchema } } },
    async (req) => presentUpdate(await req.tx((q) => getUpdate(q, req.identity, req.params.id, req.now))),
  );
}
