import { describe, expect, it } from 'vitest';
import { CATALOGUE, E, MUST, badRequest, invalid, tooLong } from '../../../server/errors.js';
import {
  MAX_METADATA_JSON, PAGE_CODES, SPEC_PAGE_CODES, readBool, readMetadata, readPage, readPageOrAll,
} from '../../../server/lib/validate.js';
import { refusal as refusalOf } from './refusal.js';

/** The code, status and message a reader refuses `run` with. */
function refusal(run: () => unknown): { code: string; status: number; message: string } {
  const { code, message } = refusalOf(run);
  return { code, status: CATALOGUE[code as keyof typeof CATALOGUE][0], message };
}

describe('the catalogue', () => {
  it('names every code once, and every name is a catalogued code', () => {
    const codes = Object.values(E);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(Object.keys(CATALOGUE).sort());
  });

  it('builds REQ01 faults with the same words for the same fault', () => {
    expect(invalid('send_receipt', MUST.BOOL).toJSON()).toEqual({
      errors: [{ code: 'REQ01', message: 'send_receipt must be true or false' }],
    });
    expect(tooLong('description', 1000).message).toBe('description must be at most 1000 characters');
    expect(badRequest('malformed JSON body').status).toBe(400);
  });
});

describe('readBool', () => {
  it.each([
    [true, true], [false, false], [1, true], [0, false], ['true', true], ['FALSE', false],
    [' yes ', true], ['no', false], ['on', true], ['off', false], ['1', true], ['0', false],
  ])('reads %j as %j', (v, want) => {
    expect(readBool(v, 'flag')).toBe(want);
  });

  it.each([undefined, null, ''])('reads %j as absent', (v) => {
    expect(readBool(v, 'flag')).toBeUndefined();
  });

  it.each([['maybe'], [2], [['true']], [{ toString: 'x' }], [Number.NaN]])('refuses %j naming the field', (v) => {
    expect(refusal(() => readBool(v, 'send_receipt'))).toEqual({
      code: 'REQ01', status: 400, message: 'send_receipt must be true or false',
    });
  });
});

describe('readMetadata', () => {
  it('reads an object, a JSON-encoded object and PHP\'s [] alike', () => {
    expect(readMetadata({ color: 'red' })).toEqual({ color: 'red' });
    expect(readMetadata('{"color":"red"}')).toEqual({ color: 'red' });
    expect(readMetadata([])).toEqual({});
    expect(readMetadata('[]')).toEqual({});
    expect(readMetadata(null)).toEqual({});
    expect(readMetadata(undefined)).toBeUndefined();
  });

  it('refuses what is not an object', () => {
    expect(refusal(() => readMetadata('red'))).toMatchObject({ code: 'REQ01', message: 'metadata must be an object or a JSON-encoded object' });
    expect(refusal(() => readMetadata(['a']))).toMatchObject({ code: 'REQ01' });
    expect(refusal(() => readMetadata(7))).toMatchObject({ code: 'REQ01' });
  });

  it(`takes up to ${MAX_METADATA_JSON} characters as JSON and refuses one more`, () => {
    const at = (n: number) => ({ k: 'x'.repeat(n - JSON.stringify({ k: '' }).length) });
    expect(JSON.stringify(at(MAX_METADATA_JSON)).length).toBe(MAX_METADATA_JSON);
    expect(readMetadata(at(MAX_METADATA_JSON))).toEqual(at(MAX_METADATA_JSON));
    expect(refusal(() => readMetadata(at(MAX_METADATA_JSON + 1)))).toEqual({
      code: 'REQ01', status: 400, message: `metadata must be at most ${MAX_METADATA_JSON} characters as JSON`,
    });
  });
});

describe('readPage', () => {
  it('defaults to 10 from 0 and reads numbers and digit strings', () => {
    expect(readPage(undefined)).toEqual({ limit: 10, offset: 0 });
    expect(readPage({ limit: '', offset: '' })).toEqual({ limit: 10, offset: 0 });
    expect(readPage({ limit: 100, offset: 0 })).toEqual({ limit: 100, offset: 0 });
    expect(readPage({ limit: ' 5 ', offset: '20' })).toEqual({ limit: 5, offset: 20 });
  });

  it.each([
    [{ limit: '0' }, 'limit'], [{ limit: '-1' }, 'limit'], [{ limit: '1.5' }, 'limit'], [{ limit: 'ten' }, 'limit'],
    [{ limit: ['5'] }, 'limit'], [{ limit: '101' }, 'limitTooLarge'], [{ offset: '-1' }, 'offset'],
    [{ offset: '1e3' }, 'offset'], [{ offset: '99999999999999999999' }, 'offset'], [{ offset: { a: 1 } }, 'offset'],
  ] as const)('refuses %j with the list\'s own code', (query, which) => {
    expect(refusal(() => readPage(query))).toMatchObject({ code: PAGE_CODES[which], status: 400 });
    expect(refusal(() => readPage(query, SPEC_PAGE_CODES))).toMatchObject({ code: SPEC_PAGE_CODES[which], status: 400 });
  });

  it('answers the spec codes for GET /scheduled_transactions: 1800, 1801, 1802', () => {
    expect(SPEC_PAGE_CODES).toEqual({ limit: '1800', limitTooLarge: '1802', offset: '1801' });
    expect(PAGE_CODES).toEqual({ limit: 'PAGE01', limitTooLarge: 'PAGE01', offset: 'PAGE01' });
  });

  it('reads an open page: every row without a limit', () => {
    expect(readPageOrAll({})).toEqual({ limit: null, offset: 0 });
    expect(readPageOrAll({ offset: '3' })).toEqual({ limit: null, offset: 3 });
    expect(readPageOrAll({ limit: '2' })).toEqual({ limit: 2, offset: 0 });
    expect(refusal(() => readPageOrAll({ limit: '101' })).code).toBe('PAGE01');
  });
});
