import type { Clock } from '../../clock.js';
import { pagedQuery, Queryable } from '../../db/index.js';
import { E, GatewayError } from '../../errors.js';
import type { Connector, SaleRequest } from '../../processor/processor.js';
import { BILLING_COLUMNS, BillingRow } from './billing-record.js';
import { type BillingsFilter, presentBilling } from '../../schemas/billings.js';
import { presentSubscription } from '../../schemas/subscriptions.js';
import type { ChargeInput } from '../payments/charge-input.js';
import { createCharge } from '../payments/charges.js';
import { ProcessorDeps, connectorFor } from '../merchant/connectors.js';
import { emitEvent } from '../events/events.js';
import type { Scope } from '../merchant/keys.js';
import { newId } from '../merchant/keys.js';
import { getSettings } from '../merchant/settings.js';
import { SUB, SubscriptionRow, dueAtRun } from './subscriptions.js';
import type { Transaction } from '../payments/transactions.js';
import { isEmail, type Page, text } from '../../lib/validate.js';

/** Every column of a billing, named (no `*`: a statement's columns do not change under it). */
const BILLING = BILLING_COLUMNS.join(', ');

/**
 * What a run of recurring work needs inside its transaction: the vault for stored numbers, the
 * clock, the processors (a live environment without a connection records its runs as failed: PROC01).
 */
export interface RecurringDeps extends ProcessorDeps {
  clock: Clock;
}

/** A live run's charge, recorded as pending: the caller asks its processor once the run has committed (charge-finish.ts). */
export interface PendingSale {
  connector: Connector;
  sale: SaleRequest;
}

/** The charge of a run, or why none could be made (the request-level error createCharge threw). */
export interface ChargeOutcome {
  txn: Transaction | null;
  error: GatewayError | null;
  pending?: PendingSale;
}

/**
 * Charges inside the caller's transaction, behind a savepoint: a request error (no chargeable
 * method, live mode without a processor, …) rolls back only the charge's own work and is returned,
 * so the run can still be recorded as failed. Anything else propagates and rolls everything back.
 */
export async function chargeInTx(
  q: Queryable, deps: RecurringDeps, scope: Scope, input: ChargeInput, now: Date,
  source: 'subscription' | 'scheduled',
): Promise<ChargeOutcome> {
  const connector = await connectorFor(q, deps, scope);
  if (!connector) return { txn: null, error: new GatewayError(E.NO_LIVE_PROCESSOR) };
  await q.query('SAVEPOINT recurring_charge');
  try {
    const { txn, pending } = await createCharge(q, { vault: deps.vault, connector }, scope, input, now, { source, recurring: source === 'subscription' });
    await q.query('RELEASE SAVEPOINT recurring_charge');
    return { txn, error: null, pending: pending && { connector, sale: pending } };
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    await q.query('ROLLBACK TO SAVEPOINT recurring_charge');
    return { txn: null, error: err };
  }
}

/**
 * Receipts never block a charge the gateway makes on its own: one is asked for when the merchant's
 * or the customer's default says so and the customer has a valid email address.
 */
export async function receiptWanted(q: Queryable, scope: Scope, customerId: string): Promise<boolean> {
  const [c] = await q.query<{ email: string | null; default_receipts: boolean }>(
    'SELECT email, default_receipts FROM customers WHERE merchant_id = $1 AND env = $2 AND id = $3',
    [scope.merchantId, scope.env, customerId],
  );
  if (!c || !isEmail(c.email)) return false;
  return c.default_receipts || (await getSettings(q, scope)).default_receipts;
}

/** [CustomerName] rules: company, else first and last name, else the name on the card or account, else the id. */
async function displayName(q: Queryable, scope: Scope, customerId: string, txn: Transaction | null): Promise<string> {
  const [c] = await q.query<{ company: string | null; first_name: string | null; last_name: string | null }>(
    'SELECT company, first_name, last_name FROM customers WHERE merchant_id = $1 AND env = $2 AND id = $3',
    [scope.merchantId, scope.env, customerId],
  );
  const full = [c?.first_name, c?.last_name].filter(Boolean).join(' ');
  return text(c?.company) ?? text(full) ?? text(txn?.card_owner_name) ?? text(txn?.account_holder_name) ?? customerId;
}

