// Webhooks (spec 4.10): rules, strategies and their relations, events, deliveries, the signing secret.
import type { DeliveryRow } from '../domain/events/deliveries.js';
import type { EventRow } from '../domain/events/events.js';
import type { RuleRow } from '../domain/events/rules.js';
import type { RelationRow, StrategyRow } from '../domain/events/strategies.js';
import { MUST, invalid } from '../errors.js';
import { Int, NullableInt, NullableStr as NStr, NullableTime, Str, Timestamp, Type, type Static } from './common.js';
import { type Field, type Input, custom, fields, pageFields, raw } from './fields.js';

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

// Requests. The rule and strategy fields are read as sent: what they may be depends on the
// catalogue, the mode and, on update, the stored record (404 first), so the domain reads each in
// the spec's order (events/rules.ts, events/strategies.ts). Each list is filtered by the table.
const listOf = (item: Record<string, unknown>) => ({ anyOf: [{ type: 'array', items: item }, { type: 'string' }] });
const ruleFields = (create: boolean) => ({
  event_resource: raw('GET /webhooks/event_types lists them.', { type: 'string' }, { required: create, example: 'transaction' }),
  event_types: raw('Full event type names or their suffixes (none: every type of the resource), a list, a JSON-encoded one or comma-separated.',
    listOf({ type: 'string' }), { example: ['transaction.created'] }),
  constraints: raw('Conditions on the event data, a list or a JSON-encoded one.',
    listOf({ type: 'object', properties: { field: { type: 'string' }, operator: { type: 'string' }, value: {} } })),
});
const ruleExamples = { examples: [{ event_resource: 'transaction', event_types: ['transaction.created'] }] };
/** POST /webhooks/rules: event_resource required (WEBHOOK01 without it). */
export const RuleFields = fields(ruleFields(true), ruleExamples);
/** PUT /webhooks/rule/:id (and /rules/:id): the fields sent replace the stored ones. */
export const RuleUpdateFields = fields(ruleFields(false), ruleExamples);
export type RuleInput = Input<typeof RuleUpdateFields>;

const strategyFields = (create: boolean) => ({
  mode: raw('webhook, email or sms.', { type: 'string', enum: ['webhook', 'email', 'sms'] }, { required: create, example: 'webhook' }),
  url: raw('webhook: a public http(s) URL (https in live mode), at most 2048 characters.', { type: 'string', maxLength: 2048 },
    { example: 'https://shop.example.com/hooks' }),
  email_address: raw('email: where the message goes.', { type: 'string', format: 'email' }),
  email: raw('email: read when email_address is not sent.', { type: 'string', format: 'email' }),
  phone_number: raw('sms: 7 to 15 digits, optionally with a leading +.', { type: 'string' }),
  phone: raw('sms: read when phone_number is not sent.', { type: 'string' }),
});
const strategyExamples = { examples: [{ mode: 'webhook', url: 'https://shop.example.com/hooks' }] };
/** POST /webhooks/strategies: mode and its target. */
export const StrategyFields = fields(strategyFields(true), strategyExamples);
/** PUT /webhooks/strategies/:id: mode may change; the target of the (new) mode is read when sent. */
export const StrategyUpdateFields = fields(strategyFields(false), strategyExamples);
export type StrategyInput = Input<typeof StrategyUpdateFields>;

/** POST /webhooks/rules/:rule_id/strategies: the rule is looked up first (100001), then strategy_id (REQ01 absent, 200007 unknown). */
export const RelationFields = fields({
  strategy_id: raw('The strategy to relate.', { type: 'string' }, { required: true, example: 'str_1e2f3a4b' }),
}, { examples: [{ strategy_id: 'str_1e2f3a4b' }] });

export const RotateBody = Type.Object({
  expire_old: Type.Optional(Str({ enum: Object.keys(EXPIRE_OLD), description: 'When the secret being replaced stops signing (default now).' })),
}, { examples: [{ expire_old: '1h' }] });

/** A list filter: compared as sent; absent or empty is no filter, any other non-string REQ01. */
export function filterText(description: string, o: { enum?: readonly string[] } = {}): Field<string | undefined> {
  return custom(description, { type: 'string', ...(o.enum ? { enum: o.enum } : {}) }, (v, name) => {
    if (v === undefined || v === '') return undefined;
    if (typeof v !== 'string') throw invalid(name, MUST.STRING);
    return v;
  });
}

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** GET /events: the page, then `type` and `resource`. */
export const EventsQuery = fields({
  ...pageFields(),
  type: filterText('Only events of this type.'),
  resource: filterText('Only events of this resource.'),
});
export type EventFilter = Pick<Input<typeof EventsQuery>, 'type' | 'resource'>;

/** GET /webhooks/deliveries: the page, then event_id, rule_id, strategy_id, mode, status. */
export const DeliveriesQuery = fields({
  ...pageFields(),
  event_id: filterText('Only deliveries of this event.'),
  rule_id: filterText('Only deliveries this rule made.'),
  strategy_id: filterText('Only deliveries to this strategy.'),
  mode: filterText('webhook, email or sms.'),
  status: custom('Only deliveries in this state.', { type: 'string', enum: DELIVERY_STATUSES }, (v): DeliveryStatus | undefined => {
    if (v === undefined || v === '') return undefined;
    const key = typeof v === 'string' ? v : '';
    if (!(DELIVERY_STATUSES as readonly string[]).includes(key)) throw invalid('status', `must be one of ${DELIVERY_STATUSES.join(', ')}`);
    return key as DeliveryStatus;
  }),
});
export type DeliveryFilter = Omit<Input<typeof DeliveriesQuery>, 'limit' | 'offset'>;

/** GET /webhooks/rules and /webhooks/strategies. */
export const RulesQuery = fields(pageFields());
export const StrategiesQuery = fields(pageFields());
