import type { FastifyInstance } from 'fastify';
import { E } from '../errors.js';
import { listEnvelope } from '../http/paging.js';
import { getOutboxMessage, listOutbox, retryOutboxMessage } from '../domain/events/outbox.js';
import { OutboxQuery, OutboxSchema, presentOutbox } from '../schemas/outbox.js';
import { List } from '../schemas/common.js';

type WithId = { Params: { id: string } };

/**
 * The outbox of the key's merchant and environment: every email and SMS Tessera has queued, with
 * its delivery state. Without a configured transport messages stay here, so tests read them here;
 * test-mode ones are 'captured' here rather than sent (unless TESSERA_TEST_DELIVERY_TO names them).
 */
export default async function outboxRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get('/outbox', { config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List queued emails and SMS, newest first', querystring: OutboxQuery, response: { 200: List(OutboxSchema) } } }, async (req) => {
    const { limit, offset, ...filter } = OutboxQuery.from(req);
    const page = { limit, offset };
    const { list, total } = await listOutbox(db, req.identity, page, filter);
    return listEnvelope(list.map(presentOutbox), page, total);
  });

  app.get<WithId>('/outbox/:id', { config: { errors: [E.OUTBOX_NOT_FOUND] }, schema: { summary: 'Retrieve a queued email or SMS', response: { 200: OutboxSchema } } }, async (req) =>
    presentOutbox(await getOutboxMessage(db, req.identity, req.params.id)),
  );

  app.post<WithId>('/outbox/:id/retry', { config: { errors: [E.OUTBOX_NOT_FOUND, E.OUTBOX_SENT] }, schema: { summary: 'Queue a failed message again', response: { 200: OutboxSchema } } }, async (req) => {
    const row = await retryOutboxMessage(db, req.identity, req.params.id, req.now);
    app.services.notify?.kick();
    return presentOutbox(row);
  });
}
