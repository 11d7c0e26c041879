// Pure payment-data checks. The server imports this file too, so the browser and the
// server refuse exactly the same inputs with the same codes: no DOM, no I/O here.
// Every check -> code mapping is listed in docs/decisions/tokenizer.md.

import luhnPackage from 'luhn';

export type CheckError = { code: string; message: string };
export type Brand = 'visa' | 'mastercard' | 'amex' | 'diners' | 'discover' | 'jcb';

const FORMAT = '11112';
const BANK = '91703';
// Order does not matter: no two prefixes overlap. JCB has no brand code in the
// spec's list, so its length failures fall back to the generic format code.
// [brand, prefix, allowed lengths, code when the length does not fit]
const BRANDS: [Brand, RegExp, RegExp, string][] = [
  ['visa', /^4/, /^(\d{13}|\d{16}|\d{19})$/, '11301'],
  ['mastercard', /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/, /^\d{16}$/, '11302'],
  ['amex', /^3[47]/, /^\d{15}$/, '11303'],
  ['diners', /^(30[0-5]|3[689])/, /^\d{14,19}$/, '11305'],
  ['discover', /^(6011|64[4-9]|65|622(12[6-9]|1[3-9]\d|[2-8]\d\d|9[01]\d|92[0-5]))/, /^\d{16,19}$/, '11306'],
  ['jcb', /^35(2[89]|[3-8]\d)/, /^\d{16,19}$/, FORMAT],
];

const err = (code: string, message: string): CheckError => ({ code, message });
// Values arrive as strings or numbers (query strings, JSON, forms). A blank form field
// becomes "" here, which every rule treats as "not given", the same as a missing key.
const str = (v: unknown) => (v == null ? '' : String(v).trim());

// The checksum itself is the `luhn` package (design: one well-known implementation on both
// sides). It strips whitespace and refuses an all-zero sum; digits-only is checked here so a
// spaced number stays a format error, as before.
export function luhn(digits: string): boolean {
  return /^\d+$/.test(digits) && luhnPackage.validate(digits);
}

export function detectBrand(digits: string): Brand | null {
  const b = BRANDS.find((x) => x[1].test(digits));
  return b ? b[0] : null;
}

export function abaValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += +routing[i] * [3, 7, 1][i % 3];
  return sum % 10 == 0;
}

// Existing clients send `csc`; some send `cvv`. `csc` wins when both are given.
/**
 * Whether month/year lies before this month in UTC-12, the last time zone to leave a month: a
 * card stays valid until its expiry month has ended everywhere, on client and server alike.
 */
/** A card's expiry year as clients send it: two digits are this century's ("31" is 2031), four are as given. */
export function fullYear(year: unknown): number {
  const n = +str(year);
  return n < 100 ? 2000 + n : n;
}

export function expired(month: number, year: number, now: Date): boolean {
  const t = new Date(now.getTime() - 432e5);
  return year * 12 + month < t.getUTCFullYear() * 12 + t.getUTCMonth() + 1;
}

export function securityCode(data: Record<string, unknown>): unknown {
  return str(data.csc) ? data.csc : data.cvv;
}

export function validatePublicKey(key: unknown): CheckError | null {
  return typeof key == 'string' && key.length == 63 ? null : err('TKN01', 'public key must be 63 characters');
}

// `ownerOptional`: the server's own card paths (a direct charge, card fields on a customer) take a
// card without its owner's name, as clients of this API family send it there; tokens still need it.
export function validatePaymentData(data: Record<string, unknown>, now: Date = new Date(), ownerOptional?: boolean): CheckError | null {
  const type = str(data.token_type) || 'credit_card';
  const amount = str(data.amount);
  return (
    (type == 'credit_card'
      ? cardError(data, now, ownerOptional)
      : type == 'bank_account'
        ? firstFailure(data, BANK_FIELDS, BANK)
        : err(FORMAT, 'invalid token_type')) ||
    (amount && !/^[1-9]\d*$/.test(amount) ? err('38501', 'invalid amount') : null)
  );
}

// Values are trimmed strings by the time a rule sees them; /\S/ means "given".
type Rule = [field: string, rule: { test(value: string): boolean }];

const CARD_FIELDS: Rule[] = [
  ['card_owner_name', /\S/],
  ['card_exp_month', /^(0?[1-9]|1[0-2])$/],
  ['card_exp_year', /^(\d{2}|\d{4})$/],
];

const BANK_FIELDS: Rule[] = [
  ['bank_routing_number', { test: abaValid }],
  ['bank_account_number', /^\d{4,17}$/],
  ['bank_account_holder_first_name', /\S/],
  ['bank_account_holder_last_name', /\S/],
  ['bank_account_type', /^(checking|savings)$/],
];

// A field not given is "missing", one given but wrong is "invalid": the code is the same.
const fault = (field: string, value: string) => (value ? 'invalid ' : '') + field + (value ? '' : ' missing');

function firstFailure(d: Record<string, unknown>, rules: Rule[], code: string): CheckError | null {
  for (const [field, rule] of rules) if (!rule.test(str(d[field]))) return err(code, fault(field, str(d[field])));
  return null;
}

function cardError(d: Record<string, unknown>, now: Date, ownerOptional?: boolean): CheckError | null {
  const e = firstFailure(d, ownerOptional ? CARD_FIELDS.slice(1) : CARD_FIELDS, FORMAT);
  if (e) return e;
  const num = str(d.card_number).replace(/[\s-]/g, '');
  const b = BRANDS.find((x) => x[1].test(num));
  if (!b || !/^\d+$/.test(num)) return err(FORMAT, fault('card_number', num));
  if (!b[2].test(num)) return err(b[3], 'invalid ' + b[0] + ' number');
  if (!luhn(num)) return err(FORMAT, 'invalid card_number');

  if (expired(+str(d.card_exp_month), fullYear(d.card_exp_year), now)) return err(FORMAT, 'card expired');
  const csc = str(securityCode(d));
  return csc && !(b[0] == 'amex' ? /^\d{4}$/ : /^\d{3}$/).test(csc) ? err('234722', 'invalid csc') : null;
}
