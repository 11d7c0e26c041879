// The account updater (spec 2.9, 4.7): a batch of stored cards with new expiry dates, and its review.
import {
  At, Bool, Env, Int, NullableAt, NullableInt, NullableStr as NStr, Str, Type, type Static, type TUnsafe, columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { E, GatewayError } from '../errors.js';
import { decodeJsonParam } from '../lib/input.js';
import { clip, text } from '../lib/validate.js';
import { type Input, custom, fields } from './fields.js';

export interface EntryError {
  code: typeof E.UPDATE_PAYMENT_ID_INVALID | typeof E.UPDATE_EXPIRY_INVALID | typeof E.UPDATE_METHOD_NOT_FOUND | typeof E.UPDATE_METHOD_NOT_UPDATABLE;
  message: string;
}

/**
 * A batch's stored row (011_account_updater.sql), its columns in order: its type (UpdateRow), its
 * column list (UPDATE_COLUMNS) and, marked `shown`, the columns its answer shows as stored.
 */
export const UpdateRowSchema = Type.Object({
  merchant_id: Str(),
  env: Env(),
  id: shown(Str({ examples: ['upd_2b3c4d5e'] })),
  status: shown(Str({ enum: ['received', 'completed'], examples: ['received'] }) as TUnsafe<'received' | 'completed'>),
  accepted_count: shown(Int({ examples: [1] })),
  rejected_count: shown(Int({ examples: [0] })),
  /** Set by the review. */
  applied_count: shown(NullableInt({ examples: [null] })),
  /** Keys of accepted entries the review could not write (method deleted, or holding another card since). */
  unapplied: Type.Unsafe<number[] | null>({ type: ['array', 'null'], items: { type: 'integer' } }),
  created_at: shown(At()),
  /** On the merchant's clock (test clock in test mode). */
  review_at: shown(At()),
  completed_at: shown(NullableAt({ examples: [null] })),
});
export type UpdateRow = Static<typeof UpdateRowSchema>;
export const UPDATE_COLUMNS = columnsOf(UpdateRowSchema);

const echoed = (example: number) => Type.Unsafe<number | string | null>({ type: ['integer', 'string', 'null'], examples: [example] });
/**
 * An entry's stored row, its columns in order (ENTRY_COLUMNS): what was sent (payment_id trimmed,
 * the dates an integer or the unreadable value as a string), shown as stored, and the check's outcome.
 */
export const EntryRowSchema = Type.Object({
  merchant_id: Str(),
  env: Env(),
  update_id: Str(),
  /** The request's key: "0", "1", … */
  idx: Int(),
  payment_id: shown(NStr({ examples: ['mth_9a8b7c6d5e4f'] })),
  card_exp_month: shown(echoed(12)),
  card_exp_year: shown(echoed(2031)),
  accepted: Bool(),
  /** The faults of a rejected entry. */
  errors: Type.Unsafe<EntryError[] | null>({ type: ['array', 'null'] }),
  /** The card the method held when accepted (a new card is not overwritten by the review). */
  token_id: NStr(),
});
export type EntryRow = Static<typeof EntryRowSchema>;
export const ENTRY_COLUMNS = columnsOf(EntryRowSchema);
/** An entry as the batch checks and keeps it (its batch's scope and id are the batch's). */
export type BatchEntry = Omit<EntryRow, 'merchant_id' | 'env' | 'update_id'>;

export interface Submitted {
  head: UpdateRow;
  entries: BatchEntry[];
}

/** One entry as sent back; a rejected one has no `applied`. */
const EntrySchema = Type.Partial(Type.Object({
  ...shownOf(EntryRowSchema),
  result: Type.Object({
    status: Str({ enum: ['Received', 'Fail'], examples: ['Received'] }),
    errors: Type.Optional(Type.Array(Type.Object({ code: Str(), message: Str() }))),
  }),
  applied: Type.Unsafe<boolean | null>({ type: ['boolean', 'null'], description: 'Once the review has completed.', examples: [null] }),
}));
const ENTRY_PICK = shownPicker(EntryRowSchema);

/** Entries keyed by the request's own keys ("0", "1"…). */
const byKey = (example: object) =>
  Type.Unsafe<Record<string, Static<typeof EntrySchema>>>({ type: 'object', additionalProperties: EntrySchema, examples: [example] });

const summary = { class: Str({ examples: ['accountupdater'] }), ...shownOf(UpdateRowSchema) };
const SummarySchema = Type.Object(summary);
const SUMMARY_PICK = shownPicker(UpdateRowSchema, { class: 'accountupdater' });
/** Spec 2.9, plus the review's state (ours). */
export const UpdateSchema = Type.Object({
  ...summary,
  payment_methods: Type.Object({
    accepted: byKey({ 0: { payment_id: 'mth_9a8b7c6d5e4f', card_exp_month: 12, card_exp_year: 2031, result: { status: 'Received' }, applied: null } }),
    rejected: byKey({}),
  }),
});
export type UpdateOut = Static<typeof UpdateSchema>;

/** The record without its entries: what the events carry (a batch may hold 10,000 entries). */
export function presentSummary(h: UpdateRow): Static<typeof SummarySchema> {
  return SUMMARY_PICK(h);
}

type Entry = Static<typeof EntrySchema>;
/** Spec 2.9: entries split into `accepted` and `rejected`, keyed by the request's key. */
export function presentUpdate({ head, entries }: Submitted): UpdateOut {
  const accepted: Record<string, Entry> = {};
  const rejected: Record<string, Entry> = {};
  const unapplied = new Set(head.unapplied ?? []);
  for (const e of entries) {
    const out: Entry = ENTRY_PICK(e);
    if (e.accepted) {
      out.result = { status: 'Received' };
      out.applied = head.status === 'completed' ? !unapplied.has(e.idx) : null;
      accepted[e.idx] = out;
    } else {
      out.result = { status: 'Fail', errors: e.errors ?? [] };
      rejected[e.idx] = out;
    }
  }
  return { ...presentSummary(head), payment_methods: { accepted, rejected } };
}

// --- the request ------------------------------------------------------------------------------

export const MAX_BATCH = 10_000;
const KEY = /^(0|[1-9]\d{0,8})$/;
export const ECHO_MAX = 64;

/** One entry as sent: its values as the answer echoes them, or null when the entry is no object (122001). */
export interface SentEntry {
  /** The request's key ("0", "1"… or the list position). */
  idx: number;
  fields: {
    /** As sent (text, trimmed), or null when absent or neither a string nor a number. */
    payment_id: string | null;
    /** An integer when the value reads as one; otherwise the value as sent (a short string), or null. */
    card_exp_month: number | string | null;
    card_exp_year: number | string | null;
  } | null;
}

/** An integer when the value reads as one; otherwise the value as sent (a short string), or null. */
function echo(v: unknown): number | string | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : String(v);
  if (typeof v !== 'string') return null;
  const s = v.trim();
  return /^\d{1,9}$/.test(s) ? Number(s) : clip(s, ECHO_MAX);
}

