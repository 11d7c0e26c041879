// The account updater (spec 2.9, 4.7): a batch of stored cards with new expiry dates, and its review.
import { Int, NullableTime, Str, Timestamp, Type, type Static } from './common.js';
import { E, GatewayError } from '../errors.js';
import { decodeJsonParam } from '../lib/input.js';
import { clip, text } from '../lib/validate.js';
import { type Input, custom, fields } from './fields.js';

// The stored shape (rows as the domain reads them); the presenter below turns it into the answer.
export interface EntryError {
  code: typeof E.UPDATE_PAYMENT_ID_INVALID | typeof E.UPDATE_EXPIRY_INVALID | typeof E.UPDATE_METHOD_NOT_FOUND | typeof E.UPDATE_METHOD_NOT_UPDATABLE;
  message: string;
}

/** One entry as it is stored and shown. */
export interface EntryRow {
  idx: number;
  payment_id: string | null;
  card_exp_month: number | string | null;
  card_exp_year: number | string | null;
  accepted: boolean;
  errors: EntryError[] | null;
  token_id: string | null;
}

export interface UpdateRow {
  id: string;
  status: 'received' | 'completed';
  accepted_count: number;
  rejected_count: number;
  applied_count: number | null;
  /** Keys of accepted entries the review could not write (method deleted, or holding another card since). */
  unapplied: number[] | null;
  created_at: Date;
  review_at: Date;
  completed_at: Date | null;
}

export interface Submitted {
  head: UpdateRow;
  entries: EntryRow[];
}


const echoed = Type.Unsafe<number | string | null>({ type: ['integer', 'string', 'null'], examples: [12] });
/** One entry as sent back; a rejected one has no `applied`. */
const EntrySchema = Type.Partial(Type.Object({
  payment_id: Type.Unsafe<string | null>({ type: ['string', 'null'], examples: ['mth_9a8b7c6d5e4f'] }),
  card_exp_month: echoed,
  card_exp_year: Type.Unsafe<number | string | null>({ type: ['integer', 'string', 'null'], examples: [2031] }),
  result: Type.Object({
    status: Str({ enum: ['Received', 'Fail'], examples: ['Received'] }),
    errors: Type.Optional(Type.Array(Type.Object({ code: Str(), message: Str() }))),
  }),
  applied: Type.Unsafe<boolean | null>({ type: ['boolean', 'null'], description: 'Once the review has completed.', examples: [null] }),
}));

/** Entries keyed by the request's own keys ("0", "1"…). */
const byKey = (example: object) =>
  Type.Unsafe<Record<string, Static<typeof EntrySchema>>>({ type: 'object', additionalProperties: EntrySchema, examples: [example] });

const summary = {
  class: Str({ examples: ['accountupdater'] }),
  id: Str({ examples: ['upd_2b3c4d5e'] }),
  status: Str({ examples: ['in_review'] }),
  accepted_count: Int({ examples: [1] }),
  rejected_count: Int({ examples: [0] }),
  applied_count: Type.Unsafe<number | null>({ type: ['integer', 'null'], examples: [null] }),
  created_at: Timestamp(),
  review_at: Timestamp(),
  completed_at: NullableTime({ examples: [null] }),
};
const SummarySchema = Type.Object(summary);
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
  return {
    class: 'accountupdater',
    id: h.id,
    status: h.status,
    accepted_count: h.accepted_count,
    rejected_count: h.rejected_count,
    applied_count: h.applied_count,
    created_at: h.created_at,
    review_at: h.review_at,
    completed_at: h.completed_at,
  };
}

type Entry = Static<typeof EntrySchema>;
/** Spec 2.9: entries split into `accepted` and `rejected`, keyed by the request's key. */
export function presentUpdate({ head, entries }: Submitted): UpdateOut {
  const accepted: Record<string, Entry> = {};
  const rejected: Record<string, Entry> = {};
  const unapplied = new Set(head.unapplied ?? []);
  for (const e of entries) {
    const base = { payment_id: e.payment_id, card_exp_month: e.card_exp_month, card_exp_year: e.card_exp_year };
    const applied = head.status === 'completed' ? !unapplied.has(e.idx) : null;
    if (e.accepted) accepted[e.idx] = { ...base, result: { status: 'Received' }, applied };
    else rejected[e.idx] = { ...base, result: { status: 'Fail', errors: e.errors ?? [] } };
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
