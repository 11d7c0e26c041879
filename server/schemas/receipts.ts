// Receipts and receipt templates (spec 2.6, 4.4). Their presenters stay in the domain beside
// receiptTime (the spec's `+00:00` timestamps, shared with the rendered text); they return these types.
import { Int, NullableStr as NStr, Str, Type, loose, type Static } from './common.js';

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

export const TemplateBody = loose({
  name: Str({ description: 'Blank clears it.' }),
  subject: Str({ description: 'Blank clears it.' }),
  receipt_text: Str({ description: 'Required on create (10302); the text with its {{placeholders}}.' }),
}, { examples: [{ name: 'Default', subject: 'Your receipt', receipt_text: 'Thank you, {{first_name}}: {{amount}} paid.' }] });
