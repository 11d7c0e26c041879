import { defineConfig } from 'vitest/config';

// The API suite runs on embedded PGlite always, and again on PostgreSQL when TEST_DATABASE_URL is set.
const pg = process.env.TEST_DATABASE_URL;

// Suites run one group after another (sequence.groupOrder), each with its own worker count: the API
// files wait on PGlite, PostgreSQL and their own timers, so two run at once even on two cores; the
// proof, browser and QA suites spawn gateways (and Chromium, npm) and measure them, one file at a
// time. `npm test` runs the same groups as separate scripts (test:unit, test:api, ...; package.json).
const API_WORKERS = Number(process.env.TEST_API_WORKERS ?? 2);
const api = (name: string, db: 'pglite' | 'pg') => ({
  test: {
    name, include: ['test/server/**/*.test.ts'], env: { TESSERA_TEST_DB: db }, testTimeout: 30_000, hookTimeout: 60_000,
    maxWorkers: API_WORKERS, sequence: { groupOrder: 1 },
  },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'tokenizer', include: ['test/src/**/*.test.ts'], sequence: { groupOrder: 0 } } },
      api('api:pglite', 'pglite'),
      ...(pg ? [api('api:postgres', 'pg')] : []),
      // Proof under load, faults and attack (docs/decisions.md (Proof under load, faults and attack)); PROOF_FULL=1 runs the heavy variants.
      { test: { name: 'proof', include: ['test/proof/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000, maxWorkers: 1, sequence: { groupOrder: 2 } } },
      { test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000, maxWorkers: 1, sequence: { groupOrder: 3 } } },
      // The QA toolkit (startTessera, reset, fixtures) and the Playwright example project, run as a user would.
      { test: { name: 'qa', include: ['test/qa/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000, maxWorkers: 1, sequence: { groupOrder: 4 } } },
    ],
  },
});
