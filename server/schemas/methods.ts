// A customer's stored payment method (spec 2.5, 4.6).
import { tooLong } from '../errors.js';
import { isScalar, wrongType } from '../lib/validate.js';
import { Bool, NullableInt, NullableStr as NStr, Str, Timestamp, Type, type Static } from './common.js';
import { type Fields, type Input, custom, fields, scalar } from './fields.js';
import { MAX_TEXT, paymentFields } from './tokens.js';

export type MethodType = 'credit_card' | 'bank_account';

/** A stored payment method as it may be shown: no secret, only whether one is held. */
export interface MethodRow {
  id: string;
  customer_id: string;
  method_type: MethodType;
  card_type: string | null;
  card_owner_name: string | null;
  last_4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  csc_check: string | null;
  bank_routing_number: string | null;
  bank_account_holder_first_name: string | null;
  bank_account_holder_last_name: string | null;
  bank_account_type: string | null;
  company: string | null;
  address_1: string | null; address_2: string | null; city: string | null;
  state: string | null; zip: string | null; country: string | null;
  created_at: Date;
  updated_at: Date;
  /** false for a placeholder (null details, spec 2.4). */
  has_details: boolean;
}

/** The allow-list of a payment method: last four digits at most, never a number. */
export const MethodSchema = Type.Object({
  class: Str({ enum: ['method', 'payment_method'], examples: ['method'] }),
  id: Str({ examples: ['mth_9a8b7c6d5e4f'] }),
  method_type: Str({ enum: ['credit_card', 'bank_account'], examples: ['credit_card'] }),
  customer_id: NStr({ examples: ['cus_1a2b3c4d'] }),
  last_4: NStr({ examples: ['1111'] }),
  card_type: NStr({ examples: ['Visa'] }),
  card_exp_month: NullableInt({ examples: [12] }),
  card_exp_year: NullableInt({ examples: [2030] }),
  card_owner_name: NStr({ examples: ['Ada Lovelace'] }),
  csc_check: NStr({ examples: ['passed'] }),
  bank_account_number_last_4: NStr(),
  bank_routing_number: NStr(),
  bank_account_holder_first_name: NStr(),
  bank_account_holder_last_name: NStr(),
  bank_account_type: NStr(),
  company: NStr(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  address: Type.Object({ address_1: NStr(), address_2: NStr(), city: NStr(), state: NStr(), country: NStr(), zip: NStr(), company: NStr() }),
});
export type MethodOut = Static<typeof MethodSchema>;

export const OneMethod = Type.Object({ success: Bool({ examples: [true] }), method: MethodSchema });
export const ManyMethods = Type.Object({ success: Bool({ examples: [true] }), list: Type.Array(MethodSchema) });

/** Spec 2.5. `class` is `method` on the method endpoints and `payment_method` inside a customer. */
export function presentMethod(m: MethodRow, cls: 'method' | 'payment_method'): MethodOut {
  const card = m.method_type === 'credit_card';
  return {
    class: cls,
    id: m.id,
    method_type: m.method_type,
    customer_id: m.customer_id,
    last_4: card ? m.last_4 : null,
    card_type: card ? (m.card_type ?? 'other') : null,
    card_exp_month: m.card_exp_month,
    card_exp_year: m.card_exp_year,
    card_owner_name: m.card_owner_name,
    // A card method always says how its code was checked (rows stored before 'unchecked' existed
    // and placeholders say not_provided); bank accounts have no code.
    csc_check: card ? (m.csc_check ?? 'not_provided') : null,
    bank_account_number_last_4: card ? null : m.last_4,
    bank_routing_number: m.bank_routing_number,
    bank_account_holder_first_name: m.bank_account_holder_first_name,
    bank_account_holder_last_name: m.bank_account_holder_last_name,
    bank_account_type: m.bank_account_type,
    company: m.company,
    created_at: m.created_at,
    updated_at: m.updated_at,
    address: {
      address_1: m.address_1, address_2: m.address_2, city: m.city, state: m.state,
      country: m.country, zip: m.zip, company: m.company,
    },
  };
}

// --- requests ---------------------------------------------------------------------------------

/**
 * A value taken as text as sent (not trimmed; empty is none): a string or a number, else REQ01
 * "<name> must be a string". `max`: longer is REQ01 too.
 */
const asSent = (description: string, o: { max?: number; example?: string } = {}) =>
  custom(description, { type: 'string', ...(o.max ? { maxLength: o.max } : {}) }, (v, name): string | null => {
    if (v === undefined || v === null || v === '') return null;
    if (!isScalar(v)) throw wrongType(name);
    const s = String(v);
    if (o.max && s.length > o.max) throw tooLong(name, o.max);
    return s;
  }, o.example ? { example: o.example } : {});

const { zip: _zip, ...cardOrBank } = paymentFields;
/**
 * A method's fields, in the order their faults are answered: the zip (stored on the method, at
 * most as long as a token's), `extra` (method_type on create), the token, then a card or bank
 * account sent instead of a token (each a string or a number; their checks answer in the
 * transaction, after the customer and the method: payment-fields.ts).
 */
const methodFields = <X extends Fields>(extra: X) => ({
  zip: asSent('For address verification: wins over the token\'s billing zip.', { max: MAX_TEXT }),
  ...extra,
  token: asSent('A one-time token from the tokenizer.', { example: 'tok_4f3c2b1a0e9d8c7b' }),
  ...cardOrBank,
  cvv: scalar('Security code, verified now, then forgotten.'),
  csc: scalar('Security code (the same as cvv).'),
});
const EXAMPLE = { method_type: 'credit_card', token: 'tok_4f3c2b1a0e9d8c7b' };

/** POST /customers/{customer_id}/methods: a token, or the card or bank-account fields themselves. */
export const MethodCreateFields = fields(methodFields({
  method_type: asSent('credit_card or bank_account: must match the token (default: its type).', { example: 'credit_card' }),
}), { examples: [EXAMPLE] });
/** POST /customers/{customer_id}/methods/{method_id}: the method's new card or account (its type stays). */
export const MethodUpdateFields = fields(methodFields({}), { examples: [{ token: EXAMPLE.token }] });
export type MethodCreate = Input<typeof MethodCreateFields>;
export type MethodUpdate = Input<typeof MethodUpdateFields>;
