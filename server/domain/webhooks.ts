import { Db, Queryable, pageSql } from '../db/index.js';
import { E, GatewayError } from '../errors.js';
import { SigningSecret, newSigningSecret, webhookSecret } from './signing.js';
import { enqueue, retryOutboxMessage } from '../notify/outbox.js';
import type { Vault } from '../vault.js';
import { webhookSecretHome } from '../vault-homes.js';
import { Constraint } from './constraints.js';
import { EventResource } from './events.js';
import { Scope } from './keys.js';
import { ruleMatches } from './rules.js';
import type { Mode } from './strategies.js';

// Webhook delivery: the dispatcher turns each event into one delivery per strategy of a matching
// rule; a webhook delivery is a signed POST queued on the callback queue (jobs/callbacks.ts), an
// email or SMS delivery a message in the notify outbox. Plus the read side: events, deliveries and
// the signing secret.

/**
 * A webhook delivery gets this many attempts: with the callback backoff (30 s doubling to hourly)
 * the last one comes about 24 hours after the first.
 */
export const WEBHOOK_MAX_ATTEMPTS = 31;
/** A failed delivery queued again gets this many more attempts (hourly by then: about a day). */
const RETRY_ATTEMPTS = 25;
const MAX_MAIL_JSON = 8000;

// --- events -------------------------------------------------------------------------------------

export interface EventRow {
  id: string;
  merchant_id: string;
  env: 'test' | 'live';
  resource: EventResource;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
  dispatched_at: Date | null;
}

export interface EventFilter {
  type?: unknown;
  resource?: unknown;
}

const EVENT_ID = /^evt_[0-9a-f]{24}$/;

