// The test helpers' answers (test private key only): the test clock, reset and settle. Their fields
// depend on the call (a GET clock has `advance`, a POST one `previous`, `to`, `ran`), so none is
// required here: the serializer writes what the job returns, within this allow-list.
import { Bool, Int, NullableTime, Str, Timestamp, Type } from './common.js';
import { type Input, bool, custom, fields, later, whole as wholeField } from './fields.js';
import { invalid } from '../errors.js';
import { wholeNumber } from '../lib/validate.js';

const ran = Type.Partial(Type.Object({
  billings: Int(), failed_billings: Int(), scheduled_transactions: Int(), failed_scheduled_transactions: Int(), errors: Int(),
}));
export const ClockSchema = Type.Partial(Type.Object({
  class: Str({ examples: ['test_clock'] }),
  now: Timestamp(),
  offset_ms: Int({ examples: [86_400_000] }),
  real_now: Timestamp(),
  advancing: Bool({ examples: [false] }),
  // POST answers: where this advance started, where it goes, what ran (so far, when it is still advancing).
  previous: Timestamp(),
  to: Timestamp(),
  ran,
  // GET: the last advance, under way or finished.
  advance: Type.Unsafe<object | null>({
    type: ['object', 'null'],
    properties: { previous: Timestamp(), to: Timestamp(), reached: Timestamp(), ran, started_at: Timestamp(), finished_at: NullableTime() },
    examples: [null],
  }),
}));

// The advance's fields are read here; their refusals wait (later) until the clock is locked and its
// time known (jobs/clock-target.ts targetOf takes them in its order; a clock busy advancing answers
// that first). A field not sent (absent, null or '') reads as null; a refused one was sent.
const sent = (v: unknown) => v !== undefined && v !== null && v !== '';
const onClock = <T>(description: string, doc: Record<string, unknown>, read: (v: unknown, name: string) => T) =>
  later(custom(description, doc, (v, name) => (sent(v) ? read(v, name) : null)));
const whole = { anyOf: [{ type: 'integer', minimum: 0, maximum: 999_999_999 }, { type: 'string', pattern: '^\\d{1,9}$' }] };
const when = (description: string) => onClock(description, whole, (v, name) => wholeNumber(v, name, 9));
/** POST /test_helpers/clock/advance: `to`, or any of the units; `wait` (also in the query string, which wins). */
export const AdvanceFields = fields({
  to: onClock('Move to this time (forward only).', { type: 'string', format: 'date-time' }, (v, name) => {
    const s = typeof v === 'string' ? v.trim() : '';
    const at = new Date(s);
    if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) || Number.isNaN(at.getTime())) {
      throw invalid(name, 'must be an ISO 8601 time, e.g. 2026-03-01T00:00:00Z');
    }
    return at;
  }),
  months: when('Calendar months (the day clamped: Jan 31 + 1 month = Feb 28).'),
  days: when('Move forward by this many days.'), hours: when('Move forward by this many hours.'),
  minutes: when('Move forward by this many minutes.'), seconds: when('Move forward by this many seconds.'),
  wait: later(bool('Answer only when the advance is done (the query string\'s wins).')),
}, { examples: [{ days: 30 }] });
export type AdvanceInput = Input<typeof AdvanceFields>;
/** GET /test_helpers/clock and its advance: `wait`, refused (REQ01) only after the test-key check. */
export const WaitQuery = fields({ wait: later(bool('Answer only when the advance under way is done.')) });

export const ResetSchema = Type.Partial(Type.Object({
  class: Str({ examples: ['test_reset'] }),
  env: Str({ examples: ['test'] }),
  merchant_id: Str(),
  deleted: Type.Unsafe<Record<string, number>>({ type: 'object', additionalProperties: { type: 'integer' }, examples: [{ transactions: 3, customers: 1 }] }),
  settings: Str({ examples: ['default'] }),
}));

const counts = { delivered: Int(), failed: Int(), pending_retry: Int(), pending: Int() };
export const SettleSchema = Type.Partial(Type.Object({
  class: Str({ examples: ['test_settle'] }),
  env: Str({ examples: ['test'] }),
  merchant_id: Str(),
  settled: Bool({ examples: [true] }),
  took_ms: Int({ examples: [12] }),
  webhooks: Type.Partial(Type.Object(counts)),
  callbacks: Type.Partial(Type.Object(counts)),
  emails: Type.Partial(Type.Object({ ...counts, queued: Int() })),
  sms: Type.Partial(Type.Object({ ...counts, queued: Int() })),
  scheduled: Type.Partial(Type.Object({ due: Int(), errors: Int(), advancing: Bool() })),
  events: Type.Partial(Type.Object({ undispatched: Int() })),
  next_retry_at: NullableTime({ examples: [null] }),
}));
/** How long a settle may take: 0 to 60000 milliseconds, refused (REQ01) only after the test-key check. */
const settleTimeout = (where: string) => later(wholeField(`0 to 60000 milliseconds (default 10000)${where}.`, { digits: 9, max: 60_000 }));
/** POST /test_helpers/settle: timeout_ms in the body, or in the query string (the body's wins). */
export const SettleFields = fields({ timeout_ms: settleTimeout('') }, { examples: [{ timeout_ms: 5000 }] });
export const SettleQuery = fields({ timeout_ms: settleTimeout('; the body\'s wins') });
