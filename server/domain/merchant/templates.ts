import { pagedQuery, Queryable } from '../../db/index.js';
import { E, GatewayError } from '../../errors.js';
import type { Scope } from './keys.js';
import { isScalar, type Page } from '../../lib/validate.js';
import { TEMPLATE_COLUMNS, TemplateUpdateFields, type Template, type TemplateInput, type TemplateRow } from '../../schemas/receipts.js';
import { storedOf } from '../../schemas/fields.js';

// Receipt templates (spec 2.6, 4.4): integer ids, scoped to merchant and environment.

/** A template's row (schemas/receipts.ts TemplateRowSchema), and the template as read with its merchant's number. */
export type { Template, TemplateRow };

const SELECT = `SELECT ${TEMPLATE_COLUMNS.map((c) => `t.${c}`).join(', ')}, m.number AS merchant_number
                  FROM receipt_templates t JOIN merchants m ON m.id = t.merchant_id`;

/** The fields a template request sets (its table's `stored` fields), absent ones left out. */
const given = (input: TemplateInput) => Object.entries(storedOf(TemplateUpdateFields, input)).filter(([, v]) => v !== undefined);

/** A template id from a path or body: digits only; anything else can name no template. */
export function parseTemplateId(raw: unknown): number | null {
  const s = isScalar(raw) ? String(raw).trim() : '';
  return /^\d{1,15}$/.test(s) ? Number(s) : null;
}

export async function findTemplate(q: Queryable, scope: Scope, rawId: unknown): Promise<Template | null> {
  const id = parseTemplateId(rawId);
  if (id === null) return null;
  const [row] = await q.query<Template>(`${SELECT} WHERE t.id = $1 AND t.merchant_id = $2 AND t.env = $3`,
    [id, scope.merchantId, scope.env]);
  return row ?? null;
}

/** GET /receipts/templates/:id: 10300 when the merchant has no such template in this environment. */
export async function getTemplate(q: Queryable, scope: Scope, rawId: unknown): Promise<Template> {
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

/** POST /receipts/templates (TemplateFields). */
export async function createTemplate(q: Queryable, scope: Scope, input: TemplateInput, now: Date): Promise<Template> {
  const f = given(input);
  const [{ id }] = await q.query<{ id: number }>(
    `INSERT INTO receipt_templates (merchant_id, env, ${f.map(([c]) => `${c}, `).join('')}created_at, updated_at)
     VALUES ($1, $2, ${f.map((_, i) => `$${i + 4}, `).join('')}$3, $3) RETURNING id`,
    [scope.merchantId, scope.env, now, ...f.map(([, v]) => v)],
  );
  return getTemplate(q, scope, id);
}

/**
 * POST /receipts/templates/:id: the template found first (10300, getTemplate), then its fields read
 * (TemplateUpdateFields); absent fields are left alone.
 */
export async function updateTemplate(q: Queryable, scope: Scope, current: Template, input: TemplateInput, now: Date): Promise<Template> {
  const f = Object.fromEntries(given(input));
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
  return pagedQuery<Template>(q, page, `${SELECT} WHERE t.merchant_id = $1 AND t.env = $2 ORDER BY t.id DESC`,
    'receipt_templates WHERE merchant_id = $1 AND env = $2', [scope.merchantId, scope.env]);
}
