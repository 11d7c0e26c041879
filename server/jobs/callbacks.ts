import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';
import { Db, Queryable } from '../db/index.js';
import type { Scope } from '../domain/keys.js';
import type { Vault } from '../vault.js';

// Billing callbacks (spec 6: "plans accept a callback_url; what is sent and when: not shown").
// After every run of a subscription (and every retry) the billing is POSTed as JSON to the plan's
// callback_url, signed with the merchant environment's secret. Rows are queued in the billing's
// own transaction; any node delivers them, claiming with FOR UPDATE SKIP LOCKED and a lease, so
// delivery is at least once (the Tessera-Callback-Id header lets a receiver drop duplicates).

export const SIGNATURE_HEADER = 'tessera-signature';
const SECRET_PREFIX = 'whsec_';

export interface CallbackDeps {
  db: Db;
  vault: Vault;
  clock: Clock;
  /** Injectable for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  log?: { warn(obj: object, msg?: string): void };
}

export interface DeliveryOptions {
  batchSize?: number;
  maxAttempts?: number;
  timeoutMs?: number;
  leaseMs?: number;
  backoff?: (failedAttempts: number) => number;
}

/** 30 s, 1, 2, 4, 8, 16, 32 min, then hourly; the 10th failed attempt marks the callback `failed`. */
export const callbackBackoff = (failed: number) => Math.min(3600_000, 30_000 * 2 ** Math.max(0, failed - 1));
export const MAX_CALLBACK_ATTEMPTS = 10;

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
      [scope.merchantId, scope.env, vault.encrypt(secret), now],
    );
    [row] = await read();
  }
  const previous = row.previous_secret_enc && row.previous_expires_at && row.previous_expires_at > now
    ? { secret: vault.decrypt(row.previous_secret_enc), expires_at: row.previous_expires_at }
    : null;
  return { secret: vault.decrypt(row.secret_enc), created_at: row.created_at, previous };
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

interface CallbackRow {
  id: number;
  merchant_id: string;
  env: 'test' | 'live';
  billing_id: number | null;
  url: string;
  body: string;
  attempts: number;
  /** Webhook deliveries carry their own budget (about a day of attempts); null: the worker's default. */
  max_attempts: number | null;
}

export interface DeliveryResult {
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Claims due callbacks (one statement: FOR UPDATE SKIP LOCKED, attempt counted, next_attempt_at
 * pushed past a lease) and POSTs them. 2xx is delivered; anything else, a timeout or a network
 * error is retried with backoff until MAX_CALLBACK_ATTEMPTS, then `failed` (kept). Times are real.
 */
export async function deliverCallbacks(deps: CallbackDeps, now: Date = deps.clock.now(), opts: DeliveryOptions = {}): Promise<DeliveryResult> {
  const { batchSize = 20, maxAttempts = MAX_CALLBACK_ATTEMPTS, timeoutMs = 10_000, leaseMs = 60_000, backoff = callbackBackoff } = opts;
  const post = deps.fetch ?? fetch;
  const rows = await deps.db.query<CallbackRow>(
    `WITH due AS (
       SELECT id FROM callbacks WHERE status = 'pending' AND next_attempt_at <= $1
        ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
     UPDATE callbacks c SET attempts = c.attempts + 1, next_attempt_at = $3
       FROM due WHERE c.id = due.id
     RETURNING c.id, c.merchant_id, c.env, c.billing_id, c.url, c.body, c.attempts, c.max_attempts`,
    [now, batchSize, new Date(now.getTime() + leaseMs)],
  );
  const result: DeliveryResult = { claimed: rows.length, sent: 0, retrying: 0, failed: 0 };
  for (const row of rows.sort((a, b) => a.id - b.id)) {
    let status: number | null = null;
    let error: string | null = null;
    const started = Date.now();
    try {
      const { secret, previous } = await webhookSecret(deps.db, deps.vault, { merchantId: row.merchant_id, env: row.env }, now);
      const res = await post(row.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Tessera-Callback/1',
          [SIGNATURE_HEADER]: signCallback(secret, Math.floor(now.getTime() / 1000), row.body, previous ? [previous.secret] : []),
          'tessera-callback-id': String(row.id),
          'tessera-attempt': String(row.attempts),
        },
        body: row.body,
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) error = `HTTP ${res.status}`;
    } catch (err) {
      error = (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : String((err as Error).message ?? err);
    }
    const done = new Date();
    // Every attempt is kept (GET /webhooks/deliveries shows them).
    await deps.db.query(
      `INSERT INTO callback_attempts (callback_id, merchant_id, env, attempt, at, status_code, error, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [row.id, row.merchant_id, row.env, row.attempts, now, status, error, done.getTime() - started],
    );
    if (error === null) {
      await deps.db.query("UPDATE callbacks SET status = 'sent', sent_at = $2, last_status = $3, last_error = NULL WHERE id = $1", [row.id, done, status]);
      result.sent++;
    } else if (row.attempts >= (row.max_attempts ?? maxAttempts)) {
      await deps.db.query("UPDATE callbacks SET status = 'failed', last_status = $2, last_error = $3 WHERE id = $1", [row.id, status, error]);
      result.failed++;
      deps.log?.warn({ callback_id: row.id, billing_id: row.billing_id, error }, 'billing callback failed for good');
    } else {
      await deps.db.query('UPDATE callbacks SET next_attempt_at = $2, last_status = $3, last_error = $4 WHERE id = $1', [
        row.id, new Date(now.getTime() + backoff(row.attempts)), status, error,
      ]);
      result.retrying++;
    }
  }
  return result;
}
