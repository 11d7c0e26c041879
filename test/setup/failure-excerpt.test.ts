import { expect, test } from 'vitest';
// @ts-expect-error: a plain .mjs module of the test runner, without types
import { failureOf } from './failure-excerpt.mjs';

const esc = '\x1b';
// What vitest 4 prints for a failed assertion and an unhandled rejection, colours included (trimmed).
const vitest = [
  ` ${esc}[32m✓${esc}[39m api test/server/routes/ok.test.ts (3 tests) 20ms`,
  '',
  `${esc}[31m⎯⎯⎯⎯⎯⎯⎯${esc}[39m${esc}[1m${esc}[41m Failed Tests 1 ${esc}[49m${esc}[22m${esc}[31m⎯⎯⎯⎯⎯⎯⎯${esc}[39m`,
  '',
  `${esc}[41m${esc}[1m FAIL ${esc}[22m${esc}[49m ${esc}[30m${esc}[46m api:postgres ${esc}[49m${esc}[39m test/server/routes/charges.test.ts${esc}[2m > ${esc}[22mrefunds once`,
  `${esc}[31m${esc}[1mAssertionError${esc}[22m: expected 500 to be 200${esc}[39m`,
  '',
  '- Expected',
  '+ Received',
  '',
  `${esc}[31m⎯⎯⎯⎯⎯⎯${esc}[39m${esc}[1m${esc}[41m Unhandled Errors ${esc}[49m${esc}[22m${esc}[31m⎯⎯⎯⎯⎯⎯${esc}[39m`,
  'Vitest caught 1 unhandled error during the test run.',
  'This might cause false positive tests.',
  `${esc}[31m⎯⎯⎯⎯${esc}[39m${esc}[1m${esc}[41m Unhandled Rejection ${esc}[49m${esc}[22m${esc}[31m⎯⎯⎯⎯⎯${esc}[39m`,
  `${esc}[31m${esc}[1mError${esc}[22m: stray${esc}[39m`,
  ' ❯ a.test.ts:4:46',
  '    4| more source',
  ' Test Files  1 failed | 1 passed (2)',
];

test('a vitest suite: each banner and each failed test it names, with the first two lines of its error, colours removed', () => {
  expect(failureOf(vitest)).toEqual([
    '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
    'FAIL   api:postgres  test/server/routes/charges.test.ts > refunds once',
    '    AssertionError: expected 500 to be 200',
    '    - Expected',
    '⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯',
    '    Vitest caught 1 unhandled error during the test run.',
    '    This might cause false positive tests.',
    '⎯⎯⎯⎯ Unhandled Rejection ⎯⎯⎯⎯⎯',
    '    Error: stray',
    '    ❯ a.test.ts:4:46',
  ]);
});

test('another step (lint, typecheck, build): its last 30 non-blank lines', () => {
  const lines = Array.from({ length: 50 }, (_, i) => (i % 2 ? '' : `line ${i}`));
  expect(failureOf(lines)).toEqual(Array.from({ length: 25 }, (_, i) => `line ${i * 2}`)); // 25 non-blank: all of them
  const long = Array.from({ length: 40 }, (_, i) => `error ${i}`);
  expect(failureOf(long)).toEqual(long.slice(-30));
});

test('many failures: at most max lines, then how many more there were', () => {
  const many = Array.from({ length: 30 }, (_, i) => [`FAIL  api:pglite f${i}.test.ts > t`, 'Error: x']).flat();
  const out = failureOf(many, 10);
  expect(out).toHaveLength(11);
  expect(out[0]).toBe('FAIL  api:pglite f0.test.ts > t');
  expect(out[10]).toBe("... and 50 more lines: see this step's output above");
});
