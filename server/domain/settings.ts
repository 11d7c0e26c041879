import { Queryable } from '../db/index.js';
import type { Scope } from './keys.js';

export interface MerchantSettings {
  cvv_check: boolean;
  zip_check: boolean;
}

export async function getSettings(q: Queryable, scope: Scope): Promise<MerchantSettings> {
  const [row] = await q.query<MerchantSettings & Record<string, any>>(
    'SELECT cvv_check, zip_check FROM merchant_settings WHERE merchant_id = $1 AND env = $2',
    [scope.merchantId, scope.env],
  );
  return row ?? { cvv_check: false, zip_check: false };
}

export async function updateSettings(q: Queryable, scope: Scope, patch: Partial<MerchantSettings>): Promise<MerchantSettings> {
  const current = await getSettings(q, scope);
  const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
  await q.query(
    `INSERT INTO merchant_settings (merchant_id, env, cvv_check, zip_check) VALUES ($1, $2, $3, $4)
     ON CONFLICT (merchant_id, env) DO UPDATE SET cvv_check = $3, zip_check = $4`,
    [scope.merchantId, scope.env, next.cvv_check, next.zip_check],
  );
  return next;
}
