import { randomInt } from 'node:crypto';
import { Queryable } from '../../db/index.js';
import { E, ErrorCode, GatewayError } from '../../errors.js';
import { unknownResult, type Connector, type Instrument as Payment, type SaleRequest } from '../../processor/processor.js';
import { findTestCard } from '../../processor/test-cards.js';
import { Vault } from '../../vault.js';
import { methodHome } from '../../vault-homes.js';
import { chargeableOf, findChargeableMethod } from '../instruments/customers.js';
import type { FirstRead } from './charge-read.js';
import { Scope, newId } from '../merchant/keys.js';
import type { ChargeInput } from './charge-input.js';
import { ConsumedToken, consumeToken, consumeTokenCte, openToken, peekToken } from '../instruments/tokens.js';
import { EventType, recordEvent, withEvent } from '../events/events.js';
import type { Target } from '../events/dispatch.js';
import { Transaction, TransactionRow } from './transactions.js';
import { PAYER_FIELDS } from '../../schemas/transactions.js';
import { presentTransaction } from '../../schemas/transactions.js';
import { text } from '../../lib/validate.js';
import { MerchantSettings, getSettings } from '../merchant/settings.js';
import { verifyCard } from '../instruments/verification.js';
import { outcomeColumns, saleRequest } from './charge-outcome.js';

export interface ChargeDeps {
  vault: Vault;
  /**
   * The processor of the charge's environment: the simulator in test mode, the merchant's live
   * connection in live mode; null for live mode without one: its charges are refused (PROC01)
   * once the request is otherwise valid.
   */
  connector: Connector | null;
}

export interface ChargeResult {
  txn: Transaction;
  /** Set when the charge was recorded but failed (declined): the API answers with this error. */
  failure: GatewayError | null;
  /**
   * A charge of a processor that is not local: recorded as PENDING (transaction 1), its processor
   * not asked yet. The caller asks it with no transaction open and records the outcome
   * (charge-finish.ts, completeCharge).
   */
  pending?: SaleRequest;
}

/** Columns a new transaction row gets from their defaults or leaves null (see 002_charges.sql). */
const STORED_DEFAULTS = {
  transaction_type: 'sale', amount_refunded: 0, refunded: false, voided: false, recurring: false,
  error_code: null, error_message: null, token_id: null, customer_id: null, method_id: null,
  card_type: null, card_number: null, card_exp_month: null, card_exp_year: null, card_owner_name: null,
  account_holder_name: null, receipt_id: null,
};

/** What the payment instrument looks like once it is loaded, whatever the shape. */
interface Instrument {
  paymentMethod: 'credit_card' | 'bank_account';
  number: string;
  csc: string | null;
  zip: string | null;
  /** Stored methods were verified when they were saved; cards arriving now are verified now. */
  verify: boolean;
  fields: Partial<TransactionRow>;
  payer: Record<string, unknown>;
  customerMetadata: Record<string, unknown>;
  customerEmail: string | null;
  customerReceipts: boolean;
  /** The instrument as a processor takes it. */
  payment: Payment;
}

/** A live charge's row before its processor is asked: pending. */
const NOT_ASKED = unknownResult('not asked yet');

/** A local processor is never aborted. */
const NEVER = new AbortController().signal;

/**
 * When the reconciler may first look at a pending live charge: after the processor call's deadline
 * and the recording of its outcome, so it never asks about a charge whose call is still under way.
 */
export const RECONCILE_FIRST_MS = 60_000;

const mask = (n: string) => 'X'.repeat(Math.max(0, n.length - 4)) + n.slice(-4);
const month = (m: number | null) => (m === null ? null : String(m).padStart(2, '0'));

