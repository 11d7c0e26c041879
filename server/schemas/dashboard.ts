// The dashboard's own endpoints (spec 5.5, issue 19): overview, key sets, test cards, the home
// page's summary, search, and the filters of its transaction list and CSV exports. The answers are
// built by domain/dashboard/dashboard.ts, reports.ts and search.ts; every field of an answer is
// required (its generated type in the dashboard, api-types.d.ts, has no optional field the answer always holds).
import { TransactionSchema } from './transactions.js';
import { EventSchema } from './webhooks.js';
import { Bool, Int, NullableInt, NullableStr as NStr, NullableTime, Str, Timestamp, Type } from './common.js';
import { type Input, fields, pageFields, raw } from './fields.js';

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

// Query strings, one table each; the domain reads their values and answers its own codes (DASH01,
// DASH02, REQ01): domain/dashboard (parseDays, parseSearch, parseTransactionFilter, parseExportFilter).
export const SummaryQuery = fields({
  days: raw('UTC days in `series`, today the last (1 to 90, default 30; else DASH01).', { type: 'integer', minimum: 1, maximum: 90, default: 30 }),
});
export const SearchQuery = fields({
  q: raw('An id or its start, an email, a name, the last 4 digits of a card or account, or an amount (12.50 or 1250).',
    { type: 'string', minLength: 1, maxLength: 100 }, { required: true }),
  limit: raw('Results in all (1 to 20, default 10).', { type: 'integer', minimum: 1, maximum: 20, default: 10 }),
});
export type SearchInput = Input<typeof SearchQuery>;
const dateFilter = 'A date (2026-01-15, a whole UTC day) or an ISO 8601 timestamp; inclusive.';
const transactionFilter = {
  status: raw('SETTLED, DECLINED or RETURNED, any case.', { type: 'string' }),
  amount_min: raw('Cents, inclusive, on the amount asked for.', { type: 'integer', minimum: 0 }),
  amount_max: raw('Cents, inclusive.', { type: 'integer', minimum: 0 }),
  created_from: raw(dateFilter, { type: 'string' }),
  created_to: raw(dateFilter, { type: 'string' }),
};
/** A transaction of the dashboard's list: the API's own, with who it was for. */
export const DashboardTransactionSchema = Type.Object({
  ...TransactionSchema.properties,
  customer_name: NStr({ description: "The customer record's name, else the name on the charge.", examples: ['Ada Lovelace'] }),
  customer_email: NStr({ description: "The customer record's email, else the email the charge was sent with or its receipt went to.", examples: ['ada@example.com'] }),
});
export const TransactionsQuery = fields({ ...pageFields(), ...transactionFilter });
export const TransactionsCsvQuery = fields(transactionFilter);
export type TransactionFilterInput = Input<typeof TransactionsCsvQuery>;
export const CustomersCsvQuery = fields({ search_term: raw('Name, company or id contains it (1 to 100 characters).', { type: 'string', maxLength: 100 }) });
export const InvoicesCsvQuery = fields({ status: raw('unpaid, partially_paid, paid or deleted; without it, all but deleted.', { type: 'string' }) });
/** The filters of the customers and invoices exports, as their tables read them. */
export type ExportFilterInput = Partial<Input<typeof CustomersCsvQuery> & Input<typeof InvoicesCsvQuery>>;
