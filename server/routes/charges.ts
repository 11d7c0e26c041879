import type { FastifyInstance } from 'fastify';
import { readChargeInput } from '../domain/payments/charge-input.js';
import { chargeTokenAtOnce, chargesAtOnce, createCharge } from '../domain/payments/charges.js';
import { chargeFailure, completeCharge } from '../domain/payments/charge-finish.js';
import { connectorFor } from '../domain/merchant/connectors.js';
import { completeRefund } from '../domain/payments/refunds.js';
import { PROCESSOR_DEADLINE_MS } from '../processor/processor.js';
import { readForCharge } from '../domain/payments/charge-read.js';
import { readTargets } from '../domain/events/dispatch.js';
import { applyReceiptDefaults, sendChargeReceipt } from '../domain/documents/receipts.js';
import { resolveRuns } from '../domain/billing/run-outcome.js';
import { getSettings } from '../domain/merchant/settings.js';
import type { Scope } from '../domain/merchant/keys.js';
import { Transaction, getTransaction, listTransactions, refundCharge } from '../domain/payments/transactions.js';
import { ChargeFields, RefundFields, TransactionSchema, TransactionsQuery, presentTransaction } from '../schemas/transactions.js';
import { List } from '../schemas/common.js';
import { E, ErrorCode, GatewayError } from '../errors.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope } from '../http/paging.js';



/**
 * A live charge or refund waits for its processor (PROCESSOR_DEADLINE_MS) between its two
 * transactions: the request's deadline leaves room for both, so the merchant hears the outcome
 * (or PROC02) rather than a REQ06 that would invite a second charge.
 */
const PROCESSING_DEADLINE_MS = PROCESSOR_DEADLINE_MS + 15_000;
/** Kept back from the processor's share of a request's deadline: recording the outcome and answering. */
const ANSWER_MARGIN_MS = 8_000;

