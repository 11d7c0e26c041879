// A token (spec 2.3): what the tokenizer answers, and what it reads.
import {
  At, Bool, Env, NullableAt, NullableInt, NullableStr as NStr, Str, Type, type Static, type TUnsafe, columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { type Input, fields, raw, scalar } from './fields.js';

/**
 * The stored row (001_foundation.sql): its type, its column list (TOKEN_COLUMNS: a statement that
 * names them can be prepared, db/pg.ts) and the answer's stored fields (`shown`) come from it. The
 * number, the CVV and the account number exist only sealed (secret_enc, csc_enc) and are never shown.
 */
export const TokenRowSchema = Type.Object({
  id: shown(Str({ description: 'Single use; expires 15 minutes after it is made.', examples: ['tok_4f3c2b1a0e9d8c7b'] })),
  merchant_id: Str(),
  env: Env(),
  token_type: shown(Str({ enum: ['credit_card', 'bank_account'], examples: ['credit_card'] }) as TUnsafe<'credit_card' | 'bank_account'>),
  card_type: shown(NStr({ examples: ['Visa'] })),
  card_owner_name: shown(NStr({ examples: ['Ada Lovelace'] })),
  last_4: shown(NStr({ examples: ['1111'] })),
  bin: NStr(),
  card_exp_month: shown(NullableInt({ examples: [12] })),
  card_exp_year: shown(NullableInt({ examples: [2030] })),
  bin_brand: NStr({ examples: ['VISA'] }),
  bin_type: NStr({ examples: ['CREDIT'] }),
  bin_level: NStr(),
  bank_routing_number: shown(NStr()),
  bank_account_holder_first_name: shown(NStr()),
  bank_account_holder_last_name: shown(NStr()),
  bank_account_type: shown(NStr()),
  address_1: NStr(), address_2: NStr(), city: NStr(), state: NStr(), zip: NStr(), country: NStr(),
  secret_enc: Str(),
  csc_enc: NStr(),
  created_at: shown(At()),
  expires_at: shown(At({ examples: ['2026-01-15T12:15:00.000Z'] })),
  used_at: NullableAt(),
});
export type TokenRow = Static<typeof TokenRowSchema>;
export const TOKEN_COLUMNS = columnsOf(TokenRowSchema);
const PICK = shownPicker(TokenRowSchema, { class: 'token' });

/** The allow-list of a token: never a number, a CVV or an account number. */
const tokenProperties = { class: Str({ examples: ['token'] }), ...shownOf(TokenRowSchema), used: Bool({ examples: [false] }) };
export const TokenSchema = Type.Object(tokenProperties);
/** The creation answer also tells the card's BIN facts. */
export const CreatedTokenSchema = Type.Object({
  ...tokenProperties, bin_brand: TokenRowSchema.properties.bin_brand, bin_type: TokenRowSchema.properties.bin_type, bin_level: NStr(),
});
export type TokenOut = Static<typeof TokenSchema>;
export type CreatedTokenOut = Static<typeof CreatedTokenSchema>;

/** Public view of a token (spec 2.3). The bin_* fields belong to the creation response only. */
export function presentToken(t: TokenRow, opts: { withBin: true }): CreatedTokenOut;
export function presentToken(t: TokenRow, opts: { withBin: false }): TokenOut;
export function presentToken(t: TokenRow, opts: { withBin: boolean }): TokenOut | CreatedTokenOut {
  const token = PICK(t) as TokenOut;
  token.used = t.used_at !== null;
  // Object.assign, not `{ ...token, bin_brand, ... }`: that spread is V8's slow path, ~18 us against 0.3 (issue 20).
  return opts.withBin ? Object.assign(token, { bin_brand: t.bin_brand, bin_type: t.bin_type, bin_level: t.bin_level }) : token;
}

/** A token's text fields (owner, address): also a charge's payer fields and a method's zip. */
export const MAX_TEXT = 255;

/**
 * Payment data (spec 4.2), a card or a bank account: each field a string or a number (or absent),
 * read as the browser tokenizer reads it; the card checks (src/checks.ts, through the domain's
 * preparePaymentData) answer its faults with the spec's codes, in the spec's order.
 */
export const paymentFields = {
  token_type: scalar('credit_card (default) or bank_account.', { example: 'credit_card', doc: { enum: ['credit_card', 'bank_account'] } }),
  card_owner_name: scalar('Name on the card.', { example: 'Ada Lovelace', doc: { maxLength: 255 } }),
  card_number: scalar('The card number (test mode: a test card).', { example: '4111111111111111' }),
  card_exp_month: scalar('1 to 12.', { example: '12' }),
  card_exp_year: scalar('Four digits (or two).', { example: '2030' }),
  csc: scalar('Security code.', { example: '123' }),
  cvv: scalar('Security code (the same as csc).'),
  bank_account_number: scalar('A bank account instead of a card.'),
  bank_routing_number: scalar('ABA routing number, checksummed.'),
  bank_account_holder_first_name: scalar("Account holder's first name.", { doc: { maxLength: 255 } }),
  bank_account_holder_last_name: scalar("Account holder's last name.", { doc: { maxLength: 255 } }),
  bank_account_type: scalar('checking or savings.', { doc: { enum: ['checking', 'savings'] } }),
  address_1: scalar('Billing address.', { doc: { maxLength: 255 } }), address_2: scalar('Billing address.', { doc: { maxLength: 255 } }),
  city: scalar('City.', { doc: { maxLength: 255 } }), state: scalar('Two-letter state.', { doc: { maxLength: 255 } }),
  zip: scalar('For address verification.', { doc: { maxLength: 255 } }), country: scalar('3-letter ISO 3166 code (default USA).'),
  amount: scalar('The amount the token is meant for, in cents (informational).'),
};
const TOKEN_EXAMPLE = { card_owner_name: 'Ada Lovelace', card_number: '4111111111111111', card_exp_month: '12', card_exp_year: '2030', csc: '123' };

/** POST /tokens. */
export const TokenFields = fields(paymentFields, { examples: [TOKEN_EXAMPLE] });
/** Payment data as read: what the card checks take (preparePaymentData). */
export type PaymentData = Partial<Input<typeof TokenFields>>;

/** GET /tokens/jsonp: the tokenizer's request, a script load with everything in the query. */
export const JsonpFields = fields({
  callback: raw('The JavaScript function the answer calls.', { type: 'string' }, { example: 'Tessera.callback_1', required: true }),
  public_api_key: raw('The public key (a private key here is refused as unknown).', { type: 'string' }, { example: 'test_pk_…', required: true }),
  ...paymentFields,
});
