import { pagedQuery, Queryable } from '../../db/index.js';
import type { Page } from '../../lib/validate.js';
import { E, GatewayError } from '../../errors.js';
import { Scope } from '../merchant/keys.js';
import { retryOutboxMessage } from './outbox.js';
import { DELIVERY_COLUMNS, type Delivery, type DeliveryRow } from '../../schemas/webhooks.js';

// The deliveries an event's fan-out (dispatch.ts) made: GET /webhooks/deliveries, one, and a retry.

/** A failed delivery queued again gets this many more attempts (hourly by then: about a day). */
const RETRY_ATTEMPTS = 25;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery's row (schemas/webhooks.ts DeliveryRowSchema), and the delivery as read with its state. */
export type { Delivery, DeliveryRow };

/** GET /webhooks/deliveries' filters, as its query table read them (schemas/webhooks.ts DeliveriesQuery). */
import type { DeliveryFilter } from '../../schemas/webhooks.js';
export type { DeliveryFilter };

const DELIVERY = `SELECT ${DELIVERY_COLUMNS.map((c) => `d.${c}`).join(', ')}, e.type AS event_type,
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

const STATES: Record<DeliveryStatus, string> = { pending: 'pending', delivered: 'sent', failed: 'failed' };

/** GET /webhooks/deliveries: newest first; filters event_id, rule_id, strategy_id, mode, status. */
export async function listDeliveries(q: Queryable, scope: Scope, page: Page, filter: Partial<DeliveryFilter> = {}) {
  const params: unknown[] = [scope.merchantId, scope.env];
  let where = 'd.merchant_id = $1 AND d.env = $2';
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where += ` AND ${sql} = $${params.length}`;
  };
  for (const f of ['event_id', 'rule_id', 'strategy_id', 'mode'] as const) {
    const v = filter[f];
    if (v !== undefined) add(`d.${f}`, v);
  }
  if (filter.status !== undefined) add('COALESCE(c.status, o.status)', STATES[filter.status]);
  const from = 'webhook_deliveries d LEFT JOIN callbacks c ON c.id = d.callback_id LEFT JOIN outbox o ON o.id = d.outbox_id';
  return pagedQuery<Delivery>(q, page, `${DELIVERY} WHERE ${where} ORDER BY d.id DESC`, `${from} WHERE ${where}`, params);
}

/** GET /webhooks/deliveries/:id: WEBHOOK02 for an unknown id or another scope's delivery. */
export async function getDelivery(q: Queryable, scope: Scope, id: string): Promise<Delivery> {
  const [row] = /^\d{1,15}$/.test(id)
    ? await q.query<Delivery>(`${DELIVERY} WHERE d.id = $1 AND d.merchant_id = $2 AND d.env = $3`, [Number(id), scope.merchantId, scope.env])
    : [];
  if (!row) throw new GatewayError(E.DELIVERY_NOT_FOUND);
  return row;
}

/**
 * POST /webhooks/deliveries/:id/retry: a `failed` delivery is queued again now, with a fresh
 * day of attempts (attempt numbers go on counting); anything else is WEBHOOK03.
 */
export async function retryDelivery(q: Queryable, scope: Scope, id: string, now: Date): Promise<Delivery> {
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
}
