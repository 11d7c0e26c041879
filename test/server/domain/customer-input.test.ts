import { describe, expect, it } from 'vitest';
import { E } from '../../../server/errors.js';
import { readCustomerInput } from '../../../server/domain/instruments/customer-input.js';
import { CustomerCreateFields, CustomerUpdateFields } from '../../../server/schemas/customers.js';
import { refusal as refusalOf } from './refusal.js';

// POST /customers and POST /customers/:id's body read once, at the edge (its field table, then
// readCustomerInput): the typed CustomerInput createCustomer and updateCustomer work on.

const create = (body: unknown) => readCustomerInput(CustomerCreateFields.read(body), 'create');
const update = (body: unknown) => readCustomerInput(CustomerUpdateFields.read(body), 'update');
const refusal = (body: Record<string, unknown>, mode: 'create' | 'update' = 'create') =>
  refusalOf(() => (mode === 'create' ? create(body) : update(body)));

describe('readCustomerInput', () => {
  it('reads a create body: every column, absent ones empty, state and country upper-cased', () => {
    const input = create({
      id: 'cust_0001', first_name: ' Ada ', state: 'ca', metadata: '{"tier":"gold"}', default_receipts: 'yes',
      token: ' tok ', cvv: 123,
    });
    expect(input).toEqual({
      fields: {
        first_name: 'Ada', last_name: null, company: null, email: null, phone: null, fax: null, website: null,
        address_1: null, address_2: null, city: null, state: 'CA', zip: null, country: 'USA',
        metadata: { tier: 'gold' }, default_receipts: true, default_receipt_template_id: null,
      },
      customId: 'cust_0001', defaultMethodId: null, payment: { kind: 'token', token: 'tok' }, csc: '123',
    });
  });

  it('reads an update body: only the columns sent, an empty one cleared, the custom id ignored', () => {
    const input = update({ id: 'x', company: '', country: '', default_method_id: 'm1' });
    expect(input.fields).toEqual({ company: null, country: 'USA' });
    expect(input).toMatchObject({ customId: null, defaultMethodId: 'm1', payment: { kind: 'none' }, csc: null });
  });

  it('reads an absent body as an empty one', () => {
    expect(update(undefined).fields).toEqual({});
    expect(create(null).fields.country).toBe('USA');
  });

  it.each([
    [{ first_name: 'a'.repeat(101) }, E.FIRST_NAME_TOO_LONG],
    [{ phone: '1'.repeat(33) }, E.PHONE_TOO_LONG],
    [{ company: 'a'.repeat(256) }, E.INVALID_REQUEST],
    [{ state: 'Cal' }, E.CUSTOMER_EMAIL_OR_STATE_INVALID],
    [{ email: 'not-an-email' }, E.CUSTOMER_EMAIL_OR_STATE_INVALID],
    [{ country: 'US' }, E.INVALID_REQUEST],
    [{ default_receipts: 'maybe' }, E.INVALID_REQUEST],
    [{ id: 'search' }, E.INVALID_REQUEST],
    [{ id: 'short' }, E.INVALID_REQUEST],
    [{ token: { nested: 1 } }, E.INVALID_REQUEST],
  ])('refuses %j with %s', (body, code) => {
    expect(refusal(body).code).toBe(code);
  });

  it('answers metadata before the other fields, then the fields in their order', () => {
    expect(refusal({ first_name: 'a'.repeat(101), metadata: '{' }).message).toMatch(/metadata/);
    expect(refusal({ first_name: 'a'.repeat(101), phone: '1'.repeat(33) }).code).toBe(E.FIRST_NAME_TOO_LONG);
    expect(refusal({ email: 'bad', id: 'no' }).code).toBe(E.CUSTOMER_EMAIL_OR_STATE_INVALID);
  });

  it('leaves the custom id alone on update, so an update never refuses it', () => {
    expect(update({ id: 'no' }).customId).toBeNull();
  });
});