/** Transaction status → billing transaction_status (spec 2.8 shows `submitted`). */
function transactionStatus(txn: Transaction | null): string {
  if (!txn) return 'error';
  return ({ SETTLED: 'submitted', DECLINED: 'declined', RETURNED: 'returned' } as Record<string, string>)[txn.status] ?? txn.status.toLowerCase();
}

/** A billing's status for its charge: pending while a live charge's outcome is not recorded. */
function billingStatus(txn: Transaction | null): BillingRow['status'] {
  if (txn?.status === 'PENDING') return 'pending';
  return txn?.successful ? 'success' : 'failed';
}

interface NewBilling {
  sub: SubscriptionRow;
  sequence: number;
  parentId: number | null;
  scheduledFor: Date;
  amount: number;
  outcome: ChargeOutcome;
  now: Date;
}

async function insertBilling(q: Queryable, b: NewBilling): Promise<BillingRow> {
  const scope: Scope = { merchantId: b.sub.merchant_id, env: b.sub.env };
  const { txn, error } = b.outcome;
  const [row] = await q.query<BillingRow>(
    `INSERT INTO billings (merchant_id, env, plan_id, subscription_id, sequence, customer_id, transaction_id,
       transaction_status, amount, customer_display_name, metadata, status, parent_id, scheduled_for,
       error_code, error_message, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17) RETURNING ${BILLING}`,
    [
      scope.merchantId, scope.env, b.sub.plan_id, b.sub.number, b.sequence, b.sub.customer_id,
      // No charge could be made: the billing still gets a transaction id (reserved, naming no
      // charge) so that GET /billings/:id and POST /billings/retry can find it.
      txn?.id ?? newId(16),
      transactionStatus(txn), b.amount, await displayName(q, scope, b.sub.customer_id, txn), b.sub.metadata ?? {},
      billingStatus(txn), b.parentId, b.scheduledFor,
      txn ? txn.error_code : error!.code, txn ? txn.error_message : error!.message, b.now,
    ],
  );
  return row;
}

/** A billing's charge: the subscription's customer, method, amount and metadata; the plan's name describes it. */
function chargeInput(sub: SubscriptionRow, planName: string, sendReceipt: boolean): ChargeInput {
  return {
    shape: 'customer', customerId: sub.customer_id, methodId: sub.method_id, bankAccount: undefined, amount: sub.amount,
    description: planName, metadata: sub.metadata ?? {}, receipt: { send: sendReceipt, email: null, templateId: null }, payer: {},
  };
}

/** Queues the POST of a billing to its plan's callback_url, in the billing's transaction. */
async function enqueueCallback(q: Queryable, url: string | null, billing: BillingRow, realNow: Date): Promise<void> {
  if (!url) return;
  await q.query(
    `INSERT INTO callbacks (merchant_id, env, billing_id, url, body, next_attempt_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)`,
    [billing.merchant_id, billing.env, billing.id, url, JSON.stringify(presentBilling(billing)), realNow],
  );
}

export interface RunResult {
  billing: BillingRow;
  txn: Transaction | null;
  /** A callback was queued: the deliverer may be kicked. */
  callback: boolean;
  /** A live charge recorded as pending: ask its processor after the commit (completeCharge). */
  pending?: PendingSale;
}

/**
 * One run of a subscription, inside the caller's transaction, which holds the subscription row
 * (FOR UPDATE): charge its method, record the billing, move next_billing on (or end it after
 * ends_after runs), queue the callback. All of it commits together or not at all, so a crash
 * between the charge and the record leaves nothing behind, and the next run charges once.
 */
