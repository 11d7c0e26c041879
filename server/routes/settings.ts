import type { FastifyInstance } from 'fastify';
import { MerchantSettings, getSettings, updateSettings } from '../domain/settings.js';
import { getTemplate } from '../domain/templates.js';
import { readBool, text } from '../domain/validate.js';
import { GatewayError } from '../errors.js';

const settingsSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, env: { type: 'string' }, cvv_check: { type: 'boolean' }, zip_check: { type: 'boolean' },
    default_receipts: { type: 'boolean' }, default_receipt_template_id: { type: ['string', 'null'] },
  },
};

/**
 * The merchant's switches for the key's environment: verification (spec 4.1: cvv / zip required
 * when enabled) and receipt defaults (default_receipts, default_receipt_template_id).
 */
export default async function settingsRoutes(app: FastifyInstance) {
  const { db } = app.services;
  const present = (env: string, s: object) => ({ class: 'settings', env, ...s });

  app.get('/settings', { schema: { response: { 200: settingsSchema } } }, async (req) =>
    present(req.identity.env, await getSettings(db, req.identity)),
  );

  app.post('/settings', { schema: { body: { type: 'object' }, response: { 200: settingsSchema } } }, async (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const patch: Partial<Record<keyof MerchantSettings, boolean | string | null | undefined>> = {};
    for (const f of ['cvv_check', 'zip_check', 'default_receipts'] as const) {
      patch[f] = readBool(body[f], f);
    }
    if (body.default_receipt_template_id !== undefined) {
      // A template of this merchant and environment (10300), or empty/null to clear.
      const id = text(body.default_receipt_template_id, 'default_receipt_template_id');
      patch.default_receipt_template_id = id === null ? null : String((await getTemplate(db, req.identity, id)).id);
    }
    return present(req.identity.env, await updateSettings(db, req.identity, patch as Partial<MerchantSettings>));
  });
}
