// Webhook rules, strategies and relations (spec 4.10): what their requests read, and the event
// catalogue and modes they are checked against. Every field is read `later` (schemas/fields.ts):
// the table reads and types it before the handler, but its refusal waits for the domain to take it
// (events/rules.ts, events/strategies.ts), in the spec's order: after the record is found on update
// (100001, 200007), after the resource a rule's types belong to, after the mode a target is for.
// A NUL (or a value nested too deep) is refused as it is read, as before.
import { E, GatewayError, MUST, invalid, tooLong } from '../errors.js';
import { assertNoNul, decodeJsonParam } from '../lib/input.js';
import { isEmail, normalisePhone, text } from '../lib/validate.js';
import { type Constraint, parseConstraints } from './constraints.js';
import { type Field, type Input, type Later, custom, fields, later } from './fields.js';

/**
 * The published event catalogue: `event_resource` of a webhook rule is a key here, and each
 * event type names what happened. Adding an event means adding it here and emitting it.
 * A charge emits one event: `transaction.created` when it settled, `transaction.failed` when it
 * was declined or returned; each refund emits `transaction.refunded` with the updated charge. A
 * live charge whose processor holds it for review emits `transaction.held`, then created or failed
 * once the review ends; a live charge whose outcome is not known yet emits nothing until it is.
 */
export const EVENT_TYPES = {
  transaction: ['transaction.created', 'transaction.failed', 'transaction.refunded', 'transaction.held'],
  customer: ['customer.created', 'customer.updated', 'customer.deleted'],
  subscription: ['subscription.created', 'subscription.billed', 'subscription.failed', 'subscription.cancelled'],
  billing: ['billing.succeeded', 'billing.failed', 'billing.retried'],
  scheduled_transaction: ['scheduled_transaction.billed', 'scheduled_transaction.failed', 'scheduled_transaction.cancelled'],
  invoice: ['invoice.created', 'invoice.updated', 'invoice.delivered', 'invoice.paid', 'invoice.partially_paid', 'invoice.deleted'],
  accountupdater: ['accountupdater.received', 'accountupdater.completed'],
} as const;

export type EventResource = keyof typeof EVENT_TYPES;
export type EventType = (typeof EVENT_TYPES)[EventResource][number];

export function isResource(v: unknown): v is EventResource {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(EVENT_TYPES, v);
}

export const MODES = ['webhook', 'email', 'sms'] as const;
export type Mode = (typeof MODES)[number];

/** `f` read later, but a NUL or a value nested too deep refused at once (what `raw` did). */
function sent<T>(f: Field<T>): Field<Later<T>> {
  const l = later(f);
  return { ...l, read: (v, name) => (assertNoNul(v, name), l.read(v, name)) };
}

// --- rules -----------------------------------------------------------------------------------------

function readResource(v: unknown): EventResource {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : v;
  if (s === undefined || s === null || s === '') throw new GatewayError(E.WEBHOOK_EVENT_UNKNOWN, `event_resource is required; one of ${Object.keys(EVENT_TYPES).join(', ')}`);
  if (!isResource(s)) throw new GatewayError(E.WEBHOOK_EVENT_UNKNOWN, `event_resource must be one of ${Object.keys(EVENT_TYPES).join(', ')}`);
  return s;
}

/** An item of event_types as sent: its name (trimmed, lower case; '' when no string) and how a refusal shows it. */
export interface SentEventType {
  name: string;
  shown: string;
}

/**
 * event_types: a list (JSON, JSON-encoded string, form `event_types[]=…`) or one comma-separated
 * string. Absent: undefined (left as it is); null or empty: none (every type of the resource).
 * Whether each names a type of the rule's resource is the domain's check (events/rules.ts).
 */
function readEventTypes(v: unknown): SentEventType[] | undefined {
  if (v === undefined) return undefined;
  if (v === null || v === '') return [];
  let list: unknown = v;
  if (typeof list === 'string') {
    const s = list.trim();
    // Decoded as the request's own JSON is checked: depth, NUL, lone surrogates.
    if (s.startsWith('[')) list = decodeJsonParam(s, 'event_types', () => invalid('event_types', 'must be a list of event types'));
    else list = s.split(',');
  }
  if (list && typeof list === 'object' && !Array.isArray(list)) list = Object.values(list);
  if (!Array.isArray(list)) throw invalid('event_types', 'must be a list of event types');
  return list.map((item) => {
    const shown = JSON.stringify(item) ?? String(item);
    return { name: typeof item === 'string' ? item.trim().toLowerCase() : '', shown: shown.length > 60 ? `${shown.slice(0, 60)}…` : shown };
  });
}

