import { pagedQuery, Queryable } from '../../db/index.js';
import type { Page } from '../../lib/validate.js';
import { E, GatewayError } from '../../errors.js';
import type { Scope } from '../merchant/keys.js';
import { OUTBOX_COLUMNS, OUTBOX_STATUSES, type MessageKind, type OutboxRow, type OutboxStatus } from '../../schemas/outbox.js';

// The durable outbox: whatever sends email or SMS (receipts now, webhook strategies and invoices
// later) writes a row with enqueue() inside its own database transaction, and a worker
// (notify/outbox.ts) delivers it. A message is never lost: a failed send is retried with
// exponential backoff, a message that keeps failing ends as 'failed' and stays in the table, where
// it can be queued again. A test-mode message the operator has not allowed through
// (TESSERA_TEST_DELIVERY_TO) ends as 'captured' instead of being sent: kept here, listed like the others.
// Statuses: pending → sent | failed | captured.

export interface EmailMessage {
  kind: 'email';
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Display name of the sender (the merchant); the address is the transport's. */
  from_name?: string;
}

export interface SmsMessage {
  kind: 'sms';
  to: string;
  text: string;
}

export type OutboxMessage = EmailMessage | SmsMessage;
/** The kinds and states of a message, and its row (schemas/outbox.ts OutboxRowSchema). */
export { OUTBOX_STATUSES, type MessageKind, type OutboxRow, type OutboxStatus };
const OUTBOX_SELECT = OUTBOX_COLUMNS.join(', ');

/**
 * Queues a message; call it inside the transaction that creates what the message is about, so
 * both commit or neither does. `source` names the producer (e.g. `receipt:12`). Returns the id.
 */
export async function enqueue(q: Queryable, scope: Scope, message: OutboxMessage, now: Date, source?: string): Promise<number> {
  const { kind, ...payload } = message;
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO outbox (merchant_id, env, kind, source, payload, next_attempt_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
    [scope.merchantId, scope.env, kind, source ?? null, payload, now],
  );
  return row.id;
}

// --- reading (GET /outbox) -------------------------------------------------------------------

export interface OutboxFilter {
  status?: string;
  kind?: string;
  source?: string;
}

function where(scope: Scope, filter: OutboxFilter) {
  const params: unknown[] = [scope.merchantId, scope.env];
  let sql = 'merchant_id = $1 AND env = $2';
  for (const f of ['status', 'kind', 'source'] as const) {
    if (filter[f] === undefined) continue;
    params.push(filter[f]);
    sql += ` AND ${f} = $${params.length}`;
  }
  return { sql, params };
}

export async function listOutbox(q: Queryable, scope: Scope, page: Page, filter: OutboxFilter = {}) {
  const w = where(scope, filter);
  return pagedQuery<OutboxRow>(q, page, `SELECT ${OUTBOX_SELECT} FROM outbox WHERE ${w.sql} ORDER BY id DESC`, `outbox WHERE ${w.sql}`, w.params);
}

export async function getOutboxMessage(q: Queryable, scope: Scope, id: string): Promise<OutboxRow> {
  const rows = /^\d{1,15}$/.test(id)
    ? await q.query<OutboxRow>(`SELECT ${OUTBOX_SELECT} FROM outbox WHERE id = $1 AND merchant_id = $2 AND env = $3`, [Number(id), scope.merchantId, scope.env])
    : [];
  if (!rows[0]) throw new GatewayError(E.OUTBOX_NOT_FOUND);
  return rows[0];
}

/**
 * Queues a failed (or pending) message again now, with a fresh attempt budget; a sent one is
 * OUTBOX02. A captured one may be queued again too: the worker captures it again unless the
 * operator has since allowed its recipient.
 */
export async function retryOutboxMessage(q: Queryable, scope: Scope, id: string, now: Date): Promise<OutboxRow> {
  const row = await getOutboxMessage(q, scope, id);
  if (row.status === 'sent') throw new GatewayError(E.OUTBOX_SENT);
  const [updated] = await q.query<OutboxRow>(
    `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = $4
      WHERE id = $1 AND merchant_id = $2 AND env = $3 AND status <> 'sent' RETURNING ${OUTBOX_SELECT}`,
    [row.id, scope.merchantId, scope.env, now],
  );
  if (!updated) throw new GatewayError(E.OUTBOX_SENT);
  return updated;
}
