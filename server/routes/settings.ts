import type { FastifyInstance } from 'fastify';
import { changeSettings, getSettings } from '../domain/merchant/settings.js';
import { forgetAllowedOrigins } from '../domain/merchant/allowed-origins.js';
import { E } from '../errors.js';
import { SettingsFields, SettingsSchema, presentSettings } from '../schemas/settings.js';

/**
 * The merchant's switches for the key's environment: verification (spec 4.1: cvv / zip required
 * when enabled), receipt defaults (default_receipts, default_receipt_template_id), and the origins of
 * the merchant's checkout pages (allowed_origins: hosted fields' frame-ancestors, card-testing counts).
 */
export default async function settingsRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get('/settings', { schema: { summary: 'Retrieve the settings of the key’s environment', response: { 200: SettingsSchema } } }, async (req) =>
    presentSettings(req.identity.env, await getSettings(db, req.identity)),
  );

  app.post('/settings', { config: { errors: [E.TEMPLATE_NOT_FOUND] }, schema: { summary: 'Change settings: verification, receipt defaults, allowed origins', body: SettingsFields, response: { 200: SettingsSchema } } }, async (req) => {
    const saved = await changeSettings(db, req.identity, SettingsFields.from(req));
    forgetAllowedOrigins(req.identity);
    return presentSettings(req.identity.env, saved);
  });
}
