// The test helpers' answers (test private key only): the test clock, reset and settle. Their fields
// depend on the call (a GET clock has `advance`, a POST one `previous`, `to`, `ran`), so none is
// required here: the serializer writes what the job returns, within this allow-list.
import { Bool, Int, NullableTime, Str, Timestamp, Type, loose } from './common.js';

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

const when = (unit: string) => Type.Union([Int(), Str()], { description: `Move forward by this many ${unit}.` });
export const AdvanceBody = loose({
  to: Str({ format: 'date-time', description: 'Move to this time (forward only).' }),
  months: Type.Union([Int(), Str()], { description: 'Calendar months (the day clamped: Jan 31 + 1 month = Feb 28).' }),
  days: when('days'), hours: when('hours'), minutes: when('minutes'), seconds: when('seconds'),
  wait: Type.Union([Bool(), Str()], { description: 'Answer only when the advance is done (also in the query string).' }),
}, { examples: [{ days: 30 }] });
export const WaitQuery = loose({ wait: Bool({ description: 'Answer only when the advance under way is done.' }) });

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
export const SettleBody = loose({
  timeout_ms: Type.Union([Int(), Str()], { description: '0 to 60000 milliseconds (default 10000); also in the query string.' }),
}, { examples: [{ timeout_ms: 5000 }] });
