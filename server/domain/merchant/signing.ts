import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../db/index.js';
import { E, GatewayError } from '../../errors.js';
import { EXPIRE_OLD, ExpireOld } from '../../schemas/webhooks.js';
import type { Vault } from '../../vault.js';
import { webhookSecretHome } from '../../vault-homes.js';
import type { Scope } from './keys.js';

// Each merchant environment's signing secret, and the signature over what the gateway sends
// (webhook events, billing callbacks, SMS gateway requests) that a receiver checks.

const SECRET_PREFIX = 'whsec_';

export interface SigningSecret {
  secret: string;
  created_at: Date;
  /** The secret before the last rotation while it is still in force (rotated with expire_old 1h or 24h). */
  previous: { secret: string; expires_at: Date } | null;
}

/** A new signing secret: `whsec_` + 64 hex. */
export const newSigningSecret = () => SECRET_PREFIX + randomBytes(32).toString('hex');

/**
 * The merchant environment's signing secret, made on first use, kept encrypted. `lock` (inside a
 * transaction) holds its row until the transaction ends: a rotation reads and replaces it.
 */
export async function webhookSecret(
  q: Queryable, vault: Vault, scope: Scope, now: Date, opts: { lock?: boolean } = {},
): Promise<SigningSecret> {
  const read = () => q.query<{ secret_enc: string; created_at: Date; previous_secret_enc: string | null; previous_expires_at: Date | null }>(
    `SELECT secret_enc, created_at, previous_secret_enc, previous_expires_at
       FROM webhook_secrets WHERE merchant_id = $1 AND env = $2${opts.lock ? ' FOR UPDATE' : ''}`, [scope.merchantId, scope.env],
  );
  let [row] = await read();
  if (!row) {
    const secret = newSigningSecret();
    await q.query(
      'INSERT INTO webhook_secrets (merchant_id, env, secret_enc, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
      [scope.merchantId, scope.env, vault.encrypt(secret, webhookSecretHome(scope, 'secret_enc')), now],
    );
    [row] = await read();
  }
  const previous = row.previous_secret_enc && row.previous_expires_at && row.previous_expires_at > now
    ? { secret: vault.decrypt(row.previous_secret_enc, webhookSecretHome(scope, 'previous_secret_enc')), expires_at: row.previous_expires_at }
    : null;
  return { secret: vault.decrypt(row.secret_enc, webhookSecretHome(scope, 'secret_enc')), created_at: row.created_at, previous };
}

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, plus one more `v1=` for each of
 * `alsoWith` (the previous secret while a rotation overlaps): a receiver accepts any one that matches.
 */
export function signCallback(secret: string, unixSeconds: number, body: string, alsoWith: string[] = []): string {
  const v1 = (s: string) => `,v1=${createHmac('sha256', s).update(`${unixSeconds}.${body}`).digest('hex')}`;
  return `t=${unixSeconds}${[secret, ...alsoWith].map(v1).join('')}`;
}

/** What a receiver does: recompute over the raw body, compare in constant time with each v1, refuse stale timestamps. */
export function verifyCallback(secret: string, header: string | undefined, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = (header ?? '').split(',').map((p) => p.trim().split('=', 2) as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts.some(([k, v]) => {
    if (k !== 'v1') return false;
    const given = Buffer.from(v ?? '', 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

// --- GET /webhooks/secret, POST /webhooks/secret/rotate ------------------------------------------

/** GET /webhooks/secret: the scope's signing secret (the billing callbacks' secret), made on first read. */
export async function readSecret(q: Queryable, vault: Vault, scope: Scope, now: Date) {
  return presentSecret(scope, await webhookSecret(q, vault, scope, now));
}

const presentSecret = (scope: Scope, s: SigningSecret) => ({
  class: 'webhook_secret', env: scope.env, secret: s.secret, created_at: s.created_at,
  // When the secret before the last rotation stops signing deliveries; null when it already has.
  previous_secret_expires_at: s.previous?.expires_at ?? null,
});

/**
 * POST /webhooks/secret/rotate: a new secret signs every later attempt (retries of earlier events
 * included). With expire_old `1h` or `24h` the replaced secret signs them too until then (a second
 * `v1=`), so receivers can switch without refusing anything; `now` (the default) drops it at once.
 * While such an overlap runs, another overlapping rotation is WEBHOOK04: it would drop, without
 * notice, the secret receivers may still verify with (a retried request included); `now` ends
 * the overlap on purpose. The row is locked, so concurrent rotations take turns.
 */
export async function rotateSecret(q: Queryable, vault: Vault, scope: Scope, now: Date, expireOld: ExpireOld = 'now') {
  const old = await webhookSecret(q, vault, scope, now, { lock: true });
  const keep = EXPIRE_OLD[expireOld] > 0;
  if (keep && old.previous) {
    throw new GatewayError(E.SECRET_ROTATION_PENDING, `the secret before the last rotation still signs deliveries until ${old.previous.expires_at.toISOString()}; rotate with expire_old now to end that, or wait`);
  }
  const secret = newSigningSecret();
  const previous = keep ? { secret: old.secret, expires_at: new Date(now.getTime() + EXPIRE_OLD[expireOld]) } : null;
  await q.query(
    `UPDATE webhook_secrets SET secret_enc = $3, created_at = $4, previous_secret_enc = $5, previous_expires_at = $6
      WHERE merchant_id = $1 AND env = $2`,
    [scope.merchantId, scope.env, vault.encrypt(secret, webhookSecretHome(scope, 'secret_enc')), now,
      previous && vault.encrypt(previous.secret, webhookSecretHome(scope, 'previous_secret_enc')), previous?.expires_at ?? null],
  );
  return presentSecret(scope, { secret, created_at: now, previous });
}
