// Row schemas of the instruments area: customers, their payment methods, the account updater's batches and entries
// (server/schemas/common.ts, row schemas). Each names exactly its table's columns on PGlite and
// PostgreSQL (the pattern of row-schemas.test.ts); each answer shows the shown columns and never
// the internal ones (the sealed number above all); a customer's stored fields are written as read.
// (That each row schema names exactly its table's columns is row-schemas.test.ts, for every table.)
import { describe, it } from 'vitest';
import { basic, expect, test, tokenFor, visa } from '../../fixtures.js';
import { shownKeys } from '../../../server/schemas/common.js';
import { storedOf } from '../../../server/schemas/fields.js';
import {
  CUSTOMER_COLUMNS, CustomerCreateFields, CustomerRowSchema, CustomerSchema, CustomerUpdateFields,
} from '../../../server/schemas/customers.js';
import { MethodRowSchema, MethodSchema } from '../../../server/schemas/methods.js';
import { UpdateRowSchema, UpdateSchema } from '../../../server/schemas/updater.js';
import { readCustomerInput } from '../../../server/domain/instruments/customer-input.js';

/** The answers' fields before their row schemas (a customer's in order: the serializer writes them so). */
const CUSTOMER_ANSWER = ['class', 'id', 'created_at', 'updated_at', 'first_name', 'last_name', 'company', 'email', 'phone', 'fax',
  'website', 'address_1', 'address_2', 'city', 'state', 'zip', 'country', 'metadata', 'card_owner_name', 'card_type', 'last_4',
  'card_exp_month', 'card_exp_year', 'bank_account_number_last_4', 'bank_routing_number', 'bank_account_holder_first_name',
  'bank_account_holder_last_name', 'bank_account_type', 'default_receipts', 'default_receipt_template_id', 'default_method_id', 'methods'];
const METHOD_ANSWER = ['class', 'id', 'method_type', 'customer_id', 'last_4', 'card_type', 'card_exp_month', 'card_exp_year',
  'card_owner_name', 'csc_check', 'bank_account_number_last_4', 'bank_routing_number', 'bank_account_holder_first_name',
  'bank_account_holder_last_name', 'bank_account_type', 'company', 'created_at', 'updated_at', 'address'];

describe('instrument answers', () => {
  const cases = [
    { name: 'customer', row: CustomerRowSchema, answer: CustomerSchema, hidden: ['merchant_id', 'env', 'deleted_at'] },
    { name: 'method', row: MethodRowSchema, answer: MethodSchema, hidden: ['merchant_id', 'env', 'token_id', 'bin', 'secret_enc', 'deleted_at'] },
    { name: 'account updater batch', row: UpdateRowSchema, answer: UpdateSchema, hidden: ['merchant_id', 'env', 'unapplied'] },
  ];
  for (const { name, row, answer, hidden } of cases) {
    it(`a ${name} answers with every shown column and never with the internal ones`, () => {
      const keys = Object.keys(answer.properties);
      for (const c of shownKeys(row)) expect(keys).toContain(c);
      for (const c of hidden) expect(keys).not.toContain(c);
      expect(answer.required).toEqual(keys);
    });
  }

  it('a customer keeps its fields and their order; a method its fields', () => {
    expect(Object.keys(CustomerSchema.properties)).toEqual(CUSTOMER_ANSWER);
    expect(Object.keys(MethodSchema.properties).sort()).toEqual([...METHOD_ANSWER].sort());
    expect(Object.keys(UpdateSchema.properties)).toEqual(['class', 'id', 'status', 'accepted_count', 'rejected_count', 'applied_count',
      'created_at', 'review_at', 'completed_at', 'payment_methods']);
  });

  it("a customer's stored fields are columns of its row, written as read; state and country are the record's own", () => {
    const body = { first_name: ' Ada ', email: 'ada@example.com', state: 'ca', country: 'gbr', zip: '94107' };
    const stored = storedOf(CustomerCreateFields, CustomerCreateFields.read(body));
    for (const f of Object.keys(stored)) expect(CUSTOMER_COLUMNS).toContain(f);
    expect(stored).toMatchObject({ first_name: 'Ada', email: 'ada@example.com', zip: '94107' });
    expect(stored.last_name).toBeUndefined(); // not sent: empty on create (below), left alone on update
    expect(stored).not.toHaveProperty('state');
    expect(stored).not.toHaveProperty('country');
    const created = readCustomerInput(CustomerCreateFields.read(body), 'create').fields;
    expect(created).toMatchObject({ first_name: 'Ada', last_name: null, state: 'CA', country: 'GBR', metadata: {}, default_receipts: false });
    // An update writes only what was sent.
    expect(readCustomerInput(CustomerUpdateFields.read({ email: 'b@example.com' }), 'update').fields).toEqual({ email: 'b@example.com' });
  });
});

test('a customer and its methods answer without the sealed number or any internal column', async ({ gateway: gw }) => {
  const key = gw.merchant.test.private_key;
  const token = await tokenFor(gw, visa);
  const res = await gw.app.inject({ method: 'POST', url: '/api/v1/customers', headers: basic(key), payload: { first_name: 'Ada', token } });
  expect(res.statusCode).toBe(200);
  const c = res.json();
  expect(Object.keys(c)).toEqual(CUSTOMER_ANSWER);
  expect(c).toMatchObject({ first_name: 'Ada', last_name: '', country: 'USA', last_4: '1111', card_type: 'visa' });
  for (const m of c.methods) expect(Object.keys(m).sort()).toEqual([...METHOD_ANSWER].sort());
  const [stored] = await gw.db.query<{ secret_enc: string }>('SELECT secret_enc FROM payment_methods WHERE id = $1', [c.default_method_id]);
  expect(stored.secret_enc).toBeTruthy();
  expect(res.body).not.toContain(stored.secret_enc);
  expect(res.body).not.toContain(gw.merchant.id);
  const listed = await gw.app.inject({ method: 'GET', url: `/api/v1/customers/${c.id}/methods`, headers: basic(key) });
  expect(listed.json().list.map((m: { last_4: string | null }) => m.last_4)).toEqual(['1111', null]);
  expect(listed.body).not.toContain(stored.secret_enc);
});
