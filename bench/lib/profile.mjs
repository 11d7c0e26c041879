import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join, resolve } from 'node:path';

/**
 * BENCH_PROFILE=<dir>: a V8 CPU profile of this process (the server side) over each measured
 * window, written to <dir>/<result name>.cpuprofile; summarise with bench/tools/cpuprofile-summary.mjs
 * or open in Chrome DevTools. Warm-ups and setup are left out. No-ops when the variable is unset.
 */
const DIR = process.env.BENCH_PROFILE ? resolve(process.env.BENCH_PROFILE) : null;
let session;

function post(method, params) {
  return new Promise((res, rej) => session.post(method, params, (err, out) => (err ? rej(err) : res(out))));
}

export async function profileStart() {
  if (!DIR) return;
  if (!session) {
    session = new Session();
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 200 });
  }
  await post('Profiler.start');
}

export async function profileStop(name) {
  if (!DIR || !session) return;
  const { profile } = await post('Profiler.stop');
  mkdirSync(DIR, { recursive: true });
  const file = join(DIR, `${name}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`  profile: ${file}`);
}
