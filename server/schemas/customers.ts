// A customer (spec 2.4, 4.5): the stored shape, the wire shape and its presenter, the bodies. Which
// card and bank account are the customer's defaults is the domain's rule (typeDefault): the
// presenter is handed them.
import { type MethodRow, MethodSchema, paymentFields, presentMethod, scalar } from './methods.js';
import { Bool, List, Metadata, NullableInt, NullableStr as NStr, Str, Timestamp, Type, type Static } from './common.js';

/** Maximum lengths the spec leaves open (docs/decisions/customers-and-methods.md); the five with a spec code use it. */
export const MAX_LENGTH = {
  first_name: 100, last_name: 100, company: 255, email: 254, phone: 32, fax: 32, website: 255,
  address_1: 255, address_2: 255, city: 100, state: 2, zip: 16, country: 3,
} as const;

type RecordField = keyof typeof MAX_LENGTH;
const RECORD_FIELDS = Object.keys(MAX_LENGTH) as RecordField[];

/** A customer as the domain reads it: the record fields (null when unset), and its own. */
export type CustomerRow = Record<RecordField, string | null> & {
  id: string;
  metadata: Record<string, unknown>;
  default_receipts: boolean;
  default_receipt_template_id: string | null;
  default_method_id: string | null;
  created_at: Date;
  updated_at: Date;
};
const EXAMPLE: Partial<Record<keyof typeof MAX_LENGTH, string>> = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/** The allow-list of a customer: card and bank details are last-four and names only. */
export const CustomerSchema = Type.Object({
  class: Str({ examples: ['customer'] }),
  id: Str({ examples: ['cus_1a2b3c4d'] }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  // Spec 2.4 types the record fields as plain strings: unset is "" (strict decoders refuse null).
  ...(Object.fromEntries(RECORD_FIELDS.map((k) => [k, Str({ examples: [EXAMPLE[k] ?? ''] })])) as Record<keyof typeof MAX_LENGTH, ReturnType<typeof Str>>),
  metadata: Metadata(),
  card_owner_name: NStr(),
  card_type: Str({ examples: ['Visa'] }),
  last_4: NStr({ examples: ['1111'] }),
  card_exp_month: NullableInt(),
  card_exp_year: NullableInt(),
  bank_account_number_last_4: NStr(),
  bank_routing_number: NStr(),
  bank_account_holder_first_name: NStr(),
  bank_account_holder_last_name: NStr(),
  bank_account_type: NStr(),
  default_receipts: Bool(),
  default_receipt_template_id: NStr(),
  default_method_id: NStr(),
  methods: Type.Array(MethodSchema),
});
export type CustomerOut = Static<typeof CustomerSchema>;
export const CustomerList = List(CustomerSchema);

/** Spec 2.4: the record, the default card's and bank account's details on top, and every method. */
export function presentCustomer(c: CustomerRow, methods: MethodRow[], defaults: { card?: MethodRow; bank?: MethodRow }): CustomerOut {
  const { card, bank } = defaults;
  return {
    class: 'customer',
    id: c.id,
    created_at: c.created_at,
    updated_at: c.updated_at,
    // Spec 2.4 types these as plain strings: unset is "", never null.
    ...Object.fromEntries(RECORD_FIELDS.map((f) => [f, c[f] ?? ''])) as Record<RecordField, string>,
    metadata: c.metadata ?? {},
    card_owner_name: card?.card_owner_name ?? null,
    card_type: card?.card_type ?? 'other',
    last_4: card?.last_4 ?? null,
    card_exp_month: card?.card_exp_month ?? null,
    card_exp_year: card?.card_exp_year ?? null,
    bank_account_number_last_4: bank?.last_4 ?? null,
    bank_routing_number: bank?.bank_routing_number ?? null,
    bank_account_holder_first_name: bank?.bank_account_holder_first_name ?? null,
    bank_account_holder_last_name: bank?.bank_account_holder_last_name ?? null,
    bank_account_type: bank?.bank_account_type ?? null,
    default_receipts: c.default_receipts,
    default_receipt_template_id: c.default_receipt_template_id,
    default_method_id: c.default_method_id,
    methods: methods.map((m) => presentMethod(m, 'payment_method')),
  };
}

/** Create and update take the same fields; `id` only counts on create, `default_method_id` on update. */
export const CustomerBody = Type.Partial(Type.Object({
  ...Object.fromEntries(RECORD_FIELDS.map((k) => [k, scalar(`At most ${MAX_LENGTH[k]} characters.`, EXAMPLE[k])])),
  id: scalar('Your own id for the customer (create only): 6 to 64 letters, digits, _ or -.'),
  token: scalar('A one-time token: becomes the default method.'),
  cvv: scalar('Security code of the token or card.'), csc: scalar('Security code (the same as cvv).'),
  default_receipt_template_id: scalar('The template of this customer\'s receipts.'),
  default_method_id: scalar('Which method charges by customer use (update only).'),
  ...paymentFields,
  // [] is PHP's empty map.
  metadata: Type.Unsafe<Record<string, unknown> | string | null | []>({ type: ['object', 'string', 'null', 'array'], maxItems: 0, description: 'Up to 8 KiB of your own keys, as an object or a JSON-encoded string.' }),
  default_receipts: Type.Unsafe<boolean | string | number | null>({ type: ['boolean', 'string', 'number', 'null'], description: 'Email a receipt for every charge.' }),
}), { examples: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', token: 'tok_4f3c2b1a0e9d8c7b' }] });

const page = {
  limit: Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'], description: 'Rows per page, 1 to 100 (default 10).' }),
  offset: Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'], description: 'Rows to skip (default 0).' }),
};
export const CustomerSearchBody = Type.Object({
  search_term: Str({ minLength: 1, maxLength: 255, description: 'Matches names, company and id.', examples: ['Lovelace'] }),
  ...Type.Partial(Type.Object(page)).properties,
}, { examples: [{ search_term: 'Lovelace' }] });
export const DeleteCustomerQuery = Type.Partial(Type.Object({ id: Str({ description: 'The customer to delete (or id in the body).' }) }));
