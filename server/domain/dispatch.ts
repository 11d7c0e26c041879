import { Queryable } from '../db/index.js';
import { Constraint, matches } from './constraints.js';
import type { EventResource, EventRow } from './events.js';
import type { Scope } from './keys.js';
import { enqueue } from './outbox.js';
import type { RuleRow } from './rules.js';
import type { Mode } from './strategies.js';

// Fan-out: an event's deliveries are decided when it is recorded, in the transaction that records
// it (events.ts, withEvent): one delivery per strategy of a matching rule, as the rules and
// strategies are then. A webhook delivery is a signed POST queued on the callback queue
// (jobs/callbacks.ts, jobs/deliverer.ts), an email or SMS delivery a message in the notify
// outbox. Deleting or changing a rule or strategy afterwards changes nothing already recorded.
// The read side: events.ts, deliveries.ts.

/**
 * A webhook delivery gets this many attempts: with the callback backoff (30 s doubling to hourly)
 * the last one comes about 24 hours after the first.
 */
export const WEBHOOK_MAX_ATTEMPTS = 31;
const MAX_MAIL_JSON = 8000;

/** An event as recorded: `data` as stored (jsonb), which is what rules match and webhooks carry. */
export type RecordedEvent = Pick<EventRow, 'id' | 'merchant_id' | 'env' | 'resource' | 'type' | 'data' | 'created_at'>;

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
  merchant_name: string;
  /** The event's time on the real clock: its environment's time less the test clock's offset. */
  real_at: Date;
}

export interface FanOut {
  deliveries: number;
  /** Callbacks were queued (the callback deliverer may be kicked). */
  webhooks: number;
  /** Outbox messages were queued (the outbox worker may be kicked). */
  messages: number;
}

/** Whether an event (type and object) satisfies the rule. */
export function ruleMatches(rule: Pick<RuleRow, 'event_resource' | 'event_types' | 'constraints'>, type: string, data: unknown): boolean {
  if (type.slice(0, type.lastIndexOf('.')) !== rule.event_resource) return false;
  if (rule.event_types.length > 0 && !rule.event_types.includes(type)) return false;
  return matches(rule.constraints, data);
}

/** The bytes a webhook receives (and the signature covers): `{id, type, created_at, data}`. */
export function webhookBody(e: Pick<EventRow, 'id' | 'type' | 'created_at' | 'data'>): string {
  return JSON.stringify({ id: e.id, type: e.type, created_at: new Date(e.created_at).toISOString(), data: e.data });
}

function mailText(e: RecordedEvent, ruleId: string): string {
  let json = JSON.stringify(e.data, null, 2);
  if (json.length > MAX_MAIL_JSON) json = `${json.slice(0, MAX_MAIL_JSON)}\n… (truncated; GET /api/v1/events/${e.id} has it all)`;
  return `Event ${e.type} (${e.id}) in ${e.env} mode at ${new Date(e.created_at).toISOString()}.\n`
    + `Rule ${ruleId} matched.\n\n${json}\n`;
}

function smsText(e: RecordedEvent): string {
  const id = typeof e.data.id === 'string' || typeof e.data.id === 'number' ? ` ${e.data.id}` : '';
  return `Tessera (${e.env}): ${e.type}${id}. Event ${e.id}.`.slice(0, 160);
}

/**
 * The modes of the strategies related to the merchant environment's rules (none: no event of it
 * goes anywhere). The delivery loops are woken by requests of environments that have some.
 */
export async function listeningModes(q: Queryable, scope: Scope): Promise<Mode[]> {
  const rows = await q.query<{ mode: Mode }>(
    `SELECT DISTINCT s.mode FROM webhook_rules r
       JOIN webhook_rule_strategies rs ON rs.rule_id = r.id
       JOIN webhook_strategies s ON s.id = rs.strategy_id
      WHERE r.merchant_id = $1 AND r.env = $2`, [scope.merchantId, scope.env]);
  return rows.map((r) => r.mode);
}

/**
 * The rules of the event's merchant environment and resource with their strategies, oldest rule
 * first. Delivery queues run on real time, the event on its environment's: a test environment's
 * event time less its clock's offset (which only grows) is never later than real time, so the
 * delivery is due at once.
 */
