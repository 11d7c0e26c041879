import { pagedQuery, Queryable } from '../../db/index.js';
import type { Page } from '../../lib/validate.js';
import { E, GatewayError } from '../../errors.js';
import { Scope, newId } from '../merchant/keys.js';
import { RecordedEvent, Target, deliveryCtes, fanOut, matching } from './dispatch.js';
import { EVENT_COLUMNS, type EventResource, type EventRow, type EventType } from '../../schemas/webhooks.js';

/** The event catalogue (schemas/webhooks.ts): a rule's event_resource is one of its keys. */
export { EVENT_TYPES, type EventResource, type EventType } from '../../schemas/webhooks.js';

/**
 * Records an event and queues its deliveries (withEvent, dispatch.ts): call it with the transaction's
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

/** The event eventParams() describe, its data as stored (JSON values): what fan-out matches and sends. */
export function recorded(event: unknown[]): RecordedEvent {
  const [id, merchantId, env, resource, type, data, createdAt] = event as [string, string, Scope['env'], EventResource, string, object, Date];
  return { id, merchant_id: merchantId, env, resource, type, data: JSON.parse(JSON.stringify(data)), created_at: createdAt };
}

/**
 * Records an event in one statement after the CTEs `ctes` (`name AS (...)`, data-modifying: the
 * change; their parameters are `params`, $1..$n): with `from`, only when that CTE returns a row.
 * Answers the event's id and whether it was written. Its deliveries, by what the caller knows of
 * the rules (`listeners`):
 *  - nothing (the default): the statement asks whether a rule of the event's resource listens
 *    (listensTo) and, when one does, they are queued before this returns (fanOut: the targets as
 *    they are now, one more statement), in the caller's transaction;
 *  - the targets of the event's resource (dispatch.ts, readTargets), read by the caller in this
 *    request (a test-mode charge, made with no transaction open): matched here and queued by the
 *    same statement, so the change, its event and its deliveries are written together or not at all;
 *  - `false`: the caller read that no rule listens: the event is written alone.
 */
export async function recordEvent(
  q: Queryable, ctes: string[], params: unknown[], from: string | undefined,
  scope: Scope, type: EventType, data: object, now: Date, listeners?: Target[] | false,
): Promise<{ id: string; written: boolean }> {
  const event = eventParams(scope, type, data, now);
  const id = event[0] as string;
  const first = params.length + 1;
  const head = ctes.length ? `WITH ${ctes.join(',\n')}\n` : '';
  if (listeners) {
    const e = recorded(event);
    const to = matching(listeners, e);
    if (to.length) {
      const d = deliveryCtes(e, to, first + event.length, 'ev');
      const rows = await q.query(`WITH ${[...ctes, `ev AS (${eventInsert(first, from)} RETURNING id)`, ...d.ctes].join(',\n')} SELECT id FROM ev`,
        [...params, ...event, ...d.params]);
      return { id, written: rows.length > 0 };
    }
  }
  if (listeners !== undefined) {
    const rows = await q.query(`${head}${eventInsert(first, from)}${from ? ' RETURNING id' : ''}`, [...params, ...event]);
    return { id, written: !from || rows.length > 0 };
  }
  const $ = (i: number) => `$${first + i}`;
  const rows = await q.query<{ heard: boolean }>(`${head}${eventInsert(first, from)} RETURNING ${listensTo($(1), $(2), $(3))} AS heard`,
    [...params, ...event]);
  if (rows[0]?.heard) await fanOut(q, recorded(event));
  return { id, written: rows.length > 0 };
}

/**
 * A change and its event in one statement (`WITH change AS (<change>) INSERT INTO events ...`):
 * one round trip instead of two on the hot paths. `change` is a data-modifying statement with
 * parameters $1..$n taken from `params`; null records the event alone. The event is written even
 * when the change touches no row: use it for changes that always write (an INSERT). Its
 * deliveries as recordEvent says (`listeners`).
 */
export async function withEvent(
  q: Queryable, change: string | null, params: unknown[], scope: Scope, type: EventType, data: object, now: Date,
  listeners?: Target[] | false,
): Promise<string> {
  return (await recordEvent(q, change ? [`change AS (${change})`] : [], params, undefined, scope, type, data, now, listeners)).id;
}

// --- reading (GET /events) ---------------------------------------------------------------------

/** An event as stored (schemas/webhooks.ts EventRowSchema). */
export type { EventRow };
const EVENT_SELECT = EVENT_COLUMNS.join(', ');

/** GET /events' filters, as its query table read them (schemas/webhooks.ts EventsQuery). */
import type { EventFilter } from '../../schemas/webhooks.js';
export type { EventFilter };

const EVENT_ID = /^evt_[0-9a-f]{24}$/;

/**
 * GET /events: the scope's events, newest first; `type` and `resource` filter. A webhook test
 * send (resource `test`, recorded for its delivery: webhook-test.ts) is not an event of the
 * merchant's resources: it is listed under deliveries only, and GET /events/:id knows no evt_test_ id.
 */
export async function listEvents(q: Queryable, scope: Scope, page: Page, filter: Partial<EventFilter> = {}) {
  const params: unknown[] = [scope.merchantId, scope.env];
  let where = "merchant_id = $1 AND env = $2 AND resource <> 'test'";
  for (const f of ['type', 'resource'] as const) {
    const v = filter[f];
    if (v === undefined) continue;
    params.push(v);
    where += ` AND ${f} = $${params.length}`;
  }
  return pagedQuery<EventRow>(q, page, `SELECT ${EVENT_SELECT} FROM events WHERE ${where} ORDER BY seq DESC`, `events WHERE ${where}`, params);
}

/** GET /events/:id: EVENT01 for an unknown id or another scope's event. */
export async function getEvent(q: Queryable, scope: Scope, id: string): Promise<EventRow> {
  const [row] = EVENT_ID.test(id)
    ? await q.query<EventRow>(`SELECT ${EVENT_SELECT} FROM events WHERE id = $1 AND merchant_id = $2 AND env = $3`, [id, scope.merchantId, scope.env])
    : [];
  if (!row) throw new GatewayError(E.EVENT_NOT_FOUND);
  return row;
}