export default async function chargeRoutes(app: FastifyInstance) {
  const { db, vault, processors } = app.services;
  /** The processor of the request's environment; null for live mode without one (the domain refuses: PROC01). */
  const connectorOf = (scope: Scope) => connectorFor(db, { vault, processors }, scope);

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
   * for the Idempotency-Key retry: a decline is its 402, as createCharge answers it; a live charge
   * still pending is PROC02 again, and once resolved, its outcome.
   */
  const replayCharge: IdempotentReplay = async (req, id) => {
    const txn = await getTransaction(db, req.identity, id);
    const failure = chargeFailure(txn);
    if (failure) throw failure;
    return presentTransaction(txn);
  };
  const replayRefund: IdempotentReplay = async (req, id) => {
    const [refund] = await db.query<{ transaction_id: string; status: string; code: ErrorCode | null; message: string | null }>(
      `SELECT transaction_id, status, processor->>'code' AS code, processor->>'message' AS message
         FROM refunds WHERE id = $1 AND merchant_id = $2 AND env = $3`,
      [id, req.identity.merchantId, req.identity.env]);
    if (refund?.status === 'pending') {
      throw new GatewayError(E.PROCESSOR_OUTCOME_UNKNOWN, `refund ${id} is pending: it is resolved by asking the processor; do not refund again`,
        { transaction_id: refund.transaction_id, refund_id: id });
    }
    if (refund?.status === 'failed') {
      // Refused by the gateway before it was sent (REFUND03…) or by the processor (REFUND04).
      throw new GatewayError(refund.code ?? E.REFUND_REFUSED, refund.message ?? undefined, { transaction_id: refund.transaction_id, refund_id: id });
    }
    return presentTransaction(await getTransaction(db, req.identity, refund?.transaction_id ?? id));
  };

  app.post('/charge', {
    config: {
      idempotentReplay: replayCharge,
      errors: [E.TOKEN_CHARGE_PARAMS_MISSING, E.CUSTOMER_CHARGE_PARAMS_MISSING, E.AMOUNT_INVALID, E.CUSTOMER_AMOUNT_INVALID,
        E.TOKEN_REQUIRED, E.CARD_NUMBER_INVALID, E.CSC_INVALID, E.ZIP_REQUIRED, E.REAL_CARD_IN_TEST, E.CUSTOMER_NOT_FOUND,
        E.METHOD_NOT_FOUND, E.CUSTOMER_ID_REQUIRED, E.PAYMENT_TOKEN_NOT_FOUND, E.RECEIPT_EMAIL_MISSING, E.RECEIPT_EMAIL_INVALID, E.TEMPLATE_NOT_FOUND, E.CARD_DECLINED, E.CVV_UNSUPPORTED, E.CVV_WRONG,
        E.DATA_KEY_MISMATCH, E.DATA_INTEGRITY_FAILED, E.NO_LIVE_PROCESSOR, E.PROCESSOR_OUTCOME_UNKNOWN, E.PROCESSOR_REFUSED, E.PROCESSOR_NO_RECORD],
      deadlineMs: PROCESSING_DEADLINE_MS,
    },
    schema: { summary: 'Charge a token, a stored method or a card', body: ChargeFields, response: { 200: TransactionSchema } },
  }, async (req, reply) => {
    // A decline is recorded (committed) before its 402 is answered. Without an Idempotency-Key to
    // remember in the same transaction, a test-mode charge writes in one statement and needs no
    // transaction: a token's (chargesAtOnce) consumes the token in it, a stored method's or a card's
    // (simulated) only reads before it; its first read brings the settings along (charge-read.ts),
    // and whether a webhook rule listens to transaction events: then the rules' targets are read
    // too, and the charge's one statement queues its deliveries (domain/events/events.ts, recordEvent).
    const connector = await connectorOf(req.identity);
    const deps = { vault, connector };
    const fields = ChargeFields.from(req);
    const atOnce = !req.idempotency && !!connector?.local;
    const first = atOnce ? await readForCharge(db, req.identity, fields, req.now) : null;
    const settings = first?.settings ?? await getSettings(db, req.identity);
    const input = readChargeInput(req.identity, await applyReceiptDefaults(db, req.identity, fields, settings), req.now);
    const targets = first?.heard ? await readTargets(db, req.identity, 'transaction') : undefined;
    const opts = { settings, first: first ?? undefined, targets, payerIp: req.ip };
    if (!connector?.local) {
      // A live charge in three steps: recorded as pending with its token consumed, the processor
      // asked with no transaction open, its outcome recorded (charge-finish.ts).
      const begun = await req.tx((q) => createCharge(q, deps, req.identity, input, req.now, opts), { resource: (r) => r.txn.id });
      // The processor gets what is left of the request's deadline, less room to record and answer:
      // the merchant hears the outcome or PROC02, never a REQ06 while the sale is in flight.
      const left = PROCESSING_DEADLINE_MS - reply.elapsedTime - ANSWER_MARGIN_MS;
      const txn = await completeCharge(db, connector!, req.identity, begun.txn, begun.pending!, req.now, resolveRuns,
        (err) => req.log.error({ err, transaction_id: begun.txn.id }, 'charge outcome not recorded; the reconciler will record it'), left);
      app.metrics.inc('tessera_charges_total', 'Charges by environment and outcome.', { env: req.identity.env, status: txn.status });
      const failure = chargeFailure(txn);
      if (failure) throw failure;
      return presentTransaction(await afterCharge(req.identity, txn, req.now));
    }
    const { txn, failure } = !first
      ? await req.tx((q) => createCharge(q, deps, req.identity, input, req.now, opts), { resource: (r) => r.txn.id })
      : chargesAtOnce(deps, input)
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
      config: {
        idempotentReplay: replayRefund, deadlineMs: 2 * PROCESSOR_DEADLINE_MS + 15_000,
        errors: [E.CHARGE_NOT_FOUND, E.REFUND_TOO_LARGE, E.REFUND_NOT_SETTLED, E.AMOUNT_INVALID, E.NO_LIVE_PROCESSOR,
          E.REFUND_BEFORE_SETTLEMENT, E.REFUND_REFUSED, E.PROCESSOR_OUTCOME_UNKNOWN],
      },
      schema: { summary: 'Refund a settled charge, whole or in part', body: RefundFields, response: { 200: TransactionSchema } },
    },
    async (req) => {
      const { amount } = RefundFields.from(req);
      const connector = await connectorOf(req.identity);
      // A live refund's record is its refund row (replayRefund reads what became of it).
      const { txn, pending } = await req.tx((q) => refundCharge(q, req.identity, req.params.id, amount, req.now, connector),
        { resource: (r) => r.pending?.refundId ?? r.txn.id });
      // A live refund: recorded as pending, then its processor asked with no transaction open (refunds.ts).
      if (pending) return presentTransaction(await completeRefund(db, connector!, req.identity, txn, pending, req.now));
      return presentTransaction(txn);
    },
  );

  app.get('/transactions', {
    config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List transactions, newest first', querystring: TransactionsQuery, response: { 200: List(TransactionSchema) } },
  }, async (req) => {
    const page = TransactionsQuery.from(req);
    const { list, total } = await listTransactions(db, req.identity, page);
    return listEnvelope(list.map(presentTransaction), page, total);
  });
}