async function loadInstrument(
  q: Queryable, deps: ChargeDeps, scope: Scope, input: ChargeInput, now: Date, first?: FirstRead, hold = false,
): Promise<Instrument> {
  const base = { customerMetadata: {}, customerEmail: null, customerReceipts: false };
  if (input.shape === 'customer') {
    // Absent means the customer's default method whatever its type (spec 4.1 b: "when absent the
    // customer's default method is charged"); true/false pick the default bank account / card.
    const read = first?.customer?.id === input.customerId ? first.customer.rows : null;
    const m = read ? chargeableOf(read, input.methodId, input.bankAccount ?? null)
      : await findChargeableMethod(q, scope, input.customerId, input.methodId, input.bankAccount ?? null, { hold });
    const number = deps.vault.decrypt(m.secret_enc, methodHome(scope, m.method_id));
    const holder = [m.bank_account_holder_first_name, m.bank_account_holder_last_name].filter(Boolean).join(' ') || null;
    const { metadata, default_receipts, email, ...payer } = m.customer;
    const address = { line1: payer.address_1, line2: payer.address_2, city: payer.city, state: payer.state, zip: m.zip ?? payer.zip, country: payer.country };
    const payment: Payment = m.method_type === 'bank_account'
      ? { kind: 'bank', routing: m.bank_routing_number ?? '', account: number, type: accountType(m.bank_account_type), holder: holder ?? m.card_owner_name ?? '', entryClass: 'PPD' }
      : { kind: 'card', number, expMonth: m.card_exp_month, expYear: m.card_exp_year, csc: null, holder: m.card_owner_name, address };
    return {
      payment,
      paymentMethod: m.method_type, number, csc: null, zip: m.zip ?? m.customer.zip, verify: false,
      fields: {
        customer_id: m.customer.id, method_id: m.method_id, card_type: m.card_type, card_number: mask(number),
        card_exp_month: month(m.card_exp_month), card_exp_year: m.card_exp_year?.toString() ?? null,
        card_owner_name: m.card_owner_name, account_holder_name: m.card_owner_name ?? holder ?? '',
      },
      payer: { ...payer, email },
      customerMetadata: metadata ?? {},
      customerEmail: email,
      customerReceipts: default_receipts,
    };
  }
  if (input.shape === 'card') {
    // Used at once and never stored: nothing to encrypt (readChargeInput checked the card).
    const { secret: number, ...card } = input.card;
    const address = { line1: card.address_1, line2: card.address_2, city: card.city, state: card.state, zip: card.zip, country: card.country };
    return {
      ...base, paymentMethod: 'credit_card', number, csc: input.csc, zip: card.zip, verify: true,
      payment: {
        kind: 'card', number, expMonth: card.card_exp_month ?? null, expYear: card.card_exp_year ?? null, csc: input.csc,
        holder: card.card_owner_name ?? null, address,
      },
      fields: {
        card_type: card.card_type, card_number: mask(number), card_exp_month: month(card.card_exp_month ?? null),
        // The spec types both as plain strings: no name given is "" (strict client decoders refuse null).
        card_exp_year: card.card_exp_year?.toString() ?? null, card_owner_name: card.card_owner_name ?? '',
        account_holder_name: card.card_owner_name ?? '',
      },
      payer: { address_1: card.address_1, address_2: card.address_2, city: card.city, state: card.state, zip: card.zip, country: card.country },
    };
  }
  const token = await consumeToken(q, deps.vault, scope, input.token, now);
  if (!token) throw new GatewayError(E.TOKEN_REQUIRED);
  return tokenInstrument(token, input);
}

function tokenInstrument(token: ConsumedToken, input: Extract<ChargeInput, { shape: 'token' }>): Instrument {
  const base = { customerMetadata: {}, customerEmail: null, customerReceipts: false };
  const number = token.number;
  const holder = [token.bank_account_holder_first_name, token.bank_account_holder_last_name].filter(Boolean).join(' ') || null;
  const csc = input.csc ?? token.csc;
  const zip = input.zip ?? token.zip;
  const address = { line1: token.address_1, line2: token.address_2, city: token.city, state: token.state, zip, country: token.country };
  return {
    ...base, paymentMethod: token.token_type, number, csc, zip, verify: token.token_type === 'credit_card',
    payment: token.token_type === 'bank_account'
      ? { kind: 'bank', routing: token.bank_routing_number ?? '', account: number, type: accountType(token.bank_account_type), holder: holder ?? '', entryClass: 'WEB' }
      : { kind: 'card', number, expMonth: token.card_exp_month, expYear: token.card_exp_year, csc, holder: token.card_owner_name, address },
    fields: {
      token_id: token.id, card_type: token.card_type, card_number: mask(number), card_exp_month: month(token.card_exp_month),
      card_exp_year: token.card_exp_year?.toString() ?? null, card_owner_name: token.card_owner_name,
      account_holder_name: token.card_owner_name ?? holder,
    },
    payer: { address_1: token.address_1, address_2: token.address_2, city: token.city, state: token.state, zip: token.zip, country: token.country },
  };
}

