// A transaction (spec 2.2): a charge, its refunds, and what a charge request may carry.
import { E, GatewayError } from '../errors.js';
import {
  Bool, Int, Metadata, NullableInt, NullableStr as NStr, Str, Timestamp, NullableTime, Type, type Static,
} from './common.js';
import { MAX_TEXT } from './tokens.js';
import { type Amount, type Input, amount, bool, email, fields, metadata, optionalAmount, pageFields, sentText, text } from './fields.js';

// The stored shape (rows as the domain reads them); the presenter below turns it into the answer.
export interface TransactionRow {
  id: string;
  merchant_id: string;
  env: string;
  source: string;
  payment_method: 'credit_card' | 'bank_account';
  transaction_type: string;
  status: string;
  successful: boolean;
  reference_number: string;
  system_trace: string | null;
  amount_authorized: number;
  amount_settled: number;
  amount_failed: number;
  amount_refunded: number;
  authorized: boolean;
  settled: boolean;
  refunded: boolean;
  voided: boolean;
  error_code: string | null;
  error_message: string | null;
  customer_id: string | null;
  card_type: string | null;
  card_number: string | null;
  card_exp_month: string | null;
  card_exp_year: string | null;
  card_owner_name: string | null;
  account_holder_name: string | null;
  csc_check: string;
  avs_address_check: string | null;
  metadata: Record<string, unknown>;
  recurring: boolean;
  receipt_due: boolean;
  receipt_email: string | null;
  receipt_template_id: string | null;
  /** The receipt made for this charge (receipts.ts), once it exists. */
  receipt_id?: number | null;
  created_at: Date;
  processed_at: Date | null;
  [payer: string]: unknown;
}

export interface RefundRow {
  id: string;
  transaction_id: string;
  amount: number;
  /** succeeded; a live refund is pending until its processor answers, failed when it refused. */
  status: 'pending' | 'succeeded' | 'failed';
  /** refund, or void (a live charge refunded whole before its processor settled it). */
  kind: 'refund' | 'void';
  created_at: Date;
}

export type Transaction = TransactionRow & { refunds: RefundRow[] };


/** The payer's own fields, echoed as sent (null when not sent). */
const payer = {
  company: NStr(), website: NStr(), email: NStr(), email_address: NStr({ examples: ['ada@example.com'] }),
  first_name: NStr({ examples: ['Ada'] }), last_name: NStr({ examples: ['Lovelace'] }),
  address_1: NStr(), address_2: NStr(), city: NStr(), state: NStr(), zip: NStr(), country: NStr(), phone: NStr(), fax: NStr(),
};

/** The allow-list of a transaction: a masked card_number is the only trace of the card that may leave. */
export const TransactionSchema = Type.Object({
  class: Str({ examples: ['transaction'] }),
  id: Str({ examples: ['f1a0b2c3d4e5f6a7'] }),
  merchant_id: Str(),
  payment_method: Str({ enum: ['credit_card', 'bank_account'], examples: ['credit_card'] }),
  transaction_type: Str({ examples: ['sale'] }),
  status: Str({ description: 'SETTLED, AUTHORIZED, FAILED, VOIDED…', examples: ['SETTLED'] }),
  successful: Bool({ examples: [true] }),
  reference_number: Str(),
  system_trace: NStr(),
  amount_authorized: Int({ description: 'Cents.', examples: [1999] }),
  amount_settled: Int({ description: 'Cents.', examples: [1999] }),
  amount_failed: Int({ description: 'Cents.', examples: [0] }),
  amount_refunded: Int({ description: 'Cents.', examples: [0] }),
  authorized: Bool({ examples: [true] }),
  settled: Bool({ examples: [true] }),
  refunded: Bool(),
  voided: Bool(),
  description: NStr({ examples: ['Order 42'] }),
  card_type: Str({ description: 'Empty for a bank-account charge.', examples: ['Visa'] }),
  card_number: Str({ description: 'Masked: the last four digits only (of the account number for a bank-account charge).', examples: ['XXXXXXXXXXXX1111'] }),
  card_exp_month: Str({ description: 'Empty for a bank-account charge.', examples: ['12'] }),
  card_exp_year: Str({ description: 'Empty for a bank-account charge.', examples: ['2030'] }),
  card_owner_name: NStr({ examples: ['Ada Lovelace'] }),
  account_holder_name: Str(),
  customer_id: NStr(),
  csc_check: Str({ examples: ['Passed'] }),
  avs_address_check: NStr(),
  source: Str({ examples: ['api'] }),
  metadata: Metadata(),
  error_code: NStr({ description: 'The decline code of a failed charge.' }),
  error_message: NStr(),
  recurring: Bool(),
  receipt: Type.Object({ due: Bool(), email_address: NStr(), receipt_template_id: NStr(), receipt_id: NullableInt() }),
  ...payer,
  refunds: Type.Array(Type.Object({
    id: Str(), amount: Int({ examples: [500] }),
    status: Str({ enum: ['pending', 'succeeded', 'failed'], description: 'A live refund is pending until its processor answers.' }),
    kind: Str({ enum: ['refund', 'void'], description: 'void: a live charge refunded whole before its processor settled it.' }),
    created_at: Timestamp(),
  })),
  processor: Type.Union([Type.Null(), Type.Object({
    connector: Str({ examples: ['authorizenet'] }), transaction_id: NStr({ description: "The processor's own transaction id." }),
    auth_code: NStr(), avs_result: NStr(), cvv_result: NStr(), response_code: NStr(), message: NStr({ description: "The processor's own text." }),
  })], { description: 'Live charges: what the processor said (null in test mode).' }),
  created_at: Timestamp(),
  processed_at: NullableTime(),
});
export type TransactionOut = Static<typeof TransactionSchema>;

