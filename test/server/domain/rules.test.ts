import { describe, expect, test } from 'vitest';
import { parseConstraints } from '../../../server/domain/events/constraints.js';
import { EVENT_TYPES } from '../../../server/domain/events/events.js';
import { isResource, ruleMatches } from '../../../server/domain/events/rules.js';

// server/domain/events/rules.ts, rule matching (spec 4.10): an event runs a rule's strategies when its type
// belongs to the rule's resource, is one of the rule's types (none listed: every type) and every
// constraint holds for the event's object.

type Rule = Parameters<typeof ruleMatches>[0];
const rule = (event_resource: Rule['event_resource'], event_types: string[] = [], constraints: unknown = []): Rule =>
  ({ event_resource, event_types, constraints: parseConstraints(constraints) });

const charge = { class: 'transaction', amount_settled: 15000, status: 'SETTLED', metadata: { plan: 'gold' } };

describe('the resource', () => {
  test('a rule without types matches every type of its resource, and nothing else', () => {
    const r = rule('transaction');
    for (const type of EVENT_TYPES.transaction) expect(ruleMatches(r, type, charge), type).toBe(true);
    for (const type of [...EVENT_TYPES.customer, ...EVENT_TYPES.invoice, ...EVENT_TYPES.scheduled_transaction]) {
      expect(ruleMatches(r, type, charge), type).toBe(false);
    }
  });

  test('the resource is the whole type but its last part: prefixes and look-alikes do not match', () => {
    expect(ruleMatches(rule('transaction'), 'transaction.created', {})).toBe(true);
    expect(ruleMatches(rule('transaction'), 'transactions.created', {})).toBe(false);
    expect(ruleMatches(rule('transaction'), 'scheduled_transaction.billed', {})).toBe(false);
    expect(ruleMatches(rule('scheduled_transaction'), 'transaction.created', {})).toBe(false);
    expect(ruleMatches(rule('scheduled_transaction'), 'scheduled_transaction.billed', {})).toBe(true);
    expect(ruleMatches(rule('transaction'), 'transaction', {})).toBe(false);
    expect(ruleMatches(rule('transaction'), '', {})).toBe(false);
  });

  test('isResource: the catalogue\'s resources, own keys only', () => {
    expect(Object.keys(EVENT_TYPES).every(isResource)).toBe(true);
    expect(['Transaction', 'transactions', 'toString', '__proto__', 'constructor', '', 1, null].some(isResource)).toBe(false);
  });
});

describe('the types', () => {
  test('listed types match; the resource\'s other types do not', () => {
    const r = rule('transaction', ['transaction.failed', 'transaction.refunded']);
    expect(ruleMatches(r, 'transaction.failed', charge)).toBe(true);
    expect(ruleMatches(r, 'transaction.refunded', charge)).toBe(true);
    expect(ruleMatches(r, 'transaction.created', charge)).toBe(false);
  });

  test('a type is compared whole', () => {
    const r = rule('invoice', ['invoice.paid']);
    expect(ruleMatches(r, 'invoice.paid', {})).toBe(true);
    expect(ruleMatches(r, 'invoice.partially_paid', {})).toBe(false);
  });
});

describe('the constraints', () => {
  test('every constraint must hold for the event object', () => {
    const r = rule('transaction', ['transaction.created'], [
      { field: 'amount_settled', operator: 'gte', value: 10000 },
      { field: 'metadata.plan', operator: 'eq', value: 'gold' },
    ]);
    expect(ruleMatches(r, 'transaction.created', charge)).toBe(true);
    expect(ruleMatches(r, 'transaction.created', { ...charge, amount_settled: 9999 })).toBe(false);
    expect(ruleMatches(r, 'transaction.created', { ...charge, metadata: { plan: 'silver' } })).toBe(false);
    expect(ruleMatches(r, 'transaction.created', { ...charge, metadata: {} })).toBe(false);
  });

  test('constraints never rescue a type that does not match', () => {
    const r = rule('transaction', ['transaction.failed'], [{ field: 'status', operator: 'eq', value: 'SETTLED' }]);
    expect(ruleMatches(r, 'transaction.created', charge)).toBe(false);
  });

  test('the object need not be an object: with constraints nothing matches, without them the type decides', () => {
    const r = rule('customer', [], [{ field: 'id', operator: 'exists' }]);
    for (const data of [null, undefined, 'text', 42, []]) expect(ruleMatches(r, 'customer.created', data)).toBe(false);
    expect(ruleMatches(rule('customer'), 'customer.created', null)).toBe(true);
  });
});
