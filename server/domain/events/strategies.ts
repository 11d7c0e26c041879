import { pagedQuery, Queryable } from '../../db/index.js';
import { E, GatewayError, invalid, MUST, tooLong } from '../../errors.js';
import type { OutboundPolicy } from '../../net/outbound.js';
import { Scope, newId } from '../merchant/keys.js';
import { getRule } from './rules.js';
import { vetTargetUrl } from '../merchant/target-url.js';
import { isEmail, normalisePhone, type Page, text } from '../../lib/validate.js';
import {
  MODES, RELATION_COLUMNS, STRATEGY_COLUMNS, type Mode, type RelationRow, type Strategy, type StrategyInput, type StrategyRow,
} from '../../schemas/webhooks.js';

// Webhook strategies (spec 4.10): how a merchant hears about an event. `webhook` POSTs the signed
// event to a URL; `email` and `sms` queue a message in the notify outbox (the receipts transports).

export { MODES, type Mode };
/** A strategy's row (schemas/webhooks.ts StrategyRowSchema), and the strategy as read with its rules. */
export type { Strategy, StrategyRow };

const STRATEGY_ID = /^strat_[0-9a-f]{16}$/;
const MAX_URL = 2048;

const SELECT = `SELECT ${STRATEGY_COLUMNS.map((c) => `s.${c}`).join(', ')},
  COALESCE((SELECT json_agg(rs.rule_id ORDER BY rs.created_at, rs.rule_id) FROM webhook_rule_strategies rs
             WHERE rs.strategy_id = s.id), '[]') AS rules
  FROM webhook_strategies s`;

/** http or https, absolute, no credentials, at most 2048 characters; live mode requires https. */
export function readUrl(scope: Scope, raw: unknown): string {
  const s = typeof raw === 'string' || typeof raw === 'number' ? text(raw) : null;
  if (s === null) throw invalid('url', 'is required for mode webhook (an http or https URL)');
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw invalid('url', MUST.HTTP_URL);
  }
  if (!['http:', 'https:'].includes(u.protocol) || !u.hostname) throw invalid('url', MUST.HTTP_URL);
  if (u.username || u.password) throw invalid('url', 'must not carry credentials; verify the Tessera-Signature header instead');
  if (u.toString().length > MAX_URL) throw tooLong('url', MAX_URL); // as stored: percent-encoding lengthens it
  if (scope.env === 'live' && u.protocol !== 'https:') throw invalid('url', MUST.HTTPS_IN_LIVE);
  return u.toString();
}

/** The webhook URL a create or update may set, vetted before its transaction (malformed ones are left to readUrl). */
async function vetBodyUrl(scope: Scope, input: StrategyInput, policy?: OutboundPolicy): Promise<void> {
  let url: string;
  try {
    url = readUrl(scope, input.url);
  } catch {
    return;
  }
  await vetTargetUrl(scope, url, 'url', policy);
}

function readMode(v: unknown): Mode {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (!(MODES as readonly string[]).includes(s)) throw invalid('mode', `must be one of ${MODES.join(', ')}`);
  return s as Mode;
}

/** The target of a mode, from the request (`email` and `phone` are accepted beside the full names). */
function readTarget(scope: Scope, mode: Mode, input: StrategyInput): Pick<StrategyRow, 'url' | 'email_address' | 'phone_number'> {
  const out = { url: null as string | null, email_address: null as string | null, phone_number: null as string | null };
  if (mode === 'webhook') out.url = readUrl(scope, input.url);
  if (mode === 'email') {
    const raw = input.email_address ?? input.email;
    if (raw === undefined || raw === null || raw === '') throw invalid('email_address', 'is required for mode email');
    const e = typeof raw === 'string' ? raw.trim() : '';
    if (!isEmail(e)) throw invalid('email_address', 'is not a valid email address');
    out.email_address = e;
  }
  if (mode === 'sms') {
    const raw = input.phone_number ?? input.phone;
    if (raw === undefined || raw === null || raw === '') throw invalid('phone_number', 'is required for mode sms');
    const p = typeof raw === 'string' || typeof raw === 'number' ? normalisePhone(String(raw)) : null;
    if (!p) throw invalid('phone_number', MUST.PHONE);
    out.phone_number = p;
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

/**
 * Before the route opens its transaction (it resolves a name): the webhook url a new strategy, or
 * the update of strategy `id`, would keep. An unknown id still answers 200007 first.
 */
export async function vetStrategy(q: Queryable, scope: Scope, input: StrategyInput, id?: string, policy?: OutboundPolicy): Promise<void> {
  if (id === undefined) {
    const t = readTarget(scope, readMode(input.mode), input);
    if (t.url !== null) await vetTargetUrl(scope, t.url, 'url', policy);
    return;
  }
  const mode = typeof input.mode === 'string' ? input.mode.trim().toLowerCase() : input.mode;
  if (input.url !== undefined && (mode === undefined || mode === 'webhook')) {
    await getStrategy(q, scope, id);
    await vetBodyUrl(scope, input, policy);
  }
}

/** POST /webhooks/strategies: `mode` and its target (url, email_address or phone_number); the caller has run vetStrategy. */
export async function createStrategy(q: Queryable, scope: Scope, input: StrategyInput, now: Date): Promise<Strategy> {
  const mode = readMode(input.mode);
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
  const mode = input.mode === undefined ? s.mode : readMode(input.mode);
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
export async function relate(q: Queryable, scope: Scope, ruleId: string, strategyId: unknown, now: Date): Promise<RelationRow> {
  const rule = await getRule(q, scope, ruleId);
  if (strategyId === undefined || strategyId === null || strategyId === '') throw invalid('strategy_id', MUST.REQUIRED);
  const strategy = await getStrategy(q, scope, strategyId);
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