const accountType = (t: string | null): Extract<Payment, { kind: 'bank' }>['type'] =>
  (t === 'savings' ? 'savings' : t === 'business_checking' ? 'business_checking' : 'checking');

/** Receipt rules: send_receipt overrides the customer default; a due receipt needs a valid address. */
function receiptOf(input: ChargeInput, inst: Pick<Instrument, 'customerEmail' | 'customerReceipts'>) {
  const due = input.receipt.send ?? inst.customerReceipts;
  const address = input.receipt.email ?? inst.customerEmail;
  if (due && address === null) throw new GatewayError(E.RECEIPT_EMAIL_MISSING);
  return { receipt_due: due, receipt_email: address, receipt_template_id: input.receipt.templateId };
}

type ChargeOpts = {
  /** Charges made by the gateway itself: a subscription's billing (recurring) or a scheduled transaction. */
  source?: 'subscription' | 'scheduled'; recurring?: boolean; settings?: MerchantSettings;
  /** What the route read first (charge-read.ts): used where it names the input's token or customer. */
  first?: FirstRead;
  /**
   * With `first` (a charge made with no transaction open): the targets of the rules listening to
   * transaction events, read by the route when `first.heard` (dispatch.ts, readTargets). The
   * charge's deliveries are then written by its one statement; without them, none listens.
   */
  targets?: Target[];
  /** The payer's address, when the request came from the payer or the merchant forwarded it: sent to a live processor. */
  payerIp?: string;
};

/**
 * Runs one charge, its body read by readChargeInput, inside the caller's transaction: consume the
 * token (or load the stored method, or take the card), verify, call the processor, record it. A request error throws,
 * so the caller's rollback leaves the token usable; a decline is recorded and returned as
 * `failure`, for the caller to answer once the record has committed.
 */
export async function createCharge(
  q: Queryable, deps: ChargeDeps, scope: Scope, input: ChargeInput, now: Date, opts: ChargeOpts = {},
): Promise<ChargeResult> {
  // Without a customer the receipt rules need nothing from the database: check them before touching the token.
  const knownReceipt = input.shape === 'customer' ? null : receiptOf(input, { customerEmail: null, customerReceipts: false });
  // A stored customer's charge holds the customer from its read (in a transaction) to its commit,
  // and records only while customer and method stand (recordHeld). Not a run's (opts.source): a
  // subscription's or schedule's run holds that row (FOR UPDATE), which the customer's deletion
  // updates too, so the deletion waits for the run; taking the customer after it would invert
  // deleteCustomer's order (customer, then subscription) and deadlock. retryBilling takes the
  // customer before the subscription.
  const hold = input.shape === 'customer' && !opts.source;
  const inst = await loadInstrument(q, deps, scope, input, now, opts.first, hold);
  const c = await decide(q, deps, scope, input, inst, knownReceipt ?? receiptOf(input, inst), now, opts);
  if (c.pending && !hold) {
    // Transaction 1 of a live charge: the row, pending, and no event yet (its outcome brings it).
    await q.query(`INSERT INTO transactions ${c.columns} VALUES (${c.values})`, c.params);
    return { txn: c.txn, failure: null, pending: c.pending };
  }
  // Who listens: read by the route for a charge made with no transaction open (its deliveries then
  // go in its one statement), else asked by that statement and fanned out in this transaction.
  const listeners = opts.first ? (opts.targets ?? false) : undefined;
  if (hold) {
    await recordHeld(q, scope, input as Extract<ChargeInput, { shape: 'customer' }>, inst.fields.method_id as string, c, now, listeners);
    return c.pending ? { txn: c.txn, failure: null, pending: c.pending } : result(c.txn);
  }
  // The row and its event in one statement.
  await withEvent(q, `INSERT INTO transactions ${c.columns} VALUES (${c.values})`, c.params, scope, c.event, presentTransaction(c.txn), now, listeners);
  return result(c.txn);
}

