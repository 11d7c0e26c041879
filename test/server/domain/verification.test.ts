import { describe, expect, test } from 'vitest';
import { CardCheck, VerificationSettings, testOutcome, verifyCard } from '../../../server/domain/instruments/verification.js';
import { GatewayError } from '../../../server/errors.js';

// server/domain/instruments/verification.ts: the merchant's CVV and ZIP checks on a card, decided in one place.
// Order: CVV before ZIP; an issuer without CVV support (CPCVV1) before a missing code (CPCVV2).

const NONE: VerificationSettings = { cvv_check: false, zip_check: false };
const CVV: VerificationSettings = { cvv_check: true, zip_check: false };
const ZIP: VerificationSettings = { cvv_check: false, zip_check: true };
const BOTH: VerificationSettings = { cvv_check: true, zip_check: true };

const card = (number: string, csc: string | null = '123', zip: string | null = '10001'): CardCheck =>
  ({ outcome: testOutcome(number), csc, zip });

/** The code (and HTTP status) verifyCard throws, or its result. */
function verify(settings: VerificationSettings, c: CardCheck) {
  try {
    return verifyCard(settings, c);
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    const err = e as GatewayError;
    return { code: err.code, status: err.status, message: err.message };
  }
}

test('testOutcome reads the test-card table; other numbers have none', () => {
  expect(testOutcome('4111111111111111')).toBe('approve');
  expect(testOutcome('4000000000000101')).toBe('cvv_fail');
  expect(testOutcome('4000000000000044')).toBe('cvv_unsupported');
  expect(testOutcome('4000000000000036')).toBe('zip_fail');
  expect(testOutcome('4000000000000002')).toBe('decline');
  expect(testOutcome('4012888888881881')).toBeNull();
});

describe('nothing checked', () => {
  test.for(['4111111111111111', '4000000000000101', '4000000000000044', '4000000000000036', '4012888888881881'])(
    '%s passes with neither code nor zip, and nothing is reported', (number) => {
      expect(verify(NONE, card(number, null, null))).toEqual({ csc_check: null, avs_zip_check: null });
    });
});

describe('CVV checked', () => {
  test('a good card with a code: pass', () => {
    expect(verify(CVV, card('4111111111111111'))).toEqual({ csc_check: 'pass', avs_zip_check: null });
  });
  test('a number outside the test table with a code: pass (no outcome to fail it)', () => {
    expect(verify(CVV, card('4012888888881881'))).toEqual({ csc_check: 'pass', avs_zip_check: null });
  });
  test('no code: CPCVV2, "required"', () => {
    expect(verify(CVV, card('4111111111111111', null))).toMatchObject({ code: 'CPCVV2', message: expect.stringMatching(/required/) });
    expect(verify(CVV, card('4111111111111111', ''))).toMatchObject({ code: 'CPCVV2' });
  });
  test('the CVV-failing card: CPCVV2', () => {
    expect(verify(CVV, card('4000000000000101'))).toMatchObject({ code: 'CPCVV2' });
  });
  test('an issuer without CVV support: CPCVV1, even without a code', () => {
    expect(verify(CVV, card('4000000000000044'))).toMatchObject({ code: 'CPCVV1' });
    expect(verify(CVV, card('4000000000000044', null))).toMatchObject({ code: 'CPCVV1' });
  });
  test('the ZIP-failing card passes when only CVV is checked', () => {
    expect(verify(CVV, card('4000000000000036'))).toEqual({ csc_check: 'pass', avs_zip_check: null });
  });
});

describe('ZIP checked', () => {
  test('a good card with a zip: pass', () => {
    expect(verify(ZIP, card('4111111111111111', null))).toEqual({ csc_check: null, avs_zip_check: 'pass' });
  });
  test('no zip: AVSZIP404', () => {
    expect(verify(ZIP, card('4111111111111111', '123', null))).toMatchObject({ code: 'AVSZIP404' });
    expect(verify(ZIP, card('4111111111111111', '123', ''))).toMatchObject({ code: 'AVSZIP404' });
  });
  test('the ZIP-failing card: 82004 naming the zip', () => {
    expect(verify(ZIP, card('4000000000000036'))).toMatchObject({ code: '82004', message: expect.stringMatching(/zip/) });
  });
  test('the CVV cards pass when only ZIP is checked', () => {
    expect(verify(ZIP, card('4000000000000101', null))).toEqual({ csc_check: null, avs_zip_check: 'pass' });
    expect(verify(ZIP, card('4000000000000044', null))).toEqual({ csc_check: null, avs_zip_check: 'pass' });
  });
});

describe('both checked: CVV first', () => {
  test('a good card: both pass', () => {
    expect(verify(BOTH, card('4111111111111111'))).toEqual({ csc_check: 'pass', avs_zip_check: 'pass' });
  });
  test('no code and no zip: the CVV error', () => {
    expect(verify(BOTH, card('4111111111111111', null, null))).toMatchObject({ code: 'CPCVV2' });
  });
  test('an unsupported issuer and no zip: CPCVV1', () => {
    expect(verify(BOTH, card('4000000000000044', null, null))).toMatchObject({ code: 'CPCVV1' });
  });
  test('a good code, the ZIP-failing card: 82004', () => {
    expect(verify(BOTH, card('4000000000000036'))).toMatchObject({ code: '82004' });
  });
  test('each refusal has its catalogue status (4xx)', () => {
    for (const c of [card('4111111111111111', null), card('4000000000000044'), card('4111111111111111', '1', null), card('4000000000000036')]) {
      const got = verify(BOTH, c) as { status: number };
      expect(got.status).toBeGreaterThanOrEqual(400);
      expect(got.status).toBeLessThan(500);
    }
  });
});
