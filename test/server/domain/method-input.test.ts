import { describe, expect, it } from 'vitest';
import { readMethodInput } from '../../../server/domain/method-input.js';

// POST /customers/:customer_id/methods[/:method_id]'s body read once, at the edge.

describe('readMethodInput', () => {
  it('takes every value as text, empty as none, cvv before csc', () => {
    const body = { token: 'tok', cvv: 123, csc: '999', zip: '', method_type: 'credit_card', card_number: '4111' };
    expect(readMethodInput(body, 'create')).toEqual({ token: 'tok', csc: '123', zip: null, method_type: 'credit_card', fields: body });
  });

  it('reads method_type on create only (an update keeps the method type)', () => {
    expect(readMethodInput({ method_type: 'bank_account', csc: 7 }, 'update')).toEqual({
      token: null, csc: '7', zip: null, fields: { method_type: 'bank_account', csc: 7 },
    });
  });

  it('reads an absent body as an empty one', () => {
    expect(readMethodInput(undefined, 'create')).toEqual({ token: null, csc: null, zip: null, method_type: null, fields: {} });
  });
});
