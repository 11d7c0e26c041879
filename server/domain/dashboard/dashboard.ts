// What the merchant dashboard needs beyond the public API: the merchant's key sets (redacted),
// new key sets, the test public key for the sample checkout, the test-card table, and who each
// listed charge was for. No Fastify here; the routes are server/routes/dashboard.ts.
import { Queryable } from '../../db/index.js';
import { E, GatewayError } from '../../errors.js';
import { TEST_BANK, TEST_CARDS } from '../../processor/test-cards.js';
import { Env, KeyIdentity, KeySet, Scope, createKeySet, listKeys } from '../merchant/keys.js';

export type KeySetStatus = 'active' | 'expiring' | 'expired';

/** One key set as the dashboard lists it: never a whole private key. */
export interface KeySetView {
  key_set_id: string;
  env: Env;
  public_key: string | null;
  private_key: string | null;
  created_at: Date;
  expires_at: Date | null;
  status: KeySetStatus;
  /** When the set's private key was first seen where only a public key belongs (a browser): roll the set. */
  private_key_exposed_at: Date | null;
}

export interface MerchantKeys {
  live_enabled: boolean;
  test: KeySetView[];
  live: KeySetView[];
}

/**
 * The merchant's key sets of both environments, newest first, each key redacted (prefix and last
 * four characters). Keys expire in real time (auth.ts), so `now` is the real time, not a test clock.
 */
export async function merchantKeys(q: Queryable, merchantId: string, now: Date): Promise<MerchantKeys> {
  const [m] = await q.query('SELECT live_enabled FROM merchants WHERE id = $1', [merchantId]);
  const sets = new Map<string, KeySetView>();
  for (const k of await listKeys(q, merchantId)) {
    let set = sets.get(k.key_set_id);
    if (!set) {
      const expires = k.expires_at ? new Date(k.expires_at) : null;
      const status: KeySetStatus = !expires ? 'active' : expires.getTime() <= now.getTime() ? 'expired' : 'expiring';
      set = { key_set_id: k.key_set_id, env: k.env, public_key: null, private_key: null, created_at: k.created_at, expires_at: expires, status, private_key_exposed_at: null };
      sets.set(k.key_set_id, set);
    }
    if (k.kind === 'pk') set.public_key = k.redacted;
    else {
      set.private_key = k.redacted;
      set.private_key_exposed_at = k.exposed_at ? new Date(k.exposed_at) : null;
    }
  }
  // Newest first; among sets made in the same instant, the one valid longest first.
  const validUntil = (s: KeySetView) => s.expires_at?.getTime() ?? Number.MAX_SAFE_INTEGER;
  const all = [...sets.values()].sort((a, b) =>
    new Date(b.created_at).getTime() - new Date(a.created_at).getTime() || validUntil(b) - validUntil(a));
  return { live_enabled: !!m?.live_enabled, test: all.filter((s) => s.env === 'test'), live: all.filter((s) => s.env === 'live') };
}

/**
 * A new key set from the dashboard. The signed-in private key decides what it may create:
 * - its own environment, always (that is rotation);
 * - test keys from a live key (every merchant has a test environment, and the live key is the
 *   better-guarded credential);
 * - never live keys from a test key: test keys are handed to QA and CI, and must not be a way
 *   to mint live credentials. Live keys first come from the operator (`tessera keys create
 *   --env live`), which is what activates a merchant (spec 5.4).
 * Older sets of that environment expire now or in one hour (spec 5.5). The private key exists in
 * clear only in the returned value.
 */
export async function generateKeySet(
  q: Queryable,
  who: KeyIdentity,
  env: Env,
  expireOld: 'now' | '1h',
  now: Date,
): Promise<KeySet & { created_at: Date; old_keys_expire_at: Date }> {
  if (who.env === 'test' && env === 'live') {
    throw new GatewayError(E.TEST_KEY_CANNOT_MAKE_LIVE);
  }
  const set = await createKeySet(q, { merchantId: who.merchantId, env }, now, expireOld);
  return { ...set, created_at: now, old_keys_expire_at: expireOld === 'now' ? now : new Date(now.getTime() + 3600_000) };
}

export interface MerchantOverview {
  merchant_id: string;
  name: string;
  env: Env;
  live_enabled: boolean;
  /** The newest usable test public key (public keys are not secret): the sample checkout tokenizes with it. */
  test_public_key: string | null;
  /** "Now" for the signed-in environment: real time plus the test clock's offset in test mode. */
  now: Date;
  clock_offset_ms: number;
}

export async function merchantOverview(q: Queryable, who: KeyIdentity, realNow: Date, envNow: Date): Promise<MerchantOverview> {
  const [m] = await q.query('SELECT name, live_enabled FROM merchants WHERE id = $1', [who.merchantId]);
  const [k] = await q.query(
    `SELECT public_key FROM api_keys
      WHERE merchant_id = $1 AND env = 'test' AND kind = 'pk' AND (expires_at IS NULL OR expires_at > $2)
      ORDER BY created_at DESC LIMIT 1`,
    [who.merchantId, realNow],
  );
  return {
    merchant_id: who.merchantId,
    name: m?.name ?? '',
    env: who.env,
    live_enabled: !!m?.live_enabled,
    test_public_key: k?.public_key ?? null,
    now: envNow,
    clock_offset_ms: Number(who.clockOffsetMs ?? 0),
  };
}

/** The published test-card table (the README's), for the Test tools page. */
export function testCards() {
  return {
    list: TEST_CARDS.map((c) => ({ ...c })),
    bank_account: { routing_number: TEST_BANK.routing_number, account_number: TEST_BANK.account_number },
  };
}

/** Who a listed charge was for: the Customer and Email columns of the dashboard's transaction list. */
export interface ChargeCustomer {
  /** The customer record's name (a deleted one's too), else the name on the charge; null when neither. */
  customer_name: string | null;
  /** The customer record's email, else the email the charge was sent with or its receipt went to. */
  customer_email: string | null;
}

type ChargeRow = { customer_id: string | null; email?: unknown; receipt_email?: unknown; first_name?: unknown; last_name?: unknown;
  card_owner_name?: unknown; account_holder_name?: unknown };
const text = (...v: unknown[]) => (v.find((x) => typeof x === 'string' && x.trim() !== '') as string | undefined) ?? null;

/** Each row's ChargeCustomer, in the order of `rows`: one statement for the customers the page names. */
export async function chargeCustomers(q: Queryable, scope: Scope, rows: ChargeRow[]): Promise<ChargeCustomer[]> {
  const ids = [...new Set(rows.map((r) => r.customer_id).filter((id): id is string => !!id))];
  const found = ids.length ? await q.query<{ id: string; name: string; email: string | null; company: string | null }>(
    `SELECT id, trim(concat_ws(' ', first_name, last_name)) AS name, email, company FROM customers
      WHERE merchant_id = $1 AND env = $2 AND id IN (SELECT jsonb_array_elements_text($3::jsonb))`,
    [scope.merchantId, scope.env, JSON.stringify(ids)]) : [];
  const byId = new Map(found.map((c) => [c.id, c]));
  return rows.map((r) => {
    const c = r.customer_id ? byId.get(r.customer_id) : undefined;
    const own = [r.first_name, r.last_name].filter((x) => typeof x === 'string' && x.trim()).join(' ');
    return {
      customer_name: text(c?.name, c?.company, own, r.card_owner_name, r.account_holder_name),
      customer_email: text(c?.email, r.email, r.receipt_email),
    };
  });
}
