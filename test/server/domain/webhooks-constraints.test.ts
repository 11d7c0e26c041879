import { describe, expect, test } from 'vitest';
import { Constraint, holds, matches, parseConstraint, parseConstraints, readPath } from '../../../server/domain/events/constraints.js';
import { GatewayError } from '../../../server/errors.js';

// The constraint language of webhook rules (docs/decisions/webhooks.md): a table of
// (constraint, object, expected) over every operator, missing fields and type coercion.

const txn = {
  class: 'transaction',
  id: 'abc',
  amount_settled: 15000,
  amount_refunded: 0,
  status: 'SETTLED',
  successful: true,
  refunded: false,
  description: null,
  card_type: 'visa',
  created_at: '2026-01-15T12:00:00.000Z',
  metadata: { plan: 'gold', seats: '12', tags: ['a', 'b'], nested: { deep: 1 } },
  refunds: [{ id: 'r1', amount: 100 }],
  amount_string: '250',
};

const c = (field: string, operator: string, value?: unknown): Constraint => parseConstraint({ field, operator, value }, 0);

const table: Array<[string, Constraint, boolean]> = [
  // eq / ne
  ['eq number', c('amount_settled', 'eq', 15000), true],
  ['eq number given as string', c('amount_settled', 'eq', '15000'), true],
  ['eq numeric string field vs number', c('metadata.seats', 'eq', 12), true],
  ['eq 12 == 12.0', c('metadata.seats', 'eq', '12.0'), true],
  ['eq string exact', c('status', 'eq', 'SETTLED'), true],
  ['eq string is case-sensitive', c('status', 'eq', 'settled'), false],
  ['eq boolean true', c('successful', 'eq', true), true],
  ['eq boolean from form string', c('successful', 'eq', 'true'), true],
  ['eq boolean from 1', c('successful', 'eq', 1), true],
  ['eq boolean false', c('refunded', 'eq', 'false'), true],
  ['eq boolean mismatch', c('refunded', 'eq', true), false],
  ['eq boolean vs nonsense', c('refunded', 'eq', 'no'), false],
  ['eq object is never equal', c('metadata', 'eq', 'gold'), false],
  ['eq nested', c('metadata.plan', 'eq', 'gold'), true],
  ['eq array index', c('refunds.0.amount', 'eq', 100), true],
  ['ne string', c('status', 'ne', 'DECLINED'), true],
  ['ne equal', c('status', 'ne', 'SETTLED'), false],
  ['ne numeric coercion', c('amount_settled', 'ne', '15000'), false],
  ['ne on object', c('metadata', 'ne', 'x'), false],
  // gt / gte / lt / lte
  ['gt', c('amount_settled', 'gt', 10000), true],
  ['gt equal', c('amount_settled', 'gt', 15000), false],
  ['gte equal', c('amount_settled', 'gte', 15000), true],
  ['gte from string', c('amount_settled', 'gte', '10000'), true],
  ['lt', c('amount_settled', 'lt', 15001), true],
  ['lte', c('amount_settled', 'lte', 14999), false],
  ['gt numeric string field', c('amount_string', 'gt', 99), true], // "250" > 99 numerically, not as text
  ['lt numeric, not lexicographic', c('metadata.seats', 'lt', 9), false],
  ['gt on a non-numeric string', c('status', 'gt', 5), false],
  ['gt on a boolean', c('successful', 'gt', 0), false],
  ['gte date', c('created_at', 'gte', '2026-01-15'), true],
  ['lt date', c('created_at', 'lt', '2026-01-15T11:59:59Z'), false],
  ['lt date with offset', c('created_at', 'lt', '2026-01-15T13:00:01+01:00'), true],
  // in
  ['in strings', c('card_type', 'in', ['visa', 'mastercard']), true],
  ['in miss', c('card_type', 'in', ['amex']), false],
  ['in numbers coerce', c('amount_settled', 'in', ['100', '15000']), true],
  ['in JSON-encoded list', c('card_type', 'in', '["visa"]'), true],
  ['in form-keyed list', c('card_type', 'in', { 0: 'amex', 1: 'visa' }), true],
  // contains
  ['contains substring', c('description', 'contains', 'x'), false], // null field
  ['contains in string', c('status', 'contains', 'TTL'), true],
  ['contains case-sensitive', c('status', 'contains', 'ttl'), false],
  ['contains list element', c('metadata.tags', 'contains', 'b'), true],
  ['contains list miss', c('metadata.tags', 'contains', 'z'), false],
  ['contains on a number', c('amount_settled', 'contains', '150'), false],
  // exists
  ['exists present', c('metadata.plan', 'exists'), true],
  ['exists true explicit', c('metadata.plan', 'exists', true), true],
  ['exists on null', c('description', 'exists'), false],
  ['exists false on null', c('description', 'exists', false), true],
  ['exists false on missing', c('metadata.nope', 'exists', 'false'), true],
  ['exists false on present', c('status', 'exists', false), false],
  ['exists on a false boolean', c('refunded', 'exists'), true],
  // missing fields fail every comparison, ne included
  ['missing eq', c('nope', 'eq', 'x'), false],
  ['missing ne', c('nope', 'ne', 'x'), false],
  ['null ne', c('description', 'ne', 'x'), false],
  ['missing gt', c('nope', 'gt', 0), false],
  ['missing in', c('nope', 'in', ['x']), false],
  ['missing deep', c('metadata.nested.deep.deeper', 'eq', 1), false],
  ['path through a string', c('status.length', 'eq', 7), false],
  ['inherited property is not a field', c('metadata.toString', 'exists'), false],
  // aliases
  ['alias >=', c('amount_settled', '>=', 15000), true],
  ['alias !=', c('status', '!=', 'DECLINED'), true],
  ['alias =', c('status', '=', 'SETTLED'), true],
];

