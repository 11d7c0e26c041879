import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { profileStart, profileStop } from './profile.mjs';
import { summarise } from './stats.mjs';

const WORKER = fileURLToPath(new URL('./load-worker.mjs', import.meta.url));

/**
 * HTTP load with autocannon in a child process.
 * opts: urls (array: several gateway nodes share the connections), connections, seconds,
 * warmupSeconds, method, path-less urls plus optional headers/body, `sequence` (per-request
 * {method, path, headers, body} entries, taken in order), `amount` (stop after N requests
 * instead of after `seconds`), bodyIncludes (a response without it counts as a mismatch), name
 * (for the BENCH_PROFILE file).
 * Returns { rps (2xx per second), p50, p99, max, mean (ms), ok, requests, non2xx, errors, ... }.
 */
export function httpLoad({ onStart, ...opts }) {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    let answer;
    let cpu0 = process.cpuUsage();
    let cpuUsPerOp = null;
    child.on('message', (m) => {
      if (m.started) {
        cpu0 = process.cpuUsage();
        onStart?.();
        profileStart();
      } else {
        answer = m;
        if (m.ok) cpuUsPerOp = cpuPerOp(cpu0, m.result.ok);
      }
    });
    child.once('error', reject);
    child.once('exit', async (code) => {
      await profileStop(opts.name ?? 'http').catch(() => {});
      if (!answer) return reject(new Error(`load worker exited with code ${code} without a result`));
      if (!answer.ok) return reject(new Error(`load worker failed: ${answer.error}`));
      resolve({ ...answer.result, cpuUsPerOp });
    });
    child.send(opts);
  });
}

/**
 * In-process loop: `concurrency` callers each await fn(i) back to back until `seconds` have passed.
 * Returns { rps, p50, p99, max, mean (ms), ok, errors } with per-call latencies.
 */
export async function loopLoad(fn, { seconds, concurrency, warmupSeconds = 0, name = 'loop' }) {
  let i = 0;
  const run = async (secs, times) => {
    const deadline = performance.now() + secs * 1000;
    let errors = 0;
    let firstError;
    const caller = async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await fn(i++);
          times?.push(performance.now() - t0);
        } catch (err) {
          errors++;
          firstError ??= err;
        }
      }
    };
    const start = performance.now();
    await Promise.all(Array.from({ length: concurrency }, caller));
    return { elapsed: (performance.now() - start) / 1000, errors, firstError };
  };
  if (warmupSeconds > 0) await run(warmupSeconds, null);
  const times = [];
  await profileStart();
  const cpu0 = process.cpuUsage();
  const { elapsed, errors, firstError } = await run(seconds, times);
  const cpuUsPerOp = cpuPerOp(cpu0, times.length);
  await profileStop(name);
  if (firstError) console.error(`  ${errors} calls failed; first: ${firstError.message}`);
  return { seconds: elapsed, ok: times.length, rps: times.length / elapsed, ...summarise(times), errors, cpuUsPerOp };
}

/**
 * CPU time (user + system, all threads) this process spent per successful operation since cpu0.
 * On a shared machine this moves much less than requests/s: it does not count time spent waiting
 * for a CPU. For HTTP scenarios this process is the server; the load generator is a child.
 */
function cpuPerOp(cpu0, ops) {
  const d = process.cpuUsage(cpu0);
  return ops > 0 ? (d.user + d.system) / ops : null;
}
