import { Queryable } from '../../db/index.js';
import { Constraint, matches } from './constraints.js';
import { EVENT_COLUMNS, type EventResource, type EventRow, type Mode, type RuleRow } from '../../schemas/webhooks.js';
import type { Scope } from '../merchant/keys.js';
import type { OutboxMessage } from './outbox.js';

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

/** An event as recorded: `data` as stored (JSON values), which is what rules match and webhooks carry. */
export type RecordedEvent = Pick<EventRow, 'id' | 'merchant_id' | 'env' | 'resource' | 'type' | 'data' | 'created_at'>;

/** A strategy related to a rule of the event's merchant environment and resource (readTargets). */
export interface Target {
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

/** The strategies related to the merchant environment's rules for `resource`, oldest rule first. */
export function readTargets(q: Queryable, scope: Scope, resource: string): Promise<Target[]> {
  return q.query<Target>(
    `SELECT r.id AS rule_id, r.event_resource, r.event_types, r.constraints,
            s.id AS strategy_id, s.mode, s.url, s.email_address, s.phone_number
       FROM webhook_rules r
       JOIN webhook_rule_strategies rs ON rs.rule_id = r.id
       JOIN webhook_strategies s ON s.id = rs.strategy_id AND s.merchant_id = r.merchant_id AND s.env = r.env
      WHERE r.merchant_id = $1 AND r.env = $2 AND r.event_resource = $3
      ORDER BY r.seq, rs.created_at, s.id`,
    [scope.merchantId, scope.env, resource],
  );
}

/**
 * Where an event goes: one target per strategy related to a matching rule (one even when several
 * of its rules match; the delivery names the first, oldest rule first).
 */
export function matching(targets: Target[], e: Pick<RecordedEvent, 'type' | 'data'>): Target[] {
  const seen = new Set<string>();
  return targets.filter((t) => !seen.has(t.strategy_id) && ruleMatches(t, e.type, e.data) && seen.add(t.strategy_id));
}

/**
 * The deliveries of event `e` to `to`, as CTEs of one statement, their parameters from `$first`:
 * `rt` (the event's time on the real clock), then per target its callback or outbox message and
 * its webhook_deliveries record. With `after`, the name of a CTE that writes the event, they are
 * written only if it wrote a row. Delivery queues run on real time, the event on its environment's:
 * a test environment's event time less its clock's offset (which only grows) is never later than
 * real time, so the delivery is due at once. (No `*` in the text: db.ts prepares only texts without one.)
 */
export function deliveryCtes(e: RecordedEvent, to: Target[], first: number, after?: string): { ctes: string[]; params: unknown[]; result: FanOut } {
  const params: unknown[] = [e.merchant_id, e.env, e.id, e.created_at];
  const $ = (v: unknown) => `$${first + params.push(v) - 1}`;
  const [m, env, id, at] = [0, 1, 2, 3].map((i) => `$${first + i}`);
  const from = after ? `rt, ${after}` : 'rt';
  const ctes = [`rt AS (SELECT ${at}::timestamptz - make_interval(secs => coalesce(
      (SELECT c.offset_ms FROM test_clocks c WHERE c.merchant_id = ${m} AND ${env} = 'test'), 0) / 1000.0) AS at)`];
  const result: FanOut = { deliveries: to.length, webhooks: 0, messages: 0 };
  to.forEach((t, i) => {
    const record = (mode: string, target: string, callback: string, outbox: string, row: string) =>
      `d${i} AS (INSERT INTO webhook_deliveries (merchant_id, env, event_id, rule_id, strategy_id, mode, target, callback_id, outbox_id, created_at)
        SELECT ${m}, ${env}, ${id}, ${$(t.rule_id)}, ${$(t.strategy_id)}, ${mode}, ${target}, ${callback}, ${outbox}, rt.at FROM ${row}, rt)`;
    if (t.mode === 'webhook') {
      const url = $(t.url);
      ctes.push(`c${i} AS (INSERT INTO callbacks (merchant_id, env, billing_id, url, body, next_attempt_at, created_at, max_attempts)
        SELECT ${m}, ${env}, NULL, ${url}, ${$(webhookBody(e))}, rt.at, rt.at, ${WEBHOOK_MAX_ATTEMPTS} FROM ${from} RETURNING id)`,
      record("'webhook'", url, `c${i}.id`, 'NULL', `c${i}`));
      result.webhooks++;
      return;
    }
    const target = t.mode === 'email' ? t.email_address! : t.phone_number!;
    const { kind, ...payload }: OutboxMessage = t.mode === 'email'
      ? { kind: 'email', to: target, subject: `[Tessera] ${e.type} ${String(e.data.id ?? e.id)}`.slice(0, 255), text: mailText(e, t.rule_id), from_name: 'Tessera' }
      : { kind: 'sms', to: target, text: smsText(e) };
    // The outbox message as domain/events/outbox.ts enqueue() writes it, its source the event.
    ctes.push(`o${i} AS (INSERT INTO outbox (merchant_id, env, kind, source, payload, next_attempt_at, created_at)
      SELECT ${m}, ${env}, ${$(kind)}, 'event:' || ${id}, ${$(payload)}, rt.at, rt.at FROM ${from} RETURNING id)`,
    record($(t.mode), $(target), 'NULL', `o${i}.id`, `o${i}`));
    result.messages++;
  });
  return { ctes, params, result };
}

/**
 * Queues the deliveries of a recorded event, in the caller's transaction (the one recording it):
 * reads the targets of its resource as they are now, matches, and writes them all in one statement.
 */
export async function fanOut(q: Queryable, e: RecordedEvent): Promise<FanOut> {
  const to = matching(await readTargets(q, { merchantId: e.merchant_id, env: e.env }, e.resource), e);
  if (to.length === 0) return { deliveries: 0, webhooks: 0, messages: 0 };
  const { ctes, params, result } = deliveryCtes(e, to, 1);
  await q.query(`WITH ${ctes.join(',\n')} SELECT 1`, params);
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
    `SELECT ${EVENT_COLUMNS.join(', ')} FROM events WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`, [limit]);
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