/** GET /events: the scope's events, newest first; `type` and `resource` filter. */
export async function listEvents(q: Queryable, scope: Scope, page: { limit: number; offset: number }, filter: EventFilter = {}) {
  const params: unknown[] = [scope.merchantId, scope.env];
  let where = 'merchant_id = $1 AND env = $2';
  for (const f of ['type', 'resource'] as const) {
    const v = filter[f];
    if (v === undefined || v === '') continue;
    if (typeof v !== 'string') throw new GatewayError('REQ01', `${f} must be a string`);
    params.push(v);
    where += ` AND ${f} = $${params.length}`;
  }
  const [{ total }] = await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM events WHERE ${where}`, params);
  const list = await q.query<EventRow>(
    `SELECT * FROM events WHERE ${where} ORDER BY seq DESC ${pageSql(params)}`, [...params, page.limit, page.offset]);
  return { list, total };
}

/** GET /events/:id: EVENT01 for an unknown id or another scope's event. */
export async function getEvent(q: Queryable, scope: Scope, id: string): Promise<EventRow> {
  const [row] = EVENT_ID.test(id)
    ? await q.query<EventRow>('SELECT * FROM events WHERE id = $1 AND merchant_id = $2 AND env = $3', [id, scope.merchantId, scope.env])
    : [];
  if (!row) throw new GatewayError(E.EVENT_NOT_FOUND);
  return row;
}

export function presentEvent(e: EventRow) {
  return {
    class: 'event', id: e.id, type: e.type, resource: e.resource, created_at: e.created_at, dispatched_at: e.dispatched_at, data: e.data,
  };
}

/** The bytes a webhook receives (and the signature covers): `{id, type, created_at, data}`. */
export function webhookBody(e: Pick<EventRow, 'id' | 'type' | 'created_at' | 'data'>): string {
  return JSON.stringify({ id: e.id, type: e.type, created_at: new Date(e.created_at).toISOString(), data: e.data });
}

// --- signing secret ------------------------------------------------------------------------------

/** GET /webhooks/secret: the scope's signing secret (the billing callbacks' secret), made on first read. */
export async function readSecret(db: Db, vault: Vault, scope: Scope, now: Date) {
  return presentSecret(scope, await webhookSecret(db, vault, scope, now));
}

const presentSecret = (scope: Scope, s: SigningSecret) => ({
  class: 'webhook_secret', env: scope.env, secret: s.secret, created_at: s.created_at,
  // When the secret before the last rotation stops signing deliveries; null when it already has.
  previous_secret_expires_at: s.previous?.expires_at ?? null,
});

/** How long the secret being replaced keeps signing deliveries beside the new one. */
export const EXPIRE_OLD = { now: 0, '1h': 3600_000, '24h': 86_400_000 } as const;
export type ExpireOld = keyof typeof EXPIRE_OLD;

/**
 * POST /webhooks/secret/rotate: a new secret signs every later attempt (retries of earlier events
 * included). With expire_old `1h` or `24h` the replaced secret signs them too until then (a second
 * `v1=`), so receivers can switch without refusing anything; `now` (the default) drops it at once.
 * While such an overlap runs, another overlapping rotation is WEBHOOK04: it would drop, without
 * notice, the secret receivers may still verify with (a retried request included); `now` ends
 * the overlap on purpose. The row is locked, so concurrent rotations take turns.
 */
export async function rotateSecret(db: Db, vault: Vault, scope: Scope, now: Date, expireOld: ExpireOld = 'now') {
  return db.tx(async (q) => {
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
  });
}

// --- dispatch ------------------------------------------------------------------------------------

interface Target {
  rule_id: string;
  event_resource: EventResource;
  event_types: string[];
  constraints: Constraint[];
  strategy_id: string;
  mode: Mode;
  url: string | null;
  email_address: string | null;
  phone_number: string | null;
}

export interface DispatchResult {
  events: number;
  deliveries: number;
  /** Callbacks were queued (the callback deliverer may be kicked). */
  webhooks: number;
  /** Outbox messages were queued (the outbox worker may be kicked). */
  messages: number;
}

function mailText(e: EventRow, ruleId: string): string {
  let json = JSON.stringify(e.data, null, 2);
  if (json.length > MAX_MAIL_JSON) json = `${json.slice(0, MAX_MAIL_JSON)}\n… (truncated; GET /api/v1/events/${e.id} has it all)`;
  return `Event ${e.type} (${e.id}) in ${e.env} mode at ${new Date(e.created_at).toISOString()}.\n`
    + `Rule ${ruleId} matched.\n\n${json}\n`;
}

function smsText(e: EventRow): string {
  const id = typeof e.data.id === 'string' || typeof e.data.id === 'number' ? ` ${e.data.id}` : '';
  return `Tessera (${e.env}): ${e.type}${id}. Event ${e.id}.`.slice(0, 160);
}

/**
 * One round of the dispatcher, in one transaction: claims up to `limit` undispatched events
 * (FOR UPDATE SKIP LOCKED, so several nodes share the work and never take the same event), matches
 * them against the rules of the event's merchant and environment as they are now, creates one
 * delivery per related strategy (one per strategy even when several of its rules match), and marks
 * the events dispatched. A crash anywhere rolls it all back and the events are claimed again.
 */
export async function dispatchEvents(db: Db, now: Date, limit = 100): Promise<DispatchResult> {
  return db.tx(async (q) => {
    const events = await q.query<EventRow>(
      'SELECT * FROM events WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED', [limit]);
    const result: DispatchResult = { events: events.length, deliveries: 0, webhooks: 0, messages: 0 };
    if (events.length === 0) return result;
    const targets = new Map<string, Promise<Target[]>>();
    const names = new Map<string, string>();
    for (const e of events) {
      const key = `${e.merchant_id}/${e.env}/${e.resource}`;
      if (!targets.has(key)) {
        targets.set(key, q.query<Target>(
          `SELECT r.id AS rule_id, r.event_resource, r.event_types, r.constraints,
                  s.id AS strategy_id, s.mode, s.url, s.email_address, s.phone_number
             FROM webhook_rules r
             JOIN webhook_rule_strategies rs ON rs.rule_id = r.id
             JOIN webhook_strategies s ON s.id = rs.strategy_id AND s.merchant_id = r.merchant_id AND s.env = r.env
            WHERE r.merchant_id = $1 AND r.env = $2 AND r.event_resource = $3
            ORDER BY r.seq, rs.created_at, s.id`,
          [e.merchant_id, e.env, e.resource],
        ));
      }
      const done = new Set<string>();
      for (const t of await targets.get(key)!) {
        if (done.has(t.strategy_id) || !ruleMatches(t, e.type, e.data)) continue;
        done.add(t.strategy_id);
        const scope: Scope = { merchantId: e.merchant_id, env: e.env };
        let callbackId: number | null = null;
        let outboxId: number | null = null;
        let target: string;
        if (t.mode === 'webhook') {
          target = t.url!;
          const [cb] = await q.query<{ id: number }>(
            `INSERT INTO callbacks (merchant_id, env, billing_id, url, body, next_attempt_at, created_at, max_attempts)
             VALUES ($1, $2, NULL, $3, $4, $5, $5, $6) RETURNING id`,
            [e.merchant_id, e.env, target, webhookBody(e), now, WEBHOOK_MAX_ATTEMPTS],
          );
          callbackId = cb.id;
          result.webhooks++;
        } else {
          if (!names.has(e.merchant_id)) {
            const [m] = await q.query<{ name: string }>('SELECT name FROM merchants WHERE id = $1', [e.merchant_id]);
            names.set(e.merchant_id, m?.name ?? 'Tessera');
          }
          target = t.mode === 'email' ? t.email_address! : t.phone_number!;
          outboxId = await enqueue(q, scope, t.mode === 'email'
            ? { kind: 'email', to: target, subject: `[Tessera] ${e.type} ${String(e.data.id ?? e.id)}`.slice(0, 255), text: mailText(e, t.rule_id), from_name: 'Tessera' }
            : { kind: 'sms', to: target, text: smsText(e) }, now, `event:${e.id}`);
          result.messages++;
        }
        await q.query(
          `INSERT INTO webhook_deliveries (merchant_id, env, event_id, rule_id, strategy_id, mode, target, callback_id, outbox_id, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [e.merchant_id, e.env, e.id, t.rule_id, t.strategy_id, t.mode, target, callbackId, outboxId, now],
        );
        result.deliveries++;
      }
    }
    await q.query('UPDATE events SET dispatched_at = $2 WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb))',
      [events.map((e) => e.id), now]);
    return result;
  });
}

