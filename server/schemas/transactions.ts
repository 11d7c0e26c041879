// A transaction (spec 2.2): a charge, its refunds, and what a charge request may carry.
import { E, GatewayError } from '../errors.js';
import {
  At, Bool, Env, Int, Metadata, NullableAt, NullableInt, NullableStr as NStr, Str, Type, type Static, type TUnsafe,
  columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { MAX_TEXT } from './tokens.js';
import {
  type Amount, type Field, type Input, type Later, amount, bool, custom, email, fields, later, metadata, optionalAmount, pageFields, scalar, sentText, take, text,
} from './fields.js';

/**
 * The stored row (002_charges.sql and the migrations after it), one schema from which come the
 * row's type (TransactionRow), its column list (TRANSACTION_COLUMNS: every statement that reads a
 * whole row names them) and its wire form: a column marked `shown` is in the answer as stored, in
 * this order (TransactionSchema, presentTransaction); the rest stay inside the gateway. A new
 * column is a migration, one line here, and, if a request sets it, a `stored` field of its table.
 */
export const TransactionRowSchema = Type.Object({
  id: shown(Str({ examples: ['f1a0b2c3d4e5f6a7'] })),
  merchant_id: shown(Str()),
  env: Env(),
  payment_method: shown(Str({ enum: ['credit_card', 'bank_account'], examples: ['credit_card'] }) as TUnsafe<'credit_card' | 'bank_account'>),
  transaction_type: shown(Str({ examples: ['sale'] })),
  status: shown(Str({ description: 'SETTLED, AUTHORIZED, FAILED, VOIDED…', examples: ['SETTLED'] })),
  successful: shown(Bool({ examples: [true] })),
  reference_number: shown(Str()),
  system_trace: shown(NStr()),
  amount_authorized: shown(Int({ description: 'Cents.', examples: [1999] })),
  amount_settled: shown(Int({ description: 'Cents.', examples: [1999] })),
  amount_failed: shown(Int({ description: 'Cents.', examples: [0] })),
  amount_refunded: shown(Int({ description: 'Cents.', examples: [0] })),
  authorized: shown(Bool({ examples: [true] })),
  settled: shown(Bool({ examples: [true] })),
  refunded: shown(Bool()),
  voided: shown(Bool()),
  description: shown(NStr({ examples: ['Order 42'] })),
  // Shown as text (presentTransaction): the spec types these as strings, and strict client
  // decoders refuse null; a bank-account charge has no card type or expiry, so they are empty there.
  card_type: NStr({ examples: ['Visa'] }),
  card_number: NStr({ description: 'Masked: the last four digits only (of the account number for a bank-account charge).' }),
  card_exp_month: NStr(),
  card_exp_year: NStr(),
  card_owner_name: shown(NStr({ examples: ['Ada Lovelace'] })),
  account_holder_name: NStr(),
  token_id: NStr(),
  customer_id: shown(NStr()),
  method_id: NStr(),
  csc_check: shown(Str({ examples: ['Passed'] })),
  avs_address_check: shown(NStr()),
  source: shown(Str({ examples: ['api'] })),
  metadata: shown(Metadata()),
  error_code: shown(NStr({ description: 'The decline code of a failed charge.' })),
  error_message: shown(NStr()),
  recurring: shown(Bool()),
  receipt_due: Bool(),
  receipt_email: NStr(),
  receipt_template_id: NStr(),
  /** The receipt made for this charge (receipts.ts), once it exists. */
  receipt_id: NullableInt(),
  // The payer's own fields, echoed as sent (null when not sent).
  company: shown(NStr()), website: shown(NStr()), email: shown(NStr()),
  first_name: shown(NStr({ examples: ['Ada'] })), last_name: shown(NStr({ examples: ['Lovelace'] })),
  address_1: shown(NStr()), address_2: shown(NStr()), city: shown(NStr()), state: shown(NStr()), zip: shown(NStr()),
  country: shown(NStr()), phone: shown(NStr()), fax: shown(NStr()),
  /** A live charge: its connector, account and amount, then what the processor said (charge-finish.ts). */
  processor: Type.Unsafe<Record<string, string | number | null> | null>({ type: ['object', 'null'] }),
  /** A live charge still waiting for its processor's outcome, and when the reconciler looks next. */
  pending_since: NullableAt(),
  reconcile_after: NullableAt(),
  created_at: shown(At()),
  processed_at: shown(NullableAt()),
});
export type TransactionRow = Static<typeof TransactionRowSchema>;
export const TRANSACTION_COLUMNS = columnsOf(TransactionRowSchema);

export const RefundRowSchema = Type.Object({
  id: Str(),
  transaction_id: Str(),
  amount: Int({ examples: [500] }),
  status: Str({ enum: ['pending', 'succeeded', 'failed'], description: 'A live refund is pending until its processor answers.' }) as TUnsafe<'pending' | 'succeeded' | 'failed'>,
  kind: Str({ enum: ['refund', 'void'], description: 'void: a live charge refunded whole before its processor settled it.' }) as TUnsafe<'refund' | 'void'>,
  created_at: At(),
});
/** A refund as a transaction lists it: succeeded; a live one pending until its processor answers, failed when it refused. */
export type RefundRow = Static<typeof RefundRowSchema>;

export type Transaction = TransactionRow & { refunds: RefundRow[] };

/** The allow-list of a transaction: a masked card_number is the only trace of the card that may leave. */
export const TransactionSchema = Type.Object({
  class: Str({ examples: ['transaction'] }),
  ...shownOf(TransactionRowSchema),
  card_type: Str({ description: 'Empty for a bank-account charge.', examples: ['Visa'] }),
  card_number: Str({ description: 'Masked: the last four digits only (of the account number for a bank-account charge).', examples: ['XXXXXXXXXXXX1111'] }),
  card_exp_month: Str({ description: 'Empty for a bank-account charge.', examples: ['12'] }),
  card_exp_year: Str({ description: 'Empty for a bank-account charge.', examples: ['2030'] }),
  account_holder_name: Str(),
  receipt: Type.Object({ due: Bool(), email_address: NStr(), receipt_template_id: NStr(), receipt_id: NullableInt() }),
  email_address: NStr({ examples: ['ada@example.com'] }),
  refunds: Type.Array(Type.Omit(RefundRowSchema, ['transaction_id'])),
  processor: Type.Union([Type.Null(), Type.Object({
    connector: Str({ examples: ['authorizenet'] }), transaction_id: NStr({ description: "The processor's own transaction id." }),
    auth_code: NStr(), avs_result: NStr(), cvv_result: NStr(), response_code: NStr(), message: NStr({ description: "The processor's own text." }),
  })], { description: 'Live charges: what the processor said (null in test mode).' }),
});
export type TransactionOut = Static<typeof TransactionSchema>;
const PICK = shownPicker(TransactionRowSchema, { class: 'transaction' });

function presentProcessor(p: Record<string, string | null> | null | undefined) {
  if (!p) return null;
  return {
    connector: p.connector ?? '', transaction_id: p.id ?? null, auth_code: p.auth_code ?? null, avs_result: p.avs ?? null,
    cvv_result: p.cvv ?? null, response_code: p.reason_code ?? null, message: p.message ?? null,
  };
}

/** The wire form of spec 2.2: the shown columns as stored, and what is made of the rest. */
export function presentTransaction(t: Transaction): TransactionOut {
  const out = PICK(t) as TransactionOut;
  out.metadata = t.metadata ?? {};
  out.card_type = t.card_type ?? '';
  out.card_number = t.card_number ?? '';
  out.card_exp_month = t.card_exp_month ?? '';
  out.card_exp_year = t.card_exp_year ?? '';
  out.account_holder_name = t.account_holder_name ?? '';
  out.receipt = {
    due: t.receipt_due, email_address: t.receipt_email, receipt_template_id: t.receipt_template_id, receipt_id: t.receipt_id ?? null,
  };
  out.email_address = t.receipt_email ?? t.email ?? null;
  out.refunds = t.refunds.map((r) => ({ id: r.id, amount: r.amount, status: r.status ?? 'succeeded', kind: r.kind ?? 'refund', created_at: r.created_at }));
  out.processor = presentProcessor(t.processor as Record<string, string | null> | null | undefined);
  return out;
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
  customer_id?: string | null; card_number?: string | null; token?: string | null;
  method_id?: Later<string | null>; charge_bank_account?: Later<boolean | null | undefined>;
}): ChargeShape {
  if (c.customer_id) return 'customer';
  if (c.card_number) return 'card';
  // Without a token, a method_id (refused now if it is no text) or a charge_bank_account sent at
  // all makes it a charge by customer.
  if (!c.token && (c.customer_id !== undefined || take(c.method_id ?? null) || c.charge_bank_account !== undefined)) return 'customer';
  return 'token';
}

