import { pagedQuery, Queryable } from '../../db/index.js';
import { badRequest, E, GatewayError, invalid, MUST } from '../../errors.js';
import { Frequency, FREQUENCIES, isFrequency, readDay } from './calendar.js';
import type { OutboundPolicy } from '../../net/outbound.js';
import type { Scope } from '../merchant/keys.js';
import { vetTargetUrl } from '../merchant/target-url.js';
import { isScalar, type OpenPage, parseAmount, text } from '../../lib/validate.js';

export interface PlanRow {
  id: number;
  merchant_id: string;
  env: string;
  name: string;
  frequency: Frequency;
  day: number | null;
  amount: number;
  callback_url: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  active_subscriptions?: number;
}

const MAX_NAME = 255;
const MAX_URL = 2048;

/** An integer id from a path or body; anything else can name no record. */
export function readIntId(v: unknown): number | null {
  const s = isScalar(v) ? String(v).trim() : '';
  return /^\d{1,15}$/.test(s) ? Number(s) : null;
}

/**
 * http(s) only, no credentials in the URL; live mode requires https (the billing leaves over the
 * network, signed but not encrypted by us).
 */
export function readCallbackUrl(scope: Scope, raw: unknown): string | null {
  const s = text(raw);
  if (s === null) return null;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw invalid('callback_url', MUST.HTTP_URL);
  }
  // The length as stored: the URL parser percent-encodes, up to 9 characters for one.
  if (u.toString().length > MAX_URL || !['http:', 'https:'].includes(u.protocol) || u.username || u.password) {
    throw invalid('callback_url', `must be an http or https URL of at most ${MAX_URL} characters, without credentials`);
  }
  if (scope.env === 'live' && u.protocol !== 'https:') throw invalid('callback_url', MUST.HTTPS_IN_LIVE);
  return u.toString();
}

/** POST /plans: frequency, name and amount required; day and callback_url optional. */
/**
 * The checks of a new plan that wait on the network (the callback_url's host is resolved): run
 * before the caller opens its transaction, so a slow name server holds no connection or lock.
 */
export async function vetPlan(scope: Scope, body: Record<string, unknown>, policy?: OutboundPolicy): Promise<void> {
  const callbackUrl = readCallbackUrl(scope, body.callback_url);
  if (callbackUrl !== null) await vetTargetUrl(scope, callbackUrl, 'callback_url', policy);
}

/** A new plan; the caller has run vetPlan on the same body first. */
export async function createPlan(q: Queryable, scope: Scope, body: Record<string, unknown>, now: Date): Promise<PlanRow> {
  const frequency = text(body.frequency, 'frequency')?.toLowerCase();
  if (!isFrequency(frequency)) throw invalid('frequency', `must be one of ${FREQUENCIES.join(', ')}`);
  const name = text(body.name, 'name');
  if (name === null || name.length > MAX_NAME) throw invalid('name', `is required, at most ${MAX_NAME} characters`);
  const amount = parseAmount(body.amount);
  if (typeof amount !== 'number') throw new GatewayError(E.AMOUNT_INVALID);
  const day = readDay(frequency, body.day);
  if ('error' in day) throw badRequest(day.error);
  const callbackUrl = readCallbackUrl(scope, body.callback_url);
  const [row] = await q.query<PlanRow>(
    `INSERT INTO plans (merchant_id, env, name, frequency, day, amount, callback_url, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING *, 0 AS active_subscriptions`,
    [scope.merchantId, scope.env, name, frequency, day.day, amount, callbackUrl, now],
  );
  return row;
}

const SELECT_PLAN = `SELECT p.*, (SELECT count(*)::int FROM subscriptions s
    WHERE s.merchant_id = p.merchant_id AND s.env = p.env AND s.plan_id = p.id AND s.status = 'active') AS active_subscriptions
  FROM plans p`;

/** A plan of this merchant environment that is not deleted (PLAN01 otherwise). */
export async function getPlan(q: Queryable, scope: Scope, rawId: unknown, opts: { lock?: 'share' | 'update' } = {}): Promise<PlanRow> {
  const id = readIntId(rawId);
  const rows = id === null ? [] : await q.query<PlanRow>(
    `${opts.lock ? 'SELECT * FROM plans p' : SELECT_PLAN}
      WHERE p.id = $1 AND p.merchant_id = $2 AND p.env = $3 AND p.deleted_at IS NULL${opts.lock ? ` FOR ${opts.lock.toUpperCase()}` : ''}`,
    [id, scope.merchantId, scope.env],
  );
  if (!rows[0]) throw new GatewayError(E.PLAN_NOT_FOUND);
  return rows[0];
}

/** A null limit lists every row from the offset on (LIMIT NULL). */
export async function listPlans(q: Queryable, scope: Scope, page: OpenPage) {
  return pagedQuery<PlanRow>(q, page, `${SELECT_PLAN} WHERE p.merchant_id = $1 AND p.env = $2 AND p.deleted_at IS NULL ORDER BY p.id DESC`,
    'plans WHERE merchant_id = $1 AND env = $2 AND deleted_at IS NULL', [scope.merchantId, scope.env]);
}

/**
 * DELETE /plans/:id. Soft, so billings and past subscriptions keep naming it. A plan with an active
 * subscription is 10010: unsubscribe its customers first. The plan row is locked, and subscribing
 * locks it too, so a subscription cannot slip in between the check and the delete.
 */
export async function deletePlan(q: Queryable, scope: Scope, rawId: unknown, now: Date): Promise<void> {
  const plan = await getPlan(q, scope, rawId, { lock: 'update' });
  const [active] = await q.query(
    `SELECT count(*)::int AS n FROM subscriptions WHERE merchant_id = $1 AND env = $2 AND plan_id = $3 AND status = 'active'`,
    [scope.merchantId, scope.env, plan.id],
  );
  if (active.n > 0) {
    throw new GatewayError(E.PLAN_NOT_DELETABLE, `plan cannot be deleted: it has ${active.n} active subscription${active.n === 1 ? '' : 's'}; unsubscribe them first`);
  }
  await q.query('UPDATE plans SET deleted_at = $4, updated_at = $4 WHERE id = $1 AND merchant_id = $2 AND env = $3', [
    plan.id, scope.merchantId, scope.env, now,
  ]);
}