/**
 * Records a stored customer's charge only while the customer and the method still stand, holding
 * both (FOR SHARE) until the charge commits: a deletion of either (deleteCustomer, deleteMethod:
 * the customer FOR UPDATE first) waits for the charge, or, committed before this statement, leaves
 * it nothing to record, and the charge is refused as a charge of a deleted customer (34798) or
 * method (34792) is. A test-mode charge without an Idempotency-Key reads first with no transaction
 * open and then writes in this one statement: it is where that charge takes its lock. Otherwise
 * as withEvent: the row, its event and its deliveries as recordEvent says (`listeners`); a live
 * charge's pending row alone (its outcome brings the event); nothing at all when refused.
 */
async function recordHeld(
  q: Queryable, scope: Scope, input: Extract<ChargeInput, { shape: 'customer' }>, methodId: string,
  c: Awaited<ReturnType<typeof decide>>, now: Date, listeners: Target[] | false | undefined,
): Promise<void> {
  const n = c.params.length;
  const ctes = [
    `held AS (
       SELECT 1 FROM customers c JOIN payment_methods m ON m.merchant_id = c.merchant_id AND m.env = c.env AND m.customer_id = c.id
        WHERE c.merchant_id = $${n + 1} AND c.env = $${n + 2} AND c.id = $${n + 3} AND c.deleted_at IS NULL
          AND m.id = $${n + 4} AND m.deleted_at IS NULL AND m.secret_enc IS NOT NULL
        FOR SHARE OF c, m)`,
    `change AS (INSERT INTO transactions ${c.columns} SELECT ${c.values} FROM held RETURNING id)`,
  ];
  const params = [...c.params, scope.merchantId, scope.env, input.customerId, methodId];
  const written = c.pending
    ? (await q.query(`WITH ${ctes.join(', ')} SELECT id FROM change`, params)).length > 0
    : (await recordEvent(q, ctes, params, 'change', scope, c.event, presentTransaction(c.txn), now, listeners)).written;
  if (!written) {
    // Gone meanwhile: refused with what a charge of it is refused with now.
    await findChargeableMethod(q, scope, input.customerId, methodId, null);
    throw new GatewayError(E.PAYMENT_TOKEN_NOT_FOUND);
  }
}

/**
 * Whether a charge can be made by chargeTokenAtOnce: a token charge whose processor is local (the
 * test-mode simulator), which moves no money and answers the same whenever it is asked, so it can
 * be asked before the token is consumed. A processor that is not local is only ever called after
 * transaction 1 consumed the token and recorded the charge as pending (createCharge).
 */
export const chargesAtOnce = (deps: ChargeDeps, input: ChargeInput): input is Extract<ChargeInput, { shape: 'token' }> =>
  input.shape === 'token' && !!deps.connector?.local;

/**
 * A charge by token in one statement and no transaction (see chargesAtOnce): read the token
 * without consuming it, verify and decide, then consume it, record the charge and its event in
 * one statement. The statement consumes the token only if it is still unused, and records nothing
 * otherwise: a concurrent charge of the same token gets TOKEN_REQUIRED, as with createCharge.
 * Its deliveries go to `opts.targets` (read by the route: the rules listening to transaction
 * events), written by the same statement; without them it is written alone.
 */
export async function chargeTokenAtOnce(
  q: Queryable, deps: ChargeDeps, scope: Scope, input: Extract<ChargeInput, { shape: 'token' }>, now: Date, opts: ChargeOpts = {},
): Promise<ChargeResult> {
  const receipt = receiptOf(input, { customerEmail: null, customerReceipts: false });
  const read = opts.first?.token?.id === input.token ? opts.first.token : null;
  const token = read ? read.row && openToken(deps.vault, read.row) : await peekToken(q, deps.vault, scope, input.token, now);
  if (!token) throw new GatewayError(E.TOKEN_REQUIRED);
  const c = await decide(q, deps, scope, input, tokenInstrument(token, input), receipt, now, opts);
  const n = c.params.length;
  const { written } = await recordEvent(q, [
    consumeTokenCte(n + 1),
    `change AS (INSERT INTO transactions ${c.columns} SELECT ${c.values} FROM tok RETURNING id)`,
  ], [...c.params, input.token, scope.merchantId, scope.env, now], 'change', scope, c.event, presentTransaction(c.txn), now, opts.targets ?? false);
  if (!written) throw new GatewayError(E.TOKEN_REQUIRED);
  return result(c.txn);
}

