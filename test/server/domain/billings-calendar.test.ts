import { describe, expect, test } from 'vitest';
import { Schedule, addMonths, nthDate, readDay } from '../../../server/domain/billing/calendar.js';
import { dueAtRun } from '../../../server/domain/billing/subscriptions.js';

const dates = (s: Schedule, n: number) => Array.from({ length: n }, (_, i) => nthDate(s, i + 1));

describe('nthDate: the k-th billing date strictly after the start date', () => {
  test('daily', () => {
    expect(dates({ frequency: 'daily', day: null, anchor: '2026-02-27' }, 3)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
    expect(nthDate({ frequency: 'daily', day: 9, anchor: '2024-12-31' }, 1)).toBe('2025-01-01'); // day ignored
  });

  test('weekly on a weekday (0 = Sunday); the start weekday itself is a week later', () => {
    // 2026-01-15 is a Thursday (4)
    expect(dates({ frequency: 'weekly', day: 1, anchor: '2026-01-15' }, 3)).toEqual(['2026-01-19', '2026-01-26', '2026-02-02']);
    expect(nthDate({ frequency: 'weekly', day: 4, anchor: '2026-01-15' }, 1)).toBe('2026-01-22');
    expect(nthDate({ frequency: 'weekly', day: 5, anchor: '2026-01-15' }, 1)).toBe('2026-01-16');
    expect(nthDate({ frequency: 'weekly', day: 0, anchor: '2026-01-15' }, 1)).toBe('2026-01-18');
    expect(nthDate({ frequency: 'weekly', day: null, anchor: '2026-01-15' }, 2)).toBe('2026-01-29');
  });

  test('monthly on the 31st: clamped in short months, back to the 31st after (no drift)', () => {
    expect(dates({ frequency: 'monthly', day: 31, anchor: '2026-01-15' }, 6))
      .toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30']);
    expect(dates({ frequency: 'monthly', day: 31, anchor: '2028-01-31' }, 2)).toEqual(['2028-02-29', '2028-03-31']); // leap year
    expect(dates({ frequency: 'monthly', day: null, anchor: '2026-01-30' }, 3)).toEqual(['2026-02-28', '2026-03-30', '2026-04-30']);
    expect(dates({ frequency: 'monthly', day: 10, anchor: '2026-01-15' }, 2)).toEqual(['2026-02-10', '2026-03-10']);
    expect(dates({ frequency: 'monthly', day: null, anchor: '2026-11-15' }, 3)).toEqual(['2026-12-15', '2027-01-15', '2027-02-15']);
  });

  test('quarterly and yearly: anchored on the start month', () => {
    expect(dates({ frequency: 'quarterly', day: null, anchor: '2026-01-15' }, 4))
      .toEqual(['2026-04-15', '2026-07-15', '2026-10-15', '2027-01-15']);
    expect(dates({ frequency: 'quarterly', day: 31, anchor: '2025-11-30' }, 3)).toEqual(['2026-02-28', '2026-05-31', '2026-08-31']);
    expect(dates({ frequency: 'quarterly', day: 20, anchor: '2026-01-15' }, 2)).toEqual(['2026-01-20', '2026-04-20']);
    expect(dates({ frequency: 'yearly', day: null, anchor: '2024-02-29' }, 4)).toEqual(['2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29']);
    expect(dates({ frequency: 'yearly', day: 1, anchor: '2026-01-15' }, 2)).toEqual(['2027-01-01', '2028-01-01']);
  });

  test('bill_immediately: run 1 is the start, run n the (n-1)-th date; runs are due at 00:00 UTC', () => {
    const s = { frequency: 'monthly' as const, day: 31, anchor_date: '2026-01-15' };
    expect(dueAtRun({ ...s, bill_immediately: false }, 1).toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(dueAtRun({ ...s, bill_immediately: true }, 2).toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(dueAtRun({ ...s, bill_immediately: true }, 3).toISOString()).toBe('2026-02-28T00:00:00.000Z');
  });

  test('k must be a positive integer', () => {
    expect(() => nthDate({ frequency: 'daily', day: null, anchor: '2026-01-01' }, 0)).toThrow(RangeError);
  });
});

test('readDay per frequency', () => {
  expect(readDay('weekly', 7)).toEqual({ day: 0 });
  expect(readDay('weekly', '6')).toEqual({ day: 6 });
  expect(readDay('weekly', 8)).toHaveProperty('error');
  expect(readDay('monthly', 31)).toEqual({ day: 31 });
  expect(readDay('monthly', 0)).toHaveProperty('error');
  expect(readDay('yearly', 1.5)).toHaveProperty('error');
  expect(readDay('daily', 99)).toEqual({ day: null });
  expect(readDay('monthly', '')).toEqual({ day: null });
});

test('addMonths clamps and keeps the time of day', () => {
  expect(addMonths(new Date('2026-01-31T12:34:56.789Z'), 1).toISOString()).toBe('2026-02-28T12:34:56.789Z');
  expect(addMonths(new Date('2026-01-15T12:00:00.000Z'), 3).toISOString()).toBe('2026-04-15T12:00:00.000Z');
  expect(addMonths(new Date('2026-12-15T00:00:00.000Z'), 14).toISOString()).toBe('2028-02-15T00:00:00.000Z');
});
