import type { FastifyInstance } from 'fastify';
import { createCharge } from '../domain/charges.js';
import { applyReceiptDefaults, sendChargeReceipt } from '../domain/receipts.js';
import { getSettings } from '../domain/settings.js';
import type { Scope } from '../domain/keys.js';
import { Transaction, getTransaction, listTransactions, presentTransaction, refundCharge } from '../domain/transactions.js';
import { ErrorCode, GatewayError } from '../errors.js';
import { IdempotentReplay, rememberResource } from '../http/idempotency.js';
import { listEnvelope, listSchema, parsePage } from '../http/paging.js';
import { anyBody, bool, int, nullableString as str, timestamp } from '../http/schemas.js';


/** Spec 2.2. The allow-list: a masked card_number is the only trace of the card that may leave. */
export const transactionSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, id: { type: 'string' }, merchant_id: { type: 'string' },
    payment_method: { type: 'string' }, transaction_type: { type: 'string' }, status: { type: 'string' },
    successful: bool, reference_number: { type: 'string' }, system_trace: str,
    amount_authorized: int, amount_settled: int, amount_failed: int, amount_refunded: int,
    authorized: bool, settled: bool, refunded: bool, voided: bool,
    description: str, card_type: str, card_number: str, card_exp_month: str, card_exp_year: str,
    card_owner_name: str, account_holder_name: str, customer_id: str, csc_check: { type: 'string' },
    avs_address_check: str, source: { type: 'string' },
    metadata: { type: 'object', additionalProperties: true },
    error_code: str, error_message: str, recurring: bool,
    receipt: { type: 'object', properties: { due: bool, email_address: str, receipt_template_id: str, receipt_id: { type: ['integer', 'null'] } } },
    company: str, website: str, email: str, email_address: str, first_name: str, last_name: str,
    address_1: str, address_2: str, city: str, state: str, zip: str, country: str, phone: str, fax: str,
    refunds: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, amount: int, created_at: timestamp } } },
    created_at: timestamp, processed_at: { type: ['string', 'null'], format: 'date-time' },
  },
};

// Bodies stay loose on purpose: the domain checks them and answers with the spec's codes.

export default async function chargeRoutes(app: FastifyInstance) {
  const { db, vault } = app.services;

  /**
   * The charge has committed: make its due receipt now, in a transaction of its own. A failure
   * here never fails the charge; the outbox worker's sweep makes the receipt later.
   */
  const afterCharge = async (scope: Scope, txn: Transaction, now: Date): Promise<Transaction> => {
    try {
      const out = await sendChargeReceipt(db, scope, txn, now);
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

  app.post('/charge', { config: { idempotentReplay: replayCharge }, schema: { body: anyBody, response: { 200: transactionSchema } } }, async (req) => {
    const settings = await getSettings(db, req.identity);
    const body = await applyReceiptDefaults(db, req.identity, (req.body ?? {}) as Record<string, unknown>, settings);
    const { txn, failure } = await createCharge({ db, vault }, req.identity, body,
      req.now, (q, id) => rememberResource(q, req, id), { settings });
    app.metrics.inc('tessera_charges_total', 'Charges by environment and outcome.', { env: req.identity.env, status: txn.status });
    if (failure) throw failure;
    return presentTransaction(await afterCharge(req.identity, txn, req.now));
  });

  app.get<{ Params: { id: string } }>('/charge/:id', { schema: { response: { 200: transactionSchema } } }, async (req) =>
    presentTransaction(await getTransaction(db, req.identity, req.params.id)),
  );

  app.post<{ Params: { id: string } }>(
    '/charge/:id/cancel',
    { config: { idempotentReplay: replayRefund }, schema: { body: anyBody, response: { 200: transactionSchema } } },
    async (req) => {
      const amount = (req.body as Record<string, unknown> | undefined)?.amount;
      const txn = await db.tx(async (q) => {
        const t = await refundCharge(q, req.identity, req.params.id, amount, req.now);
        await rememberResource(q, req, t.id);
        return t;
      });
      return presentTransaction(txn);
    },
  );

  app.get('/transactions', { schema: { response: { 200: listSchema(transactionSchema) } } }, async (req) => {
    const page = parsePage(req.query);
    const { list, total } = await listTransactions(db, req.identity, page);
    return listEnvelope(list.map(presentTransaction), page, total);
  });
}
