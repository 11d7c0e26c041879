import { pagedQuery, Queryable } from '../../db/index.js';
import type { Page } from '../../lib/validate.js';
import { E, GatewayError, invalid } from '../../errors.js';
import { Constraint, parseConstraints } from './constraints.js';
import { Scope, newId } from '../merchant/keys.js';
import { decodeJsonParam } from '../../lib/input.js';
import { EVENT_TYPES, RULE_COLUMNS, type EventResource, type Rule, type RuleInput, type RuleRow } from '../../schemas/webhooks.js';

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

export function isResource(v: unknown): v is EventResource {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(EVENT_TYPES, v);
}

function readResource(v: unknown): EventResource {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : v;
  if (s === undefined || s === null || s === '') throw new GatewayError(E.WEBHOOK_EVENT_UNKNOWN, `event_resource is required; one of ${Object.keys(EVENT_TYPES).join(', ')}`);
  if (!isResource(s)) throw new GatewayError(E.WEBHOOK_EVENT_UNKNOWN, `event_resource must be one of ${Object.keys(EVENT_TYPES).join(', ')}`);
  return s;
}

/**
 * event_types: a list (JSON, JSON-encoded string, form `event_types[]=…`) or one comma-separated
 * string of the resource's types, by full name (`transaction.failed`) or suffix (`failed`).
 * Absent or empty: every type of the resource.
 */
function readEventTypes(resource: EventResource, v: unknown): string[] {
  if (v === undefined || v === null || v === '') return [];
  let list: unknown = v;
  if (typeof list === 'string') {
    const s = list.trim();
    // Decoded as the request's own JSON is checked: depth, NUL, lone surrogates.
    if (s.startsWith('[')) list = decodeJsonParam(s, 'event_types', () => invalid('event_types', 'must be a list of event types'));
    else list = s.split(',');
  }
  if (list && typeof list === 'object' && !Array.isArray(list)) list = Object.values(list);
  if (!Array.isArray(list)) throw invalid('event_types', 'must be a list of event types');
  const known: readonly string[] = EVENT_TYPES[resource];
  const out: string[] = [];
  for (const item of list) {
    const raw = typeof item === 'string' ? item.trim().toLowerCase() : '';
    const full = raw.includes('.') ? raw : `${resource}.${raw}`;
    if (!known.includes(full)) {
      const shown = JSON.stringify(item) ?? String(item);
      throw new GatewayError(E.WEBHOOK_EVENT_UNKNOWN,
        `event_types: ${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown} is not an event of ${resource}; its events are ${known.join(', ')}`);
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
export async function createRule(q: Queryable, scope: Scope, input: RuleInput, now: Date): Promise<Rule> {
  const resource = readResource(input.event_resource);
  const types = readEventTypes(resource, input.event_types);
  const constraints = parseConstraints(input.constraints);
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
  const resource = input.event_resource === undefined ? rule.event_resource : readResource(input.event_resource);
  const types = input.event_types !== undefined
    ? readEventTypes(resource, input.event_types)
    : resource === rule.event_resource ? rule.event_types : [];
  const constraints = input.constraints !== undefined ? parseConstraints(input.constraints) : rule.constraints;
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
