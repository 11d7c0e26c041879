import type { FastifyInstance } from 'fastify';
import { getSettings, updateSettings } from '../domain/settings.js';
import { parseBool } from '../domain/validate.js';
import { GatewayError } from '../errors.js';

const settingsSchema = {
  type: 'object',
  properties: { class: { type: 'string' }, env: { type: 'string' }, cvv_check: { type: 'boolean' }, zip_check: { type: 'boolean' } },
};

/** The merchant's verification switches for the key's environment (spec 4.1: cvv / zip required when enabled). */
export default async function settingsRoutes(app: FastifyInstance) {
  const { db } = app.services;
  const present = (env: string, s: object) => ({ class: 'settings', env, ...s });

  app.get('/settings', { schema: { response: { 200: settingsSchema } } }, async (req) =>
    present(req.identity.env, await getSettings(db, req.identity)),
  );

  app.post('/settings', { schema: { body: { type: 'object' }, response: { 200: settingsSchema } } }, async (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const patch = { cvv_check: parseBool(body.cvv_check), zip_check: parseBool(body.zip_check) };
    if (patch.cvv_check === null || patch.zip_check === null) throw new GatewayError('REQ01', 'cvv_check and zip_check must be true or false');
    return present(req.identity.env, await updateSettings(db, req.identity, patch as { cvv_check?: boolean; zip_check?: boolean }));
  });
}
