import { Queryable } from '../../db/index.js';
import type { Scope } from './keys.js';
import { invalid } from '../../errors.js';
import { storedOf, take } from '../../schemas/fields.js';
import {
  SETTINGS_COLUMNS, SettingsFields, SettingsRowSchema, defaultSettings, type MerchantSettings, type SettingsInput,
} from '../../schemas/settings.js';
import { namedTemplateId } from './templates.js';

/** A merchant environment's settings (schemas/settings.ts SettingsRowSchema: the row without its key). */
export type { MerchantSettings };

/** The setting columns: the row's but its key (merchant_id, env). */
const COLUMNS = SETTINGS_COLUMNS.filter((c): c is keyof MerchantSettings => c !== 'merchant_id' && c !== 'env');
const SELECT_SETTINGS = `SELECT ${COLUMNS.join(', ')} FROM merchant_settings WHERE merchant_id = $1 AND env = $2`;
/** A list column (text[]) is sent as JSON and made an array in SQL: a driver's own array parameters differ (pg, PGlite). */
const isList = (c: keyof MerchantSettings) => SettingsRowSchema.properties[c].type === 'array';

/**
 * The settings read beside something else in one statement (a charge's first read,
 * domain/payments/charge-read.ts): `FROM (SELECT 1) one LEFT JOIN merchant_settings s ON s.merchant_id = .. AND s.env = ..`.
 * Prefixed `s_`: a customer row has its own default_receipts.
 */
export const SETTINGS_JOINED = ['merchant_id', ...COLUMNS].map((c) => `s.${c} AS s_${c}`).join(', ');

/**
 * The settings of a row read with SETTINGS_JOINED (whatever else the statement read beside them:
 * its `s_` columns are read by name): the defaults when the merchant saved none.
 */
export function joinedSettings(row: object): MerchantSettings {
  const joined = row as Record<`s_${string}`, unknown>;
  const settings: Record<string, unknown> = defaultSettings();
  if (joined.s_merchant_id !== null) for (const c of COLUMNS) settings[c] = joined[`s_${c}`];
  return settings as MerchantSettings;
}

export async function getSettings(q: Queryable, scope: Scope): Promise<MerchantSettings> {
  const [row] = await q.query<MerchantSettings>(SELECT_SETTINGS, [scope.merchantId, scope.env]);
  return row ?? defaultSettings();
}

export async function updateSettings(q: Queryable, scope: Scope, patch: Partial<MerchantSettings>): Promise<MerchantSettings> {
  const current = await getSettings(q, scope);
  const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as MerchantSettings;
  const values = COLUMNS.map((c, i) => (isList(c)
    ? `(SELECT coalesce(array_agg(o.value ORDER BY o.n), '{}') FROM jsonb_array_elements_text($${i + 3}::jsonb) WITH ORDINALITY o(value, n))`
    : `$${i + 3}`));
  await q.query(
    `INSERT INTO merchant_settings (merchant_id, env, ${COLUMNS.join(', ')})
     VALUES ($1, $2, ${values.join(', ')})
     ON CONFLICT (merchant_id, env) DO UPDATE SET ${COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}`,
    [scope.merchantId, scope.env, ...COLUMNS.map((c) => (isList(c) ? JSON.stringify(next[c]) : next[c]))],
  );
  return next;
}

/**
 * POST /settings (SettingsFields): the switches (its `stored` fields, as read), the default template (a template of this merchant
 * and environment, 10300, or null to clear), then allowed_origins, in that order.
 */
export async function changeSettings(q: Queryable, scope: Scope, input: SettingsInput): Promise<MerchantSettings> {
  const patch: Partial<MerchantSettings> = storedOf(SettingsFields, input);
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