const listOf = (item: Record<string, unknown>) => ({ anyOf: [{ type: 'array', items: item }, { type: 'string' }] });
const RESOURCE = 'GET /webhooks/event_types lists them.';
const ruleFields = {
  event_types: sent(custom('Full event type names or their suffixes (none: every type of the resource), a list, a JSON-encoded one or comma-separated.',
    listOf({ type: 'string' }), readEventTypes, { example: ['transaction.created'] })),
  constraints: sent(custom('Conditions on the event data, a list or a JSON-encoded one.',
    listOf({ type: 'object', properties: { field: { type: 'string' }, operator: { type: 'string' }, value: {} } }),
    (v): Constraint[] | undefined => (v === undefined ? undefined : parseConstraints(v)))),
};
const ruleExamples = { examples: [{ event_resource: 'transaction', event_types: ['transaction.created'] }] };
/** POST /webhooks/rules: event_resource required (WEBHOOK01 without it), then event_types, then constraints. */
export const RuleFields = fields({
  event_resource: sent(custom(RESOURCE, { type: 'string' }, readResource, { required: true, example: 'transaction' })),
  ...ruleFields,
}, ruleExamples);
export type RuleCreateInput = Input<typeof RuleFields>;
/** PUT /webhooks/rule/:id (and /rules/:id): the fields sent replace the stored ones (absent: undefined). */
export const RuleUpdateFields = fields({
  event_resource: sent(custom(RESOURCE, { type: 'string' }, (v) => (v === undefined ? undefined : readResource(v)), { example: 'transaction' })),
  ...ruleFields,
}, ruleExamples);
export type RuleInput = Input<typeof RuleUpdateFields>;

// --- strategies ------------------------------------------------------------------------------------

const MAX_URL = 2048;

function readMode(v: unknown): Mode {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (!(MODES as readonly string[]).includes(s)) throw invalid('mode', `must be one of ${MODES.join(', ')}`);
  return s as Mode;
}

/**
 * url: http or https, absolute, no credentials, at most 2048 characters as stored. Live mode's
 * https is the domain's check (it depends on the key's environment: events/strategies.ts readUrl).
 */
function readUrl(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  const s = typeof v === 'string' || typeof v === 'number' ? text(v) : null;
  if (s === null) throw invalid('url', 'is required for mode webhook (an http or https URL)');
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw invalid('url', MUST.HTTP_URL);
  }
  if (!['http:', 'https:'].includes(u.protocol) || !u.hostname) throw invalid('url', MUST.HTTP_URL);
  if (u.username || u.password) throw invalid('url', 'must not carry credentials; verify the Tessera-Signature header instead');
  if (u.toString().length > MAX_URL) throw tooLong('url', MAX_URL); // as stored: percent-encoding lengthens it
  return u.toString();
}

/** email_address (or email): null when null (the other one is read), refused when empty or no address. */
function readEmail(v: unknown): string | null | undefined {
  if (v === undefined || v === null) return v;
  if (v === '') throw invalid('email_address', 'is required for mode email');
  const e = typeof v === 'string' ? v.trim() : '';
  if (!isEmail(e)) throw invalid('email_address', 'is not a valid email address');
  return e;
}

/** phone_number (or phone): null when null (the other one is read), refused when empty or no number. */
function readPhone(v: unknown): string | null | undefined {
  if (v === undefined || v === null) return v;
  if (v === '') throw invalid('phone_number', 'is required for mode sms');
  const p = typeof v === 'string' || typeof v === 'number' ? normalisePhone(String(v)) : null;
  if (!p) throw invalid('phone_number', MUST.PHONE);
  return p;
}

const MODE = 'webhook, email or sms.';
const modeDoc = { type: 'string', enum: MODES };
const strategyTargets = {
  url: sent(custom('webhook: a public http(s) URL (https in live mode), at most 2048 characters.', { type: 'string', maxLength: MAX_URL }, readUrl,
    { example: 'https://shop.example.com/hooks' })),
  email_address: sent(custom('email: where the message goes.', { type: 'string', format: 'email' }, readEmail)),
  email: sent(custom('email: read when email_address is not sent.', { type: 'string', format: 'email' }, readEmail)),
  phone_number: sent(custom('sms: 7 to 15 digits, optionally with a leading +.', { type: 'string' }, readPhone)),
  phone: sent(custom('sms: read when phone_number is not sent.', { type: 'string' }, readPhone)),
};
const strategyExamples = { examples: [{ mode: 'webhook', url: 'https://shop.example.com/hooks' }] };
/** POST /webhooks/strategies: mode and its target (the other modes' targets are not checked). */
export const StrategyFields = fields({
  mode: sent(custom(MODE, modeDoc, readMode, { required: true, example: 'webhook' })), ...strategyTargets,
}, strategyExamples);
export type StrategyCreateInput = Input<typeof StrategyFields>;
/** PUT /webhooks/strategies/:id: mode may change; the target of the (new) mode is read when sent. */
export const StrategyUpdateFields = fields({
  mode: sent(custom(MODE, modeDoc, (v) => (v === undefined ? undefined : readMode(v)), { example: 'webhook' })), ...strategyTargets,
}, strategyExamples);
export type StrategyInput = Input<typeof StrategyUpdateFields>;

/**
 * POST /webhooks/rules/:rule_id/strategies: the rule is looked up first (100001), then strategy_id
 * (REQ01 absent, 200007 unknown). A value that is no string names no strategy (null).
 */
export const RelationFields = fields({
  strategy_id: sent(custom('The strategy to relate.', { type: 'string' }, (v): string | null => {
    if (v === undefined || v === null || v === '') throw invalid('strategy_id', MUST.REQUIRED);
    return typeof v === 'string' ? v : null;
  }, { required: true, example: 'str_1e2f3a4b' })),
}, { examples: [{ strategy_id: 'str_1e2f3a4b' }] });
