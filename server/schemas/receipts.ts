// Receipts and receipt templates (spec 2.6, 4.4): the stored shapes, the wire shapes and their
// presenters, and receiptTime, the spec's `+00:00` timestamps (the rendered text uses it too).
import { Int, NullableStr as NStr, Str, Type, loose, type Static } from './common.js';

/** Receipt timestamps (spec 2.1): ISO 8601 UTC with a `+00:00` offset, whole seconds. */
export function receiptTime(d: Date | string): string {
  return new Date(d).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

export type ReceiptType = 'email' | 'sms';

/** A receipt as the domain reads it: the row and its outbox message's delivery state. */
export interface ReceiptRow {
  id: number;
  merchant_id: string;
  transaction_id: string;
  receipt_type: ReceiptType;
  email_address: string | null;
  phone_number: string | null;
  receipt_template_id: string | null;
  subject: string | null;
  receipt_text: string;
  outbox_id: number | null;
  created_at: Date;
  delivery_status: string | null;
  attempts: number | null;
  sent_at: Date | null;
  last_error: string | null;
}

/** A template as the domain reads it, with its merchant's number (the spec's integer merchant_id). */
export interface TemplateRow {
  id: number;
  merchant_number: number;
  name: string | null;
  subject: string | null;
  receipt_text: string;
  created_at: Date;
  updated_at: Date;
}

const time = Str({ description: 'ISO 8601 with `+00:00`.', examples: ['2026-01-15T12:00:00+00:00'] });

export const ReceiptSchema = Type.Object({
  class: Str({ examples: ['receipt'] }),
  id: Int({ examples: [1] }),
  receipt_type: Str({ enum: ['email', 'sms'], examples: ['email'] }),
  created_at: time,
  merchant_id: Str(),
  transaction_id: Str({ examples: ['f1a0b2c3d4e5f6a7'] }),
  email_address: NStr({ examples: ['ada@example.com'] }),
  phone_number: NStr({ examples: [null] }),
  receipt_template_id: NStr(),
  subject: NStr({ examples: ['Your receipt'] }),
  receipt_text: Str({ examples: ['Thank you for your payment of $19.99.'] }),
  delivery: Type.Object({
    status: Str({ examples: ['pending'] }), attempts: Int({ examples: [0] }), sent_at: NStr({ examples: [null] }), last_error: NStr(),
  }),
});
export type ReceiptOut = Static<typeof ReceiptSchema>;

/** Spec 2.6, `+00:00` timestamps; `delivery` (ours) tells whether the outbox has sent it yet. */
export function presentReceipt(r: ReceiptRow): ReceiptOut {
  return {
    class: 'receipt',
    id: r.id,
    receipt_type: r.receipt_type,
    created_at: receiptTime(r.created_at),
    merchant_id: r.merchant_id,
    transaction_id: r.transaction_id,
    email_address: r.email_address,
    phone_number: r.phone_number,
    receipt_template_id: r.receipt_template_id,
    subject: r.subject,
    receipt_text: r.receipt_text,
    delivery: {
      status: r.delivery_status ?? 'pending',
      attempts: r.attempts ?? 0,
      sent_at: r.sent_at ? receiptTime(r.sent_at) : null,
      last_error: r.last_error,
    },
  };
}

export const ReceiptBody = loose({
  receipt_type: Str({ enum: ['email', 'sms'], description: 'email (default) or sms.' }),
  email_address: Str({ description: "Default: the charge's customer's email.", examples: ['ada@example.com'] }),
  phone_number: Str({ description: 'For an SMS receipt: 7 to 15 digits, optionally with a leading +.' }),
  receipt_template_id: Str({ description: 'The template to render.' }),
}, { examples: [{ email_address: 'ada@example.com' }] });

export const TemplateSchema = Type.Object({
  class: Str({ examples: ['receipt_template'] }),
  id: Int({ examples: [1] }),
  merchant_id: Int({ examples: [1] }),
  name: NStr({ examples: ['Default'] }),
  subject: NStr({ examples: ['Your receipt'] }),
  receipt_text: Str({ examples: ['Thank you, {{first_name}}: {{amount}} paid.'] }),
  created_at: time,
  updated_at: time,
});
export type TemplateOut = Static<typeof TemplateSchema>;

/** Spec 2.6: integer id and merchant_id, `+00:00` timestamps like receipts. */
export function presentTemplate(t: TemplateRow): TemplateOut {
  return {
    class: 'receipt_template',
    id: t.id,
    merchant_id: t.merchant_number,
    name: t.name,
    subject: t.subject,
    receipt_text: t.receipt_text,
    created_at: receiptTime(t.created_at),
    updated_at: receiptTime(t.updated_at),
  };
}

export const TemplateBody = loose({
  name: Str({ description: 'Blank clears it.' }),
  subject: Str({ description: 'Blank clears it.' }),
  receipt_text: Str({ description: 'Required on create (10302); the text with its {{placeholders}}.' }),
}, { examples: [{ name: 'Default', subject: 'Your receipt', receipt_text: 'Thank you, {{first_name}}: {{amount}} paid.' }] });
