// The dashboard's own endpoints (spec 5.5, issue 19): overview, key sets, test cards, the home
// page's summary, search, and the filters of its transaction list and CSV exports. The answers are
// built by domain/dashboard/dashboard.ts, reports.ts and search.ts; every field of an answer is
// required (its generated type in the dashboard, api-types.d.ts, has no optional field the answer always holds).
import { TransactionSchema } from './transactions.js';
import { EventSchema } from './webhooks.js';
import { Bool, Int, NullableInt, NullableStr as NStr, NullableTime, Str, Timestamp, Type } from './common.js';
import { type Input, custom, fields, pageFields } from './fields.js';
import { INVOICE_STATUSES, type InvoiceStatus } from './invoices.js';
import { E, type ErrorCode, GatewayError, invalid } from '../errors.js';
import { END_INSTANT, MAX_AMOUNT, readInstant } from '../lib/validate.js';
import type { TransactionFilter } from '../domain/payments/transactions.js';

/** A listed key set: the two keys redacted to prefix and last four characters. */
const KeySetView = Type.Object({
  key_set_id: Str(), env: Str({ examples: ['test'] }), public_key: NStr({ examples: ['test_pk_…1a2b'] }), private_key: NStr({ examples: ['test_sk_…3c4d'] }),
  created_at: Timestamp(), expires_at: NullableTime({ examples: [null] }), status: Str({ enum: ['active', 'expiring', 'expired'] }),
  private_key_exposed_at: NullableTime({ examples: [null] }),
});
export const KeysSchema = Type.Object({
  class: Str({ examples: ['key_sets'] }), live_enabled: Bool(), test: Type.Array(KeySetView), live: Type.Array(KeySetView),
});
/** The one answer that carries a whole private key: never stored, never cached, never replayed. */
export const NewKeySetSchema = Type.Object({
  class: Str({ examples: ['key_set'] }), key_set_id: Str(), env: Str({ examples: ['test'] }), public_key: Str({ examples: ['test_pk_…'] }),
  private_key: Str({ examples: ['test_sk_…'] }), created_at: Timestamp(), old_keys_expire_at: Timestamp(),
});
export const NewKeySetBody = Type.Partial(Type.Object({
  env: Str({ enum: ['test', 'live'], description: "Default: the key's environment." }),
  expire_old: Str({ enum: ['now', '1h'], description: 'When the set being replaced stops working (default now).' }),
}), { examples: [{ env: 'test', expire_old: '1h' }] });
export const OverviewSchema = Type.Object({
  class: Str({ examples: ['dashboard_overview'] }), merchant_id: Str(), name: Str({ examples: ['Demo shop'] }), env: Str({ examples: ['test'] }),
  live_enabled: Bool(), test_public_key: NStr(), now: Timestamp(), clock_offset_ms: Int({ examples: [0] }),
});
/** A merchant environment's processor connection as the Settings page shows it: never a secret, only which are set. */
const ConnectionView = Type.Object({
  env: Str({ enum: ['test', 'live'], examples: ['live'] }),
  connector: NStr({ description: "'simulator' in test mode (always); null when live has none.", examples: ['authorizenet'] }),
  configured: Bool({ examples: [true] }),
  settings: Type.Unsafe<Record<string, string | boolean | null>>({
    type: 'object', additionalProperties: true, description: "The connector's plain settings, with sandbox and endpoint.",
    examples: [{ login_id: '5KP3u95bQpv', sandbox: true, endpoint: null }],
  }),
  secrets: Type.Unsafe<Record<string, 'set'>>({
    type: 'object', additionalProperties: { type: 'string', enum: ['set'] }, description: 'Each secret it holds, as "set".',
    examples: [{ transaction_key: 'set' }],
  }),
  created_at: NullableTime(), updated_at: NullableTime(),
});
export const ProcessorSchema = Type.Object({
  class: Str({ examples: ['processor_connections'] }), test: ConnectionView, live: ConnectionView,
});
export const TestCardsSchema = Type.Object({
  list: Type.Array(Type.Object({
    number: Str({ examples: ['4111111111111111'] }), brand: Str({ examples: ['Visa'] }), bin_type: Str(), bin_level: Str(),
    outcome: Str({ examples: ['approved'] }), note: Str(),
  })),
  bank_account: Type.Object({ routing_number: Str(), account_number: Str() }),
});

const figureProps = { gross_volume: Int(), successful: Int(), declined: Int(), refunded: Int(), refunds: Int(), new_customers: Int() };
const figures = Type.Object(figureProps);
export const SummarySchema = Type.Object({
  class: Str({ examples: ['dashboard_summary'] }), days: Int({ examples: [30] }), now: Timestamp(),
  totals: Type.Object({ today: figures, last_7_days: figures, last_30_days: figures, period: figures }),
  series: Type.Array(Type.Object({ day: Str({ examples: ['2026-01-15'] }), ...figureProps })),
  recent_events: Type.Array(EventSchema),
});
export const SearchSchema = Type.Object({
  class: Str({ examples: ['dashboard_search'] }), q: Str({ examples: ['Lovelace'] }),
  results: Type.Array(Type.Object({
    type: Str({ enum: ['transaction', 'customer', 'invoice', 'subscription'] }), id: Str(), title: Str(), subtitle: Str(), amount: NullableInt(),
  })),
});

// Query strings, one table each, read with the dashboard's codes: DASH01 (days), DASH02 (search),
// REQ01 naming the field (the list's and exports' filters). NUL is refused before any table reads
// (REQ01, for every query string and body).