export async function billSubscription(q: Queryable, deps: RecurringDeps, sub: SubscriptionRow, now: Date): Promise<RunResult> {
  const scope: Scope = { merchantId: sub.merchant_id, env: sub.env };
  const sequence = sub.billed_count + 1;
  const [plan] = await q.query<{ name: string; callback_url: string | null }>('SELECT name, callback_url FROM plans WHERE id = $1', [sub.plan_id]);
  const outcome = await chargeInTx(q, deps, scope, chargeInput(sub, plan.name, await receiptWanted(q, scope, sub.customer_id)), now, 'subscription');
  const billing = await insertBilling(q, {
    sub, sequence, parentId: null, scheduledFor: sub.next_billing ?? now, amount: sub.amount, outcome, now,
  });
  const ended = sub.ends_after !== null && sequence >= sub.ends_after;
  const [moved] = await q.query<SubscriptionRow>(
    `UPDATE subscriptions SET billed_count = $4, next_billing = $5, status = $6, updated_at = $7
      WHERE number = $1 AND merchant_id = $2 AND env = $3 AND billed_count = $8 AND status = 'active'
      RETURNING ${SUB}`,
    [sub.number, scope.merchantId, scope.env, sequence, ended ? null : dueAtRun(sub, sequence + 1),
      ended ? 'ended' : 'active', now, sub.billed_count],
  );
  // Compare-and-set: the row lock already makes this hold; if it ever did not, roll the charge back.
  if (!moved) throw new Error(`subscription ${sub.number} changed during its billing run; rolled back`);
  // A live charge's outcome is not known yet: its billing's callback and events wait for it (resolveBilling).
  if (outcome.pending) return { billing, txn: outcome.txn, callback: false, pending: outcome.pending };
  await enqueueCallback(q, plan.callback_url, billing, deps.clock.now());
  await emitBilling(q, billing, now);
  await emitEvent(q, scope, billing.status === 'success' ? 'subscription.billed' : 'subscription.failed',
    presentSubscription({ ...moved, last_billing: billing }), now);
  return { billing, txn: outcome.txn, callback: !!plan.callback_url };
}

async function emitBilling(q: Queryable, billing: BillingRow, now: Date): Promise<void> {
  await emitEvent(q, { merchantId: billing.merchant_id, env: billing.env },
    billing.status === 'success' ? 'billing.succeeded' : 'billing.failed', presentBilling(billing), now);
}

/**
 * POST /billings/retry: charges a `failed` billing again — with what its subscription charges
 * now (amount and method, so fixing either makes the retry succeed) — and records the outcome as
 * a new billing whose parent_id is the failed one; the failed one becomes `retried`. 10210 when
 * no billing has this transaction id, 10212 when it is not `failed` (a billing is retried once;
 * retry the new one if it failed too). A request error (e.g. the method was deleted after the
 * subscription ended: 34792) records nothing. The billing row is locked, so two concurrent
 * retries make one charge.
 */
export async function retryBilling(
  q: Queryable, deps: RecurringDeps, scope: Scope, transactionId: string, now: Date,
): Promise<RunResult> {
  const [failed] = await q.query<BillingRow>(
    `SELECT ${BILLING} FROM billings WHERE merchant_id = $1 AND env = $2 AND transaction_id = $3 FOR UPDATE`,
    [scope.merchantId, scope.env, transactionId],
  );
  if (!failed) throw new GatewayError(E.BILLING_TXN_NOT_FOUND);
  if (failed.status !== 'failed') throw new GatewayError(E.BILLING_NOT_FAILED, `billing is ${failed.status}, not failed`);
  // The customer before the subscription, as deleteCustomer takes them: its deletion waits for this
  // charge, or, committed first, makes it 34798 (an ended subscription is not one a deletion waits on).
  await q.query('SELECT 1 FROM customers WHERE merchant_id = $1 AND env = $2 AND id = $3 FOR SHARE',
    [scope.merchantId, scope.env, failed.customer_id]);
  const [sub] = await q.query<SubscriptionRow>(`SELECT ${SUB} FROM subscriptions WHERE number = $1 FOR UPDATE`, [failed.subscription_id]);
  const [plan] = await q.query<{ name: string; callback_url: string | null }>('SELECT name, callback_url FROM plans WHERE id = $1', [sub.plan_id]);
  const input = chargeInput(sub, plan.name, await receiptWanted(q, scope, sub.customer_id));
  const connector = await connectorFor(q, deps, scope);
  if (!connector) throw new GatewayError(E.NO_LIVE_PROCESSOR);
  const { txn, pending } = await createCharge(q, { vault: deps.vault, connector }, scope, input, now,
    { source: 'subscription', recurring: true });
  const billing = await insertBilling(q, {
    sub, sequence: failed.sequence, parentId: failed.id, scheduledFor: failed.scheduled_for, amount: sub.amount,
    outcome: { txn, error: null }, now,
  });
  const [retried] = await q.query<BillingRow>(`UPDATE billings SET status = 'retried', updated_at = $2 WHERE id = $1 RETURNING ${BILLING}`, [failed.id, now]);
  await emitEvent(q, scope, 'billing.retried', presentBilling(retried), now);
  if (pending) return { billing, txn, callback: false, pending: { connector, sale: pending } };
  await enqueueCallback(q, plan.callback_url, billing, deps.clock.now());
  await emitBilling(q, billing, now);
  return { billing, txn, callback: !!plan.callback_url };
}