// --- deliveries ----------------------------------------------------------------------------------

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

interface Attempt {
  attempt: number;
  at: string | Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
}

export interface DeliveryRow {
  id: number;
  merchant_id: string;
  env: string;
  event_id: string;
  event_type: string;
  rule_id: string;
  strategy_id: string;
  mode: Mode;
  target: string;
  callback_id: number | null;
  outbox_id: number | null;
  created_at: Date;
  /** From the callback or the outbox message: pending | sent | failed. */
  state: 'pending' | 'sent' | 'failed';
  attempt_count: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  sent_at: Date | null;
  attempts: Attempt[];
}

export interface DeliveryFilter {
  event_id?: unknown;
  rule_id?: unknown;
  strategy_id?: unknown;
  mode?: unknown;
  status?: unknown;
}

const DELIVERY = `SELECT d.*, e.type AS event_type,
    COALESCE(c.status, o.status) AS state, COALESCE(c.attempts, o.attempts) AS attempt_count,
    COALESCE(c.next_attempt_at, o.next_attempt_at) AS next_attempt_at, c.last_status AS last_status_code,
    COALESCE(c.last_error, o.last_error) AS last_error, COALESCE(c.sent_at, o.sent_at) AS sent_at,
    COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'at', a.at, 'status_code', a.status_code,
                                                'error', a.error, 'duration_ms', a.duration_ms) ORDER BY a.id)
                FROM callback_attempts a WHERE a.callback_id = d.callback_id), '[]') AS attempts
  FROM webhook_deliveries d
  JOIN events e ON e.id = d.event_id
  LEFT JOIN callbacks c ON c.id = d.callback_id
  LEFT JOIN outbox o ON o.id = d.outbox_id`;

