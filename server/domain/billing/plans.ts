import { pagedQuery, Queryable } from '../../db/index.js';
import { badRequest, E, GatewayError, invalid, MUST } from '../../errors.js';
import { readDay } from './calendar.js';
import type { OutboundPolicy } from '../../net/outbound.js';
import type { Scope } from '../merchant/keys.js';
import { vetTargetUrl } from '../merchant/target-url.js';
import type { OpenPage } from '../../lib/validate.js';
import { PLAN_COLUMNS, type PlanInput, type PlanView } from '../../schemas/plans.js';
import { take } from '../../schemas/fields.js';

export type { PlanRow, PlanView } from '../../schemas/plans.js';

import { readIntId } from '../../schemas/billings.js';
export { readIntId };

/** Live mode takes an https callback_url only (the billing leaves over the network, signed but not encrypted by us). */
function liveCallbackUrl(scope: Scope, url: string | null): string | null {
  if (url !== null && scope.env === 'live' && !url.startsWith('https:')) throw invalid('callback_url', MUST.HTTPS_IN_LIVE);
  return url;
}

/**
 * The checks of a new plan that wait on the network (the callback_url's host is resolved): run
 * before the caller opens its transaction, so a slow name server holds no connection or lock. Its
 * form was read by PlanFields (schemas/plans.ts).
 */
export async function vetPlan(scope: Scope, input: Pick<PlanInput, 'callback_url'>, policy?: OutboundPolicy): Promise<void> {
  const callbackUrl = liveCallbackUrl(scope, input.callback_url);
  if (callbackUrl !== null) await vetTargetUrl(scope, callbackUrl, 'callback_url', policy);
}

/** POST /plans: a new plan, its fields taken in the spec's order; the caller has run vetPlan on the same input first. */
export async function createPlan(q: Queryable, scope: Scope, input: PlanInput, now: Date): Promise<PlanView> {
  const frequency = take(input.frequency);
  const name = take(input.name);
  if (typeof input.amount !== 'number') throw new GatewayError(E.AMOUNT_INVALID);
  const day = readDay(frequency, take(input.day));
  if ('error' in day) throw badRequest(day.error);
  const callbackUrl = liveCallbackUrl(scope, input.callback_url);
  const [row] = await q.query<PlanView>(
    `INSERT INTO plans (merchant_id, env, name, frequency, day, amount, callback_url, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${PLAN_COLUMNS.join(', ')}, 0 AS active_subscriptions`,
    [scope.merchantId, scope.env, name, frequency, day.day, input.amount, callbackUrl, now],
  );
  return row;
}

const PLAN = PLAN_COLUMNS.map((c) => `p.${c}`).join(', ');
const SELECT_PLAN = `SELECT ${PLAN}, (SELECT count(*)::int FROM subscriptions s
    WHERE s.merchant_id = p.merchant_id AND s.env = p.env AND s.plan_id = p.id AND s.status = 'active') AS active_subscriptions
  FROM plans p`;

/** A plan of this merchant environment that is not deleted (PLAN01 otherwise). */
export async function getPlan(q: Queryable, scope: Scope, rawId: unknown, opts: { lock?: 'share' | 'update' } = {}): Promise<PlanView> {
  const id = readIntId(rawId);
  const rows = id === null ? [] : await q.query<PlanView>(
    `${opts.lock ? `SELECT ${PLAN} FROM plans p` : SELECT_PLAN}
      WHERE p.id = $1 AND p.merchant_id = $2 AND p.env = $3 AND p.deleted_at IS NULL${opts.lock ? ` FOR ${opts.lock.toUpperCase()}` : ''}`,
    [id, scope.merchantId, scope.env],
  );
  if (!rows[0]) throw new GatewayError(E.PLAN_NOT_FOUND);
  return rows[0];
}

/** A null limit lists every row from the offset on (LIMIT NULL). */
export async function listPlans(q: Queryable, scope: Scope, page: OpenPage) {
  return pagedQuery<PlanView>(q, page, `${SELECT_PLAN} WHERE p.merchant_id = $1 AND p.env = $2 AND p.deleted_at IS NULL ORDER BY p.id DESC`,
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
