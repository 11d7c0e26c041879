// What a customer or method body pays with, read at the edge (customer-input.ts, method-input.ts)
// before the route opens its transaction: a token to look up, or a card or bank account sent as its
// own fields where a token would go (clients of this API family do that). The fields go through the
// token-creation checks (preparePaymentData) once, here, and come out shaped like a consumed token,
// so the method code stores and encrypts them exactly as a token's.
//
// A refusal is carried, not thrown: the method code answers it where it always has, after what
// only the database knows (the customer 17001, the method 82002, the method type 82001). The one
// thing the edge cannot know is the holder: a card or account whose body names no holder is held
// by the stored customer. The edge checks it with the holder's names standing in, and notes for each
// name the customer supplies the refusal the checks give when the customer has none (holdBy).
import { badRequest, GatewayError } from '../../errors.js';
import type { Scope } from '../merchant/keys.js';
import { type ConsumedToken, preparePaymentData } from './tokens.js';
import type { PaymentData } from '../../schemas/tokens.js';

export type PaymentKind = 'credit_card' | 'bank_account';

/** What a method is made from: a consumed token, or fields (no token id). */
export type PaymentSource = Omit<ConsumedToken, 'id' | 'merchant_id' | 'env' | 'bin_brand' | 'bin_type' | 'bin_level'
  | 'secret_enc' | 'csc_enc' | 'created_at' | 'expires_at' | 'used_at'> & { id: string | null };

/** A holder name the body left to the customer, and the refusal when the customer has none either. */
export interface HolderGap {
  field: 'card_owner_name' | 'bank_account_holder_first_name' | 'bank_account_holder_last_name';
  refusal: GatewayError | null;
}

/** A card or bank account sent as fields: checked (the holder's names standing in where the body gives none), or refused. */
export interface FieldsPayment {
  kind: 'fields';
  type: PaymentKind;
  checked: PaymentSource | GatewayError;
  /** In the order the checks read them. */
  fromHolder: HolderGap[];
  echo?: Echo;
}

/**
 * Card or bank details sent without a number (nor a security code, nor a token): possibly a record
 * sent back as it was read (an SDK's save() of a fetched customer), which `isEcho` tells.
 */
export type Echo = Partial<Record<(typeof ECHO_FIELDS)[number], string>>;
const ECHO_FIELDS = ['card_exp_month', 'card_exp_year', 'bank_routing_number'] as const;

export type PaymentInput =
  | { kind: 'none' }
  | { kind: 'token'; token: string }
  /** A token beside fields, or card and bank fields together (REQ01): never accepted and dropped. */
  | { kind: 'refused'; refusal: GatewayError; echo?: Echo }
  | FieldsPayment;

/** Who holds a card or account whose body names no holder: the customer. */
export interface Holder { first_name: string | null; last_name: string | null }

/** The merchant and the request's time: what the card checks need (test numbers in test mode, expiry). */
export interface Edge { scope: Scope; now: Date }

const CARD_DATA = ['card_number', 'card_exp_month', 'card_exp_year'] as const;
const BANK_DATA = ['bank_account_number', 'bank_routing_number'] as const;
const given = (v: unknown) => v !== undefined && v !== null && v !== '';
/** A name as the token-creation checks keep it (trimmed; blank is no name). */
const kept = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v).trim());
/** Stands in for a name the customer supplies: any name passes the checks (a customer's is at most 100 characters). */
const STAND_IN = 'holder';

/** A card or account from fields, through the token-creation checks (Luhn, brand, expiry, TEST01). */
export function sourceFromFields(scope: Scope, data: PaymentData, now: Date): PaymentSource {
  const { secret, csc, ...fields } = preparePaymentData(scope, data, now, { ownerOptional: true });
  return {
    id: null, card_type: null, card_owner_name: null, bin: null, card_exp_month: null, card_exp_year: null,
    bank_routing_number: null, bank_account_holder_first_name: null, bank_account_holder_last_name: null,
    bank_account_type: null, ...fields, number: secret, csc,
  };
}

