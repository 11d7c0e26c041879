import { describe, expect, it } from 'vitest';
import { E, GatewayError } from '../../../server/errors.js';
import { type FieldsPayment, type PaymentInput, holdBy, readPayment } from '../../../server/domain/instruments/payment-fields.js';
import { TEST_BANK } from '../../../server/processor/test-cards.js';
import { refusal } from './refusal.js';

// What a customer or method body pays with, read at the edge: a token, a card or bank account sent
// as fields (checked now, the refusal carried to where the transaction answers it), or a refusal.
// holdBy is what the method code does with the fields once it knows the customer (the holder).

const edge = { scope: { merchantId: 'm1', env: 'test' as const }, now: new Date('2026-01-15T12:00:00Z') };
const CARD = { card_number: '4111 1111 1111 1111', card_exp_month: '12', card_exp_year: '2030' };
const BANK = {
  bank_account_number: TEST_BANK.account_number, bank_routing_number: TEST_BANK.routing_number, bank_account_type: 'checking',
};
const ADA = { first_name: 'Ada', last_name: 'Lovelace' };
const NOBODY = { first_name: null, last_name: null };

function fields(input: PaymentInput): FieldsPayment {
  if (input.kind !== 'fields') throw new Error(`expected fields, got ${input.kind}`);
  return input;
}
const carried = (input: PaymentInput) => {
  if (input.kind === 'refused') return { code: input.refusal.code, message: input.refusal.message };
  const checked = fields(input).checked;
  if (!(checked instanceof GatewayError)) throw new Error('expected a carried refusal');
  return { code: checked.code, message: checked.message };
};

describe('readPayment', () => {
  it('a token alone, or nothing', () => {
    expect(readPayment({ csc: '123' }, 'tok', edge)).toEqual({ kind: 'token', token: 'tok' });
    expect(readPayment({ zip: '12345', card_owner_name: 'Ada' }, null, edge)).toEqual({ kind: 'none' });
    // Empty fields are no fields.
    expect(readPayment({ card_number: '', bank_account_number: null }, null, edge)).toEqual({ kind: 'none' });
  });

  it('never drops fields: a token beside them, or a card and an account together, is refused (REQ01)', () => {
    expect(carried(readPayment(CARD, 'tok', edge)))
      .toEqual({ code: E.INVALID_REQUEST, message: 'send a token or the card (bank account) fields, not both' });
    expect(carried(readPayment({ ...CARD, ...BANK }, null, edge)))
      .toEqual({ code: E.INVALID_REQUEST, message: 'send the fields of one card or one bank account, not both' });
  });

  it('takes a security code without a token as a card (refused for its missing number)', () => {
    const input = fields(readPayment({ cvv: '123' }, null, edge));
    expect(input.type).toBe('credit_card');
    expect(input.checked).toBeInstanceOf(GatewayError);
  });

  it('checks a card now: the stored shape of a consumed token, the number apart', () => {
    const input = fields(readPayment({ ...CARD, csc: '123', zip: '94105' }, null, edge));
    expect(input).toMatchObject({ type: 'credit_card', fromHolder: [{ field: 'card_owner_name', refusal: null }] });
    expect(input.checked).toMatchObject({
      id: null, token_type: 'credit_card', card_type: 'visa', last_4: '1111', bin: '411111', card_exp_month: 12,
      card_exp_year: 2030, number: '4111111111111111', csc: '123', zip: '94105', country: 'USA', card_owner_name: null,
    });
  });

  it.each([
    [{ ...CARD, card_number: '4111111111111112' }, E.CARD_NUMBER_INVALID],
    [{ ...CARD, card_number: '41111111111' }, E.VISA_INVALID],
    [{ ...CARD, card_exp_year: '2020' }, E.CARD_NUMBER_INVALID],
    [{ ...CARD, csc: '12' }, E.CSC_INVALID],
    [{ ...CARD, card_number: '4012888888881881' }, E.REAL_CARD_IN_TEST],
    [{ ...CARD, city: 'c'.repeat(256) }, E.INVALID_REQUEST],
  ])('carries the refusal of %j (%s), never throws it', (body, code) => {
    expect(carried(readPayment(body, null, edge)).code).toBe(code);
  });

  it('needs the merchant and the time only for fields', () => {
    expect(readPayment({}, 'tok')).toEqual({ kind: 'token', token: 'tok' });
    expect(() => readPayment(CARD, null)).toThrow(/edge/);
  });
});

describe('holdBy', () => {
  it("names a card's owner after the customer when the body names none", () => {
    expect(holdBy(fields(readPayment(CARD, null, edge)), ADA).card_owner_name).toBe('Ada Lovelace');
    expect(holdBy(fields(readPayment(CARD, null, edge)), { first_name: 'Ada', last_name: null }).card_owner_name).toBe('Ada');
    expect(holdBy(fields(readPayment(CARD, null, edge)), NOBODY).card_owner_name).toBeNull();
    expect(holdBy(fields(readPayment({ ...CARD, card_owner_name: ' Grace ' }, null, edge)), ADA).card_owner_name).toBe('Grace');
  });

  it("names a bank account's holder after the customer, name by name", () => {
    const account = holdBy(fields(readPayment({ ...BANK, bank_account_holder_last_name: 'Hopper' }, null, edge)), ADA);
    expect(account).toMatchObject({
      token_type: 'bank_account', last_4: '6789', bank_routing_number: TEST_BANK.routing_number, bank_account_type: 'checking',
      bank_account_holder_first_name: 'Ada', bank_account_holder_last_name: 'Hopper', number: TEST_BANK.account_number,
    });
  });

  it('refuses a bank account nobody holds with the refusal the checks give, first name before last', () => {
    const bank = fields(readPayment(BANK, null, edge));
    expect(refusal(() => holdBy(bank, NOBODY))).toEqual({ code: E.ACCOUNT_UNVERIFIABLE, message: 'bank_account_holder_first_name missing' });
    expect(refusal(() => holdBy(bank, { first_name: 'Ada', last_name: null })))
      .toEqual({ code: E.ACCOUNT_UNVERIFIABLE, message: 'bank_account_holder_last_name missing' });
    expect(holdBy(bank, ADA).bank_account_holder_last_name).toBe('Lovelace');
  });

  it('answers what the checks reach first: a bad number before a missing holder, a missing holder before a bad type', () => {
    const badNumber = fields(readPayment({ ...BANK, bank_account_number: '12' }, null, edge));
    expect(refusal(() => holdBy(badNumber, NOBODY)).message).toBe('invalid bank_account_number');
    const badType = fields(readPayment({ ...BANK, bank_account_type: 'gold' }, null, edge));
    expect(refusal(() => holdBy(badType, NOBODY)).message).toBe('bank_account_holder_first_name missing');
    expect(refusal(() => holdBy(badType, ADA)).message).toBe('invalid bank_account_type');
    // A blank name in the body is the body's: the customer's names do not replace it (blank is not given: missing).
    const blank = fields(readPayment({ ...BANK, bank_account_holder_first_name: ' ' }, null, edge));
    expect(refusal(() => holdBy(blank, ADA)).message).toBe('bank_account_holder_first_name missing');
  });
});