describe('constraint matching table', () => {
  test.each(table)('%s', (_name, constraint, expected) => {
    expect(holds(constraint, txn)).toBe(expected);
  });
});

test('a rule matches when every constraint holds; no constraint matches everything', () => {
  expect(matches([], txn)).toBe(true);
  expect(matches([c('amount_settled', 'gte', 10000), c('status', 'eq', 'SETTLED')], txn)).toBe(true);
  expect(matches([c('amount_settled', 'gte', 10000), c('status', 'eq', 'DECLINED')], txn)).toBe(false);
});

test('operators are stored under their names; exists defaults to true', () => {
  expect(c('a', '>', 1)).toEqual({ field: 'a', operator: 'gt', value: 1 });
  expect(c('a', 'EQ', 'x')).toEqual({ field: 'a', operator: 'eq', value: 'x' });
  expect(c('a', 'exists')).toEqual({ field: 'a', operator: 'exists', value: true });
  expect(c('a', 'in', '["x", 2]')).toEqual({ field: 'a', operator: 'in', value: ['x', 2] });
});

const refuses = (raw: unknown, pattern: RegExp) => {
  try {
    parseConstraints(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).code).toBe('REQ01');
    expect((err as GatewayError).message).toMatch(pattern);
    return;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
};

test('bad constraints are REQ01 naming the item and the problem', () => {
  refuses('nope', /list/);
  refuses({ a: 1 }, /list/);
  refuses([1], /constraints\[0\]: must be an object/);
  refuses([{ operator: 'eq', value: 1 }], /field is required/);
  refuses([{ field: 'a..b', operator: 'eq', value: 1 }], /dotted path/);
  refuses([{ field: '__proto__.x', operator: 'eq', value: 1 }], /dotted path/);
  refuses([{ field: 'a.b.c.d.e.f.g.h.i', operator: 'eq', value: 1 }], /dotted path/);
  refuses([{ field: 'a', operator: 'like', value: 1 }], /operator must be one of eq, ne, gt, gte, lt, lte, in, contains, exists/);
  refuses([{ field: 'a', operator: 'eq' }], /value is required/);
  refuses([{ field: 'a', operator: 'eq', value: null }], /use exists/);
  refuses([{ field: 'a', operator: 'eq', value: { x: 1 } }], /string, a number or a boolean/);
  refuses([{ field: 'a', operator: 'gt', value: 'abc' }], /number or an ISO 8601 date/);
  refuses([{ field: 'a', operator: 'in', value: [] }], /list of 1 to 100/);
  refuses([{ field: 'a', operator: 'in', value: 'x' }], /list of 1 to 100/);
  refuses([{ field: 'a', operator: 'in', value: [{}] }], /string, a number or a boolean/);
  refuses([{ field: 'a', operator: 'exists', value: 'maybe' }], /true or false/);
  refuses([{ field: 'a', operator: 'eq', value: 'x'.repeat(1001) }], /longer than 1000/);
  refuses(Array.from({ length: 21 }, () => ({ field: 'a', operator: 'exists' })), /at most 20/);
  refuses('[{"field": "a"', /JSON encoding/);
  refuses([{ field: 'b', operator: 'eq', value: 1 }, { field: 'a', operator: 'ne' }], /constraints\[1\]: value is required/);
});

