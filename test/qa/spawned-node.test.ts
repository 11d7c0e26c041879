import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../../server/paths.js';

// The proof, e2e and QA projects hand NODE_OPTIONS to every process their tests start
// (vitest.config.ts): a Node process loads test/setup/wasm-baseline.cjs first, which keeps V8 from
// optimising PGlite's WebAssembly in processes that end before it would pay off.
const PRELOAD = join(ROOT, 'test', 'setup', 'wasm-baseline.cjs');

test('a Node process a test starts preloads the WebAssembly baseline setting', () => {
  const loaded = JSON.parse(execFileSync(process.execPath, ['-e', 'console.log(JSON.stringify(Object.keys(require.cache)))'], { encoding: 'utf8' }));
  expect(loaded).toEqual([PRELOAD]);
  expect(readFileSync(PRELOAD, 'utf8')).toMatch(/^require\('node:v8'\)\.setFlagsFromString\('--liftoff-only'\);$/m);
});
