import { pagedQuery, Queryable } from '../../db/index.js';
import { E, GatewayError, invalid, MUST, tooLong } from '../../errors.js';
import type { Scope } from './keys.js';
import { isScalar, type Page, text } from '../../lib/validate.js';
import type { TemplateRow } from '../../schemas/receipts.js';

// Receipt templates (spec 2.6, 4.4): integer ids, scoped to merchant and environment.

export const MAX_TEMPLATE_TEXT = 20_000;
const MAX_LINE = 255;


type Body = Record<string, unknown>;

const SELECT = `SELECT t.id, m.number AS merchant_number, t.name, t.subject, t.receipt_text, t.created_at, t.updated_at
                  FROM receipt_templates t JOIN merchants m ON m.id = t.merchant_id`;

/** A template id from a path or body: digits only; anything else can name no template. */
export function parseTemplateId(raw: unknown): number | null {
  const s = isScalar(raw) ? String(raw).trim() : '';
  return /^\d{1,15}$/.test(s) ? Number(s) : null;
}

function scalarString(v: unknown, name: string): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v === 'object') throw invalid(name, MUST.STRING);
  return String(v);
}

/** receipt_text: required on create (10302), may not be blanked on update; name and subject: blank clears. */
function readFields(body: Body, create: boolean): Partial<Record<'name' | 'subject' | 'receipt_text', string | null>> {
  const out: Partial<Record<'name' | 'subject' | 'receipt_text', string | null>> = {};
  const receiptText = scalarString(body.receipt_text, 'receipt_text');
  if (receiptText !== undefined || create) {
    if (!receiptText || receiptText.trim() === '') throw new GatewayError(E.RECEIPT_FIELD_MISSING, 'receipt_text required for a template');
    if (receiptText.length > MAX_TEMPLATE_TEXT) {
      throw tooLong('receipt_text', MAX_TEMPLATE_TEXT);
    }
    out.receipt_text = receiptText;
  }
  for (const f of ['name', 'subject'] as const) {
    const v = scalarString(body[f], f);
    if (v === undefined) continue;
    const t = text(v);
    if (t !== null && t.length > MAX_LINE) throw tooLong(f, MAX_LINE);
    out[f] = t;
  }
  return out;
}

export async function findTemplate(q: Queryable, scope: Scope, rawId: unknown): Promise<TemplateRow | null> {
  const id = parseTemplateId(rawId);
  if (id === null) return null;
  const [row] = await q.query<TemplateRow>(`${SELECT} WHERE t.id = $1 AND t.merchant_id = $2 AND t.env = $3`,
    [id, scope.merchantId, scope.env]);
  return row ?? null;
}

/** GET /receipts/templates/:id: 10300 when the merchant has no such template in this environment. */
export async function getTemplate(q: Queryable, scope: Scope, rawId: unknown): Promise<TemplateRow> {
  const row = await findTemplate(q, scope, rawId);
  if (!row) throw new GatewayError(E.TEMPLATE_NOT_FOUND);
  return row;
}

/**
 * A template a record names as its default or its receipt's (a customer, a scheduled transaction):
 * it must exist in the merchant environment, as for a charge's or the settings' (10300), and is
 * kept by its canonical id. Null names none.
 */
export async function namedTemplateId(q: Queryable, scope: Scope, named: string | null): Promise<string | null> {
  return named === null ? null : String((await getTemplate(q, scope, named)).id);
}

export async function createTemplate(q: Queryable, scope: Scope, body: Body, now: Date): Promise<TemplateRow> {
  const f = readFields(body, true);
  const [{ id }] = await q.query<{ id: number }>(
    `INSERT INTO receipt_templates (merchant_id, env, name, subject, receipt_text, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
    [scope.merchantId, scope.env, f.name ?? null, f.subject ?? null, f.receipt_text, now],
  );
  return getTemplate(q, scope, id);
}

/** POST /receipts/templates/:id: absent fields are left alone. */
export async function updateTemplate(q: Queryable, scope: Scope, rawId: string, body: Body, now: Date): Promise<TemplateRow> {
  const current = await getTemplate(q, scope, rawId);
  const f = readFields(body, false);
  const cols = Object.keys(f);
  await q.query(
    `UPDATE receipt_templates SET ${[...cols, 'updated_at'].map((c, i) => `${c} = $${i + 4}`).join(', ')}
      WHERE id = $1 AND merchant_id = $2 AND env = $3`,
    [current.id, scope.merchantId, scope.env, ...Object.values(f), now],
  );
  return getTemplate(q, scope, current.id);
}

/**
 * DELETE /receipts/templates/:id. Receipts already sent keep the id they were made with; a
 * merchant default naming it is cleared, and a customer default naming it falls through to the
 * next default when a receipt is sent.
 */
export async function deleteTemplate(q: Queryable, scope: Scope, rawId: string): Promise<void> {
  const t = await getTemplate(q, scope, rawId);
  await q.query('DELETE FROM receipt_templates WHERE id = $1 AND merchant_id = $2 AND env = $3', [t.id, scope.merchantId, scope.env]);
  await q.query(
    `UPDATE merchant_settings SET default_receipt_template_id = NULL
      WHERE merchant_id = $1 AND env = $2 AND default_receipt_template_id = $3`,
    [scope.merchantId, scope.env, String(t.id)],
  );
}

export async function listTemplates(q: Queryable, scope: Scope, page: Page) {
  return pagedQuery<TemplateRow>(q, page, `${SELECT} WHERE t.merchant_id = $1 AND t.env = $2 ORDER BY t.id DESC`,
    'receipt_templates WHERE merchant_id = $1 AND env = $2', [scope.merchantId, scope.env]);
}
