import type { Queryable } from '../../db/index.js';
import { E, GatewayError } from '../../errors.js';
import { Env, ExpireOld, KeyListing, KeySet, createKeySet, createMerchant, listKeys } from './keys.js';

/**
 * What `tessera keys create|list` do, for both of its paths: straight on the database (PostgreSQL,
 * or an embedded data directory no gateway holds) and through a running embedded gateway's admin
 * route (server/routes/admin.ts). An unknown merchant is MERCHANT01, never an empty answer.
 */
export interface NewKeySetInput {
  /** An existing merchant; absent creates a merchant named `name`. */
  merchantId?: string;
  name?: string;
  env: Env;
  expireOld: ExpireOld;
}

async function merchantExists(q: Queryable, merchantId: string): Promise<boolean> {
  const [m] = await q.query('SELECT 1 AS one FROM merchants WHERE id = $1', [merchantId]);
  return !!m;
}

/** A new key set, for a new merchant when none is named. Run it in a transaction. */
export async function newKeySet(q: Queryable, input: NewKeySetInput, now: Date): Promise<{ merchantId: string; set: KeySet }> {
  let merchantId = input.merchantId;
  if (merchantId === undefined) {
    merchantId = await createMerchant(q, input.name ?? 'Merchant', now);
  } else if (!(await merchantExists(q, merchantId))) {
    throw new GatewayError(E.MERCHANT_NOT_FOUND, `merchant ${merchantId} not found`);
  }
  return { merchantId, set: await createKeySet(q, { merchantId, env: input.env }, now, input.expireOld) };
}

/** A merchant's key sets, redacted, newest first. */
export async function merchantKeys(q: Queryable, merchantId: string): Promise<KeyListing[]> {
  if (!(await merchantExists(q, merchantId))) throw new GatewayError(E.MERCHANT_NOT_FOUND, `merchant ${merchantId} not found`);
  return listKeys(q, merchantId);
}
