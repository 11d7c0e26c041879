import { Queryable } from '../db/index.js';
import type { Scope } from './keys.js';

export interface MerchantSettings {
  cvv_check: boolean;
  zip_check: boolean;
  /** Receipts for charges that do not say (send_receipt); see domain/receipts.ts. */
  default_receipts: boolean;
  default_receipt_template_id: string | null;
}

const DEFAULTS: MerchantSettings = { cvv_check: false, zip_check: false, default_receipts: false, default_receipt_template_id: null };

const COLUMNS = Object.keys(DEFAULTS) as (keyof MerchantSettings)[];
const SELECT_SETTINGS = `SELECT ${COLUMNS.join(', ')} FROM merchant_settings WHERE merchant_id = $1 AND env = $2`;

/**
 * The settings read beside something else in one statement (a charge's first read,
 * domain/charge-read.ts): `FROM (SELECT 1) one LEFT JOIN merchant_settings s ON s.merchant_id = .. AND s.env = ..`.
 * Prefixed `s_`: a customer row has its own default_receipts.
 */
export const SETTINGS_JOINED = ['merchant_id', ...COLUMNS].map((c) => `s.${c} AS s_${c}`).join(', ');

/** The settings of a row read with SETTINGS_JOINED: the defaults when the merchant saved none. */
export function joinedSettings(row: Record<string, any>): MerchantSettings {
  const settings: Record<string, unknown> = { ...DEFAULTS };
  if (row.s_merchant_id !== null) for (const c of COLUMNS) settings[c] = row[`s_${c}`];
  return settings as unknown as MerchantSettings;
}

export async function getSettings(q: Queryable, scope: Scope): Promise<MerchantSettings> {
  const [row] = await q.query<MerchantSettings & Record<string, any>>(SELECT_SETTINGS, [scope.merchantId, scope.env]);
  return row ?? { ...DEFAULTS };
}

export async function updateSettings(q: Queryable, scope: Scope, patch: Partial<MerchantSettings>): Promise<MerchantSettings> {
  const current = await getSettings(q, scope);
  const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
  await q.query(
    `INSERT INTO merchant_settings (merchant_id, env, cvv_check, zip_check, default_receipts, default_receipt_template_id)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (merchant_id, env) DO UPDATE SET cvv_check = $3, zip_check = $4, default_receipts = $5,
       default_receipt_template_id = $6`,
    [scope.merchantId, scope.env, next.cvv_check, next.zip_check, next.default_receipts, next.default_receipt_template_id],
  );
  return next;
}