function presentProcessor(p: Record<string, string | null> | null | undefined) {
  if (!p) return null;
  return {
    connector: p.connector ?? '', transaction_id: p.id ?? null, auth_code: p.auth_code ?? null, avs_result: p.avs ?? null,
    cvv_result: p.cvv ?? null, response_code: p.reason_code ?? null, message: p.message ?? null,
  };
}

/** The wire form of spec 2.2. */
export function presentTransaction(t: Transaction): TransactionOut {
  const p = (f: string) => (t[f] as string | null | undefined) ?? null;
  return {
    class: 'transaction',
    id: t.id,
    merchant_id: t.merchant_id,
    payment_method: t.payment_method,
    transaction_type: t.transaction_type,
    status: t.status,
    successful: t.successful,
    reference_number: t.reference_number,
    system_trace: t.system_trace,
    amount_authorized: t.amount_authorized,
    amount_settled: t.amount_settled,
    amount_failed: t.amount_failed,
    amount_refunded: t.amount_refunded,
    authorized: t.authorized,
    settled: t.settled,
    refunded: t.refunded,
    voided: t.voided,
    description: p('description'),
    // The spec types these as strings, and strict client decoders refuse null: a bank-account
    // charge has no card type or expiry, so they are empty there.
    card_type: t.card_type ?? '',
    card_number: t.card_number ?? '',
    card_exp_month: t.card_exp_month ?? '',
    card_exp_year: t.card_exp_year ?? '',
    card_owner_name: t.card_owner_name,
    account_holder_name: t.account_holder_name ?? '',
    customer_id: t.customer_id,
    csc_check: t.csc_check,
    avs_address_check: t.avs_address_check,
    source: t.source,
    metadata: t.metadata ?? {},
    error_code: t.error_code,
    error_message: t.error_message,
    recurring: t.recurring,
    receipt: {
      due: t.receipt_due, email_address: t.receipt_email, receipt_template_id: t.receipt_template_id,
      receipt_id: t.receipt_id ?? null,
    },
    company: p('company'), website: p('website'), email: p('email'), first_name: p('first_name'), last_name: p('last_name'),
    address_1: p('address_1'), address_2: p('address_2'), city: p('city'), state: p('state'), zip: p('zip'),
    country: p('country'), phone: p('phone'), fax: p('fax'),
    email_address: t.receipt_email ?? p('email'),
    refunds: t.refunds.map((r) => ({ id: r.id, amount: r.amount, status: r.status ?? 'succeeded', kind: r.kind ?? 'refund', created_at: r.created_at })),
    processor: presentProcessor(t.processor as Record<string, string | null> | null | undefined),
    created_at: t.created_at,
    processed_at: t.processed_at,
  };
}

/** The payer fields a charge may carry: each wins over the instrument's own (spec 4.1). */
export const PAYER_FIELDS = ['company', 'website', 'email', 'first_name', 'last_name', 'address_1', 'address_2',
  'city', 'state', 'zip', 'country', 'phone', 'fax'] as const;
export type PayerField = (typeof PAYER_FIELDS)[number];
const MAX_DESCRIPTION = 1000;

export type ChargeShape = 'token' | 'customer' | 'card';
type ParamsMissing = typeof E.CUSTOMER_CHARGE_PARAMS_MISSING | typeof E.TOKEN_CHARGE_PARAMS_MISSING;

/**
 * 48291 or 69002 when the shape's instrument (customer_id, token) or the amount is missing (absent
 * or empty), naming only what is: "amount missing", or the catalogue's "parameters missing
 * (customer_id, amount)" when both are. Scheduled transactions answer the same.
 */
