import { randomInt } from 'node:crypto';
import { Queryable } from '../db/index.js';
import { badRequest, E, ErrorCode, GatewayError, tooLong } from '../errors.js';
import { Processor, processorFor } from '../processor/processor.js';
import { findTestCard } from '../processor/test-cards.js';
import { Vault } from '../vault.js';
import { methodHome } from '../vault-homes.js';
import { findChargeableMethod } from './customers.js';
import { Scope, newId } from './keys.js';
import { consumeToken, preparePaymentData } from './tokens.js';
import { withEvent } from './events.js';
import { PAYER_FIELDS, Transaction, TransactionRow } from './transactions.js';
import { presentTransaction } from '../schemas/transactions.js';
import { isEmail, parseAmount, readBool, readMetadata, text } from './validate.js';
import { MerchantSettings, getSettings } from './settings.js';
import { verifyCard } from './verification.js';

export interface ChargeDeps {
  vault: Vault;
  /** The live-mode processor; absent means live charges are refused (PROC01). */
  live?: Processor;
}

export interface ChargeResult {
  txn: Transaction;
  /** Set when the charge was recorded but failed (declined): the API answers with this error. */
  failure: GatewayError | null;
}

type Body = Record<string, unknown>;
export type ChargeShape = 'token' | 'customer' | 'card';

/** One path, three request shapes, chosen by the fields present (spec 4.1). */
export function chargeShape(body: Body): ChargeShape {
  if (text(body.customer_id, 'customer_id') !== null) return 'customer';
  if (text(body.card_number, 'card_number') !== null) return 'card';
  // A body naming a customer's method (or an empty customer_id) without a token is a charge by
  // customer that lacks its customer_id: 48291, not the token shape's 69002.
  if (text(body.token, 'token') === null && (body.customer_id !== undefined || text(body.method_id, 'method_id') !== null
    || body.charge_bank_account !== undefined)) return 'customer';
  return 'token';
}

function amountOf(shape: ChargeShape, body: Body): number {
  const a = parseAmount(body.amount);
  if (shape === 'customer') {
    if (a === 'missing' || a === 'empty') throw new GatewayError(E.CUSTOMER_CHARGE_PARAMS_MISSING);
    if (a === 'not_positive') throw new GatewayError(E.CUSTOMER_AMOUNT_INVALID);
  }
  if (shape === 'token' && (a === 'missing' || a === 'empty')) throw new GatewayError(E.TOKEN_CHARGE_PARAMS_MISSING);
  if (typeof a !== 'number') throw new GatewayError(E.AMOUNT_INVALID);
  return a;
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
}

const mask = (n: string) => 'X'.repeat(Math.max(0, n.length - 4)) + n.slice(-4);
const month = (m: number | null) => (m === null ? null : String(m).padStart(2, '0'));

