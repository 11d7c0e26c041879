import type { FastifyInstance } from 'fastify';
import {
  createMethod, deleteMethod, getMethod, listMethods, presentMethod, updateMethod,
} from '../domain/methods.js';
import { E, GatewayError } from '../errors.js';
import { nullableInt, nullableString, timestamp } from '../http/schemas.js';


/** The allow-list of a payment method (spec 2.5): last four digits at most, never a number. */
export const methodSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' },
    id: { type: 'string' },
    method_type: { type: 'string' },
    customer_id: nullableString,
    last_4: nullableString,
    card_type: nullableString,
    card_exp_month: nullableInt,
    card_exp_year: nullableInt,
    card_owner_name: nullableString,
    csc_check: nullableString,
    bank_account_number_last_4: nullableString,
    bank_routing_number: nullableString,
    bank_account_holder_first_name: nullableString,
    bank_account_holder_last_name: nullableString,
    bank_account_type: nullableString,
    company: nullableString,
    created_at: timestamp,
    updated_at: timestamp,
    address: {
      type: 'object',
      properties: Object.fromEntries(
        ['address_1', 'address_2', 'city', 'state', 'country', 'zip', 'company'].map((k) => [k, nullableString]),
      ),
    },
  },
};

const scalar = { type: ['string', 'number', 'null'] };
// A token, or the card or bank-account fields themselves (read by the domain as a token's would be).
const tokenBody = {
  type: 'object',
  properties: Object.fromEntries(['method_type', 'token', 'cvv', 'csc', 'zip', 'token_type', 'card_number', 'card_exp_month',
    'card_exp_year', 'card_owner_name', 'bank_account_number', 'bank_routing_number', 'bank_account_type',
    'bank_account_holder_first_name', 'bank_account_holder_last_name', 'address_1', 'address_2', 'city', 'state', 'country',
  ].map((k) => [k, scalar])),
};
const one = { type: 'object', properties: { success: { type: 'boolean' }, method: methodSchema } };
const many = { type: 'object', properties: { success: { type: 'boolean' }, list: { type: 'array', items: methodSchema } } };
const done = { type: 'object', properties: { success: { type: 'boolean' } } };

type CustomerParams = { Params: { customer_id: string } };
type MethodParams = { Params: { customer_id: string; method_id: string } };
type TokenBody = Record<string, string | number | null | undefined>;

const str = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));
const tokenInput = (b: TokenBody) => ({ token: str(b.token), csc: str(b.cvv ?? b.csc), zip: str(b.zip), fields: b });

/** Spec 4.6: a customer's stored payment methods, wrapped in {success, ...}. */
export default async function methodRoutes(app: FastifyInstance) {
  const { db, vault } = app.services;

  app.post<CustomerParams & { Body: TokenBody }>(
    '/customers/:customer_id/methods',
    { schema: { body: tokenBody, response: { 200: one } } },
    async (req) => {
      const body = req.body ?? {};
      const input = { ...tokenInput(body), method_type: str(body.method_type) };
      const method = await req.tx((q) => createMethod(q, vault, req.identity, req.params.customer_id, input, req.now));
      return { success: true, method: presentMethod(method, 'method') };
    },
  );

  app.get<CustomerParams>('/customers/:customer_id/methods', { schema: { response: { 200: many } } }, async (req) => {
    const methods = await listMethods(db, req.identity, req.params.customer_id);
    return { success: true, list: methods.map((m) => presentMethod(m, 'method')) };
  });

  app.get<MethodParams>('/customers/:customer_id/methods/:method_id', { schema: { response: { 200: one } } }, async (req) => {
    const method = await getMethod(db, req.identity, req.params.customer_id, req.params.method_id);
    return { success: true, method: presentMethod(method, 'method') };
  });

  app.post<MethodParams & { Body: TokenBody }>(
    '/customers/:customer_id/methods/:method_id',
    { schema: { body: tokenBody, response: { 200: one } } },
    async (req) => {
      const { customer_id, method_id } = req.params;
      const method = await req.tx((q) => updateMethod(q, vault, req.identity, customer_id, method_id, tokenInput(req.body ?? {}), req.now));
      return { success: true, method: presentMethod(method, 'method') };
    },
  );

  app.delete<MethodParams>('/customers/:customer_id/methods/:method_id', { schema: { response: { 200: done } } }, async (req) => {
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
