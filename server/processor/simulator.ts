import { randomInt } from 'node:crypto';
import type { ChargeInput, ChargeOutcome, Processor } from './processor.js';
import { findTestCard } from './test-cards.js';

/** Spec 5.7: these card amounts (cents) decline with 99820. */
export const DECLINE_AMOUNTS = { min: 73, max: 100 } as const;
/** Spec 5.7: this bank-account amount (cents) comes back as a return for insufficient funds. */
export const ACH_RETURN_AMOUNT = 12;

const trace = () => String(randomInt(100000, 999999));

function chargeCard(input: ChargeInput): ChargeOutcome {
  const declined = (errorMessage: string): ChargeOutcome => ({
    status: 'DECLINED', errorCode: '99820', errorMessage, systemTrace: trace(),
  });
  if (findTestCard(input.number)?.outcome === 'decline') return declined('Do not honor (simulated decline: test card)');
  if (input.amount >= DECLINE_AMOUNTS.min && input.amount <= DECLINE_AMOUNTS.max) {
    return declined(`Insufficient funds (simulated decline: test amount ${DECLINE_AMOUNTS.min}-${DECLINE_AMOUNTS.max})`);
  }
  return { status: 'SETTLED', errorCode: null, errorMessage: null, systemTrace: trace() };
}

function chargeBank(input: ChargeInput): ChargeOutcome {
  if (input.amount === ACH_RETURN_AMOUNT) {
    const errorMessage = 'R01: insufficient funds (simulated ACH return: test amount 12)';
    return { status: 'RETURNED', errorCode: null, errorMessage, systemTrace: trace() };
  }
  return { status: 'SETTLED', errorCode: null, errorMessage: null, systemTrace: trace() };
}

/**
 * Deterministic test-mode processor: the outcome is a function of card and amount. CVV and ZIP
 * verification happen before any processor, in domain/verification.ts.
 */
export const simulator: Processor = {
  async charge(input) {
    return input.paymentMethod === 'credit_card' ? chargeCard(input) : chargeBank(input);
  },
  async refund() {},
};
