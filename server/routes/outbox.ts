import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.js';
import { listEnvelope, listSchema } from '../http/paging.js';
import { readPage } from '../domain/validate.js';
import { OutboxFilter, getOutboxMessage, listOutbox, presentOutbox, retryOutboxMessage } from '../domain/outbox.js';
import { nullableString, nullableTime } from '../http/schemas.js';


/** A queued email or SMS as the merchant (and QA) may read it: never more than the message itself. */
export const outboxSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, id: { type: 'integer' }, kind: { type: 'string' }, status: { type: 'string' },
    source: nullableString, to: { type: 'string' }, subject: nullableString, text: { type: 'string' },
    html: nullableString, from_name: nullableString, attempts: { type: 'integer' }, last_error: nullableString,
    next_attempt_at: nullableTime, created_at: { type: 'string', format: 'date-time' }, sent_at: nullableTime,
  },
};

const FILTERS = { status: ['pending', 'sent', 'failed'], kind: ['email', 'sms'] } as const;
type WithId = { Params: { id: string } };

/**
 * The outbox of the key's merchant and environment: every email and SMS Tessera has queued, with
 * its delivery state. Without a configured transport messages stay here, so tests read them here.
 */
export default async function outboxRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get('/outbox', { schema: { response: { 200: listSchema(outboxSchema) } } }, async (req) => {
    const page = readPage(req.query);
    const q = (req.query ?? {}) as Record<string, unknown>;
    const filter: OutboxFilter = {};
    for (const f of ['status', 'kind'] as const) {
      if (q[f] === undefined || q[f] === '') continue;
      if (!(FILTERS[f] as readonly unknown[]).includes(q[f])) throw invalid(f, `must be one of ${FILTERS[f].join(', ')}`);
      filter[f] = q[f] as string;
    }
    if (typeof q.source === 'string' && q.source !== '') filter.source = q.source;
    const { list, total } = await listOutbox(db, req.identity, page, filter);
    return listEnvelope(list.map(presentOutbox), page, total);
  });

  app.get<WithId>('/outbox/:id', { schema: { response: { 200: outboxSchema } } }, async (req) =>
    presentOutbox(await getOutboxMessage(db, req.identity, req.params.id)),
  );

  app.post<WithId>('/outbox/:id/retry', { schema: { response: { 200: outboxSchema } } }, async (req) => {
    const row = await retryOutboxMessage(db, req.identity, req.params.id, req.now);
    app.services.notify?.kick();
    return presentOutbox(row);
  });
}