test('constraints arrive as JSON, as a JSON-encoded string, or as form keys', () => {
  const want = [{ field: 'amount_settled', operator: 'gte', value: '10000' }];
  expect(parseConstraints([{ field: 'amount_settled', operator: 'gte', value: '10000' }])).toEqual(want);
  expect(parseConstraints(JSON.stringify(want))).toEqual(want);
  expect(parseConstraints({ 0: { field: 'amount_settled', operator: 'gte', value: '10000' } })).toEqual(want);
  expect(parseConstraints(undefined)).toEqual([]);
  expect(parseConstraints('')).toEqual([]);
});

test('readPath reads own properties only', () => {
  expect(readPath(txn, 'metadata.nested.deep')).toBe(1);
  expect(readPath(txn, 'refunds.0.id')).toBe('r1');
  expect(readPath(txn, 'refunds.x')).toBeUndefined();
  expect(readPath(txn, 'constructor')).toBeUndefined();
});

describe('numbers and dates at the edges', () => {
  const obj = {
    balance: -10, rate: '2.50', padded: ' 42 ', zero: 0, big: 9_007_199_254_740_991,
    leap: '2024-02-29T00:00:00.000Z', spaced: '2026-01-15 12:00:00', day: '2026-01-15', list: [1, '2', true],
  };
  test.for([
    ['gt a negative', c('balance', 'gt', -11), true],
    ['lt a negative', c('balance', 'lt', '-9'), true],
    ['eq a negative given as text', c('balance', 'eq', '-10'), true],
    ['decimal text equals its number', c('rate', 'eq', 2.5), true],
    ['decimal compare', c('rate', 'lt', '2.51'), true],
    ['padded numeric text reads as a number', c('padded', 'eq', 42), true],
    ['zero is present and equal to 0', c('zero', 'eq', '0'), true],
    ['zero exists', c('zero', 'exists'), true],
    ['the largest safe integer', c('big', 'gte', '9007199254740991'), true],
    ['a leap day compares as an instant', c('leap', 'lt', '2024-03-01'), true],
    ['a leap day is after Feb 28', c('leap', 'gt', '2024-02-28T23:59:59Z'), true],
    ['a date with a space for T', c('spaced', 'gte', '2026-01-15T12:00:00'), true],
    ['a bare date is its midnight UTC', c('day', 'lt', '2026-01-15T00:00:01Z'), true],
    ['a number never compares with a date', c('balance', 'lt', '2026-01-15'), false],
    ['contains a number in a mixed list', c('list', 'contains', 2), true],
    ['contains a boolean element by its text (as eq)', c('list', 'contains', 'true'), true],
    ['contains: no element equals 3', c('list', 'contains', 3), false],
    ['in with a negative', c('balance', 'in', [-10, 0]), true],
  ] as const)('%s', ([, constraint, expected]) => {
    expect(holds(constraint, obj)).toBe(expected);
  });
});
