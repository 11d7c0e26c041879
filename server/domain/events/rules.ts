import { pagedQuery, Queryable } from '../../db/index.js';
import type { Page } from '../../lib/validate.js';
import { E, GatewayError } from '../../errors.js';
import { Scope, newId } from '../merchant/keys.js';
import { take } from '../../schemas/fields.js';
import {
  EVENT_TYPES, RULE_COLUMNS, type EventResource, type Rule, type RuleCreateInput, type RuleInput, type RuleRow, type SentEventType,
} from '../../schemas/webhooks.js';

/** Whether a value names a resource of the event catalogue. */
export { isResource } from '../../schemas/webhooks.js';

/** Whether an event satisfies a rule: with the fan-out that applies it (dispatch.ts). */
export { ruleMatches } from './dispatch.js';

// Webhook rules (spec 4.10): which events of one resource, under which constraints, run the
// strategies related to the rule. Scoped to merchant and environment like every record.

/** A rule's row (schemas/webhooks.ts RuleRowSchema), and the rule as read with its strategies. */
export type { Rule, RuleRow };

const RULE_ID = /^rule_[0-9a-f]{16}$/;

const SELECT = `SELECT ${RULE_COLUMNS.map((c) => `r.${c}`).join(', ')},
  COALESCE((SELECT json_agg(rs.strategy_id ORDER BY rs.created_at, rs.strategy_id) FROM webhook_rule_strategies rs
             WHERE rs.rule_id = r.id), '[]') AS strategies
  FROM webhook_rules r`;

/**
 * The event types a rule keeps (RuleFields read them as sent): each by full name
 * (`transaction.failed`) or suffix (`failed`), a type of `resource` (WEBHOOK01 naming the first that
 * is not), once each, in the catalogue's order. None: every type of the resource.
 */
function eventTypesOf(resource: EventResource, sent: SentEventType[]): string[] {
  const known: readonly string[] = EVENT_TYPES[resource];
  const out: string[] = [];
  for (const { name, shown } of sent) {
    const full = name.includes('.') ? name : `${resource}.${name}`;
    if (!known.includes(full)) {
      throw new GatewayError(E.WEBHOOK_EVENT_UNKNOWN, `event_types: ${shown} is not an event of ${resource}; its events are ${known.join(', ')}`);
    }
    if (!out.includes(full)) out.push(full);
  }
  return out.sort((a, b) => known.indexOf(a) - known.indexOf(b));
}

async function findRule(q: Queryable, scope: Scope, id: unknown, lock = false): Promise<Rule | null> {
  if (typeof id !== 'string' || !RULE_ID.test(id)) return null;
  const [row] = await q.query<Rule>(`${SELECT} WHERE r.id = $1 AND r.merchant_id = $2 AND r.env = $3${lock ? ' FOR UPDATE' : ''}`,
    [id, scope.merchantId, scope.env]);
  return row ?? null;
}

/** 100001 for an unknown id, or a rule of another merchant or environment. */
export async function getRule(q: Queryable, scope: Scope, id: unknown, lock = false): Promise<Rule> {
  const row = await findRule(q, scope, id, lock);
  if (!row) throw new GatewayError(E.RULE_NOT_FOUND);
  return row;
}

export async function listRules(q: Queryable, scope: Scope, page: Page) {
  return pagedQuery<Rule>(q, page, `${SELECT} WHERE r.merchant_id = $1 AND r.env = $2 ORDER BY r.seq DESC`,
    'webhook_rules WHERE merchant_id = $1 AND env = $2', [scope.merchantId, scope.env]);
}

/** POST /webhooks/rules (RuleFields): event_resource required; event_types and constraints optional. */
export async function createRule(q: Queryable, scope: Scope, input: RuleCreateInput, now: Date): Promise<Rule> {
  const resource = take(input.event_resource);
  const types = eventTypesOf(resource, take(input.event_types) ?? []);
  const constraints = take(input.constraints) ?? [];
  const id = `rule_${newId(8)}`;
  await q.query(
    `INSERT INTO webhook_rules (id, merchant_id, env, event_resource, event_types, constraints, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [id, scope.merchantId, scope.env, resource, types, constraints, now],
  );
  return getRule(q, scope, id);
}

/**
 * PUT /webhooks/rule/:id (and /rules/:id; RuleUpdateFields), the rule found first: the fields given replace the stored ones; absent ones
 * stay. A new event_resource without event_types resets the types to "all of the new resource".
 */
export async function updateRule(q: Queryable, scope: Scope, id: string, input: RuleInput, now: Date): Promise<Rule> {
  const rule = await getRule(q, scope, id, true);
  const resource = take(input.event_resource) ?? rule.event_resource;
  const sentTypes = take(input.event_types);
  const types = sentTypes !== undefined ? eventTypesOf(resource, sentTypes) : resource === rule.event_resource ? rule.event_types : [];
  const constraints = take(input.constraints) ?? rule.constraints;
  await q.query(
    `UPDATE webhook_rules SET event_resource = $4, event_types = $5, constraints = $6, updated_at = $7
      WHERE id = $1 AND merchant_id = $2 AND env = $3`,
    [rule.id, scope.merchantId, scope.env, resource, types, constraints, now],
  );
  return getRule(q, scope, rule.id);
}

/** DELETE /webhooks/rules/:id: hard delete; its relations go with it, deliveries already made stay. */
export async function deleteRule(q: Queryable, scope: Scope, id: string): Promise<void> {
  if (typeof id !== 'string' || !RULE_ID.test(id)) throw new GatewayError(E.RULE_NOT_FOUND);
  const rows = await q.query('DELETE FROM webhook_rules WHERE id = $1 AND merchant_id = $2 AND env = $3 RETURNING id',
    [id, scope.merchantId, scope.env]);
  if (!rows[0]) throw new GatewayError(E.RULE_NOT_FOUND);
}
