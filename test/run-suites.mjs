#!/usr/bin/env node
// `npm test`'s checks and suites, in two lanes side by side. Each spawned-process suite (proof,
// QA) spends much of its time waiting on the gateways, npm and Chromium it starts, and uses about
// one core; the in-process API suite a little more. On a 2-core machine two lanes finish the same
// work in about half the time of one (docs/decisions/test-suite-time.md).
//
//   node test/run-suites.mjs              lint, build, typecheck and every suite, in the lanes below
//   TEST_LANES=1 node test/run-suites.mjs one after another (a loaded machine, a bisect)
//   node test/run-suites.mjs api e2e      only these, in the same lanes (no build: dist/ as it is;
//                                         name build, lint or typecheck to run them too)
//
// The build is a step of a lane, not a stage before the lanes: the lint and the unit suite need no
// dist/ and run beside it; the typecheck (server, tokenizer, tests, bench and the dashboard's
// JSDoc: vitest strips types, so only this step finds a type error in a test file) ends the first
// lane, which ends before the proof lane by about its length; a suite that runs the built code (API: the
// tokenizer files it serves; proof, e2e, QA: dist/server) starts once it has passed, and is not run
// (reported FAILED) when it failed. Each suite is `vitest run --project ...` (the test:* scripts);
// each step or suite's lines are printed as they come, prefixed by its name, and a summary with
// each one's time ends the run. Every suite runs even when another failed; the exit code is 1 if
// any step or suite failed.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { failureOf } from './setup/failure-excerpt.mjs';

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const suite = (...projects) => ({ cmd: process.execPath, args: [vitest, 'run', ...projects.flatMap((p) => ['--project', p])] });
const script = (name) => ({ cmd: npm, args: ['run', '--silent', name] });
const STEPS = {
  lint: script('lint'),
  build: script('build'),
  typecheck: script('typecheck'),
  unit: suite('unit'),
  api: suite('api:*'),
  proof: suite('proof'),
  e2e: suite('e2e'),
  qa: suite('qa'),
};
/** What must have passed first, when it is part of the run. */
const NEEDS = { api: ['build'], proof: ['build'], e2e: ['build'], qa: ['build'] };
// Balanced by wall time on the 2-core CI machine, both lanes busy (docs/decisions/test-suite-time.md).
const LANES = [['lint', 'unit', 'api', 'qa', 'typecheck'], ['build', 'proof', 'e2e']];
/** TEST_LANES=1: the order `npm test` had before the build became a lane's step. */
const SERIAL = ['lint', 'build', 'typecheck', 'unit', 'api', 'proof', 'e2e', 'qa'];
const wanted = process.argv.slice(2);
for (const name of wanted) if (!(name in STEPS)) throw new Error(`unknown suite or step "${name}" (one of ${Object.keys(STEPS).join(', ')})`);
const pick = (lane) => lane.filter((s) => (wanted.length === 0 ? true : wanted.includes(s)));
const lanes = (process.env.TEST_LANES === '1' ? [pick(SERIAL)] : LANES.map(pick)).filter((lane) => lane.length > 0);
const planned = new Set(lanes.flat());

const root = fileURLToPath(new URL('..', import.meta.url));
// One migrated data-directory template for this run's proof, e2e and QA suites (test/setup/data-template.ts):
// the first gateway that asks for a copy builds it (~12 s of CPU), the other suites reuse it.
const templateRoot = process.env.TESSERA_DATA_TEMPLATE === 'off' ? null : mkdtempSync(join(tmpdir(), 'tessera-template-'));
const env = templateRoot ? { ...process.env, TESSERA_DATA_TEMPLATE_ROOT: templateRoot } : process.env;
const width = Math.max(...Object.keys(STEPS).map((s) => s.length));
const results = [];
/** Each planned step's outcome, true when it passed, as a promise its dependents wait on. */
const done = {};
const settle = {};
for (const name of planned) done[name] = new Promise((resolve) => (settle[name] = resolve));

function run(name) {
  const started = Date.now();
  const { cmd, args } = STEPS[name];
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
  const tag = `[${name.padEnd(width)}] `;
  const lines = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      process.stdout.write(tag + line + '\n');
      lines.push(line);
    });
  }
  return new Promise((resolve) => {
    let cpu = null;
    child.on('exit', () => {
      // Read as the child is reaped: what it and its descendants used is added to ours at that moment.
      const now = childrenCpu();
      if (now !== null && cpuSeen !== null) cpu = now - cpuSeen;
      cpuSeen = now;
    });
    child.on('close', (code, signal) => {
      const ok = code === 0;
      results.push({ name, ok, from: (started - t0) / 1000, seconds: (Date.now() - started) / 1000, cpu, why: ok ? '' : signal ?? `exit ${code}`, failure: ok ? [] : failureOf(lines) });
      resolve(ok);
    });
  });
}

/**
 * CPU seconds (user + system) of this process's finished children and of every descendant they
 * waited for (Linux: cutime + cstime of /proc/self/stat), or null where there is no /proc. Read
 * as each step ends, the difference is that step's CPU: the suites are CPU-bound on a 2-core
 * machine, so the sum over both cores bounds the run's wall time from below on any machine.
 * The services' own (PostgreSQL, Redis) is not in it.
 */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();
function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state) on
    return (Number(f[13]) + Number(f[14])) / TICKS; // fields 16 and 17
  } catch {
    return null;
  }
}
let cpuSeen = childrenCpu();

const t0 = Date.now();
await Promise.all(lanes.map(async (lane) => {
  for (const name of lane) {
    const needs = (NEEDS[name] ?? []).filter((n) => planned.has(n));
    const failed = [];
    for (const n of needs) if (!(await done[n])) failed.push(n);
    if (failed.length) {
      results.push({ name, ok: false, from: (Date.now() - t0) / 1000, seconds: 0, why: `not run: ${failed.join(', ')} failed` });
      settle[name](false);
      continue;
    }
    settle[name](await run(name));
  }
}));

if (templateRoot) rmSync(templateRoot, { recursive: true, force: true });

for (const r of results) {
  if (r.ok || !r.failure?.length) continue;
  console.log(`\n${r.name} failed; what it printed of its failure:`);
  for (const line of r.failure) console.log(`  ${line}`);
}
console.log(`\nSteps and suites (${lanes.length} lane${lanes.length > 1 ? 's' : ''}, ${((Date.now() - t0) / 1000).toFixed(0)} s in all):`);
// Each one's time, and when it started and ended in the run: a lane that ended long before the
// other idled that long; a suite that started after its lane's previous step ended waited for the build.
for (const r of results) {
  const span = `(${r.from.toFixed(0)}-${(r.from + r.seconds).toFixed(0)} s)`;
  const cpu = r.cpu == null ? '' : `CPU ${r.cpu.toFixed(0).padStart(4)} s`;
  console.log(`  ${r.name.padEnd(width)}  ${r.ok ? 'passed' : 'FAILED'}  ${r.seconds.toFixed(0).padStart(4)} s ${span.padEnd(12)} ${cpu.padEnd(11)} ${r.why}`.trimEnd());
}
const cpus = results.map((r) => r.cpu).filter((c) => c != null);
if (cpus.length) {
  const total = cpus.reduce((a, b) => a + b, 0);
  console.log(`CPU of the steps and suites: ${total.toFixed(0)} s (user + system, theirs and their processes'); on 2 cores no run of them is shorter than ${(total / 2).toFixed(0)} s.`);
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
