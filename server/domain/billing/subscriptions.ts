import { pagedQuery, Queryable } from '../../db/index.js';
import { E, GatewayError, invalid } from '../../errors.js';
import { BILLING_COLUMNS, type BillingRow } from './billing-record.js';
import { Schedule, nthDate, startOfDay, utcDate } from './calendar.js';
import { findChargeableMethod } from '../instruments/customers.js';
import type { Scope } from '../merchant/keys.js';
import { getPlan, readIntId } from './plans.js';
import type { OpenPage } from '../../lib/validate.js';
import { type SubscribeInput } from '../../schemas/plans.js';
import { SUBSCRIPTION_COLUMNS, type SubscriptionRow, type SubscriptionView } from '../../schemas/subscriptions.js';
import { take } from '../../schemas/fields.js';

export type { SubscriptionRow, SubscriptionStatus, SubscriptionView } from '../../schemas/subscriptions.js';

/**
 * Every column of a subscription, named (no `*`), `alias.` before each when the statement joins;
 * anchor_date comes back as text: pg and PGlite parse `date` into different Dates.
 */
export function subscriptionColumns(alias?: string): string {
  const p = alias ? `${alias}.` : '';
  return SUBSCRIPTION_COLUMNS.map((c) => (c === 'anchor_date' ? `${p}anchor_date::text AS anchor_date` : `${p}${c}`)).join(', ');
}
/** Every read of a subscription row. */
export const SUB = subscriptionColumns();

export function scheduleOf(s: Pick<SubscriptionRow, 'frequency' | 'day' | 'anchor_date'>): Schedule {
  return { frequency: s.frequency, day: s.day, anchor: s.anchor_date };
}

/**
 * When run number `n` (1-based) of a subscription is due. With bill_immediately, run 1 was the
 * subscription's start and run n is the calendar's (n-1)-th date; otherwise run n is its n-th date.
 */
export function dueAtRun(s: Pick<SubscriptionRow, 'frequency' | 'day' | 'anchor_date' | 'bill_immediately'>, n: number): Date {
  const k = s.bill_immediately ? n - 1 : n;
  return startOfDay(nthDate(scheduleOf(s), k));
}

/** The customer exists in this environment (17001 otherwise), share-locked so a delete waits for us. */
async function holdCustomer(q: Queryable, scope: Scope, customerId: string): Promise<void> {
  const [c] = await q.query(
    'SELECT id FROM customers WHERE merchant_id = $1 AND env = $2 AND id = $3 AND deleted_at IS NULL FOR SHARE',
    [scope.merchantId, scope.env, customerId],
  );
  if (!c) throw new GatewayError(E.CUSTOMER_NOT_FOUND);
}

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

/**
 * POST /plans/:id/subscription/:customer_id. The method billed is resolved now and kept on the
 * subscription (method_id), so method deletion refuses it (10208): `method_id`, else the default
 * bank account (charge_bank_account true) or card (false), else the customer's default method.
 * Returns the subscription; with bill_immediately its first run is due at once (the route runs it).
 */
