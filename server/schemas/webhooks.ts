// Webhooks (spec 4.10): rules, strategies and their relations, events, deliveries, the signing secret.
import type { Constraint } from './constraints.js';
import { MUST, invalid } from '../errors.js';
import {
  At, Env, Int, NullableAt, NullableInt, NullableStr as NStr, NullableTime, Str, Timestamp, Type, type Static, type TUnsafe,
  columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { type Field, type Input, custom, fields, pageFields } from './fields.js';

/** How long the secret being replaced keeps signing deliveries beside the new one. */
export const EXPIRE_OLD = { now: 0, '1h': 3600_000, '24h': 86_400_000 } as const;
export type ExpireOld = keyof typeof EXPIRE_OLD;

export {
  EVENT_TYPES, MODES, RelationFields, RuleFields, RuleUpdateFields, StrategyFields, StrategyUpdateFields, isResource,
  type EventResource, type EventType, type Mode, type RuleCreateInput, type RuleInput, type SentEventType,
  type StrategyCreateInput, type StrategyInput,
} from './webhook-requests.js';
import { MODES, type EventResource, type Mode } from './webhook-requests.js';

const strings = (example: string[] = []) => Type.Array(Str(), { examples: [example] });
const scalar = { type: ['string', 'number', 'boolean'] };
const modeColumn = (example?: Mode) => Str({ enum: MODES, ...(example ? { examples: [example] } : {}) }) as TUnsafe<Mode>;

// Row schemas (server/schemas/common.ts): each table's columns in order (`seq`, the insertion
// order, is read by no row); a column marked `shown` is in the answer as stored.

/** webhook_rules (009_webhooks.sql). */
export const RuleRowSchema = Type.Object({
  id: shown(Str({ examples: ['rul_7a8b9c0d'] })),
  merchant_id: Str(),
  env: Env(),
  event_resource: shown(Str({ examples: ['transaction'] }) as TUnsafe<EventResource>),
  /** Full event type names; empty means every type of the resource. */
  event_types: shown(strings(['transaction.created'])),
  constraints: shown(Type.Unsafe<Constraint[]>(Type.Array(Type.Object({
    field: Str({ examples: ['amount_settled'] }),
    operator: Str({ examples: ['gte'] }),
    value: Type.Unsafe({ anyOf: [scalar, { type: 'array', items: scalar }], examples: [1000] }),
  })))),
  created_at: shown(At()),
  updated_at: shown(At()),
});
export type RuleRow = Static<typeof RuleRowSchema>;
export const RULE_COLUMNS = columnsOf(RuleRowSchema);
/** A rule as read: its row and the ids of its related strategies, oldest relation first. */
export type Rule = RuleRow & { strategies: string[] };

export const RuleSchema = Type.Object({
  class: Str({ examples: ['webhook_rule'] }), ...shownOf(RuleRowSchema), strategies: strings(['str_1e2f3a4b']),
});
export type RuleOut = Static<typeof RuleSchema>;
const RULE_PICK = shownPicker(RuleRowSchema, { class: 'webhook_rule' });
export function presentRule(r: Rule): RuleOut {
  const out = RULE_PICK(r) as RuleOut;
  out.strategies = r.strategies;
  return out;
}

/** webhook_strategies (009_webhooks.sql): the target of its mode, the other two null. */
export const StrategyRowSchema = Type.Object({
  id: shown(Str({ examples: ['str_1e2f3a4b'] })),
  merchant_id: Str(),
  env: Env(),
  mode: shown(modeColumn('webhook')),
  url: shown(NStr({ examples: ['https://shop.example.com/hooks'] })),
  email_address: shown(NStr({ examples: [null] })),
  phone_number: shown(NStr({ examples: [null] })),
  created_at: shown(At()),
  updated_at: shown(At()),
});
export type StrategyRow = Static<typeof StrategyRowSchema>;
export const STRATEGY_COLUMNS = columnsOf(StrategyRowSchema);
/** A strategy as read: its row and the ids of the rules it is related to. */
export type Strategy = StrategyRow & { rules: string[] };

export const StrategySchema = Type.Object({
  class: Str({ examples: ['webhook_strategy'] }), ...shownOf(StrategyRowSchema), rules: strings(['rul_7a8b9c0d']),
});
export type StrategyOut = Static<typeof StrategySchema>;
const STRATEGY_PICK = shownPicker(StrategyRowSchema, { class: 'webhook_strategy' });
export function presentStrategy(s: Strategy): StrategyOut {
  const out = STRATEGY_PICK(s) as StrategyOut;
  out.rules = s.rules;
  return out;
}

/** webhook_rule_strategies (009_webhooks.sql). */
export const RelationRowSchema = Type.Object({
  rule_id: shown(Str({ examples: ['rul_7a8b9c0d'] })),
  strategy_id: shown(Str({ examples: ['str_1e2f3a4b'] })),
  merchant_id: Str(),
  env: Env(),
  created_at: shown(At()),
});
export type RelationRow = Static<typeof RelationRowSchema>;
export const RELATION_COLUMNS = columnsOf(RelationRowSchema);
export const RelationSchema = Type.Object({ class: Str({ examples: ['webhook_relation'] }), ...shownOf(RelationRowSchema) });
const RELATION_PICK = shownPicker(RelationRowSchema, { class: 'webhook_relation' });
export function presentRelation(r: RelationRow): Static<typeof RelationSchema> {
  return RELATION_PICK(r);
}

/** events (008_events.sql): `data` is the object as the API shows it (already an allow-listed presentation). */
export const EventRowSchema = Type.Object({
  id: shown(Str({ examples: ['evt_0a1b2c3d'] })),
  merchant_id: Str(),
  env: Env(),
  resource: shown(Str({ examples: ['transaction'] }) as TUnsafe<EventResource>),
  type: shown(Str({ examples: ['transaction.created'] })),
  data: shown(Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description: 'The resource as the API shows it.' })),
  created_at: shown(At()),
  dispatched_at: shown(NullableAt()),
});
export type EventRow = Static<typeof EventRowSchema>;
export const EVENT_COLUMNS = columnsOf(EventRowSchema);

