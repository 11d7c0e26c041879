import { describe, expect, it } from 'vitest';
import { readMethodInput } from '../../../server/domain/instruments/method-input.js';
import { MethodCreateFields, MethodUpdateFields } from '../../../server/schemas/methods.js';

// POST /customers/:customer_id/methods[/:method_id]'s body read once, at the edge (the payment
// itself: payment-input.test.ts).

const edge = { scope: { merchantId: 'm1', env: 'test' as const }, now: new Date('2026-01-15T12:00:00Z') };
const create = (body: unknown) => readMethodInput(MethodCreateFields.read(body), 'create', edge);
const update = (body: unknown) => readMethodInput(MethodUpdateFields.read(body), 'update', edge);

describe('readMethodInput', () => {
  it('takes every value as text, empty as none, cvv before csc', () => {
    const body = { token: 'tok', cvv: 123, csc: '999', zip: '', method_type: 'credit_card' };
    expect(create(body)).toEqual({
      payment: { kind: 'token', token: 'tok' }, csc: '123', zip: null, method_type: 'credit_card',
    });
  });

  it('reads method_type on create only (an update keeps the method type)', () => {
    expect(update({ method_type: 'bank_account', token: 't', csc: 7 })).toEqual({
      payment: { kind: 'token', token: 't' }, csc: '7', zip: null,
    });
  });

  it('reads an absent body as an empty one', () => {
    expect(create(undefined)).toEqual({ payment: { kind: 'none' }, csc: null, zip: null, method_type: null });
  });

  it('checks card fields sent instead of a token before the transaction, carrying the refusal', () => {
    const input = create({ card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2030 });
    expect(input.payment).toMatchObject({ kind: 'fields', type: 'credit_card', checked: { last_4: '1111', card_type: 'visa' } });
    expect(update({ card_number: '4111', token: 'tok' }).payment).toMatchObject({ kind: 'refused' });
  });
});
