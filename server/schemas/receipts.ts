// Receipts and receipt templates (spec 2.6, 4.4): the stored shapes, the wire shapes and their
// presenters, and receiptTime, the spec's `+00:00` timestamps (the rendered text uses it too).
import { E, GatewayError, MUST, invalid, tooLong } from '../errors.js';
import { text as readText } from '../lib/validate.js';
import { Int, NullableStr as NStr, Str, Type, type Static } from './common.js';
import { type Field, type Input, custom, fields, later, pageFields, text } from './fields.js';

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

// ---------------------------------------------------------------------------------------------
// Fields whose refusal waits (the same kind as schemas/plans.ts `later`, for the integrator to
// hoist into fields.ts): the table reads them before the handler, but the request's faults are
// answered after the record is found, so a field keeps what it read or why it refused it, and the
// domain takes it (`take`) where the spec checks it.


/**
 * POST /charge/:id/receipt: each field is taken after the charge is found (69404), in the order of
 * its codes (domain/documents/receipts.ts): receipt_type, then phone_number (sms) or email_address,
 * then receipt_template_id.
 */
export const ReceiptFields = fields({
  receipt_type: later(text('email (default) or sms.', { doc: { enum: ['email', 'sms'] } })),
  email_address: later(text("Default: the charge's customer's email.", { doc: { format: 'email' }, example: 'ada@example.com' })),
  phone_number: later(text('For an SMS receipt: 7 to 15 digits, optionally with a leading +.')),
  receipt_template_id: later(text('The template to render.')),
}, { examples: [{ email_address: 'ada@example.com' }] });
export type ReceiptInput = Input<typeof ReceiptFields>;

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

export const MAX_TEMPLATE_TEXT = 20_000;
const MAX_LINE = 255;

/** A template's text as sent: undefined when absent (left alone), null when null; a string, number or boolean as its text; an object REQ01. */
function scalarString(v: unknown, name: string): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v === 'object') throw invalid(name, MUST.STRING);
  return String(v);
}

/** name, subject: trimmed, at most 255 characters; blank (or null) clears, absent leaves alone. */
const line = (description: string): Field<string | null | undefined> =>
  custom(description, { type: 'string', maxLength: MAX_LINE }, (v, name) => {
    const s = scalarString(v, name);
    if (s === undefined) return undefined;
    const t = readText(s);
    if (t !== null && t.length > MAX_LINE) throw tooLong(name, MAX_LINE);
    return t;
  });

const missingText = () => new GatewayError(E.RECEIPT_FIELD_MISSING, 'receipt_text required for a template');

/** Receipt templates, checked in the spec's order: receipt_text (10302 blank, REQ01 too long), then name and subject. */
const templateFields = (create: boolean) => ({
  receipt_text: custom('Required on create (10302), never blank; the text with its {{placeholders}}, at most 20000 characters.',
    { type: 'string', minLength: 1, maxLength: MAX_TEMPLATE_TEXT }, (v, name): string | undefined => {
      const s = scalarString(v, name);
      if (s === undefined && !create) return undefined;
      if (!s || s.trim() === '') throw missingText();
      if (s.length > MAX_TEMPLATE_TEXT) throw tooLong(name, MAX_TEMPLATE_TEXT);
      return s;
    }, { required: create }),
  name: line('Blank clears it.'),
  subject: line('Blank clears it.'),
});
const templateExamples = { examples: [{ name: 'Default', subject: 'Your receipt', receipt_text: 'Thank you, {{first_name}}: {{amount}} paid.' }] };
/** POST /receipts/templates. */
export const TemplateFields = fields(templateFields(true), templateExamples);
/** POST /receipts/templates/:id, read once the template is found (10300 first): absent fields are left alone. */
export const TemplateUpdateFields = fields(templateFields(false), templateExamples);
export type TemplateInput = Input<typeof TemplateUpdateFields>;

/** GET /receipts/templates. */
export const TemplatesQuery = fields(pageFields());
