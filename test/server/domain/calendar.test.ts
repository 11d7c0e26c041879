import { describe, expect, test } from 'vitest';
import { Schedule, addMonths, daysInMonth, isCalendarDate, isFrequency, nthDate, readDay, startOfDay, utcDate } from '../../../server/domain/billing/calendar.js';

// server/domain/billing/calendar.ts on its own: the edges of the calendar (leap years, month ends, year
// ends, long runs). billings-calendar.test.ts has the plan-shaped cases.

const dates = (s: Schedule, n: number) => Array.from({ length: n }, (_, i) => nthDate(s, i + 1));

describe('isCalendarDate', () => {
  test.for([
    ['2024-02-29', true], ['2000-02-29', true], ['2026-12-31', true], ['2026-01-01', true],
    ['2023-02-29', false], ['1900-02-29', false], ['2100-02-29', false], // not leap years (100, but not 400)
    ['2026-04-31', false], ['2026-02-30', false], ['2026-13-01', false], ['2026-00-10', false], ['2026-01-00', false],
    ['2026-1-01', false], ['26-01-01', false], ['2026-01-01T00:00', false], [' 2026-01-01', false], ['', false],
  ] as const)('%s: %s', ([s, ok]) => {
    expect(isCalendarDate(s)).toBe(ok);
  });
});

