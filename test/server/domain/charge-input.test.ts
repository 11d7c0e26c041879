import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../server/errors.js';
import { readChargeInput } from '../../../server/domain/payments/charge-input.js';
import { ChargeFields, RefundFields, chargeShape } from '../../../server/schemas/transactions.js';
import type { Scope } from '../../../server/domain/merchant/keys.js';
import { refusal as refusalOf } from './refusal.js';

// POST /charge's body read once, at the edge: the typed ChargeInput createCharge works on.

const scope: Scope = { merchantId: 'm_test', env: 'test' };
const now = new Date('2026-06-01T00:00:00Z');
// The route's field table reads the body, then the domain makes the charge's input of it.
const read = (body: Record<string, unknown>) => readChargeInput(scope, ChargeFields.read(body), now);
const readRefundAmount = (v: unknown) => RefundFields.read({ amount: v }).amount;

const refusal = (body: Record<string, unknown>) => refusalOf(() => read(body));

describe('chargeShape', () => {
  it.each([
    // As the field table reads them: customer_id undefined when not sent, null when sent blank.
    [{ token: 't' }, 'token'],
    [{}, 'token'],
    [{ customer_id: 'c1' }, 'customer'],
    [{ customer_id: null }, 'customer'],
    [{ method_id: 'm1' }, 'customer'],
    [{ charge_bank_account: true }, 'customer'],
    [{ charge_bank_account: false }, 'customer'],
    [{ card_number: '4111111111111111' }, 'card'],
  ])('%j is a charge by %s', (fields, shape) => {
    expect(chargeShape(fields)).toBe(shape);
  });
  it.each([
    [{ amount: 1 }, '69002'],
    [{ customer_id: '', amount: 1 }, '48291'],
    [{ method_id: 'm1', amount: 1 }, '48291'],
    [{ charge_bank_account: 'true', amount: 1 }, '48291'],
  ])('%j is refused by its shape\'s code', (body, code) => {
    expect(refusal(body).code).toBe(code);
  });
});

describe('readChargeInput', () => {
  it('reads a charge by token with every common field typed', () => {
    expect(read({
      token: ' tok ', amount: '1999', description: 'Tea', metadata: '{"order":"A-1"}', send_receipt: 'yes',
      email_address: 'ada@example.com', receipt_template_id: 7, cvv: 123, zip: '90210', company: 'Analytical', city: '',
    })).toEqual({
      shape: 'token', token: 'tok', amount: 1999, description: 'Tea', metadata: { order: 'A-1' },
      receipt: { send: true, email: 'ada@example.com', templateId: '7' }, csc: '123', zip: '90210',
      payer: { company: 'Analytical', city: null, zip: '90210' }, recorded: {},
    });
  });

  it('reads a charge by customer: the method, and charge_bank_account as a boolean', () => {
    expect(read({ customer_id: 'c1', method_id: 'm1', amount: 5, charge_bank_account: '0' })).toMatchObject({
      shape: 'customer', customerId: 'c1', methodId: 'm1', bankAccount: false, amount: 5, metadata: {},
      receipt: { send: undefined, email: null, templateId: null }, payer: {},
    });
  });

  it('reads a direct card charge, its card checked as a token\'s is', () => {
    const input = read({ card_number: '4111 1111 1111 1111', card_exp_month: 12, card_exp_year: 2030, csc: '123', amount: 100 });
    const card = input.shape === 'card' ? input : null;
    expect(card?.card).toMatchObject({ token_type: 'credit_card', card_type: 'visa', card_exp_month: 12, card_exp_year: 2030 });
    expect(card?.csc).toBe('123');
  });

  it.each([
    [{ amount: 100 }, '69002'],
    [{ token: 't' }, '69002'],
    [{ customer_id: '', amount: 100 }, '48291'],
    [{ customer_id: 'c1' }, '48291'],
    [{ customer_id: 'c1', amount: 0 }, '99819'],
    [{ token: 't', amount: 0 }, '59112'],
    [{ token: 't', amount: '1.50' }, '59112'],
    [{ token: 't', amount: 100, email_address: 'not an address' }, '69006'],
    [{ token: 't', amount: 100, metadata: { note: 'x'.repeat(8200) } }, 'REQ01'],
    [{ token: 't', amount: 100, description: 'd'.repeat(1001) }, 'REQ01'],
    [{ token: 't', amount: 100, send_receipt: 'maybe' }, 'REQ01'],
    [{ customer_id: 'c1', amount: 100, charge_bank_account: [] }, 'REQ01'],
    [{ token: 't', amount: 100, company: { toString: 'x' } }, 'REQ01'],
    [{ card_number: '4111111111111112', card_exp_month: 12, card_exp_year: 2030, amount: 100 }, '11112'],
  ])('refuses %j with %s', (body, code) => {
    expect(refusal(body).code).toBe(code);
  });

  it.each([
    [{ customer_id: 'c1' }, '48291', 'amount missing'],
    [{ customer_id: 'c1', amount: '' }, '48291', 'amount missing'],
    [{ customer_id: '', amount: 100 }, '48291', 'customer_id missing'],
    [{ method_id: 'm1' }, '48291', 'parameters missing (customer_id, amount)'],
    [{ token: 't' }, '69002', 'amount missing'],
    [{ token: 't', amount: null }, '69002', 'amount missing'],
    [{ amount: 100 }, '69002', 'token missing'],
    [{}, '69002', 'parameters missing (token, amount)'],
  ])('%j: %s names only what is missing (%s)', (body, code, message) => {
    expect(refusal(body)).toEqual({ code, message });
  });

  it('answers the first fault in the documented order: the shape\'s fields, then the amount, then the rest', () => {
    expect(refusal({ amount: 0, send_receipt: 'maybe' }).code).toBe('69002');
    expect(refusal({ token: 't', amount: 0, send_receipt: 'maybe' }).code).toBe('59112');
    expect(refusal({ token: 't', amount: 1, description: 'd'.repeat(1001), send_receipt: 'maybe' }))
      .toEqual({ code: 'REQ01', message: 'description must be at most 1000 characters' });
  });

  it('refuses a bank account sent as card fields of a direct charge', () => {
    expect(refusal({
      card_number: '4111111111111111', token_type: 'bank_account', bank_account_number: '000123456789',
      bank_routing_number: '110000000', bank_account_holder_first_name: 'G', bank_account_holder_last_name: 'H',
      bank_account_type: 'checking', amount: 100,
    })).toEqual({ code: 'REQ01', message: 'direct charges take cards only; tokenize bank accounts' });
  });
});

