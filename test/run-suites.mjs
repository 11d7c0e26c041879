#!/usr/bin/env node
// `npm test`'s suites, in two lanes side by side: each spawned-process suite (proof, QA) spends
// most of its time waiting on the gateways, npm and Chromium it starts, and uses about one core;
// the in-process API suite uses a little more. On a 2-core machine two lanes finish the same
// work in about half the time of one (docs/decisions/tests.md, "Projects and speed").
//
//   node test/run-suites.mjs              the two lanes below
//   TEST_LANES=1 node test/run-suites.mjs one suite after another (a loaded machine, a bisect)
//   node test/run-suites.mjs api e2e      only these suites, in the same lanes
//
// Each suite is `vitest run --project ...` (the test:* scripts); its lines are printed as they
// come, prefixed by the suite's name, and a summary with each suite's time ends the run. Every
// suite runs even when another failed; the exit code is 1 if any did.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const PROJECTS = { unit: ['unit'], api: ['api:*'], proof: ['proof'], e2e: ['e2e'], qa: ['qa'] };
// Balanced by wall time on the 2-core CI machine, both lanes busy (docs/decisions/test-suite-time.md):
// unit 22 + API 260 + QA ~240 s against proof ~380 + e2e 122 s. Before issue 31 the proof suite
// spent 3 minutes waiting on reconcilers and the lanes were unit + API + e2e (404 s) against
// proof + QA (800 s and more): one lane idled for minutes at the end.
const LANES = [['unit', 'api', 'qa'], ['proof', 'e2e']];

const wanted = process.argv.slice(2);
for (const name of wanted) if (!(name in PROJECTS)) throw new Error(`unknown suite "${name}" (one of ${Object.keys(PROJECTS).join(', ')})`);
const pick = (lane) => lane.filter((s) => wanted.length === 0 || wanted.includes(s));
const lanes = (process.env.TEST_LANES === '1' ? [pick(LANES.flat())] : LANES.map(pick)).filter((lane) => lane.length > 0);

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const width = Math.max(...Object.keys(PROJECTS).map((s) => s.length));
const results = [];

function run(suite) {
  const started = Date.now();
  const args = [vitest, 'run', ...PROJECTS[suite].flatMap((p) => ['--project', p])];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const tag = `[${suite.padEnd(width)}] `;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(tag + line + '\n'));
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const ok = code === 0;
      results.push({ suite, ok, from: (started - t0) / 1000, seconds: (Date.now() - started) / 1000, why: ok ? '' : signal ?? `exit ${code}` });
      resolve();
    });
  });
}

const t0 = Date.now();
await Promise.all(lanes.map(async (lane) => {
  for (const suite of lane) await run(suite);
}));

console.log(`\nSuites (${lanes.length} lane${lanes.length > 1 ? 's' : ''}, ${((Date.now() - t0) / 1000).toFixed(0)} s in all):`);
// Each suite's time, and when it started and ended in the run: a lane that ended long before the
// other idled that long.
for (const r of results) {
  const span = `(${r.from.toFixed(0)}-${(r.from + r.seconds).toFixed(0)} s)`;
  console.log(`  ${r.suite.padEnd(width)}  ${r.ok ? 'passed' : 'FAILED'}  ${r.seconds.toFixed(0).padStart(4)} s ${span.padEnd(12)} ${r.why}`);
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
