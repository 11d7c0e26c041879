// Webhooks (spec 4.10): rules, strategies and their relations, events, deliveries, the signing secret.
import type { DeliveryRow } from '../domain/events/deliveries.js';
import type { EventRow } from '../domain/events/events.js';
import type { RuleRow } from '../domain/events/rules.js';
import type { RelationRow, StrategyRow } from '../domain/events/strategies.js';
import { Int, NullableInt, NullableStr as NStr, NullableTime, Str, Timestamp, Type, loose, pageQuery, type Static } from './common.js';

/** How long the secret being replaced keeps signing deliveries beside the new one. */
export const EXPIRE_OLD = { now: 0, '1h': 3600_000, '24h': 86_400_000 } as const;
export type ExpireOld = keyof typeof EXPIRE_OLD;

const strings = (example: string[] = []) => Type.Array(Str(), { examples: [example] });
const scalar = { type: ['string', 'number', 'boolean'] };

export const RuleSchema = Type.Object({
  class: Str({ examples: ['webhook_rule'] }),
  id: Str({ examples: ['rul_7a8b9c0d'] }),
  event_resource: Str({ examples: ['transaction'] }),
  event_types: strings(['transaction.created']),
  constraints: Type.Array(Type.Object({
    field: Str({ examples: ['amount_settled'] }),
    operator: Str({ examples: ['gte'] }),
    value: Type.Unsafe<string | number | boolean | (string | number | boolean)[]>({ anyOf: [scalar, { type: 'array', items: scalar }], examples: [1000] }),
  })),
  strategies: strings(['str_1e2f3a4b']),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export type RuleOut = Static<typeof RuleSchema>;
export function presentRule(r: RuleRow): RuleOut {
  return {
    class: 'webhook_rule',
    id: r.id,
    event_resource: r.event_resource,
    event_types: r.event_types,
    constraints: r.constraints as RuleOut['constraints'],
    strategies: r.strategies,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export const StrategySchema = Type.Object({
  class: Str({ examples: ['webhook_strategy'] }),
  id: Str({ examples: ['str_1e2f3a4b'] }),
  mode: Str({ enum: ['webhook', 'email', 'sms'], examples: ['webhook'] }),
  url: NStr({ examples: ['https://shop.example.com/hooks'] }),
  email_address: NStr({ examples: [null] }),
  phone_number: NStr({ examples: [null] }),
  rules: strings(['rul_7a8b9c0d']),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export type StrategyOut = Static<typeof StrategySchema>;
export function presentStrategy(s: StrategyRow): StrategyOut {
  return {
    class: 'webhook_strategy',
    id: s.id,
    mode: s.mode,
    url: s.url,
    email_address: s.email_address,
    phone_number: s.phone_number,
    rules: s.rules,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export const RelationSchema = Type.Object({
  class: Str({ examples: ['webhook_relation'] }), rule_id: Str({ examples: ['rul_7a8b9c0d'] }), strategy_id: Str({ examples: ['str_1e2f3a4b'] }), created_at: Timestamp(),
});
export function presentRelation(r: RelationRow): Static<typeof RelationSchema> {
  return { class: 'webhook_relation', rule_id: r.rule_id, strategy_id: r.strategy_id, created_at: r.created_at };
}

/** An event as stored: `data` is the object as the API shows it (already an allow-listed presentation). */
export const EventSchema = Type.Object({
  class: Str({ examples: ['event'] }),
  id: Str({ examples: ['evt_0a1b2c3d'] }),
  type: Str({ examples: ['transaction.created'] }),
  resource: Str({ examples: ['transaction'] }),
  created_at: Timestamp(),
  dispatched_at: NullableTime(),
  data: Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description: 'The resource as the API shows it.' }),
});
export type EventOut = Static<typeof EventSchema>;
export function presentEvent(e: EventRow): EventOut {
  return { class: 'event', id: e.id, type: e.type, resource: e.resource, created_at: e.created_at, dispatched_at: e.dispatched_at, data: e.data };
}

const AttemptSchema = Type.Object({
  attempt: Int({ examples: [1] }), at: Timestamp(), status_code: NullableInt({ examples: [200] }), error: NStr(), duration_ms: NullableInt({ examples: [42] }),
});
export const DeliverySchema = Type.Object({
  class: Str({ examples: ['webhook_delivery'] }),
  id: Int({ examples: [1] }),
  event_id: Str({ examples: ['evt_0a1b2c3d'] }),
  event_type: Str({ examples: ['transaction.created'] }),
  rule_id: Str({ examples: ['rul_7a8b9c0d'] }),
  strategy_id: Str({ examples: ['str_1e2f3a4b'] }),
  mode: Str({ examples: ['webhook'] }),
  target: Str({ examples: ['https://shop.example.com/hooks'] }),
  status: Str({ enum: ['pending', 'delivered', 'failed'], examples: ['delivered'] }),
  attempt_count: Int({ examples: [1] }),
  next_attempt_at: NullableTime({ examples: [null] }),
  last_status_code: NullableInt({ examples: [200] }),
  last_error: NStr(),
  delivered_at: NullableTime(),
  outbox_id: NullableInt(),
  created_at: Timestamp(),
  attempts: Type.Array(AttemptSchema),
});
export type DeliveryOut = Static<typeof DeliverySchema>;
export function presentDelivery(d: DeliveryRow): DeliveryOut {
  const status = d.state === 'sent' ? 'delivered' : d.state;
  return {
    class: 'webhook_delivery',
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    rule_id: d.rule_id,
    strategy_id: d.strategy_id,
    mode: d.mode,
    target: d.target,
    status,
    attempt_count: d.attempt_count,
    next_attempt_at: status === 'pending' ? d.next_attempt_at : null,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    delivered_at: d.sent_at,
    outbox_id: d.outbox_id,
    created_at: d.created_at,
    attempts: (d.attempts ?? []).map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
  };
}

/** POST /webhooks/strategies/:id/test: what one test request got (domain/events/webhook-test.ts). */
export const TestEventSchema = Type.Object({
  class: Str({ examples: ['webhook_test'] }), strategy_id: Str(), url: Str(), event_id: Str(),
  status: Str({ enum: ['delivered', 'failed'] }), status_code: NullableInt({ examples: [200] }), error: NStr(), duration_ms: NullableInt(),
});

export const SecretSchema = Type.Object({
  class: Str({ examples: ['webhook_secret'] }),
  env: Str({ examples: ['test'] }),
  secret: Str({ description: 'Signs every delivery and billing callback (HMAC-SHA256).', examples: ['whsec_…'] }),
  created_at: Timestamp(),
  previous_secret_expires_at: NullableTime({ description: 'When the secret before the last rotation stops signing; null when it has.', examples: [null] }),
});

export const CatalogueSchema = Type.Object({
  class: Str({ examples: ['event_catalogue'] }),
  resources: Type.Array(Type.Object({ resource: Str({ examples: ['transaction'] }), event_types: strings(['transaction.created', 'transaction.failed']) })),
});

const list = (description: string) => Type.Union([Type.Array(Str()), Str()], { description });
export const RuleBody = loose({
  event_resource: Str({ description: 'GET /webhooks/event_types lists them.', examples: ['transaction'] }),
  event_types: list('Full event type names (none: every type of the resource), a list or a JSON-encoded one.'),
  constraints: Type.Union([Type.Array(Type.Object({ field: Str(), operator: Str(), value: Type.Unknown() })), Str()], {
    description: 'Conditions on the event data, a list or a JSON-encoded one.',
  }),
}, { examples: [{ event_resource: 'transaction', event_types: ['transaction.created'] }] });
export const StrategyBody = loose({
  mode: Str({ enum: ['webhook', 'email', 'sms'], examples: ['webhook'] }),
  url: Str({ description: 'webhook: a public https URL.', examples: ['https://shop.example.com/hooks'] }),
  email_address: Str({ description: 'email (or `email`).' }),
  phone_number: Str({ description: 'sms (or `phone`).' }),
}, { examples: [{ mode: 'webhook', url: 'https://shop.example.com/hooks' }] });
export const RelationBody = loose({ strategy_id: Str({ examples: ['str_1e2f3a4b'] }) }, { examples: [{ strategy_id: 'str_1e2f3a4b' }] });
export const RotateBody = Type.Object({
  expire_old: Type.Optional(Str({ enum: Object.keys(EXPIRE_OLD), description: 'When the secret being replaced stops signing (default now).' })),
}, { examples: [{ expire_old: '1h' }] });
export const EventsQuery = loose({ ...pageQuery, type: Str({ description: 'Only events of this type.' }), resource: Str({ description: 'Only events of this resource.' }) });
export const DeliveriesQuery = loose({
  ...pageQuery, event_id: Str(), rule_id: Str(), strategy_id: Str(), mode: Str(), status: Str({ enum: ['pending', 'delivered', 'failed'] }),
});
