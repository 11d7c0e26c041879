import type { PaymentData } from '../../src/index.js';
import { TEST_BANK, TEST_CARDS, TestCard, TestOutcome } from '../processor/test-cards.js';

// The test-card table as data for test suites. Derived from server/processor/test-cards.ts, the one
// table the simulator, the README and these helpers share: a card added there shows up in
// `cards.all` at once, and the named entries below fail loudly if the card they name disappears.

export interface Card extends TestCard {
  /** As a shopper types it: groups of four (Amex 4-6-5). */
  formatted: string;
  /** Three digits, four for Amex. */
  cvv: string;
  expMonth: string;
  /** Far in the future, so a test clock set years ahead still accepts it. */
  expYear: string;
}

export interface BankAccount {
  routing_number: string;
  account_number: string;
  first_name: string;
  last_name: string;
  account_type: 'checking' | 'savings';
}

export const EXP_MONTH = '12';
export const EXP_YEAR = '2099';

function format(number: string): string {
  if (number.length === 15) return `${number.slice(0, 4)} ${number.slice(4, 10)} ${number.slice(10)}`;
  if (number.length === 14) return `${number.slice(0, 4)} ${number.slice(4, 10)} ${number.slice(10)}`;
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

function toCard(c: TestCard): Card {
  return { ...c, formatted: format(c.number), cvv: c.brand === 'amex' ? '1234' : '123', expMonth: EXP_MONTH, expYear: EXP_YEAR };
}

function pick(test: (c: TestCard) => boolean, what: string): Card {
  const c = TEST_CARDS.find(test);
  if (!c) throw new Error(`the test-card table has no ${what} (server/processor/test-cards.ts)`);
  return toCard(c);
}

const approved = (brand: TestCard['brand']) => (c: TestCard) => c.brand === brand && c.outcome === 'approve';
const outcome = (o: TestOutcome) => (c: TestCard) => c.outcome === o;

export const cards = {
  /** Approved, one per brand (the first of the table). */
  visa: pick(approved('visa'), 'approved Visa'),
  visaDebit: pick((c) => c.brand === 'visa' && c.bin_type === 'DEBIT' && c.outcome === 'approve', 'approved Visa debit'),
  mastercard: pick(approved('mastercard'), 'approved Mastercard'),
  amex: pick(approved('amex'), 'approved American Express'),
  discover: pick(approved('discover'), 'approved Discover'),
  diners: pick(approved('diners'), 'approved Diners Club'),
  jcb: pick(approved('jcb'), 'approved JCB'),
  /** Declined at any amount: 99820 (402). Any card also declines for amounts 73-100 cents. */
  declined: pick(outcome('decline'), 'declining card'),
  /** CPCVV2 (402) when the merchant checks CVV. */
  cvvFailure: pick(outcome('cvv_fail'), 'CVV-failing card'),
  /** CPCVV1 (402) when the merchant checks CVV: the issuer does not support CVV. */
  cvvUnsupported: pick(outcome('cvv_unsupported'), 'CVV-unsupported card'),
  /** 82004 (402) when the merchant checks ZIP. */
  zipFailure: pick(outcome('zip_fail'), 'ZIP-failing card'),
  /** Every test card, in the order of the table. */
  all: TEST_CARDS.map(toCard) as readonly Card[],
  /** The sample bank account: routing 110000000 takes any account number. */
  bank: {
    routing_number: TEST_BANK.routing_number,
    account_number: TEST_BANK.account_number,
    first_name: 'Grace',
    last_name: 'Hopper',
    account_type: 'checking',
  } as BankAccount,
  /** A valid card number that is not a test card: refused in test mode with TEST01. */
  realCardNumber: '4012888888881881',
} as const;

/** Card amounts that the simulator declines (99820) whatever the card. */
export const DECLINE_AMOUNTS = { min: 73, max: 100 } as const;
/** The bank-account amount that comes back RETURNED (R01, insufficient funds). */
export const RETURN_AMOUNT = 12;

/** `payment_data` for generateToken() or POST /tokens: the card plus a cardholder, overridable. */
export function cardData(card: Card, extra: PaymentData = {}): PaymentData {
  return {
    card_owner_name: 'Ada Lovelace',
    card_number: card.number,
    card_exp_month: card.expMonth,
    card_exp_year: card.expYear,
    csc: card.cvv,
    zip: '94107',
    ...extra,
  };
}

/** `payment_data` for a bank-account token. */
export function bankData(account: BankAccount = cards.bank, extra: PaymentData = {}): PaymentData {
  return {
    token_type: 'bank_account',
    bank_account_number: account.account_number,
    bank_routing_number: account.routing_number,
    bank_account_holder_first_name: account.first_name,
    bank_account_holder_last_name: account.last_name,
    bank_account_type: account.account_type,
    ...extra,
  };
}
