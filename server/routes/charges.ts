import type { FastifyInstance } from 'fastify';
import { readChargeInput, readRefundAmount } from '../domain/charge-input.js';
import { chargeTokenAtOnce, chargesAtOnce, createCharge, simulated } from '../domain/charges.js';
import { readForCharge } from '../domain/charge-read.js';
import { readTargets } from '../domain/dispatch.js';
import { applyReceiptDefaults, sendChargeReceipt } from '../domain/receipts.js';
import { getSettings } from '../domain/settings.js';
import type { Scope } from '../domain/keys.js';
import { Transaction, getTransaction, listTransactions, refundCharge } from '../domain/transactions.js';
import { ChargeBody, RefundBody, TransactionSchema, TransactionsQuery, presentTransaction } from '../schemas/transactions.js';
import { List } from '../schemas/common.js';
import { E, ErrorCode, GatewayError } from '../errors.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope } from '../http/paging.js';
import { readPage } from '../domain/validate.js';



export default async function chargeRoutes(app: FastifyInstance) {
  const { db, vault } = app.services;

  /**
   * The charge has committed: make its due receipt now, in a transaction of its own. A failure
   * here never fails the charge; the outbox worker's sweep makes the receipt later.
   */
  const afterCharge = async (scope: Scope, txn: Transaction, now: Date): Promise<Transaction> => {
    if (!txn.receipt_due || !txn.successful) return txn;
    try {
      const out = await db.tx((q) => sendChargeReceipt(q, scope, txn, now));
      if (out !== txn) app.services.notify?.kick();
      return out;
    } catch (err) {
      app.log.error({ err, transaction_id: txn.id }, 'receipt not made; the outbox sweep will retry');
      return txn;
    }
  };

  /**
   * The answer of a charge or refund whose node died after it committed, rebuilt from the record
   * for the Idempotency-Key retry: a decline is its 402, as createCharge answers it.
   */
  const replayCharge: IdempotentReplay = async (req, id) => {
    const txn = await getTransaction(db, req.identity, id);
    if (txn.error_code) throw new GatewayError(txn.error_code as ErrorCode, txn.error_message ?? undefined, { transaction_id: txn.id });
    return presentTransaction(txn);
  };
  const replayRefund: IdempotentReplay = async (req, id) => presentTransaction(await getTransaction(db, req.identity, id));

  app.post('/charge', {
    config: {
      idempotentReplay: replayCharge,
      errors: [E.TOKEN_CHARGE_PARAMS_MISSING, E.CUSTOMER_CHARGE_PARAMS_MISSING, E.AMOUNT_INVALID, E.CUSTOMER_AMOUNT_INVALID,
        E.TOKEN_REQUIRED, E.CARD_NUMBER_INVALID, E.CSC_INVALID, E.ZIP_REQUIRED, E.REAL_CARD_IN_TEST, E.CUSTOMER_NOT_FOUND,
        E.METHOD_NOT_FOUND, E.CUSTOMER_ID_REQUIRED, E.PAYMENT_TOKEN_NOT_FOUND, E.RECEIPT_EMAIL_MISSING, E.RECEIPT_EMAIL_INVALID, E.TEMPLATE_NOT_FOUND, E.CARD_DECLINED, E.CVV_UNSUPPORTED, E.CVV_WRONG,
        E.DATA_KEY_MISMATCH, E.DATA_INTEGRITY_FAILED, E.NO_LIVE_PROCESSOR],
    },
    schema: { summary: 'Charge a token, a stored method or a card', body: ChargeBody, response: { 200: TransactionSchema } },
  }, async (req) => {
    // A decline is recorded (committed) before its 402 is answered. Without an Idempotency-Key to
    // remember in the same transaction, a test-mode charge writes in one statement and needs no
    // transaction: a token's (chargesAtOnce) consumes the token in it, a stored method's or a card's
    // (simulated) only reads before it; its first read brings the settings along (charge-read.ts),
    // and whether a webhook rule listens to transaction events: then the rules' targets are read
    // too, and the charge's one statement queues its deliveries (domain/events.ts, recordEvent).
    const deps = { vault };
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const atOnce = !req.idempotency && simulated(req.identity, deps);
    const first = atOnce ? await readForCharge(db, req.identity, raw, req.now) : null;
    const settings = first?.settings ?? await getSettings(db, req.identity);
    const body = await applyReceiptDefaults(db, req.identity, raw, settings);
    const input = readChargeInput(req.identity, body, req.now);
    const targets = first?.heard ? await readTargets(db, req.identity, 'transaction') : undefined;
    const opts = { settings, first: first ?? undefined, targets };
    const { txn, failure } = !first
      ? await req.tx((q) => createCharge(q, deps, req.identity, input, req.now, opts), { resource: (r) => r.txn.id })
      : chargesAtOnce(req.identity, deps, input)
        ? await chargeTokenAtOnce(db, deps, req.identity, input, req.now, opts)
        : await createCharge(db, deps, req.identity, input, req.now, opts);
    app.metrics.inc('tessera_charges_total', 'Charges by environment and outcome.', { env: req.identity.env, status: txn.status });
    if (failure) throw failure;
    return presentTransaction(await afterCharge(req.identity, txn, req.now));
  });

  app.get<{ Params: { id: string } }>('/charge/:id', {
    config: { errors: [E.CHARGE_NOT_FOUND] }, schema: { summary: 'Retrieve a transaction', response: { 200: TransactionSchema } },
  }, async (req) =>
    presentTransaction(await getTransaction(db, req.identity, req.params.id)),
  );

  app.post<{ Params: { id: string } }>(
    '/charge/:id/cancel',
    {
      config: { idempotentReplay: replayRefund, errors: [E.CHARGE_NOT_FOUND, E.REFUND_TOO_LARGE, E.REFUND_NOT_SETTLED, E.AMOUNT_INVALID, E.NO_LIVE_PROCESSOR] },
      schema: { summary: 'Refund a settled charge, whole or in part', body: RefundBody, response: { 200: TransactionSchema } },
    },
    async (req) => {
      const amount = readRefundAmount((req.body as Record<string, unknown> | undefined)?.amount);
      const txn = await req.tx((q) => refundCharge(q, req.identity, req.params.id, amount, req.now), { resource: (t) => t.id });
      return presentTransaction(txn);
    },
  );

  app.get('/transactions', {
    config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List transactions, newest first', querystring: TransactionsQuery, response: { 200: List(TransactionSchema) } },
  }, async (req) => {
    const page = readPage(req.query);
    const { list, total } = await listTransactions(db, req.identity, page);
    return listEnvelope(list.map(presentTransaction), page, total);
  });
}