async function loadInstrument(q: Queryable, deps: ChargeDeps, scope: Scope, shape: ChargeShape, body: Body, now: Date): Promise<Instrument> {
  const base = { customerMetadata: {}, customerEmail: null, customerReceipts: false };
  if (shape === 'customer') {
    // Absent means the customer's default method whatever its type (spec 4.1 b: "when absent the
    // customer's default method is charged"); true/false pick the default bank account / card.
    const bankAccount = readBool(body.charge_bank_account, 'charge_bank_account');
    const m = await findChargeableMethod(q, scope, text(body.customer_id, 'customer_id') ?? '', text(body.method_id, 'method_id'),
      bankAccount ?? null);
    const number = deps.vault.decrypt(m.secret_enc, methodHome(scope, m.method_id));
    const holder = [m.bank_account_holder_first_name, m.bank_account_holder_last_name].filter(Boolean).join(' ') || null;
    const { metadata, default_receipts, email, ...payer } = m.customer;
    return {
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
  if (shape === 'card') {
    // Used at once and never stored: nothing to encrypt. The owner's name is optional here (the
    // clients' own examples send none); the rest is checked as for a token.
    const { secret: number, ...card } = preparePaymentData(scope, body, now, { ownerOptional: true });
    if (card.token_type !== 'credit_card') throw badRequest('direct charges take cards only; tokenize bank accounts');
    return {
      ...base, paymentMethod: 'credit_card', number, csc: text(body.csc ?? body.cvv, 'csc'), zip: card.zip, verify: true,
      fields: {
        card_type: card.card_type, card_number: mask(number), card_exp_month: month(card.card_exp_month ?? null),
        // The spec types both as plain strings: no name given is "" (strict client decoders refuse null).
        card_exp_year: card.card_exp_year?.toString() ?? null, card_owner_name: card.card_owner_name ?? '',
        account_holder_name: card.card_owner_name ?? '',
      },
      payer: { address_1: card.address_1, address_2: card.address_2, city: card.city, state: card.state, zip: card.zip, country: card.country },
    };
  }
  const token = await consumeToken(q, deps.vault, scope, text(body.token, 'token') ?? '', now);
  if (!token) throw new GatewayError(E.TOKEN_REQUIRED);
  const number = token.number;
  const holder = [token.bank_account_holder_first_name, token.bank_account_holder_last_name].filter(Boolean).join(' ') || null;
  return {
    ...base, paymentMethod: token.token_type, number, csc: text(body.cvv ?? body.csc, 'csc') ?? token.csc,
    zip: text(body.zip, 'zip') ?? token.zip, verify: token.token_type === 'credit_card',
    fields: {
      token_id: token.id, card_type: token.card_type, card_number: mask(number), card_exp_month: month(token.card_exp_month),
      card_exp_year: token.card_exp_year?.toString() ?? null, card_owner_name: token.card_owner_name,
      account_holder_name: token.card_owner_name ?? holder,
    },
    payer: { address_1: token.address_1, address_2: token.address_2, city: token.city, state: token.state, zip: token.zip, country: token.country },
  };
}

/** Receipt rules: send_receipt overrides the customer default; a due receipt needs a valid address. */
function receiptOf(body: Body, inst: Pick<Instrument, 'customerEmail' | 'customerReceipts'>) {
  const send = readBool(body.send_receipt, 'send_receipt');
  const email = text(body.email_address, 'email_address');
  if (email !== null && !isEmail(email)) throw new GatewayError(E.RECEIPT_EMAIL_INVALID);
  const due = send ?? inst.customerReceipts;
  const address = email ?? inst.customerEmail;
  if (due && address === null) throw new GatewayError(E.RECEIPT_EMAIL_MISSING);
  return { receipt_due: due, receipt_email: address, receipt_template_id: text(body.receipt_template_id, 'receipt_template_id') };
}

/**
 * Runs one charge inside the caller's transaction: consume the token (or load the stored method,
 * or read the card), verify, call the processor, record the transaction. A request error throws,
 * so the caller's rollback leaves the token usable; a decline is recorded and returned as
 * `failure`, for the caller to answer once the record has committed.
 */
export async function createCharge(
  q: Queryable,
  deps: ChargeDeps,
  scope: Scope,
  body: Body,
  now: Date,
  /** Charges made by the gateway itself: a subscription's billing (recurring) or a scheduled transaction. */
  opts: { source?: 'subscription' | 'scheduled'; recurring?: boolean; settings?: MerchantSettings } = {},
): Promise<ChargeResult> {
  const shape = chargeShape(body);
  if (shape === 'token' && text(body.token, 'token') === null) throw new GatewayError(E.TOKEN_CHARGE_PARAMS_MISSING);
  if (shape === 'customer' && text(body.customer_id, 'customer_id') === null) throw new GatewayError(E.CUSTOMER_CHARGE_PARAMS_MISSING);
  const amount = amountOf(shape, body);
  const metadata = readMetadata(body.metadata) ?? {};
  const description = text(body.description, 'description');
  if (description && description.length > 1000) throw tooLong('description', 1000);
  // Without a customer the receipt rules need nothing from the database: check them before touching the token.
  const knownReceipt = shape === 'customer' ? null : receiptOf(body, { customerEmail: null, customerReceipts: false });

  const inst = await loadInstrument(q, deps, scope, shape, body, now);
  const receipt = knownReceipt ?? receiptOf(body, inst);
  let check: { csc_check: string | null; avs_zip_check: string | null } = { csc_check: null, avs_zip_check: null };
  if (inst.verify) {
    const settings = opts.settings ?? (await getSettings(q, scope));
    const outcome = findTestCard(inst.number)?.outcome ?? null;
    check = verifyCard(settings, { outcome, csc: inst.csc, zip: inst.zip });
  }
  const result = await processorFor(scope.env, deps.live).charge({
    env: scope.env, paymentMethod: inst.paymentMethod, number: inst.number, amount,
  });
  const ok = result.status === 'SETTLED';
  const row: Record<string, unknown> = {
    id: newId(16), merchant_id: scope.merchantId, env: scope.env, source: opts.source ?? shape,
    recurring: opts.recurring ?? false,
    payment_method: inst.paymentMethod, status: result.status, successful: ok,
    reference_number: String(randomInt(1e9, 1e10)), system_trace: result.systemTrace,
    amount_authorized: result.status === 'DECLINED' ? 0 : amount,
    amount_settled: ok ? amount : 0, amount_failed: ok ? 0 : amount,
    authorized: result.status !== 'DECLINED', settled: ok,
    error_code: result.errorCode, error_message: result.errorMessage,
    csc_check: check.csc_check ?? (inst.csc ? 'unchecked' : 'not_provided'),
    avs_address_check: check.avs_zip_check,
    ...Object.fromEntries(PAYER_FIELDS.map((f) => [f, text(body[f], f) ?? text(inst.payer[f])])),
    ...inst.fields,
    description, metadata: { ...inst.customerMetadata, ...metadata }, ...receipt,
    created_at: now, processed_at: now,
  };
  const cols = Object.keys(row);
  // The row as stored, without reading it back (a wide SELECT costs more than the insert).
  const saved = { ...STORED_DEFAULTS, ...row, refunds: [] } as unknown as Transaction;
  // The row and its event in one statement.
  await withEvent(q, `INSERT INTO transactions (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
    Object.values(row), scope, saved.successful ? 'transaction.created' : 'transaction.failed', presentTransaction(saved), now);
  const failure = saved.error_code
    ? new GatewayError(saved.error_code as ErrorCode, saved.error_message ?? undefined, { transaction_id: saved.id })
    : null;
  return { txn: saved, failure };
}
