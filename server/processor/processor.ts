import { randomInt } from 'node:crypto';
import { E, ErrorCode, GatewayError } from '../errors.js';
import { findTestCard } from './test-cards.js';

/** The merchant environment a charge runs in (domain/keys.ts's Env: the processor sits below the domain). */
type Env = 'test' | 'live';

export interface ChargeInput {
  env: Env;
  paymentMethod: 'credit_card' | 'bank_account';
  /** PAN or account number, decrypted for this call only. */
  number: string;
  amount: number;
}

export interface ChargeOutcome {
  status: 'SETTLED' | 'DECLINED' | 'RETURNED';
  /** Set when the charge failed: the catalogue code the API answers with (null for an ACH return). */
  errorCode: ErrorCode | null;
  errorMessage: string | null;
  systemTrace: string | null;
}

/**
 * What moves money. The test-mode simulator is one implementation; a live acquirer adapter is
 * another. A live adapter talks over the network, so it would record a pending transaction, call
 * out, then settle it in a second transaction; the simulator answers at once.
 */
export interface Processor {
  charge(input: ChargeInput): Promise<ChargeOutcome>;
  refund(input: { env: Env; transactionId: string; amount: number }): Promise<void>;
}

/** Live mode without an acquirer refuses to pretend. */
export const unconfigured: Processor = {
  async charge() {
    throw new GatewayError(E.NO_LIVE_PROCESSOR);
  },
  async refund() {
    throw new GatewayError(E.NO_LIVE_PROCESSOR);
  },
};

/** Spec 5.7: these card amounts (cents) decline with 99820. */
export const DECLINE_AMOUNTS = { min: 73, max: 100 } as const;
/** Spec 5.7: this bank-account amount (cents) comes back as a return for insufficient funds. */
export const ACH_RETURN_AMOUNT = 12;

const trace = () => String(randomInt(100000, 999999));

function chargeCard(input: ChargeInput): ChargeOutcome {
  const declined = (errorMessage: string): ChargeOutcome => ({
    status: 'DECLINED', errorCode: E.CARD_DECLINED, errorMessage, systemTrace: trace(),
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

export function processorFor(env: Env, live: Processor = unconfigured): Processor {
  return env === 'test' ? simulator : live;
}

export const declined = (o: ChargeOutcome): o is ChargeOutcome & { errorCode: ErrorCode } => o.errorCode !== null;
