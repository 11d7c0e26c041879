// A scheduled transaction (spec 2.7, 4.3): a charge billed on a given day.
import { Bool, NullableStr as NStr, Str, Timestamp, Type, loose, type Static } from './common.js';

// The stored shape (rows as the domain reads them); the presenter below turns it into the answer.
export type ScheduledStatus = 'scheduled' | 'billed' | 'failed' | 'cancelled';

export interface ScheduledRow {
  id: string;
  seq: number;
  merchant_id: string;
  env: 'test' | 'live';
  customer_id: string;
  method_id: string | null;
  status: ScheduledStatus;
  /** bill_on as 'YYYY-MM-DD' (selected as text: pg and PGlite parse `date` into different Dates). */
  bill_on_text: string;
  amount: number;
  transaction_id: string | null;
  token: string | null;
  new_record: boolean;
  send_receipt: boolean | null;
  receipt_template_id: string | null;
  email_address: string | null;
  charge_bank_account: boolean | null;
  description: string | null;
  metadata: Record<string, unknown>;
  ip_address: string | null;
  company: string | null; website: string | null; address_1: string | null; address_2: string | null;
  city: string | null; state: string | null; zip: string | null; phone_number: string | null; fax_number: string | null;
  card_owner_name: string | null;
  bank_account_holder_first_name: string | null;
  bank_account_holder_last_name: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  updated_at: Date | null;
  billed_at: Date | null;
}


const NULLABLE = ['zip', 'city', 'state', 'company', 'website', 'address_1', 'address_2', 'fax_number', 'description',
  'phone_number', 'email_address', 'card_owner_name', 'receipt_template_id', 'bank_account_holder_first_name',
  'bank_account_holder_last_name', 'customer_id', 'method_id', 'error_code', 'error_message'] as const;

/** Spec 2.7, with its types: amount, send_receipt and metadata are strings, new_record a boolean. */
export const ScheduledSchema = Type.Object({
  class: Str({ examples: ['scheduledtransaction'] }),
  id: Str({ examples: ['sch_3c4d5e6f'] }),
  status: Str({ enum: ['scheduled', 'processing', 'billed', 'failed', 'cancelled'], description: 'processing: a live charge whose outcome is not recorded yet.', examples: ['scheduled'] }),
  bill_on: Str({ description: 'YYYY-MM-DD.', examples: ['2026-02-01'] }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  transaction_id: Str({ description: "'' before billing.", examples: [''] }),
  token: Str({ examples: [''] }),
  amount: Str({ description: 'Cents, as text (spec 2.7).', examples: ['1999'] }),
  send_receipt: Str({ examples: [''] }),
  metadata: Str({ description: 'JSON-encoded.', examples: ['{}'] }),
  ip_address: Str({ examples: ['203.0.113.7'] }),
  new_record: Bool(),
  ...(Object.fromEntries(NULLABLE.map((k) => [k, NStr()])) as Record<(typeof NULLABLE)[number], ReturnType<typeof NStr>>),
  charge_bank_account: Type.Unsafe<boolean | null>({ type: ['boolean', 'null'] }),
});
export type ScheduledOut = Static<typeof ScheduledSchema>;

/** Spec 2.7 with its types: amount, send_receipt and metadata are strings; transaction_id is '' before billing. */
export function presentScheduled(r: ScheduledRow): ScheduledOut {
  return {
    class: 'scheduledtransaction',
    id: r.id,
    status: r.status,
    bill_on: r.bill_on_text,
    created_at: r.created_at,
    updated_at: r.updated_at ?? r.created_at,
    transaction_id: r.transaction_id ?? '',
    token: r.token ?? '',
    amount: String(r.amount),
    send_receipt: r.send_receipt === null ? '' : String(r.send_receipt),
    metadata: JSON.stringify(r.metadata ?? {}),
    ip_address: r.ip_address ?? '',
    new_record: r.new_record,
    zip: r.zip, city: r.city, state: r.state, company: r.company, website: r.website,
    address_1: r.address_1, address_2: r.address_2, fax_number: r.fax_number, description: r.description,
    phone_number: r.phone_number, email_address: r.email_address, card_owner_name: r.card_owner_name,
    charge_bank_account: r.charge_bank_account, receipt_template_id: r.receipt_template_id,
    bank_account_holder_first_name: r.bank_account_holder_first_name,
    bank_account_holder_last_name: r.bank_account_holder_last_name,
    customer_id: r.customer_id,
    method_id: r.method_id,
    error_code: r.error_code,
    error_message: r.error_message,
  };
}

export const ScheduledBody = loose({
  bill_on: Str({ description: 'The day to bill, YYYY-MM-DD (today or later).', examples: ['2026-02-01'] }),
  amount: Type.Union([Type.Integer(), Str()], { description: 'Cents.', examples: [1999] }),
  token: Str({ description: 'A one-time token, kept until the day.' }),
  customer_id: Str({ description: "Or bill a customer's stored method." }),
  method_id: Str(), charge_bank_account: Type.Union([Bool(), Str()]),
  csc: Str(), cvv: Str(), description: Str(),
  send_receipt: Type.Union([Bool(), Str()]), email_address: Str(), receipt_template_id: Str(),
  metadata: Type.Union([Type.Record(Str(), Type.Unknown()), Str()]),
}, { examples: [{ bill_on: '2026-02-01', amount: 1999, customer_id: 'cus_1a2b3c4d' }] });
