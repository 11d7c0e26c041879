// The test helpers' answers (test private key only): the test clock, reset and settle. Their fields
// depend on the call (a GET clock has `advance`, a POST one `previous`, `to`, `ran`), so none is
// required here: the serializer writes what the job returns, within this allow-list.
import { Bool, Int, NullableTime, Str, Timestamp, Type } from './common.js';
import { bool, fields, later, raw, whole as wholeField } from './fields.js';

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

// The advance's fields are read against the clock's time, in its transaction (jobs/clock-target.ts
// targetOf), after the test-key check: the table hands them on as sent.
const whole = { anyOf: [{ type: 'integer', minimum: 0, maximum: 999_999_999 }, { type: 'string', pattern: '^\\d{1,9}$' }] };
const when = (unit: string) => raw(`Move forward by this many ${unit}.`, whole);
/** POST /test_helpers/clock/advance: `to`, or any of the units; `wait` (also in the query string, which wins). */
export const AdvanceFields = fields({
  to: raw('Move to this time (forward only).', { type: 'string', format: 'date-time' }),
  months: raw('Calendar months (the day clamped: Jan 31 + 1 month = Feb 28).', whole),
  days: when('days'), hours: when('hours'), minutes: when('minutes'), seconds: when('seconds'),
  wait: raw('Answer only when the advance is done (the query string\'s wins).', { type: 'boolean' }),
}, { examples: [{ days: 30 }] });
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
