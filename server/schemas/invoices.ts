// An invoice (spec 4.11; its fields: docs/decisions/invoices.md).
import { Int, Metadata, NullableStr as NStr, NullableTime, Str, Timestamp, Type, loose, pageQuery, type Static } from './common.js';

// The stored shape (rows as the domain reads them); the presenter below turns it into the answer.
export type InvoiceStatus = 'unpaid' | 'partially_paid' | 'paid' | 'deleted';

export interface Payment {
  id: string;
  amount: number;
  created_at: string;
}

export interface InvoiceRow {
  id: string;
  status: InvoiceStatus;
  customer_id: string | null;
  customer_first_name: string | null; customer_last_name: string | null; customer_email: string | null;
  customer_address_1: string | null; customer_address_2: string | null; customer_city: string | null;
  customer_state: string | null; customer_zip: string | null; customer_company: string | null;
  customer_phone: string | null; customer_fax: string | null;
  items: Item[];
  amount: number;
  amount_paid: number;
  payments: Payment[];
  due_date: string | null;
  memo: string | null;
  metadata: Record<string, unknown>;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
  paid_at: Date | null;
  deleted_at: Date | null;
  // the latest email, from the outbox
  outbox_id: number | null;
  delivery_to: string | null;
  delivery_status: string | null;
  delivery_attempts: number | null;
  delivery_sent_at: Date | null;
  delivery_last_error: string | null;
}


// The stored shape (rows as the domain reads them); the presenter below turns it into the answer.
export interface Item {
  description: string;
  quantity: number;
  unit_amount: number;
  amount: number;
}


/** The customer fields of spec 4.11, each with the maximum length of its customer-record twin. */
export const CUSTOMER_FIELDS = ['first_name', 'last_name', 'email', 'address_1', 'address_2', 'city', 'state', 'zip',
  'company', 'phone', 'fax'] as const;
export type ContactField = (typeof CUSTOMER_FIELDS)[number];
export const invoiceField = (f: ContactField) => `customer_${f}` as const;
/** The invoice columns of those fields: customer_first_name, … */
export const CONTACT_COLUMNS = CUSTOMER_FIELDS.map(invoiceField);

const EXAMPLE: Record<string, string> = { customer_first_name: 'Ada', customer_last_name: 'Lovelace', customer_email: 'ada@example.com' };
const contact = Object.fromEntries(CONTACT_COLUMNS.map((f) => [f, NStr({ examples: [EXAMPLE[f] ?? null] })])) as
  Record<(typeof CONTACT_COLUMNS)[number], ReturnType<typeof NStr>>;

export const InvoiceSchema = Type.Object({
  class: Str({ examples: ['invoice'] }),
  id: Str({ examples: ['inv_5e6f7a8b'] }),
  status: Str({ description: 'unpaid, partially_paid, paid or deleted.', examples: ['unpaid'] }),
  customer_id: NStr(),
  ...contact,
  items: Type.Array(Type.Object({
    description: Str({ examples: ['Consulting'] }), quantity: Int({ examples: [2] }), unit_amount: Int({ examples: [5000] }), amount: Int({ examples: [10000] }),
  })),
  amount: Int({ examples: [10000] }),
  amount_paid: Int({ examples: [0] }),
  balance: Int({ examples: [10000] }),
  payments: Type.Array(Type.Object({ id: Str(), amount: Int(), created_at: Timestamp() })),
  due_date: NStr({ examples: ['2026-02-01'] }),
  memo: NStr(),
  metadata: Metadata(),
  delivery: Type.Unsafe<{ email_address: string | null; status: string; attempts: number; queued_at: Date | string | null; sent_at: Date | string | null; last_error: string | null } | null>({
    type: ['object', 'null'],
    description: 'The email of the invoice, once queued.',
    properties: {
      email_address: { type: 'string' }, status: { type: 'string' }, attempts: { type: 'integer' },
      queued_at: { type: 'string', format: 'date-time' }, sent_at: { type: ['string', 'null'], format: 'date-time' }, last_error: { type: ['string', 'null'] },
    },
    required: ['email_address', 'status', 'attempts', 'queued_at', 'sent_at', 'last_error'],
    examples: [null],
  }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  paid_at: NullableTime({ examples: [null] }),
  deleted_at: NullableTime({ examples: [null] }),
});
export type InvoiceOut = Static<typeof InvoiceSchema>;

/** The invoice as the API shows it (docs/decisions/invoices.md): amounts in cents, balance derived. */
export function presentInvoice(r: InvoiceRow): InvoiceOut {
  return {
    class: 'invoice',
    id: r.id,
    status: r.status,
    customer_id: r.customer_id,
    ...(Object.fromEntries(CONTACT_COLUMNS.map((c) => [c, r[c]])) as Record<(typeof CONTACT_COLUMNS)[number], string | null>),
    items: r.items,
    amount: r.amount,
    amount_paid: r.amount_paid,
    balance: r.amount - r.amount_paid,
    payments: r.payments,
    due_date: r.due_date,
    memo: r.memo,
    metadata: r.metadata ?? {},
    delivery: r.outbox_id === null ? null : {
      email_address: r.delivery_to,
      status: r.delivery_status ?? 'pending',
      attempts: r.delivery_attempts ?? 0,
      queued_at: r.delivered_at,
      sent_at: r.delivery_sent_at,
      last_error: r.delivery_last_error,
    },
    created_at: r.created_at,
    updated_at: r.updated_at,
    paid_at: r.paid_at,
    deleted_at: r.deleted_at,
  };
}


const item = Type.Object({
  description: Str(), quantity: Type.Union([Int(), Str()]), unit_amount: Type.Union([Int(), Str()], { description: 'Cents.' }),
});
export const InvoiceBody = loose({
  customer_id: Str({ description: 'Fills the customer_* fields from the customer.' }),
  ...Object.fromEntries(CONTACT_COLUMNS.map((f) => [f, Str()])),
  items: Type.Union([Type.Array(item), Str()], { description: 'Line items (at most 100), or the same JSON-encoded.' }),
  amount: Type.Union([Int(), Str()], { description: 'Cents, when there are no items.' }),
  description: Str({ description: 'The one line of an invoice given by amount.' }),
  due_date: Str({ description: 'YYYY-MM-DD.' }),
  memo: Str(),
  metadata: Type.Union([Metadata(), Str()], { description: 'Up to 8 KiB of your own keys, as an object or a JSON-encoded string.' }),
}, { examples: [{ customer_email: 'ada@example.com', items: [{ description: 'Consulting', quantity: 2, unit_amount: 5000 }] }] });
export const MarkPaidBody = loose({ amount: Type.Union([Int(), Str()], { description: 'Cents paid (default: the balance).' }) }, { examples: [{ amount: 5000 }] });
export const InvoicesQuery = loose({ ...pageQuery, status: Str({ description: 'Only invoices in this status.' }) });
