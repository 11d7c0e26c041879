import type { FastifyInstance } from 'fastify';
import {
  CustomerInput, MAX_LENGTH, createCustomer, deleteCustomer, listCustomers, loadCustomer, updateCustomer,
} from '../domain/customers.js';
import { invalid, MUST } from '../errors.js';
import { readPage, text } from '../domain/validate.js';
import { parseObjectParam } from '../lib/input.js';
import { listSchema } from '../http/paging.js';
import { methodSchema } from './methods.js';
import { nullableInt, nullableString, timestamp } from '../http/schemas.js';

const scalar = { type: ['string', 'number', 'null'] };
const RECORD_FIELDS = Object.keys(MAX_LENGTH);
/** A card or bank account given by its fields instead of a token (the domain stores it as a token's). */
const PAYMENT_FIELDS = ['token_type', 'card_number', 'card_exp_month', 'card_exp_year', 'card_owner_name', 'bank_account_number',
  'bank_routing_number', 'bank_account_type', 'bank_account_holder_first_name', 'bank_account_holder_last_name'];

/** The allow-list of a customer (spec 2.4): card and bank details are last-four and names only. */
const customerSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' },
    id: { type: 'string' },
    created_at: timestamp,
    updated_at: timestamp,
    // Spec 2.4 types the record fields as plain strings: unset is "" (strict decoders refuse null).
    ...Object.fromEntries(RECORD_FIELDS.map((k) => [k, { type: 'string' }])),
    metadata: { type: 'object', additionalProperties: true },
    card_owner_name: nullableString,
    card_type: { type: 'string' },
    last_4: nullableString,
    card_exp_month: nullableInt,
    card_exp_year: nullableInt,
    bank_account_number_last_4: nullableString,
    bank_routing_number: nullableString,
    bank_account_holder_first_name: nullableString,
    bank_account_holder_last_name: nullableString,
    bank_account_type: nullableString,
    default_receipts: { type: 'boolean' },
    default_receipt_template_id: nullableString,
    default_method_id: nullableString,
    methods: { type: 'array', items: { ...methodSchema } },
  },
};

/** Create and update take the same fields; `id` only counts on create, `default_method_id` on update. */
const customerBody = {
  type: 'object',
  properties: {
    ...Object.fromEntries(
      [...RECORD_FIELDS, 'id', 'token', 'cvv', 'csc', 'default_receipt_template_id', 'default_method_id', ...PAYMENT_FIELDS]
        .map((k) => [k, scalar]),
    ),
    metadata: { type: ['object', 'string', 'null', 'array'], maxItems: 0 }, // [] is PHP's empty map
    default_receipts: { type: ['boolean', 'string', 'number', 'null'] },
  },
};

const searchBody = {
  type: 'object',
  required: ['search_term'],
  properties: { search_term: { type: 'string', minLength: 1, maxLength: 255 }, limit: scalar, offset: scalar },
};
const customerList = listSchema(customerSchema);
const done = { type: 'object', properties: { success: { type: 'boolean' } } };

type IdParams = { Params: { id: string } };
type Body = Record<string, unknown>;

/** metadata arrives as an object or a JSON-encoded string; absent leaves it alone on update. */
function input(body: Body | undefined): CustomerInput {
  const b = body ?? {};
  return { ...b, metadata: b.metadata === undefined ? undefined : parseObjectParam(b.metadata, 'metadata') };
}

/** Spec 4.5. */
export default async function customerRoutes(app: FastifyInstance) {
  const { db, vault } = app.services;
  const reply200 = { response: { 200: customerSchema } };

  app.post<{ Body: Body }>('/customers', { schema: { body: customerBody, ...reply200 } }, async (req) =>
    req.tx((q) => createCustomer(q, vault, req.identity, input(req.body), req.now)),
  );

  app.get('/customers', { schema: { response: { 200: customerList } } }, async (req) =>
    listCustomers(db, req.identity, readPage(req.query)),
  );

  // limit and offset may come in the body or the query string.
  app.post<{ Body: Body & { search_term: string } }>(
    '/customers/search',
    { schema: { body: searchBody, response: { 200: customerList } } },
    async (req) => {
      const page = readPage({ ...(req.query as object), ...req.body });
      return listCustomers(db, req.identity, page, req.body.search_term);
    },
  );

  app.get<IdParams>('/customers/:id', { schema: reply200 }, async (req) => loadCustomer(db, req.identity, req.params.id));

  app.post<IdParams & { Body: Body }>('/customers/:id', { schema: { body: customerBody, ...reply200 } }, async (req) =>
    req.tx((q) => updateCustomer(q, vault, req.identity, req.params.id, input(req.body), req.now)),
  );

  app.delete<IdParams>('/customers/:id', { schema: { response: { 200: done } } }, async (req) => {
    await req.tx((q) => deleteCustomer(q, req.identity, req.params.id, req.now));
    return { success: true };
  });

  // Spec 4.5 names the parameter `id` without placing it: accept it in the query or the body too.
  app.delete<{ Querystring: { id?: string }; Body: { id?: unknown } }>(
    '/customers',
    { schema: { querystring: { type: 'object', properties: { id: { type: 'string' } } }, response: { 200: done } } },
    async (req) => {
      const id = text(req.query.id ?? (req.body && typeof req.body === 'object' ? req.body.id : undefined), 'id');
      if (id === null) throw invalid('id', MUST.REQUIRED);
      await req.tx((q) => deleteCustomer(q, req.identity, id, req.now));
      return { success: true };
    },
  );
}
