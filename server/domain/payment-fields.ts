// A card or bank account sent as its own fields where a token would go (customer and method
// create/update): clients of this API family do that. The fields go through the token-creation
// checks (preparePaymentData) and come out shaped like a consumed token, so the method code stores
// and encrypts them exactly as a token's.
import { badRequest, E, GatewayError } from '../errors.js';
import type { Scope } from './keys.js';
import { ConsumedToken, preparePaymentData } from './tokens.js';

type Kind = 'credit_card' | 'bank_account';

export interface FieldsInput {
  token?: string | null;
  /** The request body, read for card or bank-account fields. */
  fields?: Record<string, unknown>;
  /** Names the card or account is held by when the body names no holder (the customer's). */
  holder?: { first_name: string | null; last_name: string | null };
}

const CARD_DATA = ['card_number', 'card_exp_month', 'card_exp_year'] as const;
const BANK_DATA = ['bank_account_number', 'bank_routing_number'] as const;
const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * The payment data of card or bank fields sent instead of a token, or null when the body has none.
 * Never accepted and dropped: a token beside them, or card and bank fields together, is REQ01; a
 * kind other than the method's is 82001, as for a token.
 */
export function paymentData(input: FieldsInput, expectType?: Kind): Record<string, unknown> | null {
  const f = input.fields ?? {};
  // A security code alone is part of a card too (refused for the missing number, never dropped);
  // beside a token it is the token's business.
  const card = CARD_DATA.some((k) => given(f[k])) || (!input.token && (given(f.csc) || given(f.cvv)));
  const bank = BANK_DATA.some((k) => given(f[k]));
  if (!card && !bank) return null;
  if (input.token) throw badRequest('send a token or the card (bank account) fields, not both');
  if (card && bank) throw badRequest('send the fields of one card or one bank account, not both');
  const type: Kind = card ? 'credit_card' : 'bank_account';
  if (expectType && type !== expectType) {
    throw new GatewayError(E.METHOD_TYPE_UNKNOWN, `method_type ${expectType} does not match the ${type} fields sent`);
  }
  const names = input.holder ?? { first_name: null, last_name: null };
  const owner = [names.first_name, names.last_name].filter(Boolean).join(' ');
  return {
    ...f,
    token_type: type,
    card_owner_name: given(f.card_owner_name) ? f.card_owner_name : owner,
    bank_account_holder_first_name: given(f.bank_account_holder_first_name) ? f.bank_account_holder_first_name : names.first_name,
    bank_account_holder_last_name: given(f.bank_account_holder_last_name) ? f.bank_account_holder_last_name : names.last_name,
  };
}

/** Whether a body pays with something: a token, or card or bank fields (which it checks for mixing). */
export function carriesPayment(input: FieldsInput): boolean {
  return Boolean(input.token) || paymentData(input) !== null;
}

/** What a method is made from: a consumed token, or fields (no token id). */
export type PaymentSource = Omit<ConsumedToken, 'id' | 'merchant_id' | 'env' | 'bin_brand' | 'bin_type' | 'bin_level'
  | 'secret_enc' | 'csc_enc' | 'created_at' | 'expires_at' | 'used_at'> & { id: string | null };

/** A card or account from fields, through the token-creation checks (Luhn, brand, expiry, TEST01). */
export function sourceFromFields(scope: Scope, data: Record<string, unknown>, now: Date): PaymentSource {
  const { secret, csc, ...fields } = preparePaymentData(scope, data, now, { ownerOptional: true });
  return {
    id: null, card_type: null, card_owner_name: null, bin: null, card_exp_month: null, card_exp_year: null,
    bank_routing_number: null, bank_account_holder_first_name: null, bank_account_holder_last_name: null,
    bank_account_type: null, ...fields, number: secret, csc,
  };
}