/** A boolean whose sending counts: undefined when not sent, null when sent blank, else true/false (REQ01 when unreadable). */
function sentBool(description: string) {
  const inner = bool(description);
  return custom<boolean | null | undefined>(description, inner.doc, (v, name) => (v === undefined ? undefined : inner.read(v, name) ?? null));
}

/** A security code as a charge reads it: undefined when absent or null (the other name counts), else text. */
function securityCode(description: string) {
  const inner = text(description);
  return custom<string | null | undefined>(description, inner.doc, (v, name) => (v === undefined || v === null ? undefined : inner.read(v, name)));
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
  // Read only by a charge by customer (taken there, in the spec's order); a token charge ignores them.
  method_id: later(text("Which of the customer's methods (default: the customer's default method).")),
  charge_bank_account: later(sentBool("true: the customer's default bank account; false: their default card.")),
  amount: amount('Cents, above zero (a form body sends it as text).', { required: true, example: 1999 }),
  metadata: metadata(),
  description: text('At most 1000 characters.', { max: MAX_DESCRIPTION, example: 'Order 42' }),
  send_receipt: bool("Email a receipt (true/false, \"1\"/\"0\"); default: the customer's or merchant's setting."),
  email_address: email('Where the receipt goes.', { code: E.RECEIPT_EMAIL_INVALID, example: 'ada@example.com' }),
  receipt_template_id: text('The receipt template to use.'),
  // A direct charge's card (taken by the card shape only, checked as a token's card is).
  card_owner_name: later(scalar('Name on the card (optional here).')),
  token_type: later(scalar('credit_card, if sent: a direct charge takes cards only (tokenize a bank account).')),
  card_exp_month: later(scalar('MM')), card_exp_year: later(scalar('YYYY')),
  // A bank account sent this way is checked as a token's would be, then refused (tokenize it instead).
  ...Object.fromEntries((['bank_account_number', 'bank_routing_number', 'bank_account_holder_first_name', 'bank_account_holder_last_name',
    'bank_account_type'] as const).map((k) => [k, later(scalar('Refused on a direct charge: tokenize a bank account.'))])) as
    Record<'bank_account_number' | 'bank_routing_number' | 'bank_account_holder_first_name' | 'bank_account_holder_last_name' | 'bank_account_type', Field<Later<string | number | null>>>,
  // null or absent: not sent (the other name is read); blank: sent without a code.
  csc: securityCode('Security code (cvv is read the same).'), cvv: securityCode('Security code.'),
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
