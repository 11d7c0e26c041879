// Schema atoms every resource schema is built from (TypeBox: JSON Schema with its TypeScript type).
// A resource's response schema is its allow-list: Fastify serialises by it, so a field it does not
// name never leaves the gateway.
import { type SchemaOptions, type Static, type TObject, type TSchema, type TUnsafe, Type } from '@sinclair/typebox';

export { Type, type Static, type TUnsafe };

export const Str = (o?: SchemaOptions) => Type.String(o);
export const Int = (o?: SchemaOptions) => Type.Integer(o);
export const Bool = (o?: SchemaOptions) => Type.Boolean(o);
/** `type: [T, 'null']` rather than anyOf: the serializer writes it as fast as a plain type. */
export const NullableStr = (o?: SchemaOptions) => Type.Unsafe<string | null>({ ...o, type: ['string', 'null'] });
export const NullableInt = (o?: SchemaOptions) => Type.Unsafe<number | null>({ ...o, type: ['integer', 'null'] });
/** A Date (or its text) serialised as ISO 8601 with milliseconds and Z (spec 2.1). */
export const Timestamp = (o?: SchemaOptions) =>
  Type.Unsafe<Date | string>({ examples: ['2026-01-15T12:00:00.000Z'], ...o, type: 'string', format: 'date-time' });
export const NullableTime = (o?: SchemaOptions) =>
  Type.Unsafe<Date | string | null>({ examples: ['2026-01-15T12:00:00.000Z'], ...o, type: ['string', 'null'], format: 'date-time' });
/** A stored instant: a Date as the database driver reads it, an ISO 8601 string on the wire. */
export const At = (o?: SchemaOptions) => Type.Unsafe<Date>({ examples: ['2026-01-15T12:00:00.000Z'], ...o, type: 'string', format: 'date-time' });
export const NullableAt = (o?: SchemaOptions) => Type.Unsafe<Date | null>({ examples: ['2026-01-15T12:00:00.000Z'], ...o, type: ['string', 'null'], format: 'date-time' });
/** A merchant environment. */
export const Env = () => Str({ enum: ['test', 'live'] }) as TUnsafe<'test' | 'live'>;

// ---------------------------------------------------------------------------------------------
// Row schemas: one TypeBox object per stored table (its columns, in order), from which the row
// type (Static), the column list (columnsOf) and the answer's stored fields (shownOf) come.

/** The mark of a shown column (exported so that declarations of row schemas can name it). */
export const SHOWN: unique symbol = Symbol('shown');
export type Shown = { readonly [SHOWN]: true };
/** A column that is in the resource's answer as it is stored. */
export function shown<T extends TSchema>(column: T): T & Shown {
  return Object.assign(column, { [SHOWN]: true as const });
}
type ShownKey<P> = { [K in keyof P]: P[K] extends Shown ? K : never }[keyof P] & string;
/** Every column of a row schema, in order: what a statement reading a whole row names. */
export const columnsOf = <T extends TObject>(row: T) => Object.keys(row.properties) as (keyof Static<T> & string)[];
/** The columns marked `shown`, in order. */
export const shownKeys = <T extends TObject>(row: T) =>
  Object.entries(row.properties).filter(([, s]) => (s as Partial<Shown>)[SHOWN]).map(([k]) => k) as ShownKey<T['properties']>[];
/** The schemas of the shown columns, to spread into the answer's schema. */
export const shownOf = <T extends TObject>(row: T) =>
  Object.fromEntries(shownKeys(row).map((k) => [k, row.properties[k]])) as Pick<T['properties'], ShownKey<T['properties']>>;

/**
 * A presenter's start: a function copying a row's shown columns into a new object, after `first`
 * (`{ class: 'transaction' }`). A shown column the object lacks is written as null: every caller
 * passes whole rows (their statements name every column), so none is missing today; a partial row
 * would answer null where the column holds a value. Compiled once from the schema's own column
 * names into one object literal: a loop over the keys costs 3 to 5 times as much per row (each
 * key a dynamic read and write; measured on presentTransaction), and every list and event presents rows.
 */
export function shownPicker<T extends TObject, F extends Record<string, string> = Record<never, never>>(row: T, first: F = {} as F) {
  const q = (k: string) => JSON.stringify(k); // the schema's own column names, quoted
  const parts = [
    ...Object.keys(first).map((k) => `${q(k)}: first[${q(k)}]`),
    ...shownKeys(row).map((k) => `${q(k)}: t[${q(k)}] ?? null`),
  ];
  const pick = new Function('first', 't', `return { ${parts.join(', ')} };`);
  return (t: Pick<Static<T>, ShownKey<T['properties']>>) => pick(first, t) as F & Pick<Static<T>, ShownKey<T['properties']>>;
}

/** The merchant's own keys and values, echoed as sent. */
export const Metadata = (o?: SchemaOptions) =>
  Type.Unsafe<Record<string, unknown>>({ examples: [{ order_id: '42' }], ...o, type: 'object', additionalProperties: true });

/** The envelope every list answers with (design §Wire). */
export const List = <T extends TSchema>(item: T) =>
  Type.Object({
    list: Type.Array(item),
    meta: Type.Object({ limit: Int({ examples: [10] }), offset: Int({ examples: [0] }), total_results: Int({ examples: [1] }) }),
  });

/** `{ success: true }`: what a delete answers. */
export const Success = Type.Object({ success: Bool({ examples: [true] }) });

/** Every error answer: `{ errors: [{ code, message }] }`, some items with more fields (transaction_id…). */
export const Errors = Type.Object({
  errors: Type.Array(Type.Object({ code: Str(), message: Str() }, { additionalProperties: true })),
});