/**
 * A live billing's charge has its outcome (charge-finish.ts, in the transaction that records it):
 * the billing becomes success or failed, and what its run held back happens now — the callback,
 * the billing's event and, for a subscription's own run (not a retry), its subscription event.
 */
export async function resolveBilling(q: Queryable, txn: Transaction, now: Date): Promise<void> {
  const [billing] = await q.query<BillingRow>(
    `UPDATE billings SET status = $4, transaction_status = $5, error_code = $6, error_message = $7, updated_at = $8
      WHERE merchant_id = $1 AND env = $2 AND transaction_id = $3 AND status = 'pending' RETURNING ${BILLING}`,
    [txn.merchant_id, txn.env, txn.id, billingStatus(txn), transactionStatus(txn), txn.error_code, txn.error_message, now],
  );
  if (!billing) return;
  const scope: Scope = { merchantId: billing.merchant_id, env: billing.env as Scope['env'] };
  const [plan] = await q.query<{ callback_url: string | null }>('SELECT callback_url FROM plans WHERE id = $1', [billing.plan_id]);
  await enqueueCallback(q, plan?.callback_url ?? null, billing, now);
  await emitBilling(q, billing, now);
  if (billing.parent_id !== null) return;
  const [sub] = await q.query<SubscriptionRow>(`SELECT ${SUB} FROM subscriptions WHERE number = $1`, [billing.subscription_id]);
  if (sub) {
    await emitEvent(q, scope, billing.status === 'success' ? 'subscription.billed' : 'subscription.failed',
      presentSubscription({ ...sub, last_billing: billing }), now);
  }
}

/** GET /billings/:id — the id is the billing's transaction_id (11000 when this merchant environment has none). */
export async function getBillingByTransaction(q: Queryable, scope: Scope, transactionId: string): Promise<BillingRow> {
  const [row] = await q.query<BillingRow>(
    `SELECT ${BILLING} FROM billings WHERE merchant_id = $1 AND env = $2 AND transaction_id = $3`,
    [scope.merchantId, scope.env, transactionId],
  );
  if (!row) throw new GatewayError(E.BILLING_NOT_FOUND);
  return row;
}

/** GET /billings (our addition): newest first, optionally by subscription, plan, customer or status (read by BillingsQuery). */
export async function listBillings(q: Queryable, scope: Scope, filter: BillingsFilter, page: Page) {
  const params: unknown[] = [scope.merchantId, scope.env];
  let where = 'merchant_id = $1 AND env = $2';
  for (const col of ['subscription_id', 'plan_id', 'customer_id', 'status'] as const) {
    if (filter[col] === null) continue;
    params.push(filter[col]);
    where += ` AND ${col} = $${params.length}`;
  }
  return pagedQuery<BillingRow>(q, page, `SELECT ${BILLING} FROM billings WHERE ${where} ORDER BY id DESC`, `billings WHERE ${where}`, params);
}
