import { randomInt } from 'node:crypto';
import type { Connector, ProcessorResult, SaleRequest } from '../../connector.js';
import { findTestCard } from '../../test-cards.js';

/** Spec 5.7: these card amounts (cents) decline with 99820. */
export const DECLINE_AMOUNTS = { min: 73, max: 100 } as const;
/** Spec 5.7: this bank-account amount (cents) comes back as a return for insufficient funds (NACHA R01). */
export const ACH_RETURN_AMOUNT = 12;

const trace = () => String(randomInt(100000, 999999));

const answer = (outcome: ProcessorResult['outcome'], message: string | null, reasonCode: string | null = null): ProcessorResult => ({
  outcome, processorId: trace(), authCode: null, avs: null, cvv: null, reasonCode, message,
});
const APPROVED = (): ProcessorResult => answer('approved', null);

function sale(req: SaleRequest): ProcessorResult {
  const { instrument: i, amount } = req;
  if (i.kind === 'bank') {
    // An ACH return carries its NACHA return code (R01: insufficient funds).
    return amount === ACH_RETURN_AMOUNT ? answer('declined', 'R01: insufficient funds (simulated ACH return: test amount 12)', 'R01') : APPROVED();
  }
  if (findTestCard(i.number)?.outcome === 'decline') return answer('declined', 'Do not honor (simulated decline: test card)');
  if (amount >= DECLINE_AMOUNTS.min && amount <= DECLINE_AMOUNTS.max) {
    return answer('declined', `Insufficient funds (simulated decline: test amount ${DECLINE_AMOUNTS.min}-${DECLINE_AMOUNTS.max})`);
  }
  return APPROVED();
}

/**
 * The test-mode processor: deterministic, the outcome a function of card (or account) and amount;
 * a sale settles at once, so a refund is always a refund. CVV and ZIP verification happen before
 * any processor, in domain/instruments/verification.ts. Local: it answers with no I/O and moves no money, so
 * the gateway may ask it before recording a charge.
 */
export const simulator: Connector = {
  name: 'simulator',
  local: true,
  async sale(req) {
    return sale(req);
  },
  async void() {
    return APPROVED();
  },
  async refund() {
    return APPROVED();
  },
  async lookup() {
    // Nothing it answers is ever unknown, so nothing is looked up.
    return { found: false };
  },
};
