import type { FastifyInstance } from 'fastify';
import { createCustomer, deleteCustomer, listCustomers, loadCustomer, updateCustomer } from '../domain/instruments/customers.js';
import { readCustomerInput } from '../domain/instruments/customer-input.js';
import { E, invalid, MUST } from '../errors.js';
import { BRAND_ERRORS } from './methods.js';
import { text } from '../lib/validate.js';
import {
  CustomerCreateFields, CustomerList, CustomerSchema, CustomerSearchFields, CustomerSearchPage, CustomerSearchQuery, CustomersQuery, CustomerUpdateFields, DeleteCustomerQuery,
} from '../schemas/customers.js';
import { Success } from '../schemas/common.js';

type IdParams = { Params: { id: string } };

/** Spec 4.5. */
export default async function customerRoutes(app: FastifyInstance) {
  const { db, vault } = app.services;
  const reply200 = { response: { 200: CustomerSchema } };
  const fieldErrors = [E.FAX_TOO_LONG, E.FIRST_NAME_TOO_LONG, E.LAST_NAME_TOO_LONG, E.PHONE_TOO_LONG, E.WEBSITE_TOO_LONG,
    E.CUSTOMER_EMAIL_OR_STATE_INVALID, E.TOKEN_REQUIRED, E.TOKEN_NOT_FOR_MERCHANT, E.CARD_NUMBER_INVALID, ...BRAND_ERRORS, E.ACCOUNT_UNVERIFIABLE, E.CSC_INVALID, E.CVV_UNSUPPORTED, E.CVV_WRONG, E.ZIP_REQUIRED,
    E.CARD_VERIFICATION_FAILED, E.REAL_CARD_IN_TEST, E.TEMPLATE_NOT_FOUND, E.DATA_KEY_RETIRED] as const;

  app.post('/customers', {
    config: { errors: [...fieldErrors, E.CUSTOM_ID_TAKEN] }, schema: { summary: 'Create a customer', body: CustomerCreateFields, ...reply200 },
  }, async (req) => {
    const input = readCustomerInput(CustomerCreateFields.from(req), 'create', { scope: req.identity, now: req.now });
    return req.tx((q) => createCustomer(q, vault, req.identity, input, req.now));
  });

  app.get('/customers', {
    config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List customers, newest first', querystring: CustomersQuery, response: { 200: CustomerList } },
  }, async (req) =>
    listCustomers(db, req.identity, CustomersQuery.from(req)),
  );

  // limit and offset may come in the body or the query string (the body's win): read together.
  app.post(
    '/customers/search',
    {
      config: { errors: [E.PAGE_INVALID] },
      schema: { summary: 'Search customers by name, company or id', querystring: CustomerSearchQuery, body: CustomerSearchFields, response: { 200: CustomerList } },
    },
    async (req) => {
      const { search_term, limit, offset } = CustomerSearchFields.from(req);
      const sent = Object.entries({ limit, offset }).filter(([, v]) => v !== undefined);
      const page = CustomerSearchPage.read({ ...CustomerSearchQuery.from(req), ...Object.fromEntries(sent) });
      // A blank term is refused once the page is read, as it always was.
      if (search_term === null) throw invalid('search_term', MUST.REQUIRED);
      return listCustomers(db, req.identity, page, search_term);
    },
  );

  app.get<IdParams>('/customers/:id', { config: { errors: [E.CUSTOMER_NOT_FOUND] }, schema: { summary: 'Retrieve a customer with its methods', ...reply200 } }, async (req) => loadCustomer(db, req.identity, req.params.id));

  app.post<IdParams>('/customers/:id', {
    config: { errors: [...fieldErrors, E.CUSTOMER_NOT_FOUND, E.METHOD_NOT_FOUND] }, schema: { summary: 'Update a customer', body: CustomerUpdateFields, ...reply200 },
  }, async (req) => {
    const input = readCustomerInput(CustomerUpdateFields.from(req), 'update', { scope: req.identity, now: req.now });
    return req.tx((q) => updateCustomer(q, vault, req.identity, req.params.id, input, req.now));
  });

  app.delete<IdParams>('/customers/:id', { config: { errors: [E.CUSTOMER_NOT_FOUND] }, schema: { summary: 'Delete a customer and its methods', response: { 200: Success } } }, async (req) => {
    await req.tx((q) => deleteCustomer(q, req.identity, req.params.id, req.now));
    return { success: true };
  });

  // Spec 4.5 names the parameter `id` without placing it: accept it in the query or the body too.
  app.delete<{ Body: { id?: unknown } }>(
    '/customers',
    { config: { errors: [E.CUSTOMER_NOT_FOUND] }, schema: { summary: 'Delete a customer named by id in the query or body', querystring: DeleteCustomerQuery, response: { 200: Success } } },
    async (req) => {
      const sent = DeleteCustomerQuery.from(req).id;
      const id = sent !== undefined ? sent : text(req.body && typeof req.body === 'object' ? req.body.id : undefined, 'id');
      if (id === null) throw invalid('id', MUST.REQUIRED);
      await req.tx((q) => deleteCustomer(q, req.identity, id, req.now));
      return { success: true };
    },
  );
}
