import { E, ErrorCode, GatewayError } from '../errors.js';
import { simulator } from './simulator.js';

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

export function processorFor(env: Env, live: Processor = unconfigured): Processor {
  return env === 'test' ? simulator : live;
}

export const declined = (o: ChargeOutcome): o is ChargeOutcome & { errorCode: ErrorCode } => o.errorCode !== null;
