import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { END_INSTANT, FIRST_INSTANT, readInstant } from '../../../server/lib/validate.js';
import { refusal } from './refusal.js';

// readInstant, the reader of every date filter of a list (issue 27, item 10a): strict ISO 8601,
// years 0001 to 9999, never Date.parse's guesses.

describe('readInstant', () => {
  test('a date is its UTC midnight; a timestamp its instant, UTC when it names no zone', () => {
    expect(readInstant('2026-01-15', 'f')).toEqual({ at: new Date('2026-01-15T00:00:00Z'), dateOnly: true });
    expect(readInstant('2026-01-15T10:30', 'f').at).toEqual(new Date('2026-01-15T10:30:00Z'));
    expect(readInstant('2026-01-15 10:30:05.123456', 'f').at).toEqual(new Date('2026-01-15T10:30:05.123Z'));
    expect(readInstant('2026-01-15T10:30:00+05:30', 'f').at).toEqual(new Date('2026-01-15T05:00:00Z'));
    expect(readInstant('2026-01-15T10:30:00-0100', 'f').at).toEqual(new Date('2026-01-15T11:30:00Z'));
    expect(readInstant('2026-01-15T10:30:00+14', 'f').at).toEqual(new Date('2026-01-14T20:30:00Z'));
    expect(readInstant('0001-01-01', 'f').at.getTime()).toBe(FIRST_INSTANT);
    expect(readInstant('0099-03-01', 'f').at.toISOString()).toBe('0099-03-01T00:00:00.000Z'); // not 1999
    expect(readInstant('9999-12-31T23:59:59.999Z', 'f').at.getTime()).toBe(END_INSTANT - 1);
  });

  test.each([
    ['0000-01-01', /from 0001-01-01 to 9999-12-31/], ['0001-01-01T00:00:00+00:01', /from 0001-01-01/],
    ['10000-01-01', /from 0001-01-01/], ['+275760-09-13', /from 0001-01-01/], ['-000001-01-01', /from 0001-01-01/], ['-0001-01-01', /from 0001-01-01/], ['-1', /a date/],
    ['infinity', /a date \(2026-01-15\)/], ['2026-01-15 (x)', /a date/], ['2026-1-15', /a date/], ['', /a date/],
    ['2026-02-29', /calendar date \(2026-02-29 is not one\)/], ['2100-02-29', /calendar date/], ['2026-04-31', /calendar date/],
    ['2026-01-15T24:00', /time of day/], ['2026-01-15T12:00:60Z', /time of day/], ['2026-01-15T12:00+14:01', /offset/], ['2026-01-15T12:00+05:60', /offset/],
  ])('%j is 400 REQ01 naming the field', (v, message) => {
    const r = refusal(() => readInstant(v, 'created_from'));
    expect(r.code).toBe('REQ01');
    expect(r.message).toMatch(/^created_from must/);
    expect(r.message).toMatch(message);
  });

  test('every instant of the range, written as toISOString writes it, reads back as itself', () => {
    fc.assert(fc.property(fc.integer({ min: FIRST_INSTANT, max: END_INSTANT - 1 }), (t) => {
      expect(readInstant(new Date(t).toISOString(), 'f').at.getTime()).toBe(t);
    }));
  });
});