const TARGETS = `SELECT r.id AS rule_id, r.event_resource, r.event_types, r.constraints,
       s.id AS strategy_id, s.mode, s.url, s.email_address, s.phone_number, m.name AS merchant_name,
       $4::timestamptz - coalesce((SELECT c.offset_ms FROM test_clocks c WHERE $2 = 'test' AND c.merchant_id = $1), 0)::float8
         * interval '1 millisecond' AS real_at
  FROM webhook_rules r
  JOIN webhook_rule_strategies rs ON rs.rule_id = r.id
  JOIN webhook_strategies s ON s.id = rs.strategy_id AND s.merchant_id = r.merchant_id AND s.env = r.env
  JOIN merchants m ON m.id = r.merchant_id
 WHERE r.merchant_id = $1 AND r.env = $2 AND r.event_resource = $3
 ORDER BY r.seq, rs.created_at, s.id`;

/** A webhook delivery: its callback and its record, one statement. */
const QUEUE_WEBHOOK = `WITH cb AS (
    INSERT INTO callbacks (merchant_id, env, billing_id, url, body, next_attempt_at, created_at, max_attempts)
    VALUES ($1, $2, NULL, $3, $4, $5, $5, $6) RETURNING id)
  INSERT INTO webhook_deliveries (merchant_id, env, event_id, rule_id, strategy_id, mode, target, callback_id, outbox_id, created_at)
  SELECT $1, $2, $7, $8, $9, 'webhook', $3, cb.id, NULL, $5 FROM cb`;

/**
 * Queues the deliveries of one event, in the caller's transaction (the one recording the event):
 * one per strategy related to a matching rule (one per strategy even when several of its rules
 * match; the delivery names the first, oldest rule first), each with the target the strategy has
 * now. Nothing when no rule of the event's resource has a strategy.
 */
export async function fanOut(q: Queryable, e: RecordedEvent): Promise<FanOut> {
  const result: FanOut = { deliveries: 0, webhooks: 0, messages: 0 };
  const targets = await q.query<Target>(TARGETS, [e.merchant_id, e.env, e.resource, e.created_at]);
  const done = new Set<string>();
  for (const t of targets) {
    if (done.has(t.strategy_id) || !ruleMatches(t, e.type, e.data)) continue;
    done.add(t.strategy_id);
    const at = new Date(t.real_at);
    if (t.mode === 'webhook') {
      await q.query(QUEUE_WEBHOOK, [e.merchant_id, e.env, t.url, webhookBody(e), at, WEBHOOK_MAX_ATTEMPTS, e.id, t.rule_id, t.strategy_id]);
      result.webhooks++;
    } else {
      const scope: Scope = { merchantId: e.merchant_id, env: e.env };
      const target = t.mode === 'email' ? t.email_address! : t.phone_number!;
      const outboxId = await enqueue(q, scope, t.mode === 'email'
        ? { kind: 'email', to: target, subject: `[Tessera] ${e.type} ${String(e.data.id ?? e.id)}`.slice(0, 255), text: mailText(e, t.rule_id), from_name: 'Tessera' }
        : { kind: 'sms', to: target, text: smsText(e) }, at, `event:${e.id}`);
      await q.query(
        `INSERT INTO webhook_deliveries (merchant_id, env, event_id, rule_id, strategy_id, mode, target, callback_id, outbox_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $9)`,
        [e.merchant_id, e.env, e.id, t.rule_id, t.strategy_id, t.mode, target, outboxId, at],
      );
      result.messages++;
    }
    result.deliveries++;
  }
  return result;
}

export interface DispatchResult extends FanOut {
  events: number;
}

/**
 * Events left undispatched by a gateway version that matched events later, in a dispatcher round
 * (before issue 27; events recorded since are fanned out as they are recorded and never left
 * undispatched): in the caller's transaction, claims up to `limit` of them (FOR UPDATE SKIP LOCKED,
 * so nodes never take the same one), fans each out against the rules as they are now, and marks
 * them dispatched at `now`. A crash rolls it all back and they are claimed again.
 */
export async function dispatchEvents(q: Queryable, now: Date, limit = 100): Promise<DispatchResult> {
  const events = await q.query<EventRow>(
    'SELECT * FROM events WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED', [limit]);
  const result: DispatchResult = { events: events.length, deliveries: 0, webhooks: 0, messages: 0 };
  if (events.length === 0) return result;
  for (const e of events) {
    const r = await fanOut(q, e);
    result.deliveries += r.deliveries;
    result.webhooks += r.webhooks;
    result.messages += r.messages;
  }
  await q.query('UPDATE events SET dispatched_at = $2 WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb))',
    [events.map((e) => e.id), now]);
  return result;
}
