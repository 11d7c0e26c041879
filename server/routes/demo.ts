import type { FastifyInstance } from 'fastify';
import { createCharge } from '../domain/charges.js';
import { createCustomer } from '../domain/customers.js';
import { Scope, demoMerchantId } from '../domain/keys.js';
import { presentTransaction } from '../domain/transactions.js';
import { GatewayError } from '../errors.js';
import { transactionSchema } from './charges.js';

/**
 * The demo page's "merchant server": what a merchant's backend does with a token, done here for
 * the demo merchant's TEST environment only, so the page never holds a private key. Real
 * merchants call POST /api/v1/charge (and /customers) from their own server.
 */
export default async function demoRoutes(app: FastifyInstance) {
  const { db, vault, clock } = app.services;
  const body = {
    type: 'object',
    properties: { token: { type: 'string' }, amount: {}, save_customer: { type: 'boolean' } },
  };
  const response = {
    type: 'object',
    properties: { customer_id: { type: ['string', 'null'] }, transaction: transactionSchema },
  };

  app.post('/demo/charge', { config: { access: 'none' }, schema: { body, response: { 200: response } } }, async (req) => {
    const merchantId = await demoMerchantId(db);
    if (!merchantId) throw new GatewayError('NOTFOUND', 'this gateway has no demo merchant');
    const scope: Scope = { merchantId, env: 'test' };
    const { token, amount, save_customer } = req.body as { token?: string; amount?: unknown; save_customer?: boolean };
    let customerId: string | null = null;
    let charge: Record<string, unknown> = { token, amount, description: 'Demo checkout' };
    if (save_customer) {
      if (!token) throw new GatewayError('23489');
      const customer = await createCustomer(db, vault, scope, { token } as any, clock.now());
      customerId = customer.id as string;
      charge = { customer_id: customerId, amount, description: 'Demo checkout (saved customer)' };
    }
    const { txn, failure } = await createCharge({ db, vault }, scope, charge, clock.now());
    if (failure) throw failure;
    return { customer_id: customerId, transaction: presentTransaction(txn) };
  });
}
