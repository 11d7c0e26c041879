import { badRequest, invalid } from '../errors.js';
import { decodeJsonParam } from '../lib/input.js';

// The constraint language of webhook rules, as a rule's `constraints` field reads it (the evaluation:
// domain/events/constraints.ts): a list of {field, operator, value} over the event's
// object (the `data` of the event, as the API shows it). A rule matches when every constraint
// holds. Parsed once when a rule is saved (RuleFields), evaluated for every event.
//
// - field: a dotted path of own properties, e.g. `amount_settled`, `metadata.plan`,
//   `refunds.0.amount` (a digit segment indexes an array).
// - eq, ne: equality. When both sides read as numbers ("10000" and 10000), they compare as
//   numbers; a boolean field compares with true/false/"true"/"false"/1/0; otherwise strings are
//   compared exactly (case-sensitive).
// - gt, gte, lt, lte: both sides numbers (or numeric strings); or both ISO 8601 dates/times,
//   compared as instants. Anything else is false.
// - in: the field equals (as eq) one element of the value list.
// - contains: a string field contains the value as a substring; a list field has an element equal
//   (as eq) to the value.
// - exists: value true (the default) when the field is present and not null; false when absent or null.
// A missing or null field makes every operator but `exists` false, `ne` included (as SQL's NULL).

export const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'exists'] as const;
export type Operator = (typeof OPERATORS)[number];
export type Scalar = string | number | boolean;

export interface Constraint {
  field: string;
  operator: Operator;
  value: Scalar | Scalar[] | null;
}

/** Symbols accepted on input and stored under the operator's name. */
const ALIASES: Record<string, Operator> = {
  '=': 'eq', '==': 'eq', '!=': 'ne', '<>': 'ne', '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte',
};

export const MAX_CONSTRAINTS = 20;
const MAX_FIELD = 255;
const MAX_DEPTH = 8;
const MAX_VALUE = 1000;
const MAX_IN = 100;
const SEGMENT = /^[A-Za-z0-9_-]+$/;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function bad(i: number, msg: string): never {
  throw badRequest(`constraints[${i}]: ${msg}`);
}

function readScalar(v: unknown, i: number): Scalar {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) bad(i, 'value must be a finite number');
    return v;
  }
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    if (v.length > MAX_VALUE) bad(i, `value is longer than ${MAX_VALUE} characters`);
    return v;
  }
  return bad(i, 'value must be a string, a number or a boolean');
}

/** A list as JSON, a JSON-encoded string, or form keys `value[]=a&value[]=b` / `value[0]=a`. */
function readList(v: unknown, i: number): Scalar[] {
  let list = v;
  if (typeof list === 'string' && list.trim().startsWith('[')) {
    list = decodeJsonParam(list, `constraints[${i}].value`,
      () => badRequest(`constraints[${i}]: value must be a list (or a JSON-encoded list) for operator in`));
  }
  if (list && typeof list === 'object' && !Array.isArray(list)) {
    const keys = Object.keys(list);
    if (keys.every((k) => /^\d+$/.test(k))) list = keys.sort((a, b) => Number(a) - Number(b)).map((k) => (list as Record<string, unknown>)[k]);
  }
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_IN) bad(i, `value must be a list of 1 to ${MAX_IN} values for operator in`);
  return list.map((x) => readScalar(x, i));
}

function readField(v: unknown, i: number): string {
  if (typeof v !== 'string' || v.trim() === '') bad(i, 'field is required (a dotted path such as amount_settled or metadata.plan)');
  const field = v.trim();
  const parts = field.split('.');
  if (field.length > MAX_FIELD || parts.length > MAX_DEPTH || parts.some((p) => !SEGMENT.test(p) || FORBIDDEN.has(p))) {
    bad(i, `field must be a dotted path of at most ${MAX_DEPTH} names of letters, digits, _ and -`);
  }
  return field;
}

/** Reads one constraint as sent (JSON or form strings); throws REQ01 naming the item and the problem. */
export function parseConstraint(raw: unknown, i: number): Constraint {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) bad(i, 'must be an object {field, operator, value}');
  const c = raw as Record<string, unknown>;
  const field = readField(c.field, i);
  const opText = typeof c.operator === 'string' ? c.operator.trim().toLowerCase() : '';
  const operator = (ALIASES[opText] ?? opText) as Operator;
  if (!OPERATORS.includes(operator)) bad(i, `operator must be one of ${OPERATORS.join(', ')}`);
  const v = c.value;
  switch (operator) {
    case 'exists': {
      if (v === undefined || v === null || v === '') return { field, operator, value: true };
      const b = toBool(v);
      if (b === null) bad(i, 'value of exists must be true or false');
      return { field, operator, value: b };
    }
    case 'in':
      return { field, operator, value: readList(v, i) };
    case 'gt': case 'gte': case 'lt': case 'lte': {
      if (v === undefined || v === null) bad(i, `value is required for operator ${operator}`);
      const s = readScalar(v, i);
      if (toNumber(s) === null && toInstant(s) === null) bad(i, `value of ${operator} must be a number or an ISO 8601 date`);
      return { field, operator, value: s };
    }
    default:
      if (v === undefined || v === null) bad(i, `value is required for operator ${operator} (use exists to test for absence)`);
      return { field, operator, value: readScalar(v, i) };
  }
}

/**
 * The constraint list of a rule: a JSON list, a JSON-encoded string, or form keys
 * `constraints[0][field]=…`. Absent or empty is no constraint (the rule matches every event of its types).
 */
export function parseConstraints(raw: unknown): Constraint[] {
  if (raw === undefined || raw === null || raw === '') return [];
  let list: unknown = raw;
  if (typeof list === 'string') {
    list = decodeJsonParam(list, 'constraints', () => invalid('constraints', 'must be a list of {field, operator, value} (or its JSON encoding)'));
  }
  if (list && typeof list === 'object' && !Array.isArray(list)) {
    const keys = Object.keys(list);
    if (!keys.every((k) => /^\d+$/.test(k))) throw invalid('constraints', 'must be a list of {field, operator, value}');
    list = keys.sort((a, b) => Number(a) - Number(b)).map((k) => (list as Record<string, unknown>)[k]);
  }
  if (!Array.isArray(list)) throw invalid('constraints', 'must be a list of {field, operator, value}');
  if (list.length > MAX_CONSTRAINTS) throw badRequest(`a rule has at most ${MAX_CONSTRAINTS} constraints`);
  return list.map(parseConstraint);
}

// How a value reads as a number, a boolean or an instant: parsing and evaluation agree.

/** A number, or a string of one; else null. */
export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && NUMERIC.test(v)) return Number(v);
  return null;
}

/** true/false, 1/0, "true"/"false", "1"/"0"; else null. */
export function toBool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
  }
  return null;
}

/** An ISO 8601 date or time as epoch ms; else null. */
export function toInstant(v: unknown): number | null {
  if (typeof v !== 'string' || !ISO_DATE.test(v.trim())) return null;
  const t = Date.parse(v.trim());
  return Number.isNaN(t) ? null : t;
}
