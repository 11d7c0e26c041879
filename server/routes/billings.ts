import type { FastifyInstance } from 'fastify';
import { presentBilling } from '../domain/billing-record.js';
import { getBillingByTransaction, listBillings, retryBilling } from '../domain/billings.js';
import { sendChargeReceipt } from '../domain/receipts.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope, listSchema } from '../http/paging.js';
import { readPage } from '../domain/validate.js';
import { anyBody, int, nullableString, string as str } from '../http/schemas.js';


/** Spec 2.8: timestamps are `YYYY-MM-DD HH:MM:SS` strings and metadata a JSON-encoded string. */
export const billingSchema = {
  type: 'object',
  properties: {
    class: str, id: int, plan_id: int, subscription_id: int, merchant_id: str, customer_id: str,
    transaction_id: str, transaction_status: str, amount: int, customer_display_name: str, metadata: str,
    created_at: str, updated_at: str, status: str, parent_id: { type: ['integer', 'null'] },
    sequence: int, scheduled_for: str, error_code: nullableString, error_message: nullableString,
  },
};


/** Spec 4.7 (billings), plus GET /billings. Callbacks are signed with the secret of GET /webhooks/secret (routes/webhooks.ts). */
export default async function billingRoutes(app: FastifyInstance) {
  const { db, vault, clock } = app.services;

  app.get('/billings', { schema: { response: { 200: listSchema(billingSchema) } } }, async (req) => {
    const page = readPage(req.query);
    const { list, total } = await listBillings(db, req.identity, (req.query ?? {}) as Record<string, unknown>, page);
    return listEnvelope(list.map(presentBilling), page, total);
  });

  app.get<{ Params: { id: string } }>('/billings/:id', { schema: { response: { 200: billingSchema } } }, async (req) =>
    presentBilling(await getBillingByTransaction(db, req.identity, req.params.id)),
  );

  /** Answers 200 with the new billing whatever its outcome: `status` says whether the retry paid. */
  const replay: IdempotentReplay = async (req, transactionId) => presentBilling(await getBillingByTransaction(db, req.identity, transactionId));
  app.post<{ Body: Record<string, unknown> }>('/billings/retry', { config: { idempotentReplay: replay }, schema: { body: anyBody, response: { 200: billingSchema } } }, async (req) => {
    // Recorded by its transaction id, the id GET /billings/:id reads it back by.
    const run = await req.tx((q) => retryBilling(q, { vault, clock }, req.identity, req.body?.id, req.now),
      { resource: (r) => String(r.billing.transaction_id ?? r.billing.id) });
    if (run.txn?.receipt_due && run.txn.successful) {
      const txn = run.txn;
      await req.tx((q) => sendChargeReceipt(q, req.identity, txn, req.now))
        .then((t) => t !== run.txn && app.services.notify?.kick())
        .catch((err) => req.log.error({ err }, 'receipt not made; the outbox sweep will retry'));
    }
    if (run.callback) app.services.scheduler?.kick();
    return presentBilling(run.billing);
  });
}