export const EventSchema = Type.Object({ class: Str({ examples: ['event'] }), ...shownOf(EventRowSchema) });
export type EventOut = Static<typeof EventSchema>;
const EVENT_PICK = shownPicker(EventRowSchema, { class: 'event' });
export function presentEvent(e: EventRow): EventOut {
  const out = EVENT_PICK(e) as EventOut;
  return out;
}

/** webhook_deliveries (009_webhooks.sql): the target as it was at dispatch time. */
export const DeliveryRowSchema = Type.Object({
  id: shown(Int({ examples: [1] })),
  merchant_id: Str(),
  env: Env(),
  event_id: shown(Str({ examples: ['evt_0a1b2c3d'] })),
  rule_id: shown(Str({ examples: ['rul_7a8b9c0d'] })),
  strategy_id: shown(Str({ examples: ['str_1e2f3a4b'] })),
  mode: shown(modeColumn('webhook')),
  target: shown(Str({ examples: ['https://shop.example.com/hooks'] })),
  callback_id: NullableInt(),
  outbox_id: shown(NullableInt()),
  created_at: shown(At()),
});
export type DeliveryRow = Static<typeof DeliveryRowSchema>;
export const DELIVERY_COLUMNS = columnsOf(DeliveryRowSchema);

interface Attempt {
  attempt: number;
  at: string | Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
}
/** A delivery as read: its row, its event's type and its callback's or outbox message's state. */
export type Delivery = DeliveryRow & {
  event_type: string;
  /** From the callback or the outbox message: pending | sent | failed. */
  state: 'pending' | 'sent' | 'failed';
  attempt_count: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  sent_at: Date | null;
  attempts: Attempt[];
};

const AttemptSchema = Type.Object({
  attempt: Int({ examples: [1] }), at: Timestamp(), status_code: NullableInt({ examples: [200] }), error: NStr(), duration_ms: NullableInt({ examples: [42] }),
});
export const DeliverySchema = Type.Object({
  class: Str({ examples: ['webhook_delivery'] }),
  ...shownOf(DeliveryRowSchema),
  event_type: Str({ examples: ['transaction.created'] }),
  status: Str({ enum: ['pending', 'delivered', 'failed'], examples: ['delivered'] }),
  attempt_count: Int({ examples: [1] }),
  next_attempt_at: NullableTime({ examples: [null] }),
  last_status_code: NullableInt({ examples: [200] }),
  last_error: NStr(),
  delivered_at: NullableTime(),
  attempts: Type.Array(AttemptSchema),
});
export type DeliveryOut = Static<typeof DeliverySchema>;
const DELIVERY_PICK = shownPicker(DeliveryRowSchema, { class: 'webhook_delivery' });
export function presentDelivery(d: Delivery): DeliveryOut {
  const out = DELIVERY_PICK(d) as DeliveryOut;
  const status = d.state === 'sent' ? 'delivered' : d.state;
  out.event_type = d.event_type;
  out.status = status;
  out.attempt_count = d.attempt_count;
  out.next_attempt_at = status === 'pending' ? d.next_attempt_at : null;
  out.last_status_code = d.last_status_code;
  out.last_error = d.last_error;
  out.delivered_at = d.sent_at;
  out.attempts = (d.attempts ?? []).map((a) => ({ ...a, at: new Date(a.at).toISOString() }));
  return out;
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