function entryOf(idx: number, raw: unknown): SentEntry {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { idx, fields: null };
  const e = raw as Record<string, unknown>;
  const id = e.payment_id;
  return {
    idx,
    fields: {
      payment_id: typeof id === 'string' || typeof id === 'number' ? text(id) : null,
      card_exp_month: echo(e.card_exp_month),
      card_exp_year: echo(e.card_exp_year),
    },
  };
}

/**
 * `payment_methods`: an object keyed "0", "1", … (also as form keys `payment_methods[0][payment_id]`,
 * or JSON-encoded), or a JSON array (what PHP's json_encode makes of a list), in key order. Anything
 * else, and an empty batch, is 122004; more than MAX_BATCH entries is UPD01. An entry's own faults
 * are not the request's: they are answered in the entry (the domain's checks).
 */
function readBatch(raw: unknown): SentEntry[] {
  let v = raw;
  if (typeof v === 'string') v = decodeJsonParam(v, 'payment_methods', () => new GatewayError(E.UPDATE_BODY_INVALID));
  let entries: [number, unknown][];
  if (Array.isArray(v)) {
    entries = v.map((e, i) => [i, e]);
  } else if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    if (!keys.every((k) => KEY.test(k))) {
      throw new GatewayError(E.UPDATE_BODY_INVALID, 'payment_methods must be keyed by numbers as strings: "0", "1", …');
    }
    entries = keys.map((k) => [Number(k), (v as Record<string, unknown>)[k]]);
  } else {
    throw new GatewayError(E.UPDATE_BODY_INVALID);
  }
  if (entries.length === 0) throw new GatewayError(E.UPDATE_BODY_INVALID, 'payment_methods holds no entries');
  if (entries.length > MAX_BATCH) throw new GatewayError(E.UPDATE_BATCH_TOO_LARGE);
  return entries.sort((a, b) => a[0] - b[0]).map(([idx, e]) => entryOf(idx, e));
}

const entryDoc = {
  type: 'object',
  properties: {
    payment_id: { type: 'string', description: 'A stored card method id.', examples: ['mth_9a8b7c6d5e4f'] },
    card_exp_month: { type: ['integer', 'string'], description: '1 to 12.' },
    card_exp_year: { type: ['integer', 'string'], description: 'Four digits.' },
  },
  required: ['payment_id', 'card_exp_month', 'card_exp_year'],
  additionalProperties: false,
};

/** POST /tokens/update. */
export const UpdateFields = fields({
  payment_methods: custom(
    'Numerically keyed: `{ "0": {...}, "1": {...} }` (or form keys payment_methods[0][payment_id], or a JSON list); at most 10,000.',
    { type: 'object', additionalProperties: entryDoc, propertyNames: { pattern: KEY.source } },
    (v) => readBatch(v), { required: true }),
}, { examples: [{ payment_methods: { 0: { payment_id: 'mth_9a8b7c6d5e4f', card_exp_month: 12, card_exp_year: 2031 } } }] });
export type UpdateInput = Input<typeof UpdateFields>;
