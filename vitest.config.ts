import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The API suite runs on embedded PGlite always, and again on PostgreSQL when TEST_DATABASE_URL is set.
const pg = process.env.TEST_DATABASE_URL;

// Server tests that open no database (pure modules: input readers, calendar, rules, constraints,
// verification, config, lib/): they run once, in the unit project, not on each database. The unit
// project sets TESSERA_TEST_DB=none, so a file listed here that opens a test database fails
// (test/helpers/gateway.ts) instead of silently losing its PostgreSQL run.
const PURE_SERVER = [
  'test/server/decisions.test.ts',
  'test/server/domain/*-input.test.ts',
  'test/server/domain/{billings-calendar,calendar,receipts-render,rules,validate-readers,verification,webhooks-constraints}.test.ts',
  'test/server/http/compilers.test.ts',
  'test/server/jobs/scheduler-config.test.ts',
  'test/server/lib/*.test.ts',
  'test/server/processor/*.test.ts',
  'test/server/routes/demo-page.test.ts',
];

// Files whose every test runs on one database only (they skip themselves on the other, so the
// other project would only import them), or where the database is beside the point: the snapshot
// cache (always in-memory PGlite, building snapshots on disk), the OpenAPI client check (tsc over
// the generated types; the flows it runs are tested on both databases by the route files) and the
// dashboard's generated types (the document is the same on both).
const PGLITE_ONLY = ['test/server/db/{lock,maintenance,pglite,pglite-wire,private-dir}.test.ts', 'test/server/routes/openapi-client.test.ts', 'test/server/routes/dashboard-types.test.ts'];
const PG_ONLY = ['test/server/db/{start-together,pg-driver,pg-tx}.test.ts'];

// Suites run one group after another (sequence.groupOrder), each with its own worker count: the API
// files wait on PGlite, PostgreSQL and their own timers, so two run at once even on two cores; the
// proof, browser and QA suites spawn gateways (and Chromium, npm) and measure them, one file at a
// time. `npm test` runs each project as its own `vitest run` (test/run-suites.mjs), in two lanes side by side.
// This run's private folder for a migrated data-directory template, built by the first file that
// asks for a copy (test/helpers/data-template.ts): the gateways and embedded directories of every
// project that do not test a first start itself.
const DATA_TEMPLATE = 'test/setup/data-template.ts';

const API_WORKERS = Number(process.env.TEST_API_WORKERS ?? 2);
const api = (name: string, db: 'pglite' | 'pg') => ({
  test: {
    name, include: ['test/server/**/*.test.ts'], exclude: [...PURE_SERVER, ...(db === 'pg' ? PGLITE_ONLY : PG_ONLY)], env: { TESSERA_TEST_DB: db },
    testTimeout: 30_000, hookTimeout: 60_000, maxWorkers: API_WORKERS, sequence: { groupOrder: 1 },
    // One module registry per worker, not per file: a file no longer pays for importing the server
    // and compiling PGlite's WebAssembly again (12 route files: 110 s of CPU -> 43 s). Each file still
    // gets its own gateway and a database as new (a worker's next file reuses one handed back and
    // reset, helpers/test-db.ts); helpers/test-db.ts refuses a worker that ran another project.
    isolate: false,
    // The migrated PGlite snapshot is built (or found) once before the workers start (test/setup/snapshot.ts);
    // the PostgreSQL schemas of the run share a prefix, and what is left of them is dropped at the end.
    globalSetup: ['test/setup/snapshot.ts', DATA_TEMPLATE, 'test/setup/test-schemas.ts'],
  },
});

// Proof, e2e and QA: every Node process a test starts runs PGlite's WebAssembly on V8's baseline
// compiler only (test/setup/wasm-baseline.cjs says why). The workers themselves are not affected:
// they run the in-process gateways (fuzz, access) long enough for optimised code to pay.
const WASM_BASELINE = `--require=${JSON.stringify(fileURLToPath(new URL('./test/setup/wasm-baseline.cjs', import.meta.url)))}`;
const spawnedEnv = { NODE_OPTIONS: [process.env.NODE_OPTIONS, WASM_BASELINE].filter(Boolean).join(' ') };

export default defineConfig({
  test: {
    projects: [
      // One module registry per worker (as the API projects): the files are pure reads and in-memory
      // bundles, and each used to import its modules again (33.6 -> 20.8 s of CPU; green shuffled).
      { test: { name: 'unit', isolate: false, include: ['test/src/**/*.test.ts', 'test/setup/*.test.ts', ...PURE_SERVER], env: { TESSERA_TEST_DB: 'none' }, testTimeout: 30_000, sequence: { groupOrder: 0 } } },
      api('api:pglite', 'pglite'),
      ...(pg ? [api('api:postgres', 'pg')] : []),
      // Proof under load, faults and attack (docs/decisions/proof.md); PROOF_FULL=1 runs the heavy variants.
      { test: { name: 'proof', env: spawnedEnv, include: ['test/proof/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000, maxWorkers: 1, sequence: { groupOrder: 2 }, globalSetup: [DATA_TEMPLATE] } },
      { test: { name: 'e2e', env: spawnedEnv, include: ['test/e2e/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000, maxWorkers: 1, sequence: { groupOrder: 3 }, globalSetup: [DATA_TEMPLATE], setupFiles: ['test/setup/no-keep-alive.ts'] } },
      // The QA toolkit (startTessera, reset, fixtures) and the Playwright example project, run as a user would.
      { test: { name: 'qa', env: spawnedEnv, include: ['test/qa/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000, maxWorkers: 1, sequence: { groupOrder: 4 }, globalSetup: [DATA_TEMPLATE] } },
    ],
  },
});