const STATES: Record<string, string> = { pending: 'pending', delivered: 'sent', failed: 'failed' };

/** GET /webhooks/deliveries: newest first; filters event_id, rule_id, strategy_id, mode, status. */
export async function listDeliveries(q: Queryable, scope: Scope, page: { limit: number; offset: number }, filter: DeliveryFilter = {}) {
  const params: unknown[] = [scope.merchantId, scope.env];
  let where = 'd.merchant_id = $1 AND d.env = $2';
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where += ` AND ${sql} = $${params.length}`;
  };
  for (const f of ['event_id', 'rule_id', 'strategy_id', 'mode'] as const) {
    const v = filter[f];
    if (v === undefined || v === '') continue;
    if (typeof v !== 'string') throw new GatewayError('REQ01', `${f} must be a string`);
    add(`d.${f}`, v);
  }
  if (filter.status !== undefined && filter.status !== '') {
    const key = typeof filter.status === 'string' ? filter.status : '';
    const s = Object.prototype.hasOwnProperty.call(STATES, key) ? STATES[key] : undefined;
    if (!s) throw new GatewayError('REQ01', 'status must be one of pending, delivered, failed');
    add('COALESCE(c.status, o.status)', s);
  }
  const from = `FROM webhook_deliveries d LEFT JOIN callbacks c ON c.id = d.callback_id LEFT JOIN outbox o ON o.id = d.outbox_id`;
  const [{ total }] = await q.query<{ total: number }>(`SELECT count(*)::int AS total ${from} WHERE ${where}`, params);
  const list = await q.query<DeliveryRow>(
    `${DELIVERY} WHERE ${where} ORDER BY d.id DESC ${pageSql(params)}`, [...params, page.limit, page.offset]);
  return { list, total };
}

/** GET /webhooks/deliveries/:id: WEBHOOK02 for an unknown id or another scope's delivery. */
export async function getDelivery(q: Queryable, scope: Scope, id: string): Promise<DeliveryRow> {
  const [row] = /^\d{1,15}$/.test(id)
    ? await q.query<DeliveryRow>(`${DELIVERY} WHERE d.id = $1 AND d.merchant_id = $2 AND d.env = $3`, [Number(id), scope.merchantId, scope.env])
    : [];
  if (!row) throw new GatewayError(E.DELIVERY_NOT_FOUND);
  return row;
}

/**
 * POST /webhooks/deliveries/:id/retry: a `failed` delivery is queued again now, with a fresh
 * day of attempts (attempt numbers go on counting); anything else is WEBHOOK03.
 */
export async function retryDelivery(db: Db, scope: Scope, id: string, now: Date): Promise<DeliveryRow> {
  return db.tx(async (q) => {
    const d = await getDelivery(q, scope, id);
    if (d.state !== 'failed') throw new GatewayError(E.DELIVERY_NOT_FAILED);
    if (d.callback_id !== null) {
      await q.query(
        `UPDATE callbacks SET status = 'pending', next_attempt_at = $3, max_attempts = attempts + $4
          WHERE id = $1 AND merchant_id = $2 AND status = 'failed'`,
        [d.callback_id, scope.merchantId, now, RETRY_ATTEMPTS],
      );
    } else {
      await retryOutboxMessage(q, scope, String(d.outbox_id), now);
    }
    return getDelivery(q, scope, id);
  });
}

export function presentDelivery(d: DeliveryRow) {
  const status: DeliveryStatus = d.state === 'sent' ? 'delivered' : d.state;
  return {
    class: 'webhook_delivery',
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    rule_id: d.rule_id,
    strategy_id: d.strategy_id,
    mode: d.mode,
    target: d.target,
    status,
    attempt_count: d.attempt_count,
    next_attempt_at: status === 'pending' ? d.next_attempt_at : null,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    delivered_at: d.sent_at,
    outbox_id: d.outbox_id,
    created_at: d.created_at,
    attempts: (d.attempts ?? []).map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
  };
}
