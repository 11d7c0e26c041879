// POST /charge's fields, as its field table read them (schemas/transactions.ts ChargeFields: types,
// limits, the shape's required fields and the amount's codes), made into the one typed input a
// charge runs on: the charge routes (and the demo) turn the table's reading into a ChargeInput here;
// the gateway's own charges (billings, scheduled transactions) build one from their stored rows;
// createCharge works on that typed input only. Pure: nothing here reads the database; what needs it
// (the token, the stored method, the customer's receipt address) is createCharge's.
import { badRequest } from '../../errors.js';
import type { Scope } from '../merchant/keys.js';
import { preparePaymentData } from '../instruments/tokens.js';
import {
  ChargeFields, type ChargeFieldsInput, type ChargeShape, PAYER_FIELDS, type PayerField, type TransactionRow, chargeShape,
} from '../../schemas/transactions.js';
import { cents, storedOf, take } from '../../schemas/fields.js';

export type { ChargeShape, PayerField };

interface ChargeCommon {
  /** Cents, above zero. */
  amount: number;
  description: string | null;
  /** Merged over the customer's metadata. */
  metadata: Record<string, unknown>;
  /** `send_receipt` (undefined: the customer's default), `email_address`, `receipt_template_id`. */
  receipt: { send: boolean | undefined; email: string | null; templateId: string | null };
  /** Payer fields sent with the charge; each wins over the instrument's own. */
  payer: Partial<Record<PayerField, string | null>>;
  /** The charge's `stored` fields (ChargeFields), written as they are into the transaction's columns. */
  recorded?: Partial<TransactionRow>;
}

export type ChargeInput =
  | (ChargeCommon & { shape: 'token'; token: string; csc: string | null; zip: string | null })
  | (ChargeCommon & {
    shape: 'customer'; customerId: string; methodId: string | null;
    /** Absent: the default method whatever its type; true/false: the default bank account/card. */
    bankAccount: boolean | undefined;
  })
  | (ChargeCommon & { shape: 'card'; card: PreparedCard; csc: string | null });

const CARDS_ONLY = 'direct charges take cards only; tokenize bank accounts';

/** A card sent with the charge, checked as a token's card is (never a bank account). */
export type PreparedCard = Extract<ReturnType<typeof preparePaymentData>, { token_type: 'credit_card' }>;

/**
 * The charge's input from its fields: the instrument's own checks after the table's (a card is
 * checked as a token's card is: its scope and the time decide test cards and expiry).
 */
export function readChargeInput(scope: Scope, f: ChargeFieldsInput, now: Date): ChargeInput {
  const shape = chargeShape(f);
  const receipt = { send: f.send_receipt, email: f.email_address, templateId: f.receipt_template_id };
  const common = {
    amount: cents(f.amount), description: f.description, metadata: f.metadata ?? {}, receipt, payer: {} as ChargeCommon['payer'],
    recorded: storedOf(ChargeFields, f) as Partial<TransactionRow>,
  };
  let input: ChargeInput;
  if (shape === 'customer') {
    const bankAccount = take(f.charge_bank_account) ?? undefined;
    input = { ...common, shape, customerId: f.customer_id!, methodId: take(f.method_id), bankAccount };
  } else if (shape === 'card') {
    // Which would be charged is not for us to guess (a customer's fields beside a token are refused alike).
    if (f.token !== null) throw badRequest('send a token or the card fields, not both');
    // Used at once and never stored. The owner's name is optional here (the clients' own examples
    // send none); the rest is checked as for a token (a token_type of bank_account is checked as a
    // bank account, then refused: a direct charge takes cards only).
    const card = preparePaymentData(scope, {
      ...f, card_owner_name: take(f.card_owner_name), token_type: take(f.token_type), card_exp_month: take(f.card_exp_month),
      card_exp_year: take(f.card_exp_year), csc: f.csc, cvv: f.cvv, amount: cents(f.amount),
      bank_account_number: take(f.bank_account_number), bank_routing_number: take(f.bank_routing_number),
      bank_account_holder_first_name: take(f.bank_account_holder_first_name), bank_account_holder_last_name: take(f.bank_account_holder_last_name),
      bank_account_type: take(f.bank_account_type),
    }, now, { ownerOptional: true });
    if (card.token_type !== 'credit_card') throw badRequest(CARDS_ONLY);
    input = { ...common, shape, card, csc: (f.csc !== undefined ? f.csc : f.cvv) ?? null };
  } else {
    input = { ...common, shape, token: f.token!, csc: (f.cvv !== undefined ? f.cvv : f.csc) ?? null, zip: f.zip ?? null };
  }
  // Payer fields override the instrument's on every shape (bounded by the table as a token's are:
  // they are copied into the transaction, its events, webhooks and exports).
  for (const k of PAYER_FIELDS) if (f[k] !== undefined) input.payer[k] = f[k];
  return input;
}
