// Receipt templates (spec 2.6): tags in square brackets, `<br>` for line breaks. A template is
// text, not HTML: the HTML part escapes everything (the template's own words and the substituted
// values alike) and turns only `<br>` and newlines into line breaks, so both parts say the same
// thing and no value, nor a template, can put markup into a mail sent in the merchant's name.
import { receiptTime } from '../../schemas/receipts.js';

/** What a receipt can say about its transaction; missing data renders as a blank. */
export interface ReceiptData {
  id: string;
  description?: string | null;
  amount: number;
  card_number?: string | null;
  customer_id?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  company?: string | null;
  card_owner_name?: string | null;
  account_holder_name?: string | null;
  metadata?: Record<string, unknown> | null;
  created_at: Date | string;
  merchant_name?: string | null;
}

export interface TemplateSource {
  subject: string | null;
  receipt_text: string;
}

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

/** Used when neither the request, the customer nor the merchant names a template. */
export const DEFAULT_TEMPLATE: TemplateSource = {
  subject: 'Your receipt from [MerchantName]',
  receipt_text: 'Thank you for your payment to [MerchantName].<br><br>Amount: [Amount]<br>Paid with: [PaymentInfo]'
    + '<br>Description: [Description]<br>Transaction: [TransactionID]<br>Date: [CreatedAt]',
};

/** SMS receipts without a template: short enough for one or two messages. */
export const DEFAULT_SMS_TEMPLATE: TemplateSource = {
  subject: null,
  receipt_text: '[MerchantName]: payment of [Amount] received ([PaymentInfo]). Transaction [TransactionID].',
};

/** Receipt timestamps (spec 2.1): the wire format, defined beside the receipt's schema. */
export { receiptTime };

/** Cents as dollars: 123456 -> $1,234.56. Integer arithmetic, no float rounding. */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}

const clean = (v: unknown): string => (v === null || v === undefined ? '' : String(v).trim());
const join = (...parts: unknown[]) => parts.map(clean).filter(Boolean).join(' ');

function metadataValue(meta: Record<string, unknown> | null | undefined, field: string): string {
  if (!meta || !Object.prototype.hasOwnProperty.call(meta, field)) return '';
  const v = meta[field];
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The value of every tag of spec 2.6 for one transaction. */
export function tagValues(d: ReceiptData): Record<string, string> {
  const cardholder = clean(d.card_owner_name) || clean(d.account_holder_name);
  const fullName = join(d.first_name, d.last_name);
  const masked = clean(d.card_number);
  return {
    Description: clean(d.description),
    TransactionID: d.id,
    Amount: dollars(d.amount),
    PaymentInfo: masked,
    CustomerID: clean(d.customer_id),
    Last4: masked.replace(/\D/g, '').slice(-4),
    CustomerFirstName: clean(d.first_name),
    CustomerLastName: clean(d.last_name),
    CustomerFullName: fullName,
    CompanyName: clean(d.company),
    CustomerName: clean(d.company) || fullName || cardholder,
    MerchantName: clean(d.merchant_name),
    CardOwnerName: cardholder,
    CreatedAt: receiptTime(d.created_at),
  };
}

// [Name] for the fixed tags, [Metadata/<field>] with any field name without `]`. Unknown bracketed
// words stay as written: "[Note]" in a template is text, not a tag.
const TAG = /\[(Description|TransactionID|Amount|PaymentInfo|CustomerID|Last4|CustomerFirstName|CustomerLastName|CustomerFullName|CompanyName|CustomerName|MerchantName|CardOwnerName|CreatedAt)\]|\[Metadata\/([^\]]*)\]/g;
const BR = /<br\s*\/?>|\r\n|\n|\r/gi;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/**
 * Characters of substituted values one part of a receipt may carry, all tags together, counted as
 * they appear in that part (escaped, in the HTML). The template is bounded (MAX_TEMPLATE_TEXT) but
 * a tag is not: 1,800 `[Metadata/x]` tags of an 8 KB value made a 14 MB answer and 58 MB stored per
 * receipt. Past the budget a value is cut with "…".
 */
export const MAX_SUBSTITUTED = 32_768;

/** The first `n` characters of wrapped text, never inside an HTML entity or a surrogate pair, then "…". */
function cut(w: string, n: number): string {
  if (n <= 0) return '';
  let end = n;
  const amp = w.lastIndexOf('&', end - 1);
  if (amp >= 0 && w.indexOf(';', amp) >= end) end = amp; // `&quot;` is whole or not there
  if (end > 0 && /[\ud800-\udbff]/.test(w[end - 1])) end--;
  return `${w.slice(0, end)}…`;
}

/** Substitutes tags in one line; `wrap` is applied to literal text and values alike. */
function substitute(
  line: string, values: Record<string, string>, d: ReceiptData, wrap: (s: string) => string, budget: { left: number },
): string {
  let out = '';
  let at = 0;
  for (const m of line.matchAll(TAG)) {
    out += wrap(line.slice(at, m.index));
    const v = wrap(m[1] !== undefined ? values[m[1]] : metadataValue(d.metadata, m[2]));
    out += v.length <= budget.left ? v : cut(v, budget.left);
    budget.left = Math.max(0, budget.left - v.length);
    at = m.index! + m[0].length;
  }
  return out + wrap(line.slice(at));
}

/**
 * Renders a template into a subject, a plain-text body and an HTML body. The text is split at
 * `<br>` before tags are substituted, so a value that contains "<br>" is never a line break.
 */
export function renderTemplate(tpl: TemplateSource, d: ReceiptData): Rendered {
  const values = tagValues(d);
  const lines = tpl.receipt_text.split(BR);
  // Each part has its own budget, shared by its lines.
  const forText = { left: MAX_SUBSTITUTED };
  const text = lines.map((l) => substitute(l, values, d, (s) => s, forText)).join('\n');
  const forHtml = { left: MAX_SUBSTITUTED };
  const body = lines.map((l) => substitute(l, values, d, escapeHtml, forHtml)).join('<br>\n');
  const forSubject = { left: MAX_SUBSTITUTED };
  const subject = (tpl.subject ?? '').split(BR).map((l) => substitute(l, values, d, (s) => s, forSubject)).join(' ')
    .replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 255);
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;line-height:1.5;color:#222">
<p>${body}</p>
</body></html>
`;
  return { subject, text, html };
}
