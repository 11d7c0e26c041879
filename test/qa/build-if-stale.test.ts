import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without declarations
import { staleReason } from '../../scripts/build-if-stale.mjs';

// `npm start` rebuilds only when dist/ is older than its sources.
const root = mkdtempSync(join(tmpdir(), 'tessera-stale-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, at: number) => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), '');
  utimesSync(join(root, file), at / 1000, at / 1000);
};

test('a missing build, then a current one, then a changed source, then a changed package.json', () => {
  const t = Date.now() - 60_000;
  write('server/domain/charges.ts', t);
  write('src/index.ts', t);
  write('package.json', t);
  expect(staleReason(root)).toBe('dist/server/main.js is missing');
  for (const out of ['dist/server/main.js', 'dist/tokenizer/tessera.js', 'dist/tokenizer/tessera.mjs']) write(out, t + 1000);
  expect(staleReason(root)).toBeNull();
  write('server/domain/charges.ts', t + 2000);
  expect(staleReason(root)).toBe('server/ changed since the last build');
  write('server/domain/charges.ts', t);
  write('package.json', t + 2000);
  expect(staleReason(root)).toBe('package.json changed since the last build');
});