export async function subscribe(
  q: Queryable, scope: Scope, planId: unknown, customerId: string, input: SubscribeInput, now: Date,
): Promise<SubscriptionRow> {
  const plan = await getPlan(q, scope, planId, { lock: 'share' });
  await holdCustomer(q, scope, customerId);
  // Absent keeps the plan's amount; present, it must be an amount (null or "" is 59112, not "absent").
  const amount = take(input.amount) ?? plan.amount;
  const endsAfter = take(input.ends_after) ?? null;
  const immediately = take(input.bill_immediately);
  const chargeBank = take(input.charge_bank_account);
  const metadata = take(input.metadata) ?? {};
  const method = await findChargeableMethod(q, scope, customerId, take(input.method_id), chargeBank ?? null);

  const [existing] = await q.query(
    `SELECT number FROM subscriptions WHERE merchant_id = $1 AND env = $2 AND plan_id = $3 AND customer_id = $4 AND status = 'active'`,
    [scope.merchantId, scope.env, plan.id, customerId],
  );
  if (existing) throw new GatewayError(E.SUBSCRIPTION_EXISTS, `customer is already subscribed to this plan (subscription ${existing.number})`);

  const [{ n }] = await q.query<{ n: number }>("SELECT nextval('subscription_numbers')::bigint AS n");
  const anchor = utcDate(now);
  const draft = { frequency: plan.frequency, day: plan.day, anchor_date: anchor, bill_immediately: immediately === true };
  const nextBilling = draft.bill_immediately ? now : dueAtRun(draft, 1);
  try {
    const [row] = await q.query<SubscriptionRow>(
      `INSERT INTO subscriptions (merchant_id, env, id, number, customer_id, method_id, status, plan_id, amount, frequency,
         day, anchor_date, bill_immediately, charge_bank_account, ends_after, billed_count, next_billing, metadata,
         created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $9, $10, $11, $12, $13, $14, 0, $15, $16, $17, $17)
       RETURNING ${SUB}`,
      [scope.merchantId, scope.env, String(n), n, customerId, method.method_id, plan.id, amount, plan.frequency,
        plan.day, anchor, draft.bill_immediately, chargeBank ?? null, endsAfter, nextBilling, metadata, now],
    );
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw new GatewayError(E.SUBSCRIPTION_EXISTS);
    throw err;
  }
}

/**
 * DELETE /plans/:id/subscription/:customer_id: the customer's active subscription to the plan
 * ends now (status `cancelled`, next_billing null); its billings stay. A run in progress holds the
 * row lock, so this waits for it and never cancels half a billing.
 */
export async function unsubscribe(q: Queryable, scope: Scope, planId: unknown, customerId: string, now: Date): Promise<SubscriptionRow> {
  const id = readIntId(planId);
  const [plan] = id === null ? [] : await q.query('SELECT id FROM plans WHERE id = $1 AND merchant_id = $2 AND env = $3', [id, scope.merchantId, scope.env]);
  if (!plan) throw new GatewayError(E.PLAN_NOT_FOUND);
  const [row] = await q.query<SubscriptionRow>(
    `UPDATE subscriptions SET status = 'cancelled', next_billing = NULL, cancelled_at = $5, updated_at = $5
      WHERE merchant_id = $1 AND env = $2 AND plan_id = $3 AND customer_id = $4 AND status = 'active'
      RETURNING ${SUB}`,
    [scope.merchantId, scope.env, id, customerId, now],
  );
  if (!row) throw new GatewayError(E.SUBSCRIPTION_NOT_FOUND, 'this customer has no active subscription to this plan');
  return row;
}

/** One subscription of this merchant environment by its integer id (SUB02 otherwise). */
export async function getSubscription(q: Queryable, scope: Scope, rawId: unknown, opts: { lock?: boolean } = {}): Promise<SubscriptionRow> {
  const id = readIntId(rawId);
  const rows = id === null ? [] : await q.query<SubscriptionRow>(
    `SELECT ${SUB} FROM subscriptions WHERE number = $1 AND merchant_id = $2 AND env = $3${opts.lock ? ' FOR UPDATE' : ''}`,
    [id, scope.merchantId, scope.env],
  );
  if (!rows[0]) throw new GatewayError(E.SUBSCRIPTION_NOT_FOUND);
  return rows[0];
}

/**
 * POST /subscriptions/:id (our addition): change what the next runs and retries charge — amount,
 * method (method_id or charge_bank_account), ends_after, metadata. Active subscriptions only (SUB03).
 */
