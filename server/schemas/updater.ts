// The account updater (spec 2.9, 4.7): a batch of stored cards with new expiry dates, and its review.
import { Int, NullableTime, Str, Timestamp, Type, loose, type Static } from './common.js';
import type { E } from '../errors.js';

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

/** The domain reads payment_methods itself (122004 for a wrong shape, not a schema error). */
export const UpdateBody = loose({
  payment_methods: Type.Record(Str(), Type.Object({
    payment_id: Str({ description: 'A stored method id.' }), card_exp_month: Type.Union([Int(), Str()]), card_exp_year: Type.Union([Int(), Str()]),
  }), { description: 'Numerically keyed: `{ "0": {...}, "1": {...} }` (or form keys payment_methods[0][payment_id]); at most 10,000.' }),
}, { examples: [{ payment_methods: { 0: { payment_id: 'mth_9a8b7c6d5e4f', card_exp_month: 12, card_exp_year: 2031 } } }] });