describe('readRefundAmount', () => {
  it('reads cents, and absent as "what remains" (null)', () => {
    expect(readRefundAmount(150)).toBe(150);
    expect(readRefundAmount('150')).toBe(150);
    expect(readRefundAmount(undefined)).toBeNull();
  });

  it.each([[''], [null], [0], ['-5'], ['1.50'], [['100']], [{ valueOf: 1 }]])('refuses %j with 59112', (v) => {
    let code: string | null = null;
    try {
      readRefundAmount(v);
    } catch (err) {
      code = (err as GatewayError).code;
    }
    expect(code).toBe('59112');
  });

  it('decides the shape by what was sent: a charge_bank_account sent blank or null makes a charge by customer (48291)', () => {
    expect(refusal({ charge_bank_account: '', amount: 100 }).code).toBe('48291');
    expect(refusal({ charge_bank_account: null, amount: 100 }).code).toBe('48291');
    expect(refusal({ charge_bank_account: 'maybe' }).code).toBe('48291');
  });

  it("ignores a customer's and a card's fields on a charge by token, whatever their type", () => {
    const input = read({ token: 'tok', amount: 100, charge_bank_account: 'maybe', method_id: {}, card_exp_month: {}, card_owner_name: [], token_type: {} });
    expect(input.shape).toBe('token');
  });

  it('refuses those fields where their shape reads them, in its order', () => {
    expect(refusal({ customer_id: 'c1', amount: 100, charge_bank_account: 'maybe' }))
      .toEqual({ code: 'REQ01', message: 'charge_bank_account must be true or false' });
    expect(refusal({ customer_id: 'c1', amount: 100, method_id: {} })).toEqual({ code: 'REQ01', message: 'method_id must be a string' });
    expect(refusal({ card_number: '4111111111111111', amount: 100, card_exp_month: {} }).message).toBe('card_exp_month must be a string');
  });

  it('reads the security code of the name sent: a blank cvv is a charge without one, even beside a csc', () => {
    expect(read({ token: 'tok', amount: 100, cvv: '', csc: '123' })).toMatchObject({ shape: 'token', csc: null });
    expect(read({ token: 'tok', amount: 100, csc: '123' })).toMatchObject({ csc: '123' });
    expect(read({ token: 'tok', amount: 100, cvv: null, csc: '123' })).toMatchObject({ csc: '123' });
  });
});