export async function updateSubscription(q: Queryable, scope: Scope, rawId: unknown, input: SubscribeInput, now: Date) {
  const s = await getSubscription(q, scope, rawId, { lock: true });
  if (s.status !== 'active') throw new GatewayError(E.SUBSCRIPTION_NOT_ACTIVE);
  const set: Record<string, unknown> = {};
  const amount = take(input.amount);
  if (amount !== null) set.amount = amount;
  const chargeBank = take(input.charge_bank_account);
  const methodId = take(input.method_id);
  if (methodId !== null || chargeBank !== undefined) {
    const m = await findChargeableMethod(q, scope, s.customer_id, methodId, chargeBank ?? null);
    set.method_id = m.method_id;
    if (chargeBank !== undefined) set.charge_bank_account = chargeBank;
  }
  const endsAfter = take(input.ends_after);
  if (endsAfter !== undefined) {
    if (endsAfter !== null && endsAfter < s.billed_count) {
      throw invalid('ends_after', `cannot be below the ${s.billed_count} billings already made`);
    }
    set.ends_after = endsAfter;
    if (endsAfter !== null && endsAfter === s.billed_count) Object.assign(set, { status: 'ended', next_billing: null });
  }
  const metadata = take(input.metadata);
  if (metadata !== undefined) set.metadata = metadata;
  set.updated_at = now;
  const cols = Object.keys(set);
  const [row] = await q.query<SubscriptionRow>(
    `UPDATE subscriptions SET ${cols.map((c, i) => `${c} = $${i + 4}`).join(', ')}
      WHERE number = $1 AND merchant_id = $2 AND env = $3 RETURNING ${SUB}`,
    [s.number, scope.merchantId, scope.env, ...Object.values(set)],
  );
  return row;
}

export interface SubscriptionFilter {
  planId?: unknown;
  customerId?: string;
}

/** GET /subscriptions[/customer/:id][/plan/:id]: newest first; a null limit lists every row from the offset on. */
export async function listSubscriptions(q: Queryable, scope: Scope, filter: SubscriptionFilter, page: OpenPage) {
  const params: unknown[] = [scope.merchantId, scope.env];
  let where = 'merchant_id = $1 AND env = $2 AND plan_id IS NOT NULL';
  if (filter.planId !== undefined) {
    const id = readIntId(filter.planId);
    const [plan] = id === null ? [] : await q.query('SELECT id FROM plans WHERE id = $1 AND merchant_id = $2 AND env = $3', [id, ...params]);
    if (!plan) throw new GatewayError(E.PLAN_NOT_FOUND); // deleted plans still list their history
    params.push(id);
    where += ` AND plan_id = $${params.length}`;
  }
  if (filter.customerId !== undefined) {
    const [c] = await q.query('SELECT id FROM customers WHERE id = $3 AND merchant_id = $1 AND env = $2', [...params.slice(0, 2), filter.customerId]);
    if (!c) throw new GatewayError(E.CUSTOMER_NOT_FOUND);
    params.push(filter.customerId);
    where += ` AND customer_id = $${params.length}`;
  }
  const { list, total } = await pagedQuery<SubscriptionRow>(q, page, `SELECT ${SUB} FROM subscriptions WHERE ${where} ORDER BY number DESC`,
    `subscriptions WHERE ${where}`, params);
  return { list: await withLastBillings(q, list), total };
}

/**
 * GET /subscriptions/plan/:plan_id/customer/:customer_id: one subscription, as clients of the live
 * service read it: the active one, else the newest. Every one of the pair (newest first, the
 * chosen one included) is in `subscriptions`. None: SUB02.
 */
export async function subscriptionOfCustomerOnPlan(q: Queryable, scope: Scope, planId: unknown, customerId: string) {
  const { list } = await listSubscriptions(q, scope, { planId, customerId }, { limit: null, offset: 0 });
  const chosen = list.find((s) => s.status === 'active') ?? list[0];
  if (!chosen) throw new GatewayError(E.SUBSCRIPTION_NOT_FOUND, 'the customer has no subscription to this plan');
  return { subscription: chosen, all: list };
}


/** Each subscription with its newest billing (a retry counts), in one query. */
export async function withLastBillings(q: Queryable, rows: SubscriptionRow[]): Promise<SubscriptionView[]> {
  if (rows.length === 0) return [];
  const billings = await q.query<BillingRow>(
    `SELECT DISTINCT ON (subscription_id) ${BILLING_COLUMNS.join(', ')} FROM billings
      WHERE subscription_id IN (SELECT (jsonb_array_elements_text($1::jsonb))::bigint)
      ORDER BY subscription_id, id DESC`,
    [JSON.stringify(rows.map((r) => r.number))],
  );
  const by = new Map(billings.map((b) => [b.subscription_id, b]));
  return rows.map((r) => ({ ...r, last_billing: by.get(r.number) ?? null }));
}
