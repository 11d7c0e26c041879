import type { FastifyInstance } from 'fastify';
import {
  cancelScheduled, createScheduled, getScheduled, listScheduled, presentScheduled,
} from '../domain/scheduled.js';
import { SPEC_PAGE_CODES, readPage } from '../domain/validate.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope, listSchema } from '../http/paging.js';
import { anyBody, nullableString, string as str, timestamp } from '../http/schemas.js';


/** Spec 2.7, with its types: amount, send_receipt and metadata are strings, new_record a boolean. */
export const scheduledSchema = {
  type: 'object',
  properties: {
    class: str, id: str, status: str, bill_on: str, created_at: timestamp, updated_at: timestamp,
    transaction_id: str, token: str, amount: str, send_receipt: str, metadata: str, ip_address: str,
    new_record: { type: 'boolean' },
    ...Object.fromEntries([
      'zip', 'city', 'state', 'company', 'website', 'address_1', 'address_2', 'fax_number', 'description',
      'phone_number', 'email_address', 'card_owner_name', 'receipt_template_id', 'bank_account_holder_first_name',
      'bank_account_holder_last_name', 'customer_id', 'method_id', 'error_code', 'error_message',
    ].map((k) => [k, nullableString])),
    charge_bank_account: { type: ['boolean', 'null'] },
  },
};

type IdParams = { Params: { id: string } };

/** Spec 4.3, plus POST /scheduled_transactions (how one is made) and GET /scheduled_transactions/:id. */
export default async function scheduledRoutes(app: FastifyInstance) {
  const { db, vault } = app.services;

  const replay: IdempotentReplay = async (req, id) => presentScheduled(await getScheduled(db, req.identity, id));
  app.post<{ Body: Record<string, unknown> }>(
    '/scheduled_transactions',
    { config: { idempotentReplay: replay }, schema: { body: anyBody, response: { 200: scheduledSchema } } },
    async (req) => presentScheduled(await req.tx((q) => createScheduled(q, vault, req.identity, req.body ?? {}, req.now, req.ip),
      { resource: (s) => s.id })),
  );

  app.get('/scheduled_transactions', { schema: { response: { 200: listSchema(scheduledSchema) } } }, async (req) => {
    const page = readPage(req.query, SPEC_PAGE_CODES);
    const { list, total } = await listScheduled(db, req.identity, page);
    return listEnvelope(list.map(presentScheduled), page, total);
  });

  app.get<IdParams>('/scheduled_transactions/:id', { schema: { response: { 200: scheduledSchema } } }, async (req) =>
    presentScheduled(await getScheduled(db, req.identity, req.params.id)),
  );

  app.post<IdParams>('/scheduled_transactions/:id/cancel', { schema: { response: { 200: scheduledSchema } } }, async (req) =>
    presentScheduled(await req.tx((q) => cancelScheduled(q, req.identity, req.params.id, req.now))),
  );
}
