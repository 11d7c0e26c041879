import { pagedQuery, Queryable } from '../db/index.js';
import type { Page } from './validate.js';
import { E, GatewayError, invalid, MUST } from '../errors.js';
import { Scope, newId } from './keys.js';
import { fanOut } from './dispatch.js';

/**
 * The published event catalogue: `event_resource` of a webhook rule is a key here, and each
 * event type names what happened. Adding an event means adding it here and emitting it.
 * A charge emits one event: `transaction.created` when it settled, `transaction.failed` when it
 * was declined or returned; each refund emits `transaction.refunded` with the updated charge.
 */
export const EVENT_TYPES = {
  transaction: ['transaction.created', 'transaction.failed', 'transaction.refunded'],
  customer: ['customer.created', 'customer.updated', 'customer.deleted'],
  subscription: ['subscription.created', 'subscription.billed', 'subscription.failed', 'subscription.cancelled'],
  billing: ['billing.succeeded', 'billing.failed', 'billing.retried'],
  scheduled_transaction: ['scheduled_transaction.billed', 'scheduled_transaction.failed', 'scheduled_transaction.cancelled'],
  invoice: ['invoice.created', 'invoice.updated', 'invoice.delivered', 'invoice.paid', 'invoice.partially_paid', 'invoice.deleted'],
  accountupdater: ['accountupdater.received', 'accountupdater.completed'],
} as const;

export type EventResource = keyof typeof EVENT_TYPES;
export type EventType = (typeof EVENT_TYPES)[EventResource][number];

/**
 * Records an event and queues its deliveries (dispatch.ts, fanOut): call it with the transaction's
 * Queryable, inside the transaction that makes the change, so an event and its deliveries exist
 * exactly when its change does. `data` is the object as the API shows it (already presented: no
 * secrets).
 */
export async function emitEvent(q: Queryable, scope: Scope, type: EventType, data: object, now: Date): Promise<string> {
  return withEvent(q, null, [], scope, type, data, now);
}

/**
 * SQL: whether the merchant environment at `merchant`, `env` has a webhook rule for `resource`
 * (each an SQL expression). Without one an event of that resource goes nowhere: it is written
 * alone, with no fan-out (the charge's first read asks this too: charge-read.ts).
 */
export const listensTo = (merchant: string, env: string, resource: string): string =>
  `EXISTS (SELECT 1 FROM webhook_rules r WHERE r.merchant_id = ${merchant} AND r.env = ${env} AND r.event_resource = ${resource})`;

/**
 * The INSERT of one event whose eventParams() are $first to $first+6. With `from`, it is an
 * `INSERT ... SELECT ... FROM from`: one row per row of `from` (none when a CTE wrote none).
 * `dispatched_at` is the event's own time: its deliveries are decided as it is recorded.
 */
export function eventInsert(first: number, from?: string): string {
  const values = [0, 1, 2, 3, 4, 5, 6, 6].map((i) => `$${first + i}`).join(', ');
  return `INSERT INTO events (id, merchant_id, env, resource, type, data, created_at, dispatched_at)
    ${from ? `SELECT ${values} FROM ${from}` : `VALUES (${values})`}`;
}

/** The parameters of eventInsert, in its order; the event's id first. */
export const eventParams = (scope: Scope, type: EventType, data: object, now: Date): unknown[] =>
  [`evt_${newId(12)}`, scope.merchantId, scope.env, type.slice(0, type.lastIndexOf('.')), type, data, now];

/**
 * A change and its event in one statement (`WITH change AS (<change>) INSERT INTO events ...`):
 * one round trip instead of two on the hot paths. `change` is a data-modifying statement with
 * parameters $1..$n taken from `params`; null records the event alone. The event is written even
 * when the change touches no row: use it for changes that always write (an INSERT).
 *
 * The same statement asks whether a rule listens (listensTo) and, when one does, returns the
 * event's data as stored: its deliveries are then queued (fanOut) before this returns, in the
 * caller's transaction. `heard: false` says the caller already knows no rule listens (a test-mode
 * charge's first read, made with no transaction open): the event is written alone.
 */
export async function withEvent(
  q: Queryable, change: string | null, params: unknown[], scope: Scope, type: EventType, data: object, now: Date,
  heard?: false,
): Promise<string> {
  const event = eventParams(scope, type, data, now);
  const $ = (i: number) => `$${params.length + 1 + i}`;
  const insert = `${change ? `WITH change AS (${change}) ` : ''}${eventInsert(params.length + 1)}`;
  if (heard === false) {
    await q.query(insert, [...params, ...event]);
    return event[0] as string;
  }
  const [row] = await q.query<{ heard: EventRow['data'] | null }>(
    `${insert} RETURNING CASE WHEN ${listensTo($(1), $(2), $(3))} THEN data END AS heard`, [...params, ...event]);
  if (row?.heard) {
    await fanOut(q, {
      id: event[0] as string, merchant_id: scope.merchantId, env: scope.env, resource: event[3] as EventResource,
      type, data: row.heard, created_at: now,
    });
  }
  return event[0] as string;
}

// --- reading (GET /events) ---------------------------------------------------------------------

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
export async function listEvents(q: Queryable, scope: Scope, page: Page, filter: EventFilter = {}) {
  const params: unknown[] = [scope.merchantId, scope.env];
  let where = 'merchant_id = $1 AND env = $2';
  for (const f of ['type', 'resource'] as const) {
    const v = filter[f];
    if (v === undefined || v === '') continue;
    if (typeof v !== 'string') throw invalid(f, MUST.STRING);
    params.push(v);
    where += ` AND ${f} = $${params.length}`;
  }
  return pagedQuery<EventRow>(q, page, `SELECT * FROM events WHERE ${where} ORDER BY seq DESC`, `events WHERE ${where}`, params);
}

/** GET /events/:id: EVENT01 for an unknown id or another scope's event. */
export async function getEvent(q: Queryable, scope: Scope, id: string): Promise<EventRow> {
  const [row] = EVENT_ID.test(id)
    ? await q.query<EventRow>('SELECT * FROM events WHERE id = $1 AND merchant_id = $2 AND env = $3', [id, scope.merchantId, scope.env])
    : [];
  if (!row) throw new GatewayError(E.EVENT_NOT_FOUND);
  return row;
}