/** Verify the card, call the processor, and build the row to record. */
async function decide(
  q: Queryable, deps: ChargeDeps, scope: Scope, input: ChargeInput, inst: Instrument,
  receipt: ReturnType<typeof receiptOf>, now: Date, opts: ChargeOpts,
): Promise<{ txn: Transaction; columns: string; values: string; params: unknown[]; event: EventType; pending?: SaleRequest }> {
  const { shape, amount, description, metadata } = input;
  const { connector } = deps;
  if (!connector) throw new GatewayError(E.NO_LIVE_PROCESSOR);
  let check: { csc_check: string | null; avs_zip_check: string | null } = { csc_check: null, avs_zip_check: null };
  if (inst.verify) {
    const settings = opts.settings ?? (await getSettings(q, scope));
    const outcome = findTestCard(inst.number)?.outcome ?? null;
    check = verifyCard(settings, { outcome, csc: inst.csc, zip: inst.zip });
  }
  const id = newId(16);
  const payer = Object.fromEntries(PAYER_FIELDS.map((f) => [f, input.payer[f] ?? text(inst.payer[f])]));
  const sale = saleRequest(id, amount, inst.payment, {
    description, payerIp: opts.payerIp ?? null, customer: {
      id: (inst.fields.customer_id as string | null) ?? null, email: text(payer.email), firstName: text(payer.first_name),
      lastName: text(payer.last_name), company: text(payer.company),
    },
  });
  // A local processor (the simulator) is asked now; any other after this row is recorded as pending.
  const result = connector.local ? await connector.sale(sale, { signal: NEVER }) : null;
  const outcome = outcomeColumns(result ?? NOT_ASKED, amount, inst.paymentMethod === 'bank_account');
  const ok = outcome.successful;
  const row: Record<string, unknown> = {
    // What the request's table marks stored, written as sent, first: every column the gateway sets
    // below wins over a stored field of the same name.
    ...input.recorded,
    id, merchant_id: scope.merchantId, env: scope.env, source: opts.source ?? shape,
    recurring: opts.recurring ?? false,
    payment_method: inst.paymentMethod, reference_number: String(randomInt(1e9, 1e10)), system_trace: result?.processorId ?? null,
    ...outcome,
    // A live processor's CVV and AVS results are recorded with its answer (charge-finish.ts).
    csc_check: check.csc_check ?? (inst.csc ? 'unchecked' : 'not_provided'),
    avs_address_check: check.avs_zip_check,
    ...payer,
    ...inst.fields,
    description, metadata: { ...inst.customerMetadata, ...metadata }, ...receipt,
    created_at: now, processed_at: result ? now : null,
  };
  if (!connector.local) {
    // What a later refund of an eCheck must name (routing numbers identify a bank, not a person).
    const routing = inst.payment.kind === 'bank' ? { routing: inst.payment.routing, account_type: inst.payment.type } : {};
    Object.assign(row, { processor: { connector: connector.name, account: connector.account ?? null, amount, ...routing }, pending_since: now, reconcile_after: new Date(now.getTime() + RECONCILE_FIRST_MS) });
  }
  const cols = Object.keys(row);
  // The row as stored, without reading it back (a wide SELECT costs more than the insert). Not
  // `{ ...STORED_DEFAULTS, ...row }`: V8 clones the defaults' shape and then adds ~40 properties one
  // by one on its slow path, ~250 us per charge against ~4 for Object.assign (docs/decisions/performance.md).
  const txn = Object.assign({}, STORED_DEFAULTS, row, { refunds: [] }) as unknown as Transaction;
  return {
    txn,
    columns: `(${cols.join(', ')})`,
    values: cols.map((_, i) => `$${i + 1}`).join(', '),
    params: Object.values(row),
    event: ok ? 'transaction.created' : 'transaction.failed',
    pending: result ? undefined : sale,
  };
}

function result(txn: Transaction): ChargeResult {
  const failure = txn.error_code
    ? new GatewayError(txn.error_code as ErrorCode, txn.error_message ?? undefined, { transaction_id: txn.id })
    : null;
  return { txn, failure };
}
