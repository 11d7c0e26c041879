// A customer's stored payment method (spec 2.5, 4.6).
import { tooLong } from '../errors.js';
import { isScalar, wrongType } from '../lib/validate.js';
import {
  At, Bool, Env, NullableAt, NullableInt, NullableStr as NStr, Str, Type, type Static, type TUnsafe, columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { type Fields, type Input, custom, fields, scalar } from './fields.js';
import { MAX_TEXT, paymentFields } from './tokens.js';

export type MethodType = 'credit_card' | 'bank_account';

/**
 * The stored row (003_customers.sql), its columns in order: its type (MethodRow), its column list
 * (METHOD_COLUMNS) and, marked `shown`, the columns the answer shows as stored. The number lives
 * only sealed in secret_enc, never read into a method as shown (MethodView) nor shown; a method
 * without it is a placeholder (spec 2.4).
 */
export const MethodRowSchema = Type.Object({
  merchant_id: Str(),
  env: Env(),
  id: shown(Str({ examples: ['mth_9a8b7c6d5e4f'] })),
  customer_id: shown(Str({ examples: ['cus_1a2b3c4d'] })),
  method_type: shown(Str({ enum: ['credit_card', 'bank_account'], examples: ['credit_card'] }) as TUnsafe<MethodType>),
  /** The token the details came from, for audit (and the account updater's check that the card is the same). */
  token_id: NStr(),
  card_type: NStr(),
  card_owner_name: shown(NStr({ examples: ['Ada Lovelace'] })),
  last_4: NStr(),
  bin: NStr(),
  card_exp_month: shown(NullableInt({ examples: [12] })),
  card_exp_year: shown(NullableInt({ examples: [2030] })),
  csc_check: NStr(),
  bank_routing_number: shown(NStr()),
  bank_account_holder_first_name: shown(NStr()),
  bank_account_holder_last_name: shown(NStr()),
  bank_account_type: shown(NStr()),
  company: shown(NStr()),
  address_1: NStr(), address_2: NStr(), city: NStr(), state: NStr(), zip: NStr(), country: NStr(),
  secret_enc: NStr(),
  created_at: shown(At()),
  updated_at: shown(At()),
  deleted_at: NullableAt(),
});
export type MethodRow = Static<typeof MethodRowSchema>;
export const METHOD_COLUMNS = columnsOf(MethodRowSchema);

/** A method as it is read to be shown or chosen: every column but the sealed number, and whether one is held. */
export type MethodView = Omit<MethodRow, 'secret_enc'> & {
  /** false for a placeholder (null details, spec 2.4). */
  has_details: boolean;
};
/** The columns of a MethodView, for a statement over `payment_methods` (`prefix`: its alias and a dot). */
export const methodViewColumns = (prefix = '') => [
  ...METHOD_COLUMNS.filter((c) => c !== 'secret_enc').map((c) => prefix + c), `${prefix}secret_enc IS NOT NULL AS has_details`,
].join(', ');

/** The allow-list of a payment method: last four digits at most, never a number. */
export const MethodSchema = Type.Object({
  class: Str({ enum: ['method', 'payment_method'], examples: ['method'] }),
  ...shownOf(MethodRowSchema),
  last_4: NStr({ examples: ['1111'] }),
  card_type: NStr({ examples: ['Visa'] }),
  csc_check: NStr({ examples: ['passed'] }),
  bank_account_number_last_4: NStr(),
  address: Type.Object({ address_1: NStr(), address_2: NStr(), city: NStr(), state: NStr(), country: NStr(), zip: NStr(), company: NStr() }),
});
export type MethodOut = Static<typeof MethodSchema>;
const PICK = { method: shownPicker(MethodRowSchema, { class: 'method' }), payment_method: shownPicker(MethodRowSchema, { class: 'payment_method' }) };

export const OneMethod = Type.Object({ success: Bool({ examples: [true] }), method: MethodSchema });
export const ManyMethods = Type.Object({ success: Bool({ examples: [true] }), list: Type.Array(MethodSchema) });

/** Spec 2.5. `class` is `method` on the method endpoints and `payment_method` inside a customer. */
export function presentMethod(m: MethodView, cls: 'method' | 'payment_method'): MethodOut {
  const card = m.method_type === 'credit_card';
  return {
    ...PICK[cls](m),
    last_4: card ? m.last_4 : null,
    card_type: card ? (m.card_type ?? 'other') : null,
    // A card method always says how its code was checked (rows stored before 'unchecked' existed
    // and placeholders say not_provided); bank accounts have no code.
    csc_check: card ? (m.csc_check ?? 'not_provided') : null,
    bank_account_number_last_4: card ? null : m.last_4,
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
