import { pagedQuery, Queryable } from '../../db/index.js';
import { E, GatewayError, invalid, MUST } from '../../errors.js';
import type { OutboundPolicy } from '../../net/outbound.js';
import { Scope, newId } from '../merchant/keys.js';
import { getRule } from './rules.js';
import { vetTargetUrl } from '../merchant/target-url.js';
import type { Page } from '../../lib/validate.js';
import { type Later, take } from '../../schemas/fields.js';
import {
  MODES, RELATION_COLUMNS, STRATEGY_COLUMNS, type Mode, type RelationRow, type Strategy, type StrategyCreateInput, type StrategyInput, type StrategyRow,
} from '../../schemas/webhooks.js';

// Webhook strategies (spec 4.10): how a merchant hears about an event. `webhook` POSTs the signed
// event to a URL; `email` and `sms` queue a message in the notify outbox (the receipts transports).

export { MODES, type Mode };
/** A strategy's row (schemas/webhooks.ts StrategyRowSchema), and the strategy as read with its rules. */
export type { Strategy, StrategyRow };

const STRATEGY_ID = /^strat_[0-9a-f]{16}$/;

const SELECT = `SELECT ${STRATEGY_COLUMNS.map((c) => `s.${c}`).join(', ')},
  COALESCE((SELECT json_agg(rs.rule_id ORDER BY rs.created_at, rs.rule_id) FROM webhook_rule_strategies rs
             WHERE rs.strategy_id = s.id), '[]') AS rules
  FROM webhook_strategies s`;

/**
 * The webhook URL a strategy keeps: StrategyFields read it (http or https, absolute, no
 * credentials, at most 2048 characters); live mode requires https.
 */
export function readUrl(scope: Scope, url: Later<string | undefined>): string {
  const u = take(url);
  if (u === undefined) throw invalid('url', 'is required for mode webhook (an http or https URL)');
  if (scope.env === 'live' && u.startsWith('http:')) throw invalid('url', MUST.HTTPS_IN_LIVE);
  return u;
}

/** The webhook URL a create or update may set, vetted before its transaction (refused ones are left to readUrl). */
async function vetBodyUrl(scope: Scope, input: StrategyInput, policy?: OutboundPolicy): Promise<void> {
  let url: string;
  try {
    url = readUrl(scope, input.url);
  } catch {
    return;
  }
  await vetTargetUrl(scope, url, 'url', policy);
}

/** The target of a mode, from the request (`email` and `phone` are read when the full names are not sent, or null). */
function readTarget(scope: Scope, mode: Mode, input: StrategyInput): Pick<StrategyRow, 'url' | 'email_address' | 'phone_number'> {
  const out = { url: null as string | null, email_address: null as string | null, phone_number: null as string | null };
  if (mode === 'webhook') out.url = readUrl(scope, input.url);
  if (mode === 'email') {
    const e = input.email_address ?? input.email;
    if (e === undefined || e === null) throw invalid('email_address', 'is required for mode email');
    out.email_address = take(e);
  }
  if (mode === 'sms') {
    const p = input.phone_number ?? input.phone;
    if (p === undefined || p === null) throw invalid('phone_number', 'is required for mode sms');
    out.phone_number = take(p);
  }
  return out;
}

async function findStrategy(q: Queryable, scope: Scope, id: unknown, lock = false): Promise<Strategy | null> {
  if (typeof id !== 'string' || !STRATEGY_ID.test(id.trim())) return null;
  const [row] = await q.query<Strategy>(`${SELECT} WHERE s.id = $1 AND s.merchant_id = $2 AND s.env = $3${lock ? ' FOR UPDATE' : ''}`,
    [id.trim(), scope.merchantId, scope.env]);
  return row ?? null;
}

/** 200007 for an unknown id, or a strategy of another merchant or environment. */
export async function getStrategy(q: Queryable, scope: Scope, id: unknown, lock = false): Promise<Strategy> {
  const row = await findStrategy(q, scope, id, lock);
  if (!row) throw new GatewayError(E.STRATEGY_NOT_FOUND);
  return row;
}

export async function listStrategies(q: Queryable, scope: Scope, page: Page) {
  return pagedQuery<Strategy>(q, page, `${SELECT} WHERE s.merchant_id = $1 AND s.env = $2 ORDER BY s.seq DESC`,
    'webhook_strategies WHERE merchant_id = $1 AND env = $2', [scope.merchantId, scope.env]);
}

/** Before POST /webhooks/strategies opens its transaction (it resolves a name): the webhook url the new strategy would keep. */
export async function vetNewStrategy(scope: Scope, input: StrategyCreateInput, policy?: OutboundPolicy): Promise<void> {
  const t = readTarget(scope, take(input.mode), input);
  if (t.url !== null) await vetTargetUrl(scope, t.url, 'url', policy);
}

