import type { FastifyInstance } from 'fastify';
import { getReceipt, presentReceipt, sendReceipt } from '../domain/receipts.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { anyBody, nullableString } from '../http/schemas.js';


/** Spec 2.6 (`+00:00` timestamps, integer id) and our `delivery` state from the outbox. */
export const receiptSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, id: { type: 'integer' }, receipt_type: { type: 'string' }, created_at: { type: 'string' },
    merchant_id: { type: 'string' }, transaction_id: { type: 'string' },
    email_address: nullableString, phone_number: nullableString, receipt_template_id: nullableString,
    subject: nullableString, receipt_text: { type: 'string' },
    delivery: {
      type: 'object',
      properties: {
        status: { type: 'string' }, attempts: { type: 'integer' }, sent_at: nullableString, last_error: nullableString,
      },
    },
  },
};

type WithId = { Params: { id: string } };

/** Receipts (spec 4.4): send one for a charge; read one back with its delivery state. */
export default async function receiptRoutes(app: FastifyInstance) {
  const { db } = app.services;

  const replay: IdempotentReplay = async (req, id) => presentReceipt(await getReceipt(db, req.identity, id));
  app.post<WithId>('/charge/:id/receipt', { config: { idempotentReplay: replay }, schema: { body: anyBody, response: { 200: receiptSchema } } }, async (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const receipt = await req.tx((q) => sendReceipt(q, req.identity, req.params.id, body, req.now), { resource: (r) => r.id });
    app.services.notify?.kick();
    return presentReceipt(receipt);
  });

  app.get<WithId>('/receipts/:id', { schema: { response: { 200: receiptSchema } } }, async (req) =>
    presentReceipt(await getReceipt(db, req.identity, req.params.id)),
  );
}
