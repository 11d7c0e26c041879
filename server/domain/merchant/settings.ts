import { Queryable } from '../../db/index.js';
import type { Scope } from './keys.js';
import { invalid } from '../../errors.js';
import { take } from '../../schemas/fields.js';
import type { SettingsInput } from '../../schemas/settings.js';
import { namedTemplateId } from './templates.js';

export interface MerchantSettings {
  cvv_check: boolean;
  zip_check: boolean;
  /** Receipts for charges that do not say (send_receipt); see domain/documents/receipts.ts. */
  default_receipts: boolean;
  default_receipt_template_id: string | null;
  /** The origins of the merchant's checkout pages (POST /settings: changeSettings). */
  allowed_origins: string[];
}

const DEFAULTS: MerchantSettings = {
  cvv_check: false, zip_check: false, default_receipts: false, default_receipt_template_id: null, allowed_origins: [],
};

const COLUMNS = Object.keys(DEFAULTS) as (keyof MerchantSettings)[];
const SELECT_SETTINGS = `SELECT ${COLUMNS.join(', ')} FROM merchant_settings WHERE merchant_id = $1 AND env = $2`;

/**
 * The settings read beside something else in one statement (a charge's first read,
 * domain/payments/charge-read.ts): `FROM (SELECT 1) one LEFT JOIN merchant_settings s ON s.merchant_id = .. AND s.env = ..`.
 * Prefixed `s_`: a customer row has its own default_receipts.
 */
export const SETTINGS_JOINED = ['merchant_id', ...COLUMNS].map((c) => `s.${c} AS s_${c}`).join(', ');

/** The settings of a row read with SETTINGS_JOINED: the defaults when the merchant saved none. */
export function joinedSettings(row: Record<string, any>): MerchantSettings {
  const settings: Record<string, unknown> = { ...DEFAULTS, allowed_origins: [] };
  if (row.s_merchant_id !== null) for (const c of COLUMNS) settings[c] = row[`s_${c}`];
  return settings as unknown as MerchantSettings;
}

export async function getSettings(q: Queryable, scope: Scope): Promise<MerchantSettings> {
  const [row] = await q.query<MerchantSettings & Record<string, any>>(SELECT_SETTINGS, [scope.merchantId, scope.env]);
  return row ?? { ...DEFAULTS, allowed_origins: [] };
}

export async function updateSettings(q: Queryable, scope: Scope, patch: Partial<MerchantSettings>): Promise<MerchantSettings> {
  const current = await getSettings(q, scope);
  const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
  await q.query(
    `INSERT INTO merchant_settings (merchant_id, env, cvv_check, zip_check, default_receipts, default_receipt_template_id, allowed_origins)
     VALUES ($1, $2, $3, $4, $5, $6,
       (SELECT coalesce(array_agg(o.value ORDER BY o.n), '{}') FROM jsonb_array_elements_text($7::jsonb) WITH ORDINALITY o(value, n)))
     ON CONFLICT (merchant_id, env) DO UPDATE SET cvv_check = $3, zip_check = $4, default_receipts = $5,
       default_receipt_template_id = $6, allowed_origins = excluded.allowed_origins`,
    [scope.merchantId, scope.env, next.cvv_check, next.zip_check, next.default_receipts, next.default_receipt_template_id, JSON.stringify(next.allowed_origins)],
  );
  return next;
}

/**
 * POST /settings (SettingsFields): the switches, the default template (a template of this merchant
 * and environment, 10300, or null to clear), then allowed_origins, in that order.
 */
export async function changeSettings(q: Queryable, scope: Scope, input: SettingsInput): Promise<MerchantSettings> {
  const patch: Partial<MerchantSettings> = { cvv_check: input.cvv_check, zip_check: input.zip_check, default_receipts: input.default_receipts };
  if (input.default_receipt_template_id !== undefined) {
    patch.default_receipt_template_id = await namedTemplateId(q, scope, input.default_receipt_template_id);
  }
  patch.allowed_origins = readOrigins(take(input.allowed_origins), scope.env);
  return updateSettings(q, scope, patch);
}

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST = new RegExp(`^((${LABEL}\\.)*${LABEL}|\\[[0-9a-f:.]+\\])$`);
const LOOPBACK = /^((.+\.)?localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * The origins of allowed_origins (SettingsFields read the list; [] clears it). Each is an exact
 * origin as a browser sends it: `https://shop.example` or `https://shop.example:8443`, no path,
 * query, credentials or wildcard; `http` only for a loopback host in live mode (any host in test
 * mode, for QA machines). Written lower-case and without a default port, as browsers do, so it
 * compares equal to the Origin header.
 */
function readOrigins(items: unknown[] | undefined, env: Scope['env']): string[] | undefined {
  if (items === undefined) return undefined;
  const out: string[] = [];
  for (const item of items) {
    const origin = typeof item === 'string' ? normalOrigin(item, env) : null;
    if (!origin) {
      const shown = typeof item === 'string' ? JSON.stringify(item.slice(0, 100)) : `a ${Array.isArray(item) ? 'list' : typeof item}`;
      throw invalid('allowed_origins', `must hold origins such as https://shop.example (scheme://host[:port], ${
        env === 'live' ? 'https, or http for localhost' : 'http or https'}, no path); ${shown} is not one`);
    }
    if (!out.includes(origin)) out.push(origin);
  }
  return out;
}

function normalOrigin(s: string, env: Scope['env']): string | null {
  if (s.length > 200 || !/^https?:\/\/[^/?#@\\*\s]+\/?$/i.test(s)) return null;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return null;
  }
  // A DNS name (no trailing dot, no empty label, letters, digits and hyphens), or an IP address: the
  // URL parser keeps ; , ' " and the like in hosts, which would split the frame's CSP header.
  if (!HOST.test(url.hostname)) return null;
  if (url.protocol === 'http:' && env === 'live' && !LOOPBACK.test(url.hostname)) return null;
  return url.origin === 'null' ? null : url.origin;
}
