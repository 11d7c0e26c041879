import { Queryable } from '../db/index.js';
import { addMonths } from '../domain/calendar.js';
import { completeDueReviews } from '../domain/updater.js';
import { GatewayError } from '../errors.js';
import { JobDeps, RunSummary, runDueBetween, serial } from './scheduler.js';

// The test clock of a merchant's test environment: "now" there is real time + offset_ms (table
// test_clocks, read by auth.ts into req.now). It only moves forward. Advancing it runs, at once and
// in time order, everything that fell due in between; token expiry needs nothing: it follows req.now.

const MAX_ADVANCE_MS = 10 * 366 * 86_400_000;
const UNITS = { seconds: 1000, minutes: 60_000, hours: 3600_000, days: 86_400_000 } as const;

export interface TestClock {
  now: Date;
  offset_ms: number;
  real_now: Date;
}

async function offsetOf(q: Queryable, merchantId: string, lock = false): Promise<number> {
  const [row] = await q.query<{ offset_ms: number }>(
    `SELECT offset_ms FROM test_clocks WHERE merchant_id = $1${lock ? ' FOR UPDATE' : ''}`, [merchantId],
  );
  return Number(row?.offset_ms ?? 0);
}

export async function readTestClock(q: Queryable, merchantId: string, realNow: Date): Promise<TestClock> {
  const offset = await offsetOf(q, merchantId);
  return { now: new Date(realNow.getTime() + offset), offset_ms: offset, real_now: realNow };
}

/**
 * Where the body asks the clock to go from `from`: `to` (an ISO 8601 time), or a sum of `months`
 * (calendar months, the day clamped: Jan 31 + 1 month = Feb 28), `days`, `hours`, `minutes`,
 * `seconds` (whole numbers ≥ 0). At most ten years per call. Backwards is CLOCK02.
 */
export function targetOf(from: Date, body: Record<string, unknown>): Date {
  const whole = (k: string) => {
    const v = body[k];
    if (v === undefined || v === null || v === '') return 0;
    const s = String(v).trim();
    if (!/^\d{1,9}$/.test(s)) throw new GatewayError('REQ01', `${k} must be a whole number of 0 or more`);
    return Number(s);
  };
  let target: Date;
  if (body.to !== undefined && body.to !== null && body.to !== '') {
    const s = String(body.to);
    target = new Date(s);
    if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) || Number.isNaN(target.getTime())) {
      throw new GatewayError('REQ01', 'to must be an ISO 8601 time, e.g. 2026-03-01T00:00:00Z');
    }
    if (target < from) throw new GatewayError('CLOCK02', `the test clock is at ${from.toISOString()} and only moves forward`);
  } else {
    const given = ['months', ...Object.keys(UNITS)].filter((k) => body[k] !== undefined && body[k] !== null && body[k] !== '');
    if (given.length === 0) throw new GatewayError('REQ01', 'say how far: to, or any of months, days, hours, minutes, seconds');
    const ms = Object.entries(UNITS).reduce((sum, [k, unit]) => sum + whole(k) * unit, 0);
    target = new Date(addMonths(from, whole('months')).getTime() + ms);
  }
  if (target.getTime() - from.getTime() > MAX_ADVANCE_MS) throw new GatewayError('REQ01', 'the test clock moves at most ten years per call');
  return target;
}

export interface Advanced extends TestClock {
  previous: Date;
  ran: RunSummary;
}

/**
 * POST /test_helpers/clock/advance. Moves the offset forward (locked, so concurrent advances
 * add up and never go back), then runs the due work of this merchant's test environment between
 * the old and the new time (serialised with this process's scheduler loop).
 */
export async function advanceTestClock(deps: JobDeps, merchantId: string, body: Record<string, unknown>): Promise<Advanced> {
  const { from, to, offset, realNow } = await deps.db.tx(async (q) => {
    const realNow = deps.clock.now();
    await q.query(
      'INSERT INTO test_clocks (merchant_id, offset_ms, updated_at) VALUES ($1, 0, $2) ON CONFLICT (merchant_id) DO NOTHING',
      [merchantId, realNow],
    );
    const current = await offsetOf(q, merchantId, true);
    const from = new Date(realNow.getTime() + current);
    const to = targetOf(from, body);
    const offset = to.getTime() - realNow.getTime();
    await q.query('UPDATE test_clocks SET offset_ms = $2, updated_at = $3 WHERE merchant_id = $1', [merchantId, offset, realNow]);
    return { from, to, offset, realNow };
  });
  const ran = await serial(deps.db, () => runDueBetween(deps, { merchantId, env: 'test' }, from, to));
  // Account-updater reviews due on the moved clock complete now too, not at the next loop round.
  await completeDueReviews(deps.db, realNow);
  return { previous: from, now: to, offset_ms: offset, real_now: realNow, ran };
}
