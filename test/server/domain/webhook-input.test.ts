// The field tables of webhook rules, strategies and relations (schemas/webhook-requests.ts): each
// field is typed as it is read, and its refusal waits (`later`) for the domain to take it in the
// spec's order, after the lookups; a NUL is refused at once, as the table reads it.
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../server/errors.js';
import { Refused, take } from '../../../server/schemas/fields.js';
import { RelationFields, RuleFields, RuleUpdateFields, StrategyFields, StrategyUpdateFields } from '../../../server/schemas/webhooks.js';

const refusal = (v: unknown) => {
  expect(v).toBeInstanceOf(Refused);
  const e = (v as Refused).error;
  return { code: e.code, message: e.message };
};

describe('rules', () => {
  it('read the resource, the types as sent and the constraints parsed', () => {
    const r = RuleFields.read({ event_resource: ' Transaction ', event_types: 'created, Transaction.Failed', constraints: '[{"field":"amount_settled","operator":">=","value":1000}]' });
    expect(take(r.event_resource)).toBe('transaction');
    expect(take(r.event_types)?.map((t) => t.name)).toEqual(['created', 'transaction.failed']);
    expect(take(r.constraints)).toEqual([{ field: 'amount_settled', operator: 'gte', value: 1000 }]);
  });

  it('keep each refusal for the domain: the resource, then the types, then the constraints', () => {
    const r = RuleFields.read({ event_types: 5, constraints: 'nope' });
    expect(refusal(r.event_resource).message).toMatch(/^event_resource is required; one of transaction, /);
    expect(refusal(r.event_types).message).toBe('event_types must be a list of event types');
    expect(refusal(r.constraints).message).toMatch(/^constraints /);
  });

  it('on update, an absent field is undefined (kept) and null or empty types are none (every type)', () => {
    const r = RuleUpdateFields.read({ event_types: '' });
    expect([take(r.event_resource), take(r.event_types), take(r.constraints)]).toEqual([undefined, [], undefined]);
    expect(refusal(RuleUpdateFields.read({ event_resource: null }).event_resource).message).toMatch(/is required/);
  });

  it('show an item that is no string as sent, cut at 60 characters', () => {
    const [n, long] = take(RuleFields.read({ event_types: [7, 'x'.repeat(80)] }).event_types)!;
    expect(n).toEqual({ name: '', shown: '7' });
    expect(long.shown).toBe(`"${'x'.repeat(59)}…`);
  });

  it('refuse a NUL as they read it', () => {
    expect(() => RuleFields.read({ event_resource: 'trans\u0000action' })).toThrow(GatewayError);
  });
});

describe('strategies', () => {
  it('read the mode and every target, each refusal waiting for the mode it belongs to', () => {
    const s = StrategyFields.read({ mode: 'SMS', url: 'ftp://x', email_address: '', phone: '+1 (555) 010-9999' });
    expect(take(s.mode)).toBe('sms');
    expect(refusal(s.url).message).toBe('url must be an absolute http or https URL');
    expect(refusal(s.email_address).message).toBe('email_address is required for mode email');
    expect(take(s.phone)).toBe('+15550109999');
    expect(take(s.phone_number)).toBeUndefined();
  });

  it('a create without a mode is refused when taken; an update without one keeps the stored mode', () => {
    expect(refusal(StrategyFields.read({}).mode).message).toBe('mode must be one of webhook, email, sms');
    expect(take(StrategyUpdateFields.read({}).mode)).toBeUndefined();
  });

  it('null names leave the other spelling to be read', () => {
    const s = StrategyUpdateFields.read({ email_address: null, email: ' ada@example.com ' });
    expect(take(s.email_address ?? s.email)).toBe('ada@example.com');
  });
});

describe('relations', () => {
  it('strategy_id: required when taken; a value that is no string names no strategy', () => {
    expect(refusal(RelationFields.read({}).strategy_id).message).toBe('strategy_id is required');
    expect(take(RelationFields.read({ strategy_id: ['strat_0123456789abcdef'] }).strategy_id)).toBeNull();
    expect(take(RelationFields.read({ strategy_id: 'strat_0123456789abcdef' }).strategy_id)).toBe('strat_0123456789abcdef');
  });
});
