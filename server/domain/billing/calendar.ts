// Billing calendars (docs/decisions/recurring-billing.md, Calendar). Pure date math on UTC calendar dates
// 'YYYY-MM-DD'; a run is due at 00:00:00 UTC of its date. Every date is computed from the anchor
// (the subscription's start date) and the run's index, never from the previous date, so a monthly
// plan on the 31st bills Jan 31, Feb 28, Mar 31 — clamping in a short month does not drift.

import type { Frequency } from '../../schemas/plans.js';
export { FREQUENCIES, type Frequency, isFrequency } from '../../schemas/plans.js';

export interface Schedule {
  frequency: Frequency;
  /** weekly: weekday 0–6 (0 = Sunday); monthly/quarterly/yearly: day of month 1–31; null: the anchor's. */
  day: number | null;
  /** The subscription's start date, 'YYYY-MM-DD' (UTC). */
  anchor: string;
}

const DAY_MS = 86_400_000;
const MONTHS: Partial<Record<Frequency, number>> = { monthly: 1, quarterly: 3, yearly: 12 };

/** 'YYYY-MM-DD' of a Date in UTC. */
export function utcDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** 00:00:00 UTC of a 'YYYY-MM-DD' date. */
export function startOfDay(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

export { isCalendarDate } from '../../schemas/scheduled.js';

export function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/** year/month (month0 may run past 11 or below 0) with the day clamped to that month's length. */
function clamped(year: number, month0: number, day: number): string {
  const first = new Date(Date.UTC(year, month0, 1));
  const y = first.getUTCFullYear();
  const m = first.getUTCMonth();
  return utcDate(new Date(Date.UTC(y, m, Math.min(day, daysInMonth(y, m)))));
}

/** `date` plus n calendar months, the day clamped to the target month (Jan 31 + 1 = Feb 28/29). */
export function addMonths(d: Date, n: number): Date {
  const day = d.getUTCDate();
  const date = clamped(d.getUTCFullYear(), d.getUTCMonth() + n, day);
  return new Date(`${date}T${d.toISOString().slice(11)}`);
}

/**
 * The k-th scheduled date (k ≥ 1) strictly after the anchor date.
 * - daily: anchor + k days (`day` is ignored).
 * - weekly: the first `day` weekday after the anchor, then every 7 days (default: the anchor's weekday).
 * - monthly / quarterly / yearly: months anchor + j·(1|3|12) on day `day` (default: the anchor's day),
 *   clamped to the month's length; the first one strictly after the anchor counts as k = 1.
 */
export function nthDate(s: Schedule, k: number): string {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, not ${k}`);
  const anchor = startOfDay(s.anchor);
  if (s.frequency === 'daily') return utcDate(new Date(anchor.getTime() + k * DAY_MS));
  if (s.frequency === 'weekly') {
    const want = s.day ?? anchor.getUTCDay();
    const delta = ((want - anchor.getUTCDay() + 7) % 7) || 7;
    return utcDate(new Date(anchor.getTime() + (delta + 7 * (k - 1)) * DAY_MS));
  }
  const step = MONTHS[s.frequency]!;
  const day = s.day ?? anchor.getUTCDate();
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth();
  const first = clamped(y, m, day) > s.anchor ? 0 : 1;
  return clamped(y, m + (first + k - 1) * step, day);
}

/** Normalises and checks a plan's `day` for its frequency; returns the stored value or an error message. */
export function readDay(frequency: Frequency, raw: unknown): { day: number | null } | { error: string } {
  if (raw === undefined || raw === null || raw === '') return { day: null };
  if (typeof raw !== 'string' && typeof raw !== 'number') return { error: 'day must be a whole number' };
  const s = String(raw).trim();
  const n = /^\d{1,2}$/.test(s) ? Number(s) : NaN;
  switch (frequency) {
    case 'daily':
      return { day: null }; // no meaning for a daily plan: accepted and ignored
    case 'weekly':
      // 0–6 with 0 = Sunday (JavaScript, cron) and 1–7 with 7 = Sunday (ISO 8601) agree on 1–6.
      if (!(n >= 0 && n <= 7)) return { error: 'day must be a weekday from 0 to 7 (0 and 7 = Sunday, 1 = Monday) for a weekly plan' };
      return { day: n % 7 };
    default:
      if (!(n >= 1 && n <= 31)) return { error: `day must be a day of the month from 1 to 31 for a ${frequency} plan` };
      return { day: n };
  }
}
