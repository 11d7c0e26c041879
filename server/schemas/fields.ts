// One field table per request: each field of a body or query string declared once, with its type,
// its limits, the spec's code for each way it can fail and its place in the order the spec checks
// in. From the table come
//   - the route's validation: `http/input.ts` reads every declared table before the handler, and
//     the handler takes the typed result with `Table.from(req)`;
//   - the OpenAPI request body or query parameters (`documentedOf`): types, limits, `required`,
//     and `additionalProperties: false`, so a generated client refuses a misspelt field;
//   - the input type the domain command takes: `Input<typeof Table>`.
// The server stays as lenient as existing clients need: a field it does not declare is ignored,
// numbers may come as digit strings (form bodies), PHP's `[]` is "nothing". A value is never
// coerced before its type is known (lib/validate.ts).
import type { SchemaOptions } from '@sinclair/typebox';
import { type ErrorCode, GatewayError, invalid, MUST, tooLong } from '../errors.js';
import { assertNoNul } from '../lib/input.js';
import {
  type OpenPage, type Page, type PageCodes, PAGE_CODES, isEmail, isScalar, parseAmount, readBool, readInstant, readMetadata,
  readPage, readPageOrAll, text as readText, wholeNumber, wrongType,
} from '../lib/validate.js';

/** A request value as parsed: JSON, a form or multipart (strings, arrays, nested objects), or a query string. */
export type Raw = Record<string, unknown>;

export interface Field<T> {
  /** The field's JSON Schema in the OpenAPI document: what a JSON client sends. */
  doc: Record<string, unknown>;
  /** Documented as required (the reader or a rule answers its absence with the spec's code). */
  required: boolean;
  /** Kept as it is read in the record's column of the same name (storedOf). */
  stored: boolean;
  read(v: unknown, name: string): T;
}

export type Fields = Record<string, Field<unknown>>;
/** What a table reads a request into: each field's own type. */
export type Input<F> = F extends FieldTable<infer G> ? { [K in keyof G]: G[K] extends Field<infer T> ? T : never } : never;
type Partly<F extends Fields> = { [K in keyof F]?: F[K] extends Field<infer T> ? T : never };

/** A rule the spec checks once `after` is read: it sees what is read so far and the raw value (presence). */
export interface Rule<F extends Fields> {
  after: keyof F & string;
  check(input: Partly<F>, raw: Raw): void;
}

export const TABLE = Symbol('field table');

/**
 * A table is also the JSON Schema Fastify is given ("an object, any fields": the table reads the
 * fields, answering with the spec's codes, which a schema type check would replace with REQ01).
 */
export interface FieldTable<F extends Fields> {
  type: 'object';
  additionalProperties: true;
  [TABLE]: {
    fields: F;
    rules: Rule<F>[];
    options: SchemaOptions;
    read(raw: unknown): Input<FieldTable<F>>;
  };
}

/** The tables' typed readings of the request, made by http/input.ts before the handler. */
export type Readable = { input?: Map<object, unknown> };

export function fields<F extends Fields>(table: F, options: SchemaOptions & { rules?: Rule<F>[] } = {}): FieldTable<F> & {
  read(raw: unknown): Input<FieldTable<F>>;
  from(req: Readable): Input<FieldTable<F>>;
} {
  const { rules = [], ...schemaOptions } = options;
  const byField = new Map<string, Rule<F>[]>();
  for (const r of rules) {
    if (!(r.after in table)) throw new Error(`rule after unknown field ${r.after}`);
    byField.set(r.after, [...(byField.get(r.after) ?? []), r]);
  }
  const read = (value: unknown): Input<FieldTable<F>> => {
    // A body that is no object (a JSON array or scalar) reads as empty: every field absent.
    const raw: Raw = value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Raw : {};
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(table)) {
      // Own fields only: `__proto__`, `constructor`… of a prototype are no field sent.
      const v = Object.hasOwn(raw, name) ? raw[name] : undefined;
      out[name] = field.read(v, name);
      for (const rule of byField.get(name) ?? []) rule.check(out as Partly<F>, raw);
    }
    return out as Input<FieldTable<F>>;
  };
  const inner = { fields: table, rules, options: schemaOptions, read };
  const from = (req: Readable) => {
    if (!req.input?.has(inner)) throw new Error('route read no such field table: declare it as schema.body or schema.querystring');
    return req.input.get(inner) as Input<FieldTable<F>>;
  };
  // read and from are not enumerable: Fastify's validator sees only `{ type, additionalProperties }`.
  return Object.defineProperties({ type: 'object', additionalProperties: true, [TABLE]: inner } as const, {
    read: { value: read, enumerable: false },
    from: { value: from, enumerable: false },
  }) as FieldTable<F> & { read: typeof read; from: typeof from };
}

/**
 * The fields of `input` its table marks `stored`, by name: what the command writes as they are
 * into the record's columns of the same names (a stored field is a column of the row schema).
 */
export function storedOf<F extends Fields>(table: FieldTable<F>, input: Input<FieldTable<F>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(table[TABLE].fields)) if (f.stored) out[name] = input[name as keyof typeof input];
  return out;
}

