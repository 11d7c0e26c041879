import { createHash, randomBytes } from 'node:crypto';
import { randomHex } from '../../lib/random.js';
import { Queryable } from '../../db/index.js';
import { remember } from '../../lib/remember.js';

export type Env = 'test' | 'live';
export type KeyKind = 'pk' | 'sk';

/** Who a request acts for: every query of merchant data filters on both fields. */
export interface Scope {
  merchantId: string;
  env: Env;
}

export interface KeyIdentity extends Scope {
  kind: KeyKind;
  /** How far the merchant's test clock runs ahead of real time (always 0 in live mode). */
  clockOffsetMs: number;
}

export interface KeySet {
  key_set_id: string;
  env: Env;
  public_key: string;
  private_key: string;
}

export const KEY_LENGTH = 63;
const KEY_PATTERN = /^(test|live)_(pk|sk)_[0-9a-f]{55}$/;

/** `<env>_<kind>_` + 55 random lowercase hex characters = 63; the prefix tells people and secret scanners what it is. */
export function newKey(env: Env, kind: KeyKind): string {
  return `${env}_${kind}_${randomBytes(28).toString('hex').slice(0, 55)}`;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function redactKey(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}

export function newId(bytes: number): string {
  return randomHex(bytes);
}

export async function createMerchant(q: Queryable, name: string, now: Date, opts: { demo?: boolean } = {}): Promise<string> {
  const id = `mer_${newId(8)}`;
  await q.query('INSERT INTO merchants (id, name, demo, created_at) VALUES ($1, $2, $3, $4)', [id, name, !!opts.demo, now]);
  for (const env of ['test', 'live']) {
    await q.query('INSERT INTO merchant_settings (merchant_id, env) VALUES ($1, $2)', [id, env]);
  }
  return id;
}

export type ExpireOld = 'now' | '1h' | 'never';

/**
 * Generates a new public/private pair for one environment. The private key exists in clear only
 * in the return value: show it once. Older sets expire now, in one hour, or never.
 */
export async function createKeySet(
  q: Queryable,
  scope: Scope,
  now: Date,
  expireOld: ExpireOld = 'now',
): Promise<KeySet> {
  const [m] = await q.query('SELECT id FROM merchants WHERE id = $1', [scope.merchantId]);
  if (!m) throw new Error(`merchant ${scope.merchantId} not found`);
  if (expireOld !== 'never') {
    const at = expireOld === 'now' ? now : new Date(now.getTime() + 3600_000);
    await q.query(
      `UPDATE api_keys SET expires_at = $3
        WHERE merchant_id = $1 AND env = $2 AND (expires_at IS NULL OR expires_at > $3)`,
      [scope.merchantId, scope.env, at],
    );
  }
  if (scope.env === 'live') await q.query('UPDATE merchants SET live_enabled = true WHERE id = $1', [scope.merchantId]);
  const set: KeySet = {
    key_set_id: `ks_${newId(6)}`,
    env: scope.env,
    public_key: newKey(scope.env, 'pk'),
    private_key: newKey(scope.env, 'sk'),
  };
  for (const [kind, key] of [['pk', set.public_key], ['sk', set.private_key]] as const) {
    await q.query(
      `INSERT INTO api_keys (key_hash, merchant_id, env, kind, key_set_id, redacted, public_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [hashKey(key), scope.merchantId, scope.env, kind, set.key_set_id, redactKey(key), kind === 'pk' ? key : null, now],
    );
  }
  return set;
}

async function lookupKey(q: Queryable, key: string, now: Date) {
  if (!KEY_PATTERN.test(key)) return null;
  const [row] = await q.query(
    `SELECT k.merchant_id, k.env, k.kind, k.expires_at, COALESCE(c.offset_ms, 0) AS offset_ms
       FROM api_keys k LEFT JOIN test_clocks c ON c.merchant_id = k.merchant_id AND k.env = 'test'
      WHERE k.key_hash = $1 AND (k.expires_at IS NULL OR k.expires_at > $2)`,
    [hashKey(key), now],
  );
  if (!row) return null;
  const id: KeyIdentity = { merchantId: row.merchant_id, env: row.env, kind: row.kind, clockOffsetMs: row.offset_ms };
  return { id, expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : Infinity };
}

/** The identity behind a key, or null when it is malformed, unknown or expired. */
export async function authenticate(q: Queryable, key: string, now: Date): Promise<KeyIdentity | null> {
  return (await lookupKey(q, key, now))?.id ?? null;
}

/** How many unknown keys a KeyCache remembers (oldest forgotten first), apart from the known ones. */
export const UNKNOWN_KEYS_CACHED = 10_000;
/** How many known keys a KeyCache remembers (oldest forgotten first). */
export const KNOWN_KEYS_CACHED = 10_000;

type Found = Awaited<ReturnType<typeof lookupKey>>;

/**
 * Remembers key lookups for a short time: a busy checkout authenticates the same key hundreds of
 * times a second, and the lookup is a third of a token request. A key never outlives its own
 * expiry here; `forget()` drops everything when this process changes keys or a test clock, and
 * other nodes see such changes within `ttlMs`. ttlMs 0 turns the cache off.
 *
 * Unknown keys are remembered apart from known ones, each set bounded and forgetting its oldest
 * entry first: a flood of made-up keys can push out only other unknown keys, never a merchant's
 * real key (which would send every checkout request to the database). Malformed keys are answered
 * without a lookup and never stored; concurrent lookups of one key share one query.
 */
export class KeyCache {
  private known = new Map<string, { id: KeyIdentity; until: number }>();
  private unknown = new Map<string, number>();
  private pending = new Map<string, Promise<Found>>();
  constructor(
    private readonly ttlMs = 0,
    private readonly max = { known: KNOWN_KEYS_CACHED, unknown: UNKNOWN_KEYS_CACHED },
  ) {}

  async authenticate(q: Queryable, key: string, now: Date): Promise<KeyIdentity | null> {
    if (this.ttlMs <= 0 || !KEY_PATTERN.test(key)) return authenticate(q, key, now);
    const t = now.getTime();
    const hit = this.known.get(key);
    if (hit && t < hit.until) return hit.id;
    const miss = this.unknown.get(key);
    if (miss !== undefined && t < miss) return null;
    let lookup = this.pending.get(key);
    if (!lookup) {
      lookup = lookupKey(q, key, now).finally(() => this.pending.delete(key));
      this.pending.set(key, lookup);
    }
    const found = await lookup;
    if (found) {
      this.unknown.delete(key);
      remember(this.known, key, { id: found.id, until: Math.min(t + this.ttlMs, found.expiresAt) }, this.max.known);
    } else {
      this.known.delete(key);
      remember(this.unknown, key, t + this.ttlMs, this.max.unknown);
    }
    return found?.id ?? null;
  }

  /**
   * Drops cached lookups: one merchant's known keys (its keys or its test clock changed), or
   * everything. A merchant's own changes thus never send every other merchant's next request to
   * the database.
   */
  forget(merchantId?: string): void {
    if (merchantId === undefined) {
      this.known.clear();
      this.unknown.clear();
      return;
    }
    for (const [key, hit] of this.known) if (hit.id.merchantId === merchantId) this.known.delete(key);
  }
}

export interface ExposedKey {
  merchant_id: string;
  env: Env;
  key_set_id: string;
  redacted: string;
  exposed_at: Date;
}

/**
 * Records that a private key was sent where a browser sends keys (the JSONP endpoint): it sits in
 * a web page and must be treated as compromised. The first sighting is kept. Answers the key's set
 * for the merchant's warning, or null when the key is not a known private key.
 */
export async function markKeyExposed(
  q: Queryable,
  key: string,
  now: Date,
): Promise<ExposedKey | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const [row] = await q.query<ExposedKey & Record<string, any>>(
    `UPDATE api_keys SET exposed_at = COALESCE(exposed_at, $2)
      WHERE key_hash = $1 AND kind = 'sk'
      RETURNING merchant_id, env, key_set_id, redacted, exposed_at`,
    [hashKey(key), now],
  );
  return row ? { ...row, exposed_at: new Date(row.exposed_at) } : null;
}

export interface KeyListing {
  key_set_id: string;
  env: Env;
  kind: KeyKind;
  redacted: string;
  created_at: Date;
  expires_at: Date | null;
  /** When a private key was first seen where only a public key belongs (a browser); null otherwise. */
  exposed_at: Date | null;
}

export async function listKeys(q: Queryable, merchantId: string): Promise<KeyListing[]> {
  return q.query<KeyListing & Record<string, any>>(
    `SELECT key_set_id, env, kind, redacted, created_at, expires_at, exposed_at FROM api_keys
      WHERE merchant_id = $1 ORDER BY created_at DESC, kind`,
    [merchantId],
  );
}

/** The demo checkout page shows the demo merchant's newest usable test public key. */
export async function demoPublicKey(q: Queryable, now: Date): Promise<string | null> {
  const [row] = await q.query(
    `SELECT k.public_key FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
      WHERE m.demo AND k.env = 'test' AND k.kind = 'pk' AND (k.expires_at IS NULL OR k.expires_at > $1)
      ORDER BY k.created_at DESC LIMIT 1`,
    [now],
  );
  return row?.public_key ?? null;
}

/** The merchant `tessera serve` created on first start (its test environment backs the demo page). */
export async function demoMerchantId(q: Queryable): Promise<string | null> {
  const [row] = await q.query('SELECT id FROM merchants WHERE demo ORDER BY created_at LIMIT 1');
  return row?.id ?? null;
}