test('daysInMonth, February by the leap-year rule', () => {
  expect([daysInMonth(2024, 1), daysInMonth(2023, 1), daysInMonth(2000, 1), daysInMonth(1900, 1)]).toEqual([29, 28, 29, 28]);
  expect([0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((m) => daysInMonth(2026, m))).toEqual([31, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
});

test('utcDate and startOfDay are UTC, whatever the time of day', () => {
  expect(utcDate(new Date('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
  expect(utcDate(new Date('2026-03-01T00:00:00.000+01:00'))).toBe('2026-02-28');
  expect(startOfDay('2024-02-29').toISOString()).toBe('2024-02-29T00:00:00.000Z');
});

test('isFrequency: the five names, exactly', () => {
  expect(['daily', 'weekly', 'monthly', 'quarterly', 'yearly'].every(isFrequency)).toBe(true);
  expect([undefined, null, 1, 'Monthly', 'biweekly', ' monthly', ['monthly']].some(isFrequency)).toBe(false);
});

describe('addMonths', () => {
  test.for([
    ['2026-03-31T08:00:00.000Z', -1, '2026-02-28T08:00:00.000Z'],
    ['2024-03-31T08:00:00.000Z', -1, '2024-02-29T08:00:00.000Z'],
    ['2026-01-31T00:00:00.000Z', -2, '2025-11-30T00:00:00.000Z'],
    ['2026-11-30T00:00:00.000Z', 3, '2027-02-28T00:00:00.000Z'],
    ['2024-02-29T00:00:00.000Z', 12, '2025-02-28T00:00:00.000Z'],
    ['2024-02-29T00:00:00.000Z', 48, '2028-02-29T00:00:00.000Z'],
    ['2026-05-15T23:59:59.999Z', 0, '2026-05-15T23:59:59.999Z'],
  ] as const)('%s %+d months', ([from, n, to]) => {
    expect(addMonths(new Date(from), n).toISOString()).toBe(to);
  });
});

describe('nthDate at the edges', () => {
  test('daily over a leap day, a plain February end and a year end', () => {
    expect(dates({ frequency: 'daily', day: null, anchor: '2024-02-28' }, 2)).toEqual(['2024-02-29', '2024-03-01']);
    expect(dates({ frequency: 'daily', day: null, anchor: '2023-02-28' }, 1)).toEqual(['2023-03-01']);
    expect(nthDate({ frequency: 'daily', day: null, anchor: '2026-12-31' }, 1)).toBe('2027-01-01');
    expect(nthDate({ frequency: 'daily', day: null, anchor: '2024-01-01' }, 366)).toBe('2025-01-01');
  });

  test('weekly over a year end (2026-12-31 is a Thursday)', () => {
    expect(dates({ frequency: 'weekly', day: 5, anchor: '2026-12-31' }, 2)).toEqual(['2027-01-01', '2027-01-08']);
    expect(dates({ frequency: 'weekly', day: null, anchor: '2026-12-31' }, 2)).toEqual(['2027-01-07', '2027-01-14']);
  });

  test('monthly on the 29th and 30th: February clamps, leap years keep the 29th', () => {
    expect(dates({ frequency: 'monthly', day: 29, anchor: '2026-01-29' }, 3)).toEqual(['2026-02-28', '2026-03-29', '2026-04-29']);
    expect(dates({ frequency: 'monthly', day: 29, anchor: '2028-01-29' }, 2)).toEqual(['2028-02-29', '2028-03-29']);
    expect(dates({ frequency: 'monthly', day: 30, anchor: '2026-01-31' }, 2)).toEqual(['2026-02-28', '2026-03-30']);
  });

  test('a clamped date equal to the start date is not after it: the next month is run 1', () => {
    expect(nthDate({ frequency: 'monthly', day: 31, anchor: '2026-02-28' }, 1)).toBe('2026-03-31');
    expect(nthDate({ frequency: 'monthly', day: 28, anchor: '2026-02-28' }, 1)).toBe('2026-03-28');
  });

  test('ten years of the 31st never drift', () => {
    const s: Schedule = { frequency: 'monthly', day: null, anchor: '2026-01-31' };
    expect([1, 12, 13, 25, 120].map((k) => nthDate(s, k))).toEqual(['2026-02-28', '2027-01-31', '2027-02-28', '2028-02-29', '2036-01-31']);
  });

  test('yearly on the 31st of a February start: the 28th, and the 29th in a leap year', () => {
    expect(dates({ frequency: 'yearly', day: 31, anchor: '2026-02-10' }, 3)).toEqual(['2026-02-28', '2027-02-28', '2028-02-29']);
  });

  test('quarterly from a month end crosses the year', () => {
    expect(dates({ frequency: 'quarterly', day: null, anchor: '2026-08-31' }, 3)).toEqual(['2026-11-30', '2027-02-28', '2027-05-31']);
  });

  test.for([0, -1, 1.5, Number.NaN])('k = %s is refused', (k) => {
    expect(() => nthDate({ frequency: 'monthly', day: null, anchor: '2026-01-01' }, k)).toThrow(RangeError);
  });
});

describe('readDay', () => {
  test.for([
    ['weekly', 0, 0], ['weekly', '0', 0], ['weekly', ' 3 ', 3], ['weekly', '03', 3], ['weekly', 7, 0],
    ['monthly', '31', 31], ['monthly', 1, 1], ['quarterly', 15, 15], ['yearly', '29', 29],
    ['yearly', null, null], ['monthly', undefined, null], ['weekly', '', null],
    ['daily', 'abc', null], ['daily', 45, null], // no meaning for a daily plan: ignored
  ] as const)('%s %j is %j', ([frequency, raw, day]) => {
    expect(readDay(frequency, raw)).toEqual({ day });
  });

  test.for([
    ['weekly', -1, /weekday from 0 to 7/], ['weekly', 8, /weekday from 0 to 7/], ['weekly', '1.0', /weekday/],
    ['monthly', 0, /from 1 to 31 for a monthly plan/], ['monthly', 32, /1 to 31/], ['quarterly', '1e1', /quarterly/],
    ['yearly', 1.5, /yearly/], ['monthly', '100', /1 to 31/],
    ['monthly', true, /whole number/], ['monthly', {}, /whole number/], ['daily', [1], /whole number/],
  ] as const)('%s %j is refused', ([frequency, raw, message]) => {
    const got = readDay(frequency, raw);
    expect(got).toEqual({ error: expect.stringMatching(message) });
  });
});