/** The table behind a route's schema.body or schema.querystring, if it has one. */
export function tableOf(schema: unknown): FieldTable<Fields>[typeof TABLE] | undefined {
  return (schema as { [TABLE]?: FieldTable<Fields>[typeof TABLE] } | undefined)?.[TABLE];
}

/**
 * The OpenAPI form of a table: closed (`additionalProperties: false`), so a client generated from
 * the document catches a misspelt field at compile time, though the server ignores fields it does
 * not know (clients of this API family send extras).
 */
export function documentedOf(t: FieldTable<Fields>[typeof TABLE]): Record<string, unknown> {
  const required = Object.entries(t.fields).filter(([, f]) => f.required).map(([n]) => n);
  return {
    ...t.options,
    type: 'object',
    properties: Object.fromEntries(Object.entries(t.fields).map(([n, f]) => [n, f.doc])),
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

// ---------------------------------------------------------------------------------------------
// The kinds of field. Each takes its description first; `required` documents that the request
// fails without it (with the code the reader or a rule gives).

interface Common {
  required?: boolean;
  example?: unknown;
  doc?: Record<string, unknown>;
  /** The value read is kept in the record's column of the same name (see storedOf). */
  stored?: boolean;
}
const docOf = (description: string, base: Record<string, unknown>, o: Common) =>
  ({ ...base, description, ...(o.example !== undefined ? { examples: [o.example] } : {}), ...o.doc });
const field = <T>(doc: Record<string, unknown>, o: Common, read: (v: unknown, name: string) => T): Field<T> =>
  ({ doc, required: o.required ?? false, stored: o.stored ?? false, read });

/**
 * Text: trimmed, null when absent, null or blank; a JSON number is taken as its decimal text; any
 * other type is REQ01 "<name> must be a string". `max`: longer is REQ01 "<name> must be at most N
 * characters" (or `tooLongCode`). `cut`: longer is cut to it (a value the spec says is truncated).
 */
export function text(description: string, o: Common & { max?: number; tooLongCode?: ErrorCode; cut?: number } = {}): Field<string | null> {
  const max = o.max ?? o.cut;
  return field(docOf(description, { type: 'string', ...(max ? { maxLength: max } : {}) }, o), o, (v, name) => {
    const s = readText(v, name);
    if (s === null) return null;
    if (o.cut && s.length > o.cut) return s.slice(0, o.cut);
    if (o.max && s.length > o.max) throw o.tooLongCode ? new GatewayError(o.tooLongCode) : tooLong(name, o.max);
    return s;
  });
}

/** `text`, but undefined when the field was not sent at all (null: sent blank): for fields whose presence decides. */
export function sentText(description: string, o: Common & { max?: number } = {}): Field<string | null | undefined> {
  const inner = text(description, o);
  return field(inner.doc, o, (v, name) => (v === undefined ? undefined : inner.read(v, name)));
}

/** One of `values` (compared in lower case), or null when absent; anything else `code` or REQ01 naming the values. */
export function oneOf<V extends string>(description: string, values: readonly V[], o: Common & { code?: ErrorCode } = {}): Field<V | null> {
  return field(docOf(description, { type: 'string', enum: values }, o), o, (v, name) => {
    const s = readText(v, name)?.toLowerCase() ?? null;
    if (s === null) return null;
    if (!(values as readonly string[]).includes(s)) throw o.code ? new GatewayError(o.code) : invalid(name, `must be one of ${values.join(', ')}`);
    return s as V;
  });
}

/** One email address (lib/validate.ts isEmail), or null when absent or blank; anything else `code` (or REQ01). */
export function email(description: string, o: Common & { code?: ErrorCode } = {}): Field<string | null> {
  return field(docOf(description, { type: 'string', format: 'email', maxLength: 254 }, o), o, (v, name) => {
    const s = readText(v, name);
    if (s !== null && !isEmail(s)) throw o.code ? new GatewayError(o.code) : invalid(name, MUST.EMAIL);
    return s;
  });
}

/** What an amount field read: cents, or why not. The request's rules choose the code (it differs by route and shape). */
export type Amount = ReturnType<typeof parseAmount>;

/**
 * Cents above zero, a JSON integer or a string of digits: read as lib/validate.ts parseAmount,
 * never refused here. Each request's rule answers 'missing', 'empty', 'invalid' and
 * 'not_positive' with its own spec code; `cents` narrows once the rule has run.
 */
export function amount(description: string, o: Common = {}): Field<Amount> {
  return field(docOf(description, { type: 'integer', minimum: 1, maximum: 99_999_999_999 }, o), o, (v) => parseAmount(v));
}

/** The cents of an amount a rule has already accepted. */
export function cents(a: Amount): number {
  if (typeof a !== 'number') throw new Error(`amount ${a} passed its rule`);
  return a;
}

/** An amount refused with `code` unless it is cents above zero, or absent (null). */
export function optionalAmount(description: string, code: ErrorCode, o: Common = {}): Field<number | null> {
  return field(docOf(description, { type: 'integer', minimum: 1, maximum: 99_999_999_999 }, o), o, (v) => {
    const a = parseAmount(v);
    if (a === 'missing') return null;
    if (typeof a !== 'number') throw new GatewayError(code);
    return a;
  });
}

/** true/false, 1/0, "true"/"false", "on"/"off", "yes"/"no"; undefined when absent or empty; else REQ01. */
export function bool(description: string, o: Common = {}): Field<boolean | undefined> {
  return field(docOf(description, { type: 'boolean' }, o), o, (v, name) => readBool(v, name));
}

/** The merchant's own keys: an object, a JSON-encoded object or PHP's `[]`; at most 8 KiB as JSON; undefined when absent. */
export function metadata(description = 'Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string.', o: Common = {}): Field<Record<string, unknown> | undefined> {
  return field(docOf(description, { type: 'object', additionalProperties: true }, o), o, (v, name) => readMetadata(v, name));
}

/** A whole number of 0 or more (at most `digits` digits), or null when absent; else REQ01. */
export function whole(description: string, o: Common & { digits?: number; max?: number } = {}): Field<number | null> {
  return field(docOf(description, { type: 'integer', minimum: 0, ...(o.max !== undefined ? { maximum: o.max } : {}) }, o), o, (v, name) => {
    const n = wholeNumber(v, name, o.digits);
    if (n !== null && o.max !== undefined && n > o.max) throw invalid(name, `must be at most ${o.max}`);
    return n;
  });
}

/** A date filter or a date: `YYYY-MM-DD` or an ISO 8601 timestamp (readInstant), or null when absent or blank. */
export function instant(description: string, o: Common = {}): Field<{ at: Date; dateOnly: boolean } | null> {
  return field(docOf(description, { type: 'string', format: 'date-time' }, o), o, (v, name) => {
    const s = readText(v, name);
    return s === null ? null : readInstant(s, name);
  });
}

/** A value read as it is (a string, number, boolean, null, array or object): its request's rules read it. */
export function raw(description: string, doc: Record<string, unknown>, o: Common = {}): Field<unknown> {
  return field(docOf(description, doc, o), o, (v, name) => {
    assertNoNul(v, name);
    return v;
  });
}

/** A field the kinds above do not cover: its schema and its reader. */
export function custom<T>(description: string, doc: Record<string, unknown>, read: (v: unknown, name: string) => T, o: Common = {}): Field<T> {
  return field(docOf(description, doc, o), o, read);
}

// ---------------------------------------------------------------------------------------------
// Fields whose refusal waits. A table is read before the handler, but some of a request's faults
// are answered after checks no table can make (the record exists, the merchant's environment, the
// request's time): a field read `later` keeps what it read, or why it refused it, and the domain
// takes it (`take`) exactly where the spec checks it, so faults are answered in the spec's order.

/** Why a `later` field refused what was sent, thrown where the domain takes it. */
export class Refused {
  constructor(readonly error: GatewayError) {}
}
export type Later<T> = T | Refused;

/** `f`, its refusal kept for the domain to throw (`take`) in the spec's order. Only a GatewayError waits. */
export function later<T>(f: Field<T>): Field<Later<T>> {
  return {
    ...f,
    read(v, name) {
      try {
        return f.read(v, name);
      } catch (err) {
        if (err instanceof GatewayError) return new Refused(err);
        throw err;
      }
    },
  };
}

/** What a `later` field read, or its refusal thrown now. */
export function take<T>(v: Later<T>): T {
  if (v instanceof Refused) throw v.error;
  return v;
}

/** A string or number read as text without trimming or limits (the card checks read it as the tokenizer does). */
export function scalar(description: string, o: Common = {}): Field<string | number | null> {
  return field(docOf(description, { type: 'string' }, o), o, (v, name) => {
    if (v === undefined || v === null) return null;
    if (!isScalar(v)) throw wrongType(name);
    return v;
  });
}

// ---------------------------------------------------------------------------------------------
// Lists: `limit` and `offset` read together (a page is one check in the spec).

/** `limit` 1..100 (default 10) and `offset` 0 or more, refused with the list's codes (PAGE01, or the spec's 1800-1802). */
export function pageFields(codes: PageCodes = PAGE_CODES) {
  return {
    limit: field<number>({ type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'Rows per page, 1 to 100.' }, {},
      (v) => readPage({ limit: v }, codes).limit),
    offset: field<number>({ type: 'integer', minimum: 0, default: 0, description: 'Rows to skip.' }, {},
      (v) => readPage({ offset: v }, codes).offset),
  };
}

/** For the lists the spec calls "all" (GET /plans, /subscriptions…): without `limit`, every row (null). */
export const allPageFields = {
  limit: field<number | null>({ type: 'integer', minimum: 1, maximum: 100, description: 'Rows per page, 1 to 100 (default: all).' }, {},
    (v) => readPageOrAll({ limit: v }).limit),
  offset: field<number>({ type: 'integer', minimum: 0, default: 0, description: 'Rows to skip.' }, {}, (v) => readPage({ offset: v }).offset),
};
export type { OpenPage, Page };
