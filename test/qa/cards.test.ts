import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_BANK, TEST_CARDS } from '../../server/processor/test-cards.js';
import { DECLINE_AMOUNTS, RETURN_AMOUNT, TestGateway, bankData, cardData, cards, startTestGateway } from '../../server/testing/index.js';
import { detectBrand, luhn, validatePaymentData } from '../../src/checks.js';

// `cards` is the simulator's own table, named for tests: each entry does on a real gateway what
// its name says, and nothing in it can drift from server/processor/test-cards.ts.

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const named = Object.entries(cards).filter(([k]) => !['all', 'bank', 'realCardNumber'].includes(k)) as [string, (typeof cards)['visa']][];

describe('cards', () => {
  test('is the test-card table itself, every entry valid for the tokenizer', () => {
    expect(cards.all.map((c) => c.number)).toEqual(TEST_CARDS.map((c) => c.number));
    for (const [name, card] of named) {
      expect(TEST_CARDS.some((c) => c.number === card.number), name).toBe(true);
      expect(luhn(card.number), name).toBe(true);
      expect(detectBrand(card.number), name).toBe(card.brand);
      expect(card.formatted.replace(/ /g, ''), name).toBe(card.number);
      expect(validatePaymentData(cardData(card)), name).toBeNull();
    }
    expect(cards.bank.routing_number).toBe(TEST_BANK.routing_number);
    expect(validatePaymentData(bankData())).toBeNull();
    expect(luhn(cards.realCardNumber) && !TEST_CARDS.some((c) => c.number === cards.realCardNumber)).toBe(true);
  });

  test('names match outcomes: declined, cvvFailure, cvvUnsupported, zipFailure', () => {
    expect(cards.declined.outcome).toBe('decline');
    expect(cards.cvvFailure.outcome).toBe('cvv_fail');
    expect(cards.cvvUnsupported.outcome).toBe('cvv_unsupported');
    expect(cards.zipFailure.outcome).toBe('zip_fail');
    for (const brand of ['visa', 'mastercard', 'amex', 'discover', 'diners', 'jcb'] as const) {
      expect(cards[brand]).toMatchObject({ brand, outcome: 'approve' });
    }
    expect(cards.amex.cvv).toHaveLength(4);
    expect(cards.visaDebit.bin_type).toBe('DEBIT');
  });

  test('every card of the table does what the table says on a real gateway', async () => {
    const expected = { approve: null, decline: '99820', cvv_fail: 'CPCVV2', cvv_unsupported: 'CPCVV1', zip_fail: '82004' } as const;
    await gw.settings({ cvv_check: true, zip_check: true });
    for (const card of cards.all) {
      const result = await gw.charge(await gw.tokenize(cardData(card)), 1500);
      const code = expected[card.outcome];
      expect(result.errors[0]?.code ?? null, `${card.number} (${card.note})`).toBe(code);
      expect(result.ok, card.number).toBe(code === null);
    }
    // Without the merchant's checks, the verification cards are approved.
    await gw.settings({ cvv_check: false, zip_check: false });
    for (const card of [cards.cvvFailure, cards.cvvUnsupported, cards.zipFailure]) {
      expect((await gw.charge(await gw.tokenize(cardData(card)), 1500)).ok, card.number).toBe(true);
    }
  });

  test('the decline amounts decline any card; the return amount returns a bank charge', async () => {
    for (const amount of [DECLINE_AMOUNTS.min, DECLINE_AMOUNTS.max]) {
      const r = await gw.charge(await gw.tokenize(cardData(cards.visa)), amount);
      expect(r.errors[0].code).toBe('99820');
      expect(r.transaction).toMatchObject({ status: 'DECLINED', amount_failed: amount });
    }
    expect((await gw.charge(await gw.tokenize(cardData(cards.visa)), DECLINE_AMOUNTS.max + 1)).ok).toBe(true);
    const returned = await gw.charge(await gw.tokenize(bankData()), RETURN_AMOUNT);
    expect(returned).toMatchObject({ status: 200, ok: false, transaction: { status: 'RETURNED', successful: false } });
  });

  test('a real card number is refused in test mode (TEST01)', async () => {
    const res = await gw.request('POST', '/tokens', cardData(cards.visa, { card_number: cards.realCardNumber }), { key: gw.publicKey });
    expect(res.body.errors?.[0].code).toBe('TEST01');
  });
});
