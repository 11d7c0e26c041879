// The constraint language of webhook rules: its parsing is the `constraints` field's
// (schemas/constraints.ts, read by RuleFields); here, its evaluation over an event's object.
import { type Constraint, type Scalar, toBool, toInstant, toNumber } from '../../schemas/constraints.js';

export {
  MAX_CONSTRAINTS, OPERATORS, parseConstraint, parseConstraints, type Constraint, type Operator, type Scalar,
} from '../../schemas/constraints.js';

// --- evaluation ----------------------------------------------------------------------------------

/** The value at a dotted path of own properties; undefined when any step is missing. */
export function readPath(obj: unknown, field: string): unknown {
  let node: unknown = obj;
  for (const part of field.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    if (Array.isArray(node)) {
      if (!/^\d+$/.test(part)) return undefined;
      node = node[Number(part)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(node, part)) return undefined;
      node = (node as Record<string, unknown>)[part];
    }
  }
  return node;
}

function equal(actual: unknown, expected: Scalar): boolean {
  if (typeof actual === 'boolean') return toBool(expected) === actual;
  if (typeof actual !== 'number' && typeof actual !== 'string') return false; // objects and lists are never equal to a scalar
  const a = toNumber(actual);
  const b = toNumber(expected);
  if (a !== null && b !== null) return a === b;
  return String(actual) === String(expected);
}

function compare(actual: unknown, expected: Scalar): number | null {
  const a = toNumber(actual);
  const b = toNumber(expected);
  if (a !== null && b !== null) return a - b;
  const ta = toInstant(actual);
  const tb = toInstant(expected);
  if (ta !== null && tb !== null) return ta - tb;
  return null;
}

/** Whether one constraint holds for the object. */
export function holds(c: Constraint, obj: unknown): boolean {
  const actual = readPath(obj, c.field);
  const present = actual !== undefined && actual !== null;
  if (c.operator === 'exists') return present === (c.value !== false);
  if (!present) return false;
  const v = c.value as Scalar;
  switch (c.operator) {
    case 'eq': return equal(actual, v);
    case 'ne': return typeof actual !== 'object' && !equal(actual, v);
    case 'in': return (c.value as Scalar[]).some((x) => equal(actual, x));
    case 'contains':
      if (typeof actual === 'string') return actual.includes(String(v));
      if (Array.isArray(actual)) return actual.some((x) => equal(x, v));
      return false;
    default: {
      const d = compare(actual, v);
      if (d === null) return false;
      return c.operator === 'gt' ? d > 0 : c.operator === 'gte' ? d >= 0 : c.operator === 'lt' ? d < 0 : d <= 0;
    }
  }
}

/** Every constraint holds (an empty list always does). */
export function matches(constraints: readonly Constraint[], obj: unknown): boolean {
  return constraints.every((c) => holds(c, obj));
}
