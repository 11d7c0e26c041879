import type { FastifyInstance } from 'fastify';
import { getReceipt, sendReceipt } from '../domain/documents/receipts.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { ReceiptFields, ReceiptSchema, presentReceipt } from '../schemas/receipts.js';
import { E } from '../errors.js';


type WithId = { Params: { id: string } };

/** Receipts (spec 4.4): send one for a charge; read one back with its delivery state. */
export default async function receiptRoutes(app: FastifyInstance) {
  const { db } = app.services;

  const replay: IdempotentReplay = async (req, id) => presentReceipt(await getReceipt(db, req.identity, id));
  app.post<WithId>('/charge/:id/receipt', {
    config: { idempotentReplay: replay, errors: [E.CHARGE_NOT_FOUND, E.RECEIPT_EMAIL_MISSING, E.RECEIPT_EMAIL_INVALID, E.RECEIPT_FIELD_MISSING, E.TEMPLATE_NOT_FOUND] },
    schema: { summary: 'Send a receipt for a charge (email or SMS)', body: ReceiptFields, response: { 200: ReceiptSchema } },
  }, async (req) => {
    const input = ReceiptFields.from(req);
    const receipt = await req.tx((q) => sendReceipt(q, req.identity, req.params.id, input, req.now), { resource: (r) => r.id });
    app.services.notify?.kick();
    return presentReceipt(receipt);
  });

  app.get<WithId>('/receipts/:id', { config: { errors: [E.RECEIPT_NOT_FOUND] }, schema: { summary: 'Retrieve a receipt and its delivery', response: { 200: ReceiptSchema } } }, async (req) =>
    presentReceipt(await getReceipt(db, req.identity, req.params.id)),
  );
}