/**
 * Before PUT /webhooks/strategies/:id opens its transaction: the webhook url the update would keep.
 * An unknown id still answers 200007 first.
 */
export async function vetStrategy(q: Queryable, scope: Scope, id: string, input: StrategyInput, policy?: OutboundPolicy): Promise<void> {
  if (input.url !== undefined && (input.mode === undefined || input.mode === 'webhook')) {
    await getStrategy(q, scope, id);
    await vetBodyUrl(scope, input, policy);
  }
}

/** POST /webhooks/strategies: `mode` and its target (url, email_address or phone_number); the caller has run vetStrategy. */
export async function createStrategy(q: Queryable, scope: Scope, input: StrategyCreateInput, now: Date): Promise<Strategy> {
  const mode = take(input.mode);
  const t = readTarget(scope, mode, input);
  const id = `strat_${newId(8)}`;
  await q.query(
    `INSERT INTO webhook_strategies (id, merchant_id, env, mode, url, email_address, phone_number, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
    [id, scope.merchantId, scope.env, mode, t.url, t.email_address, t.phone_number, now],
  );
  return getStrategy(q, scope, id);
}

/**
 * PUT /webhooks/strategies/:id: `mode` may change; the target of the (new) mode is read from the
 * body when given, else kept when the mode is unchanged, else required. Other modes' targets clear.
 * The caller has run vetStrategy with the id.
 */
export async function updateStrategy(q: Queryable, scope: Scope, id: string, input: StrategyInput, now: Date): Promise<Strategy> {
  const s = await getStrategy(q, scope, id, true);
  const mode = take(input.mode) ?? s.mode;
  const given = mode === 'webhook' ? input.url : mode === 'email' ? input.email_address ?? input.email : input.phone_number ?? input.phone;
  const t = given === undefined && mode === s.mode ? { url: s.url, email_address: s.email_address, phone_number: s.phone_number } : readTarget(scope, mode, input);
  await q.query(
    `UPDATE webhook_strategies SET mode = $4, url = $5, email_address = $6, phone_number = $7, updated_at = $8
      WHERE id = $1 AND merchant_id = $2 AND env = $3`,
    [s.id, scope.merchantId, scope.env, mode, t.url, t.email_address, t.phone_number, now],
  );
  return getStrategy(q, scope, s.id);
}

/** DELETE /webhooks/strategies/:id: hard delete; its relations go with it; deliveries made stay recorded. */
export async function deleteStrategy(q: Queryable, scope: Scope, id: string): Promise<void> {
  if (typeof id !== 'string' || !STRATEGY_ID.test(id)) throw new GatewayError(E.STRATEGY_NOT_FOUND);
  const rows = await q.query('DELETE FROM webhook_strategies WHERE id = $1 AND merchant_id = $2 AND env = $3 RETURNING id',
    [id, scope.merchantId, scope.env]);
  if (!rows[0]) throw new GatewayError(E.STRATEGY_NOT_FOUND);
}

// --- relations -----------------------------------------------------------------------------------

/** A rule-strategy relation (schemas/webhooks.ts RelationRowSchema). */
export type { RelationRow };

/**
 * POST /webhooks/rules/:rule_id/strategies {strategy_id}: 100001 / 200007 for either side unknown
 * in this scope. Relating twice is not an error: the existing relation is answered.
 */
export async function relate(q: Queryable, scope: Scope, ruleId: string, strategyId: Later<string | null>, now: Date): Promise<RelationRow> {
  const rule = await getRule(q, scope, ruleId);
  const strategy = await getStrategy(q, scope, take(strategyId));
  await q.query(
    `INSERT INTO webhook_rule_strategies (rule_id, strategy_id, merchant_id, env, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (rule_id, strategy_id) DO NOTHING`,
    [rule.id, strategy.id, scope.merchantId, scope.env, now],
  );
  const [row] = await q.query<RelationRow>(`SELECT ${RELATION_COLUMNS.join(', ')} FROM webhook_rule_strategies WHERE rule_id = $1 AND strategy_id = $2`,
    [rule.id, strategy.id]);
  return row;
}

/**
 * DELETE /webhooks/rules/:rule_id/strategies/:strategy_id: 100001 when the rule is unknown; 200007
 * when the strategy is unknown or not related to this rule.
 */
export async function unrelate(q: Queryable, scope: Scope, ruleId: string, strategyId: string): Promise<void> {
  const rule = await getRule(q, scope, ruleId);
  const strategy = await getStrategy(q, scope, strategyId);
  const rows = await q.query('DELETE FROM webhook_rule_strategies WHERE rule_id = $1 AND strategy_id = $2 AND merchant_id = $3 AND env = $4 RETURNING rule_id',
    [rule.id, strategy.id, scope.merchantId, scope.env]);
  if (!rows[0]) throw new GatewayError(E.STRATEGY_NOT_FOUND, 'strategy is not related to this rule');
}
