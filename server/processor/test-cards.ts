import type { Brand } from '../../src/checks.js';

/**
 * Test mode accepts only these numbers (spec 5.7: real numbers must not be used in test mode).
 * `outcome` is what the simulated processor does with a charge on the card; the same table is
 * in the README and is what QA flows pick from.
 */
export type TestOutcome = 'approve' | 'decline' | 'cvv_fail' | 'cvv_unsupported' | 'zip_fail';

export interface TestCard {
  number: string;
  brand: Brand;
  bin_type: 'CREDIT' | 'DEBIT';
  bin_level: 'CLASSIC' | 'BUSINESS' | 'PLATINUM';
  outcome: TestOutcome;
  note: string;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', brand: 'visa', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'approve', note: 'Visa, approved' },
  { number: '4242424242424242', brand: 'visa', bin_type: 'CREDIT', bin_level: 'PLATINUM', outcome: 'approve', note: 'Visa, approved' },
  { number: '4000056655665556', brand: 'visa', bin_type: 'DEBIT', bin_level: 'CLASSIC', outcome: 'approve', note: 'Visa debit, approved' },
  { number: '5555555555554444', brand: 'mastercard', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'approve', note: 'Mastercard, approved' },
  { number: '2223003122003222', brand: 'mastercard', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'approve', note: 'Mastercard 2-series, approved' },
  { number: '5105105105105100', brand: 'mastercard', bin_type: 'CREDIT', bin_level: 'BUSINESS', outcome: 'approve', note: 'Mastercard business, approved' },
  { number: '378282246310005', brand: 'amex', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'approve', note: 'American Express, approved (4-digit CVV)' },
  { number: '6011111111111117', brand: 'discover', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'approve', note: 'Discover, approved' },
  { number: '3056930009020004', brand: 'diners', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'approve', note: 'Diners Club, approved' },
  { number: '36227206271667', brand: 'diners', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'approve', note: 'Diners Club 14-digit, approved' },
  { number: '3566002020360505', brand: 'jcb', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'approve', note: 'JCB, approved' },
  { number: '4000000000000002', brand: 'visa', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'decline', note: 'declined at any amount (99820)' },
  { number: '4000000000000101', brand: 'visa', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'cvv_fail', note: 'CVV check fails (CPCVV2) when the merchant checks CVV' },
  { number: '4000000000000044', brand: 'visa', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'cvv_unsupported', note: 'issuer does not support CVV (CPCVV1) when the merchant checks CVV' },
  { number: '4000000000000036', brand: 'visa', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'zip_fail', note: 'ZIP verification fails (82004) when the merchant checks ZIP' },
];

/** The sample bank account. Any account number at this routing number is a test account. */
export const TEST_BANK = { routing_number: '110000000', account_number: '000123456789' } as const;

const byNumber = new Map(TEST_CARDS.map((c) => [c.number, c]));

export function findTestCard(number: string): TestCard | undefined {
  return byNumber.get(number);
}
