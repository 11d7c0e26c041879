import type { FastifyInstance } from 'fastify';
import {
  cancelScheduled, createScheduled, getScheduled, listScheduled, readScheduledInput,
} from '../domain/billing/scheduled.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope } from '../http/paging.js';
import { ScheduledFields, ScheduledQuery, ScheduledSchema, presentScheduled } from '../schemas/scheduled.js';
import { List } from '../schemas/common.js';
import { E } from '../errors.js';


type IdParams = { Params: { id: string } };

/** Spec 4.3, plus POST /scheduled_transactions (how one is made) and GET /scheduled_transactions/:id. */
export default async function scheduledRoutes(app: FastifyInstance) {
  const { db, vault } = app.services;

  const replay: IdempotentReplay = async (req, id) => presentScheduled(await getScheduled(db, req.identity, id));
  app.post(
    '/scheduled_transactions',
    {
      config: { idempotentReplay: replay, errors: [E.AMOUNT_INVALID, E.TOKEN_REQUIRED, E.TOKEN_CHARGE_PARAMS_MISSING, E.CUSTOMER_CHARGE_PARAMS_MISSING, E.CUSTOMER_AMOUNT_INVALID, E.CUSTOMER_ID_REQUIRED, E.PAYMENT_TOKEN_NOT_FOUND, E.RECEIPT_EMAIL_INVALID, E.RECEIPT_EMAIL_MISSING, E.TEMPLATE_NOT_FOUND] },
      schema: { summary: 'Schedule a charge for a day', body: ScheduledFields, response: { 200: ScheduledSchema } },
    },
    async (req) => {
      const input = readScheduledInput(ScheduledFields.from(req), req.now);
      return presentScheduled(await req.tx((q) => createScheduled(q, vault, req.identity, input, req.now, req.ip), { resource: (s) => s.id }));
    },
  );

  app.get('/scheduled_transactions', {
    config: { errors: [E.LIMIT_INVALID, E.LIMIT_TOO_LARGE, E.OFFSET_INVALID] },
    schema: { summary: 'List scheduled transactions', querystring: ScheduledQuery, response: { 200: List(ScheduledSchema) } },
  }, async (req) => {
    const page = ScheduledQuery.from(req);
    const { list, total } = await listScheduled(db, req.identity, page);
    return listEnvelope(list.map(presentScheduled), page, total);
  });

  app.get<IdParams>('/scheduled_transactions/:id', { config: { errors: [E.SCHEDULED_NOT_FOUND] }, schema: { summary: 'Retrieve a scheduled transaction', response: { 200: ScheduledSchema } } }, async (req) =>
    presentScheduled(await getScheduled(db, req.identity, req.params.id)),
  );

  app.post<IdParams>('/scheduled_transactions/:id/cancel', { config: { errors: [E.SCHEDULED_NOT_FOUND, E.SCHEDULED_NOT_CANCELLABLE] }, schema: { summary: 'Cancel a scheduled transaction not billed yet', response: { 200: ScheduledSchema } } }, async (req) =>
    presentScheduled(await req.tx((q) => cancelScheduled(q, req.identity, req.params.id, req.now))),
  );
}
