import type { FastifyInstance } from 'fastify';
import { MerchantSettings, getSettings, readAllowedOrigins, updateSettings } from '../domain/merchant/settings.js';
import { namedTemplateId } from '../domain/merchant/templates.js';
import { forgetAllowedOrigins } from '../domain/merchant/allowed-origins.js';
import { readBool, text } from '../lib/validate.js';
import { E, GatewayError } from '../errors.js';
import { SettingsBody, SettingsSchema } from '../schemas/settings.js';

/**
 * The merchant's switches for the key's environment: verification (spec 4.1: cvv / zip required
 * when enabled), receipt defaults (default_receipts, default_receipt_template_id), and the origins of
 * the merchant's checkout pages (allowed_origins: hosted fields' frame-ancestors, card-testing counts).
 */
export default async function settingsRoutes(app: FastifyInstance) {
  const { db } = app.services;
  const present = (env: string, s: object) => ({ class: 'settings', env, ...s });

  app.get('/settings', { schema: { summary: 'Retrieve the settings of the key’s environment', response: { 200: SettingsSchema } } }, async (req) =>
    present(req.identity.env, await getSettings(db, req.identity)),
  );

  app.post('/settings', { config: { errors: [E.TEMPLATE_NOT_FOUND] }, schema: { summary: 'Change settings: verification, receipt defaults, allowed origins', body: SettingsBody, response: { 200: SettingsSchema } } }, async (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const patch: Partial<Record<keyof MerchantSettings, boolean | string | string[] | null | undefined>> = {};
    for (const f of ['cvv_check', 'zip_check', 'default_receipts'] as const) {
      patch[f] = readBool(body[f], f);
    }
    if (body.default_receipt_template_id !== undefined) {
      // A template of this merchant and environment (10300), or empty/null to clear.
      patch.default_receipt_template_id = await namedTemplateId(db, req.identity, text(body.default_receipt_template_id, 'default_receipt_template_id'));
    }
    patch.allowed_origins = readAllowedOrigins(body.allowed_origins, req.identity.env);
    const saved = await updateSettings(db, req.identity, patch as Partial<MerchantSettings>);
    forgetAllowedOrigins(req.identity);
    return present(req.identity.env, saved);
  });
}
