// POST /charge's body, read and checked once at the edge (spec 4.1): the charge routes (and the
// demo) turn a body into a ChargeInput here; the gateway's own charges (billings, scheduled
// transactions) build one from their stored rows; createCharge works on that typed input only. Pure: nothing here reads the database; what needs
// it (the token, the stored method, the customer's receipt address) is createCharge's.
import { badRequest, E, GatewayError, tooLong } from '../../errors.js';
import type { Scope } from '../merchant/keys.js';
import { MAX_TEXT, preparePaymentData } from '../instruments/tokens.js';
import { PAYER_FIELDS } from './transactions.js';
import { isEmail, parseAmount, readBool, readMetadata, text } from '../shared/validate.js';

type Body = Record<string, unknown>;
export type ChargeShape = 'token' | 'customer' | 'card';
export type PayerField = (typeof PAYER_FIELDS)[number];

const MAX_DESCRIPTION = 1000;

interface ChargeCommon {
  /** Cents, above zero. */
  amount: number;
  description: string | null;
  /** Merged over the customer's metadata. */
  metadata: Record<string, unknown>;
  /** `send_receipt` (undefined: the customer's default), `email_address`, `receipt_template_id`. */
  receipt: { send: boolean | undefined; email: string | null; templateId: string | null };
  /** Payer fields sent with the charge; each wins over the instrument's own. */
  payer: Partial<Record<PayerField, string | null>>;
}

export type ChargeInput =
  | (ChargeCommon & { shape: 'token'; token: string; csc: string | null; zip: string | null })
  | (ChargeCommon & {
    shape: 'customer'; customerId: string; methodId: string | null;
    /** Absent: the default method whatever its type; true/false: the default bank account/card. */
    bankAccount: boolean | undefined;
  })
  | (ChargeCommon & { shape: 'card'; card: PreparedCard; csc: string | null });

/** A card sent with the charge, checked as a token's card is (never a bank account). */
export type PreparedCard = Extract<ReturnType<typeof preparePaymentData>, { token_type: 'credit_card' }>;

/**
 * POST /charge/:id/cancel's amount: cents above zero, or null when absent (refund what remains). A
 * present but empty value ("", null) is 59112, so "refund everything" never comes from an empty field.
 */
export function readRefundAmount(v: unknown): number | null {
  const a = parseAmount(v);
  if (a === 'missing') return null;
  if (typeof a !== 'number') throw new GatewayError(E.AMOUNT_INVALID);
  return a;
}

/** One path, three request shapes, chosen by the fields present (spec 4.1). */
export function chargeShape(body: Body): ChargeShape {
  if (text(body.customer_id, 'customer_id') !== null) return 'customer';
  if (text(body.card_number, 'card_number') !== null) return 'card';
  // A body naming a customer's method (or an empty customer_id) without a token is a charge by
  // customer that lacks its customer_id: 48291, not the token shape's 69002.
  if (text(body.token, 'token') === null && (body.customer_id !== undefined || text(body.method_id, 'method_id') !== null
    || body.charge_bank_account !== undefined)) return 'customer';
  return 'token';
}

type ParamsMissing = typeof E.CUSTOMER_CHARGE_PARAMS_MISSING | typeof E.TOKEN_CHARGE_PARAMS_MISSING;

/**
 * 48291 or 69002 when the shape's instrument (customer_id, token) or the amount is missing (absent
 * or empty), naming only what is: "amount missing", or the catalogue's "parameters missing
 * (customer_id, amount)" when both are. Scheduled transactions answer the same (scheduled.ts).
 */
export function requireChargeParams(code: ParamsMissing, instrument: [field: string, value: string | null], amount: ReturnType<typeof parseAmount>): void {
  const missing = [instrument[1] === null && instrument[0], (amount === 'missing' || amount === 'empty') && 'amount'].filter((f): f is string => !!f);
  if (missing.length) throw new GatewayError(code, missing.length === 1 ? `${missing[0]} missing` : undefined);
}

function amountOf(shape: ChargeShape, body: Body): number {
  const a = parseAmount(body.amount);
  if (shape === 'customer' && a === 'not_positive') throw new GatewayError(E.CUSTOMER_AMOUNT_INVALID);
  if (typeof a !== 'number') throw new GatewayError(E.AMOUNT_INVALID);
  return a;
}

/**
 * The whole charge body, checked in the order its faults are answered: the shape's required
 * fields (69002, 48291), amount (59112, 99819), metadata, description, the receipt fields (69006),
 * then the instrument's own fields (a card is checked as a token's card is: its scope and the time
 * decide test cards and expiry).
 */
export function readChargeInput(scope: Scope, body: Body, now: Date): ChargeInput {
  const shape = chargeShape(body);
  const token = text(body.token, 'token');
  const customerId = text(body.customer_id, 'customer_id');
  if (shape === 'token') requireChargeParams(E.TOKEN_CHARGE_PARAMS_MISSING, ['token', token], parseAmount(body.amount));
  if (shape === 'customer') requireChargeParams(E.CUSTOMER_CHARGE_PARAMS_MISSING, ['customer_id', customerId], parseAmount(body.amount));
  const amount = amountOf(shape, body);
  const metadata = readMetadata(body.metadata) ?? {};
  const description = text(body.description, 'description');
  if (description && description.length > MAX_DESCRIPTION) throw tooLong('description', MAX_DESCRIPTION);
  const send = readBool(body.send_receipt, 'send_receipt');
  const email = text(body.email_address, 'email_address');
  if (email !== null && !isEmail(email)) throw new GatewayError(E.RECEIPT_EMAIL_INVALID);
  const receipt = { send, email, templateId: text(body.receipt_template_id, 'receipt_template_id') };
  const common = { amount, description, metadata, receipt, payer: {} as ChargeCommon['payer'] };
  let input: ChargeInput;
  if (shape === 'customer') {
    const bankAccount = readBool(body.charge_bank_account, 'charge_bank_account');
    input = { ...common, shape, customerId: customerId!, methodId: text(body.method_id, 'method_id'), bankAccount };
  } else if (shape === 'card') {
    // Which would be charged is not for us to guess (a customer's fields beside a token are refused alike).
    if (token !== null) throw badRequest('send a token or the card fields, not both');
    // Used at once and never stored. The owner's name is optional here (the clients' own examples
    // send none); the rest is checked as for a token.
    const card = preparePaymentData(scope, body, now, { ownerOptional: true });
    if (card.token_type !== 'credit_card') throw badRequest('direct charges take cards only; tokenize bank accounts');
    input = { ...common, shape, card, csc: text(body.csc ?? body.cvv, 'csc') };
  } else {
    input = { ...common, shape, token: token!, csc: text(body.cvv ?? body.csc, 'csc'), zip: text(body.zip, 'zip') };
  }
  // Payer fields override the instrument's on every shape, bounded as a token's or a card's are:
  // they are copied into the transaction, its events, webhooks and exports.
  for (const f of PAYER_FIELDS) {
    if (body[f] === undefined) continue;
    const v = text(body[f], f);
    if (v !== null && v.length > MAX_TEXT) throw tooLong(f, MAX_TEXT);
    input.payer[f] = v;
  }
  return input;
}
