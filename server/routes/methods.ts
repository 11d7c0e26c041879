import type { FastifyInstance } from 'fastify';
import { createMethod, deleteMethod, getMethod, listMethods, updateMethod } from '../domain/instruments/methods.js';
import { readMethodInput } from '../domain/instruments/method-input.js';
import { ManyMethods, MethodCreateFields, MethodUpdateFields, OneMethod, presentMethod } from '../schemas/methods.js';
import { Success } from '../schemas/common.js';
import { E, GatewayError } from '../errors.js';


/** What card and bank data sent for a method can be refused with, besides 11112 (as when tokenizing). */
export const BRAND_ERRORS = [E.VISA_INVALID, E.MASTERCARD_INVALID, E.AMEX_INVALID, E.DINERS_INVALID, E.DISCOVER_INVALID] as const;

type CustomerParams = { Params: { customer_id: string } };
type MethodParams = { Params: { customer_id: string; method_id: string } };

/** Spec 4.6: a customer's stored payment methods, wrapped in {success, ...}. */
export default async function methodRoutes(app: FastifyInstance) {
  const { db, vault } = app.services;

  app.post<CustomerParams>(
    '/customers/:customer_id/methods',
    {
      config: { errors: [E.CUSTOMER_NOT_FOUND, E.METHOD_TYPE_UNKNOWN, E.TOKEN_REQUIRED, E.TOKEN_NOT_FOR_MERCHANT, E.CARD_NUMBER_INVALID, ...BRAND_ERRORS,
        E.ACCOUNT_UNVERIFIABLE, E.CSC_INVALID, E.CVV_UNSUPPORTED, E.CVV_WRONG, E.ZIP_REQUIRED, E.CARD_VERIFICATION_FAILED, E.REAL_CARD_IN_TEST, E.DATA_KEY_RETIRED] },
      schema: { summary: "Add a payment method to a customer", body: MethodCreateFields, response: { 200: OneMethod } },
    },
    async (req) => {
      const input = readMethodInput(MethodCreateFields.from(req), 'create', { scope: req.identity, now: req.now });
      const method = await req.tx((q) => createMethod(q, vault, req.identity, req.params.customer_id, input, req.now));
      return { success: true, method: presentMethod(method, 'method') };
    },
  );

  app.get<CustomerParams>('/customers/:customer_id/methods', {
    config: { errors: [E.CUSTOMER_NOT_FOUND] }, schema: { summary: "List a customer's payment methods", response: { 200: ManyMethods } },
  }, async (req) => {
    const methods = await listMethods(db, req.identity, req.params.customer_id);
    return { success: true, list: methods.map((m) => presentMethod(m, 'method')) };
  });

  app.get<MethodParams>('/customers/:customer_id/methods/:method_id', {
    config: { errors: [E.CUSTOMER_NOT_FOUND, E.METHOD_NOT_FOUND] }, schema: { summary: 'Retrieve a payment method', response: { 200: OneMethod } },
  }, async (req) => {
    const method = await getMethod(db, req.identity, req.params.customer_id, req.params.method_id);
    return { success: true, method: presentMethod(method, 'method') };
  });

  app.post<MethodParams>(
    '/customers/:customer_id/methods/:method_id',
    {
      config: { errors: [E.CUSTOMER_NOT_FOUND, E.METHOD_NOT_FOUND, E.METHOD_TYPE_UNKNOWN, E.TOKEN_NOT_FOR_MERCHANT, E.CARD_NUMBER_INVALID, ...BRAND_ERRORS,
        E.ACCOUNT_UNVERIFIABLE, E.CSC_INVALID, E.CVV_UNSUPPORTED, E.CVV_WRONG, E.ZIP_REQUIRED, E.CARD_VERIFICATION_FAILED, E.REAL_CARD_IN_TEST, E.DATA_KEY_RETIRED] },
      schema: { summary: 'Replace the card or account of a payment method', body: MethodUpdateFields, response: { 200: OneMethod } },
    },
    async (req) => {
      const { customer_id, method_id } = req.params;
      const input = readMethodInput(MethodUpdateFields.from(req), 'update', { scope: req.identity, now: req.now });
      const method = await req.tx((q) => updateMethod(q, vault, req.identity, customer_id, method_id, input, req.now));
      return { success: true, method: presentMethod(method, 'method') };
    },
  );

  app.delete<MethodParams>('/customers/:customer_id/methods/:method_id', {
    config: { errors: [E.CUSTOMER_NOT_FOUND, E.METHOD_NOT_FOUND, E.DEFAULT_METHOD_UNDELETABLE, E.METHOD_IN_SUBSCRIPTION, E.METHOD_HAS_SCHEDULED, E.METHOD_DELETE_FAILED] },
    schema: { summary: 'Delete a payment method', response: { 200: Success } },
  }, async (req) => {
    const { customer_id, method_id } = req.params;
    try {
      await req.tx((q) => deleteMethod(q, req.identity, customer_id, method_id, req.now));
    } catch (err) {
      // Spec 4.6: an unexpected failure of this endpoint is 18010, not a bare 500.
      if (err instanceof GatewayError) throw err;
      req.log.error({ err }, 'method deletion failed');
      throw new GatewayError(E.METHOD_DELETE_FAILED);
    }
    return { success: true };
  });
}
