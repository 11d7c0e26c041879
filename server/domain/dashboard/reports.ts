// The dashboard's home: per-day aggregates of one merchant environment's charges, refunds and new
// customers, grouped in SQL (indexes in migrations/019_dashboard_reports.sql), and the totals of
// today, the last 7 and the last 30 days taken from those days. No Fastify here; the route is
// routes/dashboard-reports.ts.
import { Queryable } from '../../db/index.js';
import type { Scope } from '../merchant/keys.js';
import { EventRow } from '../events/events.js';
import { EVENT_COLUMNS, presentEvent } from '../../schemas/webhooks.js';

const DAY = 86_400_000;

export interface DayFigures {
  gross_volume: number;
  successful: number;
  declined: number;
  refunded: number;
  refunds: number;
  new_customers: number;
}

const FIGURES = ['gross_volume', 'successful', 'declined', 'refunded', 'refunds', 'new_customers'] as const;
const zero = (): DayFigures => ({ gross_volume: 0, successful: 0, declined: 0, refunded: 0, refunds: 0, new_customers: 0 });

/**
 * One statement: charges (by their creation), refunds (by theirs) and customers (by theirs) of the
 * scope from $3 (a UTC midnight) to $4, each grouped by UTC day, then merged per day. The day is
 * date_bin('1 day', created_at, $3): whole days counted from a UTC midnight, whatever the session's
 * time zone, and cheaper per row than date_trunc on `created_at AT TIME ZONE 'UTC'` (no zone rules).
 */
const BY_DAY = `
  SELECT to_char(day AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(gross_volume)::bigint AS gross_volume, sum(successful)::bigint AS successful,
         sum(declined)::bigint AS declined, sum(refunded)::bigint AS refunded, sum(refunds)::bigint AS refunds,
         sum(new_customers)::bigint AS new_customers
    FROM (
      SELECT date_bin('1 day', created_at, $3) AS day,
             COALESCE(sum(amount_settled) FILTER (WHERE successful), 0) AS gross_volume,
             count(*) FILTER (WHERE successful) AS successful, count(*) FILTER (WHERE NOT successful) AS declined,
             0 AS refunded, 0 AS refunds, 0 AS new_customers
        FROM transactions WHERE merchant_id = $1 AND env = $2 AND created_at >= $3 AND created_at < $4
       GROUP BY 1
      UNION ALL
      SELECT date_bin('1 day', created_at, $3), 0, 0, 0, sum(amount), count(*), 0
        FROM refunds WHERE merchant_id = $1 AND env = $2 AND created_at >= $3 AND created_at < $4
       GROUP BY 1
      UNION ALL
      SELECT date_bin('1 day', created_at, $3), 0, 0, 0, 0, 0, count(*)
        FROM customers WHERE merchant_id = $1 AND env = $2 AND created_at >= $3 AND created_at < $4
       GROUP BY 1
    ) d
   GROUP BY day`;

/** `YYYY-MM-DD` of a UTC day. */
const dayKey = (d: Date) => d.toISOString().slice(0, 10);

export async function summary(q: Queryable, scope: Scope, now: Date, days: number) {
  const today = Math.floor(now.getTime() / DAY) * DAY;
  const span = Math.max(days, 30);
  const from = new Date(today - (span - 1) * DAY);
  // Not listEvents for the events: its count of every event of the scope is not needed here.
  const [rows, events] = await Promise.all([
    q.query<Record<string, unknown> & { day: string }>(BY_DAY, [scope.merchantId, scope.env, from, new Date(today + DAY)]),
    // Not the dashboard's own test sends (webhook-test.ts): they changed nothing.
    q.query<EventRow>(`SELECT ${EVENT_COLUMNS.join(', ')} FROM events WHERE merchant_id = $1 AND env = $2 AND type <> 'test' ORDER BY seq DESC LIMIT 10`, [scope.merchantId, scope.env]),
  ]);
  const byDay = new Map<string, DayFigures>();
  for (const r of rows) {
    byDay.set(r.day, Object.fromEntries(FIGURES.map((f) => [f, Number(r[f] ?? 0)])) as unknown as DayFigures);
  }
  // Oldest first, zero-filled: days-1 days ago .. today.
  const all = Array.from({ length: span }, (_, i) => {
    const day = dayKey(new Date(today - (span - 1 - i) * DAY));
    return { day, ...(byDay.get(day) ?? zero()) };
  });
  const total = (n: number) => all.slice(-n).reduce((t, d) => {
    for (const f of FIGURES) t[f] += d[f];
    return t;
  }, zero());
  return {
    days,
    now,
    // `period`: the `days` of `series`, so a page showing 1, 7 or 30 days reads its own figures.
    totals: { today: total(1), last_7_days: total(7), last_30_days: total(30), period: total(days) },
    series: all.slice(-days),
    recent_events: events.map(presentEvent),
  };
}
