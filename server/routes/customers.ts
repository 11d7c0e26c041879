import type { FastifyInstance } from 'fastify';
import { createCustomer, deleteCustomer, listCustomers, loadCustomer, updateCustomer } from '../domain/instruments/customers.js';
import { readCustomerInput } from '../domain/instruments/customer-input.js';
import { E, invalid, MUST } from '../errors.js';
import { BRAND_ERRORS } from './methods.js';
import { readPage, text } from '../lib/validate.js';
import { CustomerBody, CustomerList, CustomerSchema, CustomerSearchBody, DeleteCustomerQuery } from '../schemas/customers.js';
import { PageQuery, Success } from '../schemas/common.js';

type IdParams = { Params: { id: string } };
type Body = Record<string, unknown>;

/** Spec 4.5. */
export default async function customerRoutes(app: FastifyInstance) {
  const { db, vault } = app.services;
  const reply200 = { response: { 200: CustomerSchema } };
  const fieldErrors = [E.FAX_TOO_LONG, E.FIRST_NAME_TOO_LONG, E.LAST_NAME_TOO_LONG, E.PHONE_TOO_LONG, E.WEBSITE_TOO_LONG,
    E.CUSTOMER_EMAIL_OR_STATE_INVALID, E.TOKEN_REQUIRED, E.TOKEN_NOT_FOR_MERCHANT, E.CARD_NUMBER_INVALID, ...BRAND_ERRORS, E.ACCOUNT_UNVERIFIABLE, E.CSC_INVALID, E.CVV_UNSUPPORTED, E.CVV_WRONG, E.ZIP_REQUIRED,
    E.CARD_VERIFICATION_FAILED, E.REAL_CARD_IN_TEST, E.TEMPLATE_NOT_FOUND, E.DATA_KEY_RETIRED] as const;

  app.post<{ Body: Body }>('/customers', {
    config: { errors: [...fieldErrors, E.CUSTOM_ID_TAKEN] }, schema: { summary: 'Create a customer', body: CustomerBody, ...reply200 },
  }, async (req) => {
    const input = readCustomerInput(req.body, 'create', { scope: req.identity, now: req.now });
    return req.tx((q) => createCustomer(q, vault, req.identity, input, req.now));
  });

  app.get('/customers', {
    config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List customers, newest first', querystring: PageQuery, response: { 200: CustomerList } },
  }, async (req) =>
    listCustomers(db, req.identity, readPage(req.query)),
  );

  // limit and offset may come in the body or the query string.
  app.post<{ Body: Body & { search_term: string } }>(
    '/customers/search',
    { config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'Search customers by name, company or id', querystring: PageQuery, body: CustomerSearchBody, response: { 200: CustomerList } } },
    async (req) => {
      const page = readPage({ ...(req.query as object), ...req.body });
      return listCustomers(db, req.identity, page, req.body.search_term);
    },
  );

  app.get<IdParams>('/customers/:id', { config: { errors: [E.CUSTOMER_NOT_FOUND] }, schema: { summary: 'Retrieve a customer with its methods', ...reply200 } }, async (req) => loadCustomer(db, req.identity, req.params.id));

  app.post<IdParams & { Body: Body }>('/customers/:id', {
    config: { errors: [...fieldErrors, E.CUSTOMER_NOT_FOUND, E.METHOD_NOT_FOUND] }, schema: { summary: 'Update a customer', body: CustomerBody, ...reply200 },
  }, async (req) => {
    const input = readCustomerInput(req.body, 'update', { scope: req.identity, now: req.now });
    return req.tx((q) => updateCustomer(q, vault, req.identity, req.params.id, input, req.now));
  });

  app.delete<IdParams>('/customers/:id', { config: { errors: [E.CUSTOMER_NOT_FOUND] }, schema: { summary: 'Delete a customer and its methods', response: { 200: Success } } }, async (req) => {
    await req.tx((q) => deleteCustomer(q, req.identity, req.params.id, req.now));
    return { success: true };
  });

  // Spec 4.5 names the parameter `id` without placing it: accept it in the query or the body too.
  app.delete<{ Querystring: { id?: string }; Body: { id?: unknown } }>(
    '/customers',
    { config: { errors: [E.CUSTOMER_NOT_FOUND] }, schema: { summary: 'Delete a customer named by id in the query or body', querystring: DeleteCustomerQuery, response: { 200: Success } } },
    async (req) => {
      const id = text(req.query.id ?? (req.body && typeof req.body === 'object' ? req.body.id : undefined), 'id');
      if (id === null) throw invalid('id', MUST.REQUIRED);
      await req.tx((q) => deleteCustomer(q, req.identity, id, req.now));
      return { success: true };
    },
  );
}
