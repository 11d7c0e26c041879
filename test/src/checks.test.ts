import { describe, expect, test } from 'vitest';
import { abaValid, detectBrand, luhn, validatePaymentData, validatePublicKey } from '../../src/checks.js';

// Independent of src/checks.ts on purpose: builds a Luhn-valid number of `length`
// digits from a prefix, so every brand/length pair can be tested without magic numbers.
function cardNumber(prefix: string, length: number): string {
  let body = prefix.padEnd(length - 1, '0');
  for (let check = 0; check < 10; check++) {
    const digits = (body + check).split('').reverse().map(Number);
    const sum = digits.reduce((s, d, i) => s + (i % 2 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
    if (sum % 10 === 0) return body + check;
  }
  throw new Error('unreachable');
}

// Mid-month, mid-day: far from any month boundary in every time zone.
const NOW = new Date('2025-06-15T12:00:00Z');
const card = (over: Record<string, unknown> = {}) => ({
  card_owner_name: 'Ada Lovelace',
  card_number: '4111111111111111',
  card_exp_month: 12,
  card_exp_year: 2030,
  ...over,
});
const bank = (over: Record<string, unknown> = {}) => ({
  token_type: 'bank_account',
  bank_routing_number: '021000021',
  bank_account_number: '000123456789',
  bank_account_holder_first_name: 'Ada',
  bank_account_holder_last_name: 'Lovelace',
  bank_account_type: 'checking',
  ...over,
});
const code = (data: Record<string, unknown>, now = NOW) => validatePaymentData(data, now)?.code ?? null;

describe('luhn', () => {
  test.each([
    ['79927398713', true],
    ['4111111111111111', true],
    ['5555555555554444', true],
    ['378282246310005', true],
    ['6011111111111117', true],
    ['3530111333300000', true],
    ['30569309025904', true],
    ['79927398710', false],
    ['4111111111111112', false],
    ['', false],
    ['4111 1111 1111 1111', false],
    ['abc', false],
    // The luhn package refuses an all-zero sum (no brand starts with 0, so no card changes).
    ['0000000000000000', false],
  ])('luhn(%j) = %s', (digits, ok) => expect(luhn(digits)).toBe(ok));
});

// [brand, prefix, valid lengths, invalid lengths, code for a bad length]
const BRANDS: [string, string, number[], number[], string][] = [
  ['visa', '4', [13, 16, 19], [12, 14, 15, 17, 18, 20], '11301'],
  ['mastercard', '51', [16], [15, 17], '11302'],
  ['mastercard', '55', [16], [15, 17], '11302'],
  ['mastercard', '2221', [16], [15, 17], '11302'],
  ['mastercard', '2500', [16], [14, 19], '11302'],
  ['mastercard', '2720', [16], [15, 17], '11302'],
  ['amex', '34', [15], [14, 16], '11303'],
  ['amex', '37', [15], [14, 16], '11303'],
  ['diners', '300', [14, 15, 16, 17, 18, 19], [13, 20], '11305'],
  ['diners', '305', [14, 19], [13, 20], '11305'],
  ['diners', '36', [14, 19], [13, 20], '11305'],
  ['diners', '38', [14, 19], [13, 20], '11305'],
  ['diners', '39', [14, 19], [13, 20], '11305'],
  ['discover', '6011', [16, 17, 18, 19], [15, 20], '11306'],
  ['discover', '644', [16, 19], [15, 20], '11306'],
  ['discover', '649', [16, 19], [15, 20], '11306'],
  ['discover', '65', [16, 19], [15, 20], '11306'],
  ['discover', '622126', [16, 19], [15, 20], '11306'],
  ['discover', '622925', [16, 19], [15, 20], '11306'],
  ['jcb', '3528', [16, 17, 18, 19], [15, 20], '11112'],
  ['jcb', '3589', [16, 19], [15, 20], '11112'],
];

describe('brands', () => {
  for (const [brand, prefix, good, bad, badCode] of BRANDS) {
    test.each(good)(`${brand} ${prefix}… with %i digits is accepted`, (length) => {
      const n = cardNumber(prefix, length);
      expect(detectBrand(n)).toBe(brand);
      expect(code(card({ card_number: n, csc: brand === 'amex' ? '1234' : '123' }))).toBe(null);
    });
    test.each(bad)(`${brand} ${prefix}… with %i digits is refused with ${badCode}`, (length) => {
      expect(code(card({ card_number: cardNumber(prefix, length) }))).toBe(badCode);
    });
    test(`${brand} ${prefix}… failing Luhn is refused with 11112`, () => {
      const n = cardNumber(prefix, good[0]);
      const broken = n.slice(0, -1) + ((+n.slice(-1) + 1) % 10);
      expect(code(card({ card_number: broken }))).toBe('11112');
    });
  }

  test.each(['50', '56', '2220', '2721', '33', '306', '3095', '6010', '643', '622125', '622926', '3527', '3590', '1', '9'])(
    'prefix %s is no known brand: 11112',
    (prefix) => {
      const n = cardNumber(prefix, 16);
      expect(detectBrand(n)).toBe(null);
      expect(code(card({ card_number: n }))).toBe('11112');
    },
  );

  test('detectBrand looks at the prefix only', () => {
    expect(detectBrand('4')).toBe('visa');
    expect(detectBrand('37')).toBe('amex');
    expect(detectBrand('3')).toBe(null);
    expect(detectBrand('')).toBe(null);
  });
});

describe('card fields', () => {
  test.each<[string, Record<string, unknown>, string | null]>([
    ['a complete card', {}, null],
    ['spaces and dashes in the number', { card_number: '4111 1111-1111 1111' }, null],
    ['letters in the number', { card_number: '4111x11111111111' }, '11112'],
    ['no number', { card_number: undefined }, '11112'],
    ['no owner name', { card_owner_name: undefined }, '11112'],
    ['a blank owner name', { card_owner_name: '   ' }, '11112'],
    ['token_type credit_card', { token_type: 'credit_card' }, null],
    ['a blank token_type (defaults to card)', { token_type: '' }, null],
    ['an unknown token_type', { token_type: 'paypal' }, '11112'],
  ])('%s -> %s', (_name, over, expected) => expect(code(card(over))).toBe(expected));
});

describe('messages: a field not given is missing, one given but wrong is invalid (same code)', () => {
  const refusal = (data: Record<string, unknown>) => validatePaymentData(data, NOW);
  test.each<[string, Record<string, unknown>, string, string]>([
    ['no owner name', card({ card_owner_name: undefined }), '11112', 'card_owner_name missing'],
    ['a blank owner name', card({ card_owner_name: '  ' }), '11112', 'card_owner_name missing'],
    ['no month', card({ card_exp_month: '' }), '11112', 'card_exp_month missing'],
    ['month 13', card({ card_exp_month: 13 }), '11112', 'invalid card_exp_month'],
    ['no year', card({ card_exp_year: undefined }), '11112', 'card_exp_year missing'],
    ['a three-digit year', card({ card_exp_year: 203 }), '11112', 'invalid card_exp_year'],
    ['no number', card({ card_number: undefined }), '11112', 'card_number missing'],
    ['a number of spaces', card({ card_number: ' - ' }), '11112', 'card_number missing'],
    ['letters in the number', card({ card_number: '4111x11111111111' }), '11112', 'invalid card_number'],
    ['no routing number', bank({ bank_routing_number: undefined }), '91703', 'bank_routing_number missing'],
    ['a wrong routing number', bank({ bank_routing_number: '123456789' }), '91703', 'invalid bank_routing_number'],
    ['no account number', bank({ bank_account_number: '' }), '91703', 'bank_account_number missing'],
    ['no holder last name', bank({ bank_account_holder_last_name: null }), '91703', 'bank_account_holder_last_name missing'],
    ['an unknown account type', bank({ bank_account_type: 'gold' }), '91703', 'invalid bank_account_type'],
  ])('%s', (_name, data, code, message) => expect(refusal(data)).toEqual({ code, message }));
});

describe('expiry (now = 2025-06-15)', () => {
  test.each<[unknown, unknown, string | null]>([
    [6, 2025, null], // this month
    ['6', '2025', null],
    ['06', '2025', null],
    [7, 2025, null],
    [5, 2025, '11112'], // last month
    [12, 2024, '11112'],
    [1, 2026, null],
    [0, 2030, '11112'],
    [13, 2030, '11112'],
    ['1.5', 2030, '11112'],
    ['', 2030, '11112'],
    [12, 30, null], // two digits: 2030, as the official client library's README sends it
    [12, '30', null],
    [6, '25', null], // 2025-06: this month
    [5, '25', '11112'], // 2025-05: last month
    [12, '203', '11112'], // three digits: no year
    [12, '20300', '11112'],
    [12, undefined, '11112'],
  ])('month %j year %j -> %s', (month, year, expected) =>
    expect(code(card({ card_exp_month: month, card_exp_year: year }))).toBe(expected),
  );

  test('a card stays valid until its month has ended in every time zone (UTC-12)', () => {
    const june = card({ card_exp_month: 6, card_exp_year: 2025 });
    expect(code(june, new Date('2025-07-01T11:59:00Z'))).toBe(null);
    expect(code(june, new Date('2025-07-01T12:01:00Z'))).toBe('11112');
  });
});

describe('security code', () => {
  const amex = '378282246310005';
  test.each<[Record<string, unknown>, string | null]>([
    [{ csc: '123' }, null],
    [{ cvv: '123' }, null],
    [{ csc: 123 }, null],
    [{ csc: '12' }, '234722'],
    [{ csc: '1234' }, '234722'],
    [{ cvv: '12a' }, '234722'],
    [{ csc: '' }, null], // blank = not given
    [{ csc: '', cvv: '12' }, '234722'],
    [{ csc: '123', cvv: '1' }, null], // csc wins
    [{ card_number: amex, csc: '1234' }, null],
    [{ card_number: amex, cvv: '1234' }, null],
    [{ card_number: amex, csc: '123' }, '234722'],
  ])('%j -> %s', (over, expected) => expect(code(card(over))).toBe(expected));
});

describe('amount', () => {
  test.each<[unknown, string | null]>([
    [undefined, null],
    ['', null],
    [1, null],
    [100, null],
    ['2500', null],
    [0, '38501'],
    ['0', '38501'],
    [-5, '38501'],
    [1.5, '38501'],
    ['12.50', '38501'],
    ['abc', '38501'],
  ])('amount %j -> %s (card and bank account)', (amount, expected) => {
    expect(code(card({ amount }))).toBe(expected);
    expect(code(bank({ amount }))).toBe(expected);
  });
});

describe('ABA routing number', () => {
  test.each([
    ['110000000', true],
    ['021000021', true],
    ['011401533', true],
    ['021000022', false],
    ['110000001', false],
    ['02100002', false],
    ['0210000210', false],
    ['02100002a', false],
    ['', false],
  ])('abaValid(%j) = %s', (routing, ok) => expect(abaValid(routing)).toBe(ok));
});

describe('bank account fields', () => {
  test.each<[string, Record<string, unknown>, string | null]>([
    ['a complete account', {}, null],
    ['savings', { bank_account_type: 'savings' }, null],
    ['routing 110000000 given as a number', { bank_routing_number: 110000000 }, null],
    ['a bad routing checksum', { bank_routing_number: '021000022' }, '91703'],
    ['an 8-digit routing number', { bank_routing_number: '02100002' }, '91703'],
    ['no routing number', { bank_routing_number: undefined }, '91703'],
    ['a 4-digit account number', { bank_account_number: '1234' }, null],
    ['a 17-digit account number', { bank_account_number: '12345678901234567' }, null],
    ['a 3-digit account number', { bank_account_number: '123' }, '91703'],
    ['an 18-digit account number', { bank_account_number: '123456789012345678' }, '91703'],
    ['a dash in the account number', { bank_account_number: '1234-5678' }, '91703'],
    ['no first name', { bank_account_holder_first_name: '' }, '91703'],
    ['no last name', { bank_account_holder_last_name: undefined }, '91703'],
    ['type business', { bank_account_type: 'business' }, '91703'],
    ['type Checking (case matters)', { bank_account_type: 'Checking' }, '91703'],
    ['no type', { bank_account_type: undefined }, '91703'],
    ['card fields are not required', { card_number: undefined, card_owner_name: undefined }, null],
  ])('%s -> %s', (_name, over, expected) => expect(code(bank(over))).toBe(expected));
});

describe('public key', () => {
  test.each<[unknown, boolean]>([
    ['k'.repeat(63), true],
    ['test_pk_' + 'a'.repeat(55), true],
    ['k'.repeat(62), false],
    ['k'.repeat(64), false],
    ['', false],
    [12345, false],
    [undefined, false],
    [null, false],
  ])('%j accepted: %s', (key, ok) => {
    const e = validatePublicKey(key);
    expect(e === null).toBe(ok);
    if (e) expect(e.code).toBe('TKN01');
  });
});

test('every failure carries a non-empty message', () => {
  const e = validatePaymentData(card({ card_number: '4111' }), NOW);
  expect(e).toEqual({ code: '11301', message: expect.stringMatching(/\S/) });
});
