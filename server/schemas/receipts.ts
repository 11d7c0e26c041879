// Receipts and receipt templates (spec 2.6, 4.4): the stored shapes, the wire shapes and their
// presenters, and receiptTime, the spec's `+00:00` timestamps (the rendered text uses it too).
import { E, GatewayError, MUST, invalid, tooLong } from '../errors.js';
import { text as readText } from '../lib/validate.js';
import { At, Env, Int, NullableInt, NullableStr as NStr, Str, Type, type Static, type TUnsafe, columnsOf, shown, shownOf, shownPicker } from './common.js';
import { type Field, type Input, custom, fields, later, pageFields, text } from './fields.js';

/** Receipt timestamps (spec 2.1): ISO 8601 UTC with a `+00:00` offset, whole seconds. */
export function receiptTime(d: Date | string): string {
  return new Date(d).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

export type ReceiptType = 'email' | 'sms';

/**
 * receipts (004_receipts.sql): a receipt as rendered and recorded, its message queued in the outbox;
 * a column marked `shown` is in the answer as stored (timestamps are the spec's `+00:00` text).
 */
export const ReceiptRowSchema = Type.Object({
  id: shown(Int({ examples: [1] })),
  merchant_id: shown(Str()),
  env: Env(),
  transaction_id: shown(Str({ examples: ['f1a0b2c3d4e5f6a7'] })),
  receipt_type: shown(Str({ enum: ['email', 'sms'], examples: ['email'] }) as TUnsafe<ReceiptType>),
  email_address: shown(NStr({ examples: ['ada@example.com'] })),
  phone_number: shown(NStr({ examples: [null] })),
  /** null: the built-in default template. */
  receipt_template_id: shown(NStr()),
  subject: shown(NStr({ examples: ['Your receipt'] })),
  /** The rendered plain text. */
  receipt_text: shown(Str({ examples: ['Thank you for your payment of $19.99.'] })),
  outbox_id: NullableInt(),
  created_at: At(),
});
export type ReceiptRow = Static<typeof ReceiptRowSchema>;
export const RECEIPT_COLUMNS = columnsOf(ReceiptRowSchema);
/** A receipt as the domain reads it: the row and its outbox message's delivery state. */
export type Receipt = ReceiptRow & {
  delivery_status: string | null;
  attempts: number | null;
  sent_at: Date | null;
  last_error: string | null;
};

/** receipt_templates (004_receipts.sql). */
export const TemplateRowSchema = Type.Object({
  id: shown(Int({ examples: [1] })),
  merchant_id: Str(),
  env: Env(),
  name: shown(NStr({ examples: ['Default'] })),
  subject: shown(NStr({ examples: ['Your receipt'] })),
  receipt_text: shown(Str({ examples: ['Thank you, {{first_name}}: {{amount}} paid.'] })),
  created_at: At(),
  updated_at: At(),
});
export type TemplateRow = Static<typeof TemplateRowSchema>;
export const TEMPLATE_COLUMNS = columnsOf(TemplateRowSchema);
/** A template as the domain reads it, with its merchant's number (the spec's integer merchant_id). */
export type Template = TemplateRow & { merchant_number: number };

const time = Str({ description: 'ISO 8601 with `+00:00`.', examples: ['2026-01-15T12:00:00+00:00'] });

export const ReceiptSchema = Type.Object({
  class: Str({ examples: ['receipt'] }),
  ...shownOf(ReceiptRowSchema),
  created_at: time,
  delivery: Type.Object({
    status: Str({ examples: ['pending'] }), attempts: Int({ examples: [0] }), sent_at: NStr({ examples: [null] }), last_error: NStr(),
  }),
});
export type ReceiptOut = Static<typeof ReceiptSchema>;
const RECEIPT_PICK = shownPicker(ReceiptRowSchema, { class: 'receipt' });

/** Spec 2.6, `+00:00` timestamps; `delivery` (ours) tells whether the outbox has sent it yet. */
export function presentReceipt(r: Receipt): ReceiptOut {
  const out = RECEIPT_PICK(r) as ReceiptOut;
  out.created_at = receiptTime(r.created_at);
  out.delivery = {
    status: r.delivery_status ?? 'pending',
    attempts: r.attempts ?? 0,
    sent_at: r.sent_at ? receiptTime(r.sent_at) : null,
    last_error: r.last_error,
  };
  return out;
}

// ---------------------------------------------------------------------------------------------
// Requests. A receipt's fields are read `later` (schemas/fields.ts): the table reads them before
// the handler, but their faults are answered after the charge is found, where the domain takes them.

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
  ...shownOf(TemplateRowSchema),
  merchant_id: Int({ examples: [1] }),
  created_at: time,
  updated_at: time,
});
export type TemplateOut = Static<typeof TemplateSchema>;
const TEMPLATE_PICK = shownPicker(TemplateRowSchema, { class: 'receipt_template' });

/** Spec 2.6: integer id and merchant_id, `+00:00` timestamps like receipts. */
export function presentTemplate(t: Template): TemplateOut {
  const out = TEMPLATE_PICK(t) as TemplateOut;
  out.merchant_id = t.merchant_number;
  out.created_at = receiptTime(t.created_at);
  out.updated_at = receiptTime(t.updated_at);
  return out;
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
  }, { stored: true });

const missingText = () => new GatewayError(E.RECEIPT_FIELD_MISSING, 'receipt_text required for a template');

/**
 * Receipt templates, checked in the spec's order: receipt_text (10302 blank, REQ01 too long), then
 * name and subject; each is written as read into its column (`stored`, domain/merchant/templates.ts).
 */
const templateFields = (create: boolean) => ({
  receipt_text: custom('Required on create (10302), never blank; the text with its {{placeholders}}, at most 20000 characters.',
    { type: 'string', minLength: 1, maxLength: MAX_TEMPLATE_TEXT }, (v, name): string | undefined => {
      const s = scalarString(v, name);
      if (s === undefined && !create) return undefined;
      if (!s || s.trim() === '') throw missingText();
      if (s.length > MAX_TEMPLATE_TEXT) throw tooLong(name, MAX_TEMPLATE_TEXT);
      return s;
    }, { required: create, stored: true }),
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