export function requireChargeParams(code: ParamsMissing, instrument: [field: string, value: string | null], amount: Amount): void {
  const missing = [instrument[1] === null && instrument[0], (amount === 'missing' || amount === 'empty') && 'amount'].filter((f): f is string => !!f);
  if (missing.length) throw new GatewayError(code, missing.length === 1 ? `${missing[0]} missing` : undefined);
}

/**
 * One path, three request shapes, chosen by the fields present (spec 4.1). A body naming a
 * customer's method (or an empty customer_id) without a token is a charge by customer that lacks
 * its customer_id: 48291, not the token shape's 69002.
 */
export function chargeShape(c: {
  customer_id?: string | null; card_number?: string | null; token?: string | null; method_id?: string | null; charge_bank_account?: boolean;
}): ChargeShape {
  if (c.customer_id) return 'customer';
  if (c.card_number) return 'card';
  if (!c.token && (c.customer_id !== undefined || c.method_id || c.charge_bank_account !== undefined)) return 'customer';
  return 'token';
}

/** A payer field: undefined when not sent (the instrument's own stands), null when sent blank (cleared). */
const payerText = (description: string) => sentText(description, { max: MAX_TEXT });

/**
 * POST /charge (spec 4.1): a token, a customer's stored method, or a card sent directly, checked in
 * the order its faults are answered: the shape's fields, then its required ones (69002, 48291) and
 * the amount (59112, 99819), metadata, description, the receipt fields (69006), then the card's and
 * the payer's own. A card's fields are then checked as a token's are (the domain: test cards and
 * expiry depend on the merchant and the time).
 */
export const ChargeFields = fields({
  customer_id: sentText("Charge this customer's stored method instead of a token."),
  card_number: text('A card sent directly instead of a token (cards only).'),
  token: text('A one-time token from the tokenizer.', { example: 'tok_4f3c2b1a0e9d8c7b' }),
  method_id: text("Which of the customer's methods (default: the customer's default method)."),
  charge_bank_account: bool("true: the customer's default bank account; false: their default card."),
  amount: amount('Cents, above zero (a form body sends it as text).', { required: true, example: 1999 }),
  metadata: metadata(),
  description: text('At most 1000 characters.', { max: MAX_DESCRIPTION, example: 'Order 42' }),
  send_receipt: bool("Email a receipt (true/false, \"1\"/\"0\"); default: the customer's or merchant's setting."),
  email_address: email('Where the receipt goes.', { code: E.RECEIPT_EMAIL_INVALID, example: 'ada@example.com' }),
  receipt_template_id: text('The receipt template to use.'),
  token_type: text('credit_card, if sent: a direct charge takes cards only (tokenize a bank account).'),
  card_exp_month: text('MM'), card_exp_year: text('YYYY'), card_owner_name: text('Name on the card (optional here).'),
  csc: text('Security code (cvv is read the same).'), cvv: text('Security code.'),
  company: payerText('Payer company.'), website: payerText('Payer website.'), email: payerText("Payer's email."),
  first_name: payerText("Payer's first name."), last_name: payerText("Payer's last name."),
  address_1: payerText('Billing address.'), address_2: payerText('Billing address.'), city: payerText('City.'),
  state: payerText('Two-letter state.'), zip: payerText('For address verification.'), country: payerText('Country.'),
  phone: payerText("Payer's phone."), fax: payerText("Payer's fax."),
}, {
  examples: [{ token: 'tok_4f3c2b1a0e9d8c7b', amount: 1999, description: 'Order 42' }],
  rules: [{
    after: 'amount',
    check(c) {
      const shape = chargeShape(c);
      if (shape === 'token') requireChargeParams(E.TOKEN_CHARGE_PARAMS_MISSING, ['token', c.token ?? null], c.amount!);
      if (shape === 'customer') requireChargeParams(E.CUSTOMER_CHARGE_PARAMS_MISSING, ['customer_id', c.customer_id ?? null], c.amount!);
      if (shape === 'customer' && c.amount === 'not_positive') throw new GatewayError(E.CUSTOMER_AMOUNT_INVALID);
      if (typeof c.amount !== 'number') throw new GatewayError(E.AMOUNT_INVALID);
    },
  }],
});
export type ChargeFieldsInput = Input<typeof ChargeFields>;

/** POST /charge/{id}/cancel: without an amount, the whole remainder is refunded; a present but empty one is 59112. */
export const RefundFields = fields({ amount: optionalAmount('Cents to refund (default: what remains).', E.AMOUNT_INVALID, { example: 500 }) },
  { examples: [{ amount: 500 }] });

/** GET /transactions. */
export const TransactionsQuery = fields(pageFields());
