import { Queryable } from '../db/index.js';
import { Constraint } from './constraints.js';
import { EventResource, EventRow, webhookBody } from './events.js';
import { Scope } from './keys.js';
import { enqueue } from './outbox.js';
import { ruleMatches } from './rules.js';
import type { Mode } from './strategies.js';

// Webhook delivery: the dispatcher turns each event into one delivery per strategy of a matching
// rule; a webhook delivery is a signed POST queued on the callback queue (jobs/callbacks.ts), an
// email or SMS delivery a message in the notify outbox. The read side: events.ts, deliveries.ts.

/**
 * A webhook delivery gets this many attempts: with the callback backoff (30 s doubling to hourly)
 * the last one comes about 24 hours after the first.
 */
export const WEBHOOK_MAX_ATTEMPTS = 31;
const MAX_MAIL_JSON = 8000;

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

/** Whether the merchant environment has any webhook rule: without one, no event of it goes anywhere. */
export async function hasWebhookRules(q: Queryable, scope: Scope): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM webhook_rules WHERE merchant_id = $1 AND env = $2 LIMIT 1', [scope.merchantId, scope.env]);
  return rows.length > 0;
}

/**
 * One round of the dispatcher, in the caller's transaction: claims up to `limit` undispatched events
 * (FOR UPDATE SKIP LOCKED, so several nodes share the work and never take the same event), matches
 * them against the rules of the event's merchant and environment as they are now, creates one
 * delivery per related strategy (one per strategy even when several of its rules match), and marks
 * the events dispatched. A crash anywhere rolls it all back and the events are claimed again.
 */
export async function dispatchEvents(q: Queryable, now: Date, limit = 100): Promise<DispatchResult> {
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
}
