// A token (spec 2.3): what the tokenizer answers, and what it reads.
import type { TokenRow } from '../domain/instruments/tokens.js';
import { Bool, NullableInt, NullableStr as NStr, Str, Timestamp, Type, loose, type Static } from './common.js';

/** The allow-list of a token: never a number, a CVV or an account number. */
const tokenProperties = {
  class: Str({ examples: ['token'] }),
  id: Str({ description: 'Single use; expires 15 minutes after it is made.', examples: ['tok_4f3c2b1a0e9d8c7b'] }),
  token_type: Str({ enum: ['credit_card', 'bank_account'], examples: ['credit_card'] }),
  card_type: NStr({ examples: ['Visa'] }),
  card_owner_name: NStr({ examples: ['Ada Lovelace'] }),
  last_4: NStr({ examples: ['1111'] }),
  card_exp_month: NullableInt({ examples: [12] }),
  card_exp_year: NullableInt({ examples: [2030] }),
  bank_routing_number: NStr(),
  bank_account_holder_first_name: NStr(),
  bank_account_holder_last_name: NStr(),
  bank_account_type: NStr(),
  created_at: Timestamp(),
  expires_at: Timestamp({ examples: ['2026-01-15T12:15:00.000Z'] }),
  used: Bool({ examples: [false] }),
};
export const TokenSchema = Type.Object(tokenProperties);
/** The creation answer also tells the card's BIN facts. */
export const CreatedTokenSchema = Type.Object({
  ...tokenProperties, bin_brand: NStr({ examples: ['VISA'] }), bin_type: NStr({ examples: ['CREDIT'] }), bin_level: NStr(),
});
export type TokenOut = Static<typeof TokenSchema>;
export type CreatedTokenOut = Static<typeof CreatedTokenSchema>;

/** Public view of a token (spec 2.3). The bin_* fields belong to the creation response only. */
export function presentToken(t: TokenRow, opts: { withBin: true }): CreatedTokenOut;
export function presentToken(t: TokenRow, opts: { withBin: false }): TokenOut;
export function presentToken(t: TokenRow, opts: { withBin: boolean }): TokenOut | CreatedTokenOut {
  const token: TokenOut = {
    class: 'token',
    id: t.id,
    token_type: t.token_type,
    card_type: t.card_type,
    card_owner_name: t.card_owner_name,
    last_4: t.last_4,
    card_exp_month: t.card_exp_month,
    card_exp_year: t.card_exp_year,
    bank_routing_number: t.bank_routing_number,
    bank_account_holder_first_name: t.bank_account_holder_first_name,
    bank_account_holder_last_name: t.bank_account_holder_last_name,
    bank_account_type: t.bank_account_type,
    created_at: t.created_at,
    expires_at: t.expires_at,
    used: t.used_at !== null,
  };
  // Object.assign, not `{ ...token, bin_brand, ... }`: that spread is V8's slow path, ~18 us against 0.3 (issue 20).
  return opts.withBin ? Object.assign(token, { bin_brand: t.bin_brand, bin_type: t.bin_type, bin_level: t.bin_level }) : token;
}

/** A payment-data field: text or a number; the domain checks it and answers the spec's codes. */
const field = (description: string, example?: string | number) =>
  Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'], description, ...(example === undefined ? {} : { examples: [example] }) });

/** Payment data (spec 4.2): a card or a bank account. */
const paymentFields = {
  token_type: field('credit_card (default) or bank_account.', 'credit_card'),
  card_owner_name: field('Name on the card.', 'Ada Lovelace'),
  card_number: field('The card number (test mode: a test card).', '4111111111111111'),
  card_exp_month: field('1 to 12.', '12'),
  card_exp_year: field('Four digits.', '2030'),
  csc: field('Security code.', '123'),
  cvv: field('Security code (the same as csc).'),
  bank_account_number: field('A bank account instead of a card.'),
  bank_routing_number: field('ABA routing number, checksummed.'),
  bank_account_holder_first_name: field("Account holder's first name."),
  bank_account_holder_last_name: field("Account holder's last name."),
  bank_account_type: field('checking or savings.'),
  address_1: field('Billing address.'), address_2: field('Billing address.'), city: field('City.'),
  state: field('Two-letter state.'), zip: field('For address verification.'), country: field('Country.'),
  amount: field('The amount the token is meant for, in cents (informational).'),
};
/** Validated as it is (string, number or null per field), the rest by the domain. */
export const TokenBody = Type.Partial(Type.Object(paymentFields), {
  examples: [{ card_owner_name: 'Ada Lovelace', card_number: '4111111111111111', card_exp_month: '12', card_exp_year: '2030', csc: '123' }],
});

/** GET /tokens/jsonp: the tokenizer's request, a script load with everything in the query. */
export const JsonpQuery = loose({
  callback: Str({ description: 'The JavaScript function the answer calls.', examples: ['Tessera.callback_1'] }),
  public_api_key: Str({ description: 'The public key (a private key here is refused as unknown).', examples: ['test_pk_…'] }),
  ...paymentFields,
});
