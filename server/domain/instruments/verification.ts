import { E, GatewayError } from '../../errors.js';
import { TestOutcome, findTestCard } from '../../processor/test-cards.js';

/** The merchant's verification switches for one environment (merchant_settings). */
export interface VerificationSettings {
  cvv_check: boolean;
  zip_check: boolean;
}

export interface CardCheck {
  /** The simulated processor's outcome for the card; null when it is not a test card. */
  outcome: TestOutcome | null;
  /** Security code given with the request, or the one captured with the token. */
  csc: string | null;
  /** Zip given with the request, or the token's billing zip. */
  zip: string | null;
}

export interface CardCheckResult {
  /** 'pass' when the merchant checks CVV and it matched; null when not checked. */
  csc_check: 'pass' | null;
  /** 'pass' when the merchant checks ZIP and it matched; null when not checked. */
  avs_zip_check: 'pass' | null;
}

/**
 * The one place card verification is decided: customer and method create/update and charges by
 * token all call it. Only cards are verified; bank accounts never reach here. Order matters:
 * CVV before ZIP, an issuer without CVV support (CPCVV1) before a missing code (CPCVV2).
 */
export function verifyCard(settings: VerificationSettings, card: CardCheck): CardCheckResult {
  const result: CardCheckResult = { csc_check: null, avs_zip_check: null };
  if (settings.cvv_check) {
    if (card.outcome === 'cvv_unsupported') throw new GatewayError(E.CVV_UNSUPPORTED);
    if (!card.csc) throw new GatewayError(E.CVV_WRONG, 'card verification code required');
    if (card.outcome === 'cvv_fail') throw new GatewayError(E.CVV_WRONG);
    result.csc_check = 'pass';
  }
  if (settings.zip_check) {
    if (!card.zip) throw new GatewayError(E.ZIP_REQUIRED);
    if (card.outcome === 'zip_fail') throw new GatewayError(E.CARD_VERIFICATION_FAILED, 'card verification failed: zip does not match');
    result.avs_zip_check = 'pass';
  }
  return result;
}

/** The test-card outcome of a card number (null for numbers outside the table). */
export function testOutcome(number: string): TestOutcome | null {
  return findTestCard(number)?.outcome ?? null;
}