function attempt(run: () => PaymentSource): PaymentSource | GatewayError {
  try {
    return run();
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
}

const same = (a: PaymentSource | GatewayError, b: PaymentSource | GatewayError) =>
  a instanceof GatewayError && b instanceof GatewayError && a.code === b.code && a.message === b.message;

/**
 * What a body pays with: `data` its payment fields as its table read them (each a string, a number
 * or null: paymentFields), `token` its token. A security code alone is part of a card too (refused
 * for the missing number, never dropped); beside a token it is the token's business. `edge` is
 * needed only when the body carries card or bank fields.
 */
export function readPayment(data: PaymentData, token: string | null, edge?: Edge): PaymentInput {
  const card = CARD_DATA.some((k) => given(data[k])) || (!token && (given(data.csc) || given(data.cvv)));
  const bank = BANK_DATA.some((k) => given(data[k]));
  if (!card && !bank) return token ? { kind: 'token', token } : { kind: 'none' };
  if (token) return { kind: 'refused', refusal: badRequest('send a token or the card (bank account) fields, not both') };
  const echo = echoOf(data);
  if (card && bank) return { kind: 'refused', refusal: badRequest('send the fields of one card or one bank account, not both'), echo };
  if (!edge) throw new Error('card or bank fields are read with the merchant and the time (edge)');
  const type: PaymentKind = card ? 'credit_card' : 'bank_account';
  const check = (names: Partial<Record<HolderGap['field'], string | null>>) =>
    attempt(() => sourceFromFields(edge.scope, { ...data, token_type: type, ...names }, edge.now));
  // A card's owner is optional to the checks; a bank account's holder names are required.
  const gaps = (type === 'credit_card' ? ['card_owner_name'] as const
    : ['bank_account_holder_first_name', 'bank_account_holder_last_name'] as const).filter((f) => !given(data[f]));
  const standIns = Object.fromEntries(gaps.map((f) => [f, type === 'credit_card' ? null : STAND_IN]));
  const checked = check(standIns);
  const fromHolder = gaps.map((field): HolderGap => {
    if (type === 'credit_card') return { field, refusal: null };
    // The checks reach this name when they answer otherwise without it.
    const without = check({ ...standIns, [field]: null });
    return { field, refusal: without instanceof GatewayError && !same(without, checked) ? without : null };
  });
  return { kind: 'fields', type, checked, fromHolder, echo };
}

/** The details a data gives without a number or security code, or undefined when it gives one. */
function echoOf(data: PaymentData): Echo | undefined {
  if ((['card_number', 'csc', 'cvv', 'bank_account_number'] as const).some((k) => given(data[k]))) return undefined;
  return Object.fromEntries(ECHO_FIELDS.filter((k) => given(data[k])).map((k) => [k, String(data[k]).trim()]));
}

/**
 * Whether the payment is only details equal to the stored ones: a record sent back as read (Java
 * and Ruby SDKs save a fetched customer whole), to be ignored. Any difference, or a detail with
 * nothing stored, is not: then the body is a card or account without its number, refused as such.
 */
export function isEcho(p: PaymentInput, stored: Record<keyof Echo, string | number | null | undefined>): boolean {
  const echo = p.kind === 'fields' || p.kind === 'refused' ? p.echo : undefined;
  if (!echo) return false;
  return Object.entries(echo).every(([k, v]) => {
    const s = stored[k as keyof Echo];
    if (s === null || s === undefined) return false;
    return k === 'bank_routing_number' ? String(s) === v : /^\d{1,4}$/.test(v) && Number(v) === Number(s);
  });
}

/**
 * The card or account of `fields`, the holder's names filling what the body left to them, or its
 * refusal: a bank account's missing holder name (the body's and the customer's) before the rest.
 */
export function holdBy(fields: FieldsPayment, holder: Holder): PaymentSource {
  const names: Record<HolderGap['field'], string | null> = {
    card_owner_name: kept([holder.first_name, holder.last_name].filter(Boolean).join(' ')),
    bank_account_holder_first_name: kept(holder.first_name),
    bank_account_holder_last_name: kept(holder.last_name),
  };
  for (const gap of fields.fromHolder) if (gap.refusal && !names[gap.field]) throw gap.refusal;
  if (fields.checked instanceof GatewayError) throw fields.checked;
  return { ...fields.checked, ...Object.fromEntries(fields.fromHolder.map((gap) => [gap.field, names[gap.field]])) };
}