/** A value sent once: its text trimmed (a number as its decimal text); undefined when absent or ''. */
function once(v: unknown, name: string, numbers = true): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' && !(numbers && typeof v === 'number')) throw invalid(name, 'must be given once, as a string');
  return String(v).trim();
}
/** A count from 1 to `max` (`fallback` when absent or ''), written in at most `digits` digits; else `code`. */
function count(description: string, max: number, digits: number, fallback: number, code: ErrorCode) {
  const written = new RegExp(`^\\d{1,${digits}}$`);
  return custom(description, { type: 'integer', minimum: 1, maximum: max, default: fallback }, (v): number => {
    if (v === undefined || v === '') return fallback;
    const s = typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '';
    const n = written.test(s) ? Number(s) : NaN;
    if (!(n >= 1 && n <= max)) throw new GatewayError(code);
    return n;
  });
}

export const MAX_SUMMARY_DAYS = 90;
export const MAX_SEARCH_LIMIT = 20;
export const MAX_SEARCH_TEXT = 100;

export const SummaryQuery = fields({
  days: count('UTC days in `series`, today the last (1 to 90, default 30; else DASH01).', MAX_SUMMARY_DAYS, 3, 30, E.SUMMARY_DAYS_INVALID),
});
export const SearchQuery = fields({
  q: custom('An id or its start, an email, a name, the last 4 digits of a card or account, or an amount (12.50 or 1250).',
    { type: 'string', minLength: 1, maxLength: MAX_SEARCH_TEXT }, (v): string => {
      const q = typeof v === 'string' ? v.trim() : '';
      if (q.length < 1 || q.length > MAX_SEARCH_TEXT) throw new GatewayError(E.SEARCH_INVALID);
      return q;
    }, { required: true }),
  limit: count('Results in all (1 to 20, default 10).', MAX_SEARCH_LIMIT, 2, 10, E.SEARCH_INVALID),
});

const STATUS = /^[A-Z_]{1,32}$/;
const DAY = 86_400_000;
const dateFilter = 'A date (2026-01-15, a whole UTC day) or an ISO 8601 timestamp (to the millisecond, UTC without a zone; years 0001 to 9999); inclusive.';
const cents = (description: string) => custom(description, { type: 'integer', minimum: 0 }, (v, name): number | undefined => {
  const s = once(v, name);
  if (s === undefined) return undefined;
  if (!/^\d+$/.test(s) || Number(s) > MAX_AMOUNT) throw invalid(name, 'must be a whole number of cents');
  return Number(s);
});
const instantOf = (v: unknown, name: string) => {
  const s = once(v, name);
  return s === undefined ? undefined : readInstant(s, name);
};
const transactionFilter = {
  status: custom('SETTLED, DECLINED or RETURNED, any case.', { type: 'string' }, (v, name): string | undefined => {
    const s = once(v, name)?.toUpperCase();
    if (s !== undefined && !STATUS.test(s)) throw invalid(name, 'must be a transaction status such as SETTLED');
    return s;
  }),
  amount_min: cents('Cents, inclusive, on the amount asked for.'),
  amount_max: cents('Cents, inclusive.'),
  created_from: custom(dateFilter, { type: 'string' }, (v, name): Date | undefined => instantOf(v, name)?.at),
  // Up to the end of the day, or the millisecond, named; past 9999-12-31 there is no upper bound.
  created_to: custom(dateFilter, { type: 'string' }, (v, name): Date | undefined => {
    const i = instantOf(v, name);
    const before = i && i.at.getTime() + (i.dateOnly ? DAY : 1);
    return before !== undefined && before < END_INSTANT ? new Date(before) : undefined;
  }),
};
/** The transaction filter a list or export table read: what the domain's list statement takes. */
export function transactionFilterOf(q: Input<typeof TransactionsCsvQuery>): TransactionFilter {
  const f: TransactionFilter = {};
  if (q.status !== undefined) f.status = q.status;
  if (q.amount_min !== undefined) f.amountMin = q.amount_min;
  if (q.amount_max !== undefined) f.amountMax = q.amount_max;
  if (q.created_from !== undefined) f.createdFrom = q.created_from;
  if (q.created_to !== undefined) f.createdBefore = q.created_to;
  return f;
}
/** A transaction of the dashboard's list: the API's own, with who it was for. */
export const DashboardTransactionSchema = Type.Object({
  ...TransactionSchema.properties,
  customer_name: NStr({ description: "The customer record's name, else the name on the charge.", examples: ['Ada Lovelace'] }),
  customer_email: NStr({ description: "The customer record's email, else the email the charge was sent with or its receipt went to.", examples: ['ada@example.com'] }),
});
export const TransactionsQuery = fields({ ...pageFields(), ...transactionFilter });
export const TransactionsCsvQuery = fields(transactionFilter);
export const CustomersCsvQuery = fields({
  search_term: custom('Name, company or id contains it (up to 100 characters; blank is none).', { type: 'string', maxLength: 100 }, (v, name): string | undefined => {
    const term = once(v, name, false);
    if (term !== undefined && (term === '' || term.length > 100)) throw invalid(name, 'must be 1 to 100 characters');
    return term;
  }),
});
export const InvoicesCsvQuery = fields({
  status: custom('unpaid, partially_paid, paid or deleted; without it, all but deleted.', { type: 'string', enum: [...INVOICE_STATUSES] }, (v, name): InvoiceStatus | undefined => {
    const status = once(v, name, false);
    if (status !== undefined && !INVOICE_STATUSES.includes(status as InvoiceStatus)) throw invalid(name, `must be one of ${INVOICE_STATUSES.join(', ')}`);
    return status as InvoiceStatus | undefined;
  }),
});
