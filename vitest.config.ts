import { defineConfig } from 'vitest/config';

// The API suite runs on embedded PGlite always, and again on PostgreSQL when TEST_DATABASE_URL is set.
const pg = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'tokenizer', include: ['test/src/**/*.test.ts'] } },
      { test: { name: 'api:pglite', include: ['test/server/**/*.test.ts'], env: { TESSERA_TEST_DB: 'pglite' }, testTimeout: 30_000, hookTimeout: 60_000 } },
      ...(pg
        ? [{ test: { name: 'api:postgres', include: ['test/server/**/*.test.ts'], env: { TESSERA_TEST_DB: 'pg' }, testTimeout: 30_000, hookTimeout: 60_000 } }]
        : []),
      // Proof under load, faults and attack (docs/decisions.md (Proof under load, faults and attack)); PROOF_FULL=1 runs the heavy variants.
      { test: { name: 'proof', include: ['test/proof/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000, fileParallelism: false } },
      { test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false } },
      // The QA toolkit (startTessera, reset, fixtures) and the Playwright example project, run as a user would.
      { test: { name: 'qa', include: ['test/qa/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 } },
    ],
  },
});
