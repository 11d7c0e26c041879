import type { FastifyInstance } from 'fastify';
import { BillingSchema, BillingsQuery, RetryFields, presentBilling } from '../schemas/billings.js';
import { List } from '../schemas/common.js';
import { E } from '../errors.js';
import { getBillingByTransaction, listBillings, retryBilling } from '../domain/billing/billings.js';
import { completeCharge } from '../domain/payments/charge-finish.js';
import { PROCESSOR_DEADLINE_MS } from '../processor/processor.js';
import { sendChargeReceipt } from '../domain/documents/receipts.js';
import { resolveRuns } from '../domain/billing/run-outcome.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope } from '../http/paging.js';


/** Spec 4.7 (billings), plus GET /billings. Callbacks are signed with the secret of GET /webhooks/secret (routes/webhooks.ts). */
export default async function billingRoutes(app: FastifyInstance) {
  const { db, vault, clock, processors } = app.services;

  app.get('/billings', {
    config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List billings, newest first', querystring: BillingsQuery, response: { 200: List(BillingSchema) } },
  }, async (req) => {
    const { limit, offset, ...filter } = BillingsQuery.from(req);
    const page = { limit, offset };
    const { list, total } = await listBillings(db, req.identity, filter, page);
    return listEnvelope(list.map(presentBilling), page, total);
  });

  app.get<{ Params: { id: string } }>('/billings/:id', {
    config: { errors: [E.BILLING_NOT_FOUND] }, schema: { summary: 'Retrieve a billing by its transaction id', response: { 200: BillingSchema } },
  }, async (req) =>
    presentBilling(await getBillingByTransaction(db, req.identity, req.params.id)),
  );

  /** Answers 200 with the new billing whatever its outcome: `status` says whether the retry paid. */
  const replay: IdempotentReplay = async (req, transactionId) => presentBilling(await getBillingByTransaction(db, req.identity, transactionId));
  app.post('/billings/retry', {
    config: { idempotentReplay: replay, errors: [E.BILLING_TXN_NOT_FOUND, E.BILLING_NOT_FAILED, E.CARD_DECLINED, E.NO_LIVE_PROCESSOR], deadlineMs: PROCESSOR_DEADLINE_MS + 15_000 },
    schema: { summary: 'Retry a failed billing now', body: RetryFields, response: { 200: BillingSchema } },
  }, async (req, reply) => {
    // Recorded by its transaction id, the id GET /billings/:id reads it back by.
    const run = await req.tx((q) => retryBilling(q, { vault, clock, processors }, req.identity, RetryFields.from(req).id, req.now),
      { resource: (r) => String(r.billing.transaction_id ?? r.billing.id) });
    if (run.pending && run.txn) {
      // A live retry: its charge was recorded as pending; ask the processor now, no transaction open.
      const charged = run.txn;
      run.txn = await completeCharge(db, run.pending.connector, req.identity, charged, run.pending.sale, req.now, resolveRuns,
        (err) => req.log.error({ err, transaction_id: charged.id }, 'retry charge outcome not recorded; the reconciler will record it'),
        // What is left of the request's deadline, less room to record and answer (as POST /charge).
        PROCESSOR_DEADLINE_MS + 15_000 - reply.elapsedTime - 8_000);
      run.billing = await getBillingByTransaction(db, req.identity, charged.id);
      run.callback = true;
    }
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
