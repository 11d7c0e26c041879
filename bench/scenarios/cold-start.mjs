import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarise } from '../lib/stats.mjs';

/**
 * `startTessera({ port: 0, storage: 'memory' })` as a test worker meets it: each run is a fresh
 * Node process (nothing compiled or cached in memory) that imports the built gateway, starts it,
 * creates its first token over HTTP, and exits. Target: start + first token under 1 s, warm.
 *
 *  - start-cold         no snapshot cached yet: initdb + migrations + building the snapshot (once
 *                       per migration set and machine; a Playwright global setup can pay it)
 *  - start-warm         startTessera() with the snapshot cached (what every later worker pays)
 *  - start-warm-cpu     its CPU time, all threads (V8 compiles and collects garbage on helper
 *                       threads, so it exceeds the wall time on an idle machine); it grows far
 *                       less than wall time when other processes share the CPUs
 *  - start-warm+token   the same, plus the first POST /tokens answered
 *  - process-warm       spawn -> first token: Node boot and imports included
 *  - start-no-snapshot  TESSERA_SNAPSHOT=off: plain initdb in memory, the path before the cache
 * Runs: BENCH_START_RUNS (default 5) for the warm rows, 2 without snapshot, 1 cold.
 * Each row's rate column is starts per second of one process (1000 / mean).
 */
const CHILD = `
const t0 = performance.now();
const { startTessera } = await import(process.env.START_URL);
const t1 = performance.now();
const c1 = process.cpuUsage();
const importCpu = (c1.user + c1.system) / 1000;
const gw = await startTessera({ port: 0, storage: 'memory' });
const c2 = process.cpuUsage(c1);
const t2 = performance.now();
const res = await fetch(gw.url + '/api/v1/tokens', {
  method: 'POST',
  headers: { authorization: 'Basic ' + Buffer.from(gw.publicKey + ':').toString('base64'), 'content-type': 'application/json' },
  body: JSON.stringify({ card_owner_name: 'Bench', card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2099, csc: '123' }),
});
const ok = res.status === 200 && /^[0-9a-f]{10}$/.test((await res.json()).id);
const t3 = performance.now();
await gw.close();
const c3 = process.cpuUsage();
console.log('COLD_START ' + JSON.stringify({ import: t1 - t0, start: t2 - t1, startCpu: (c2.user + c2.system) / 1000, processCpu: (c3.user + c3.system) / 1000, importCpu, token: t3 - t2, sinceBoot: performance.timeOrigin + t3, ok }));
process.exit(0);
`;

function once(env) {
  return new Promise((resolve, reject) => {
    const spawnedAt = Date.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], {
      env: { ...process.env, ...env, START_URL: new URL('../../dist/server/start.js', import.meta.url).href },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s) => (out += s));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = /^COLD_START (.*)$/m.exec(out);
      if (code !== 0 || !line) return reject(new Error(`cold-start child failed (${code}):\n${out}`));
      const r = JSON.parse(line[1]);
      resolve({ ...r, process: r.sinceBoot - spawnedAt });
    });
  });
}

/** `cpu` picks the CPU ms of a run that goes with the row (the start, or the whole process). */
function row(name, runs, pick, cpu = (r) => r.startCpu) {
  const times = runs.map(pick);
  const s = summarise(times);
  const cpuUsPerOp = (runs.reduce((sum, r) => sum + cpu(r), 0) / runs.length) * 1000;
  return { name, unit: 'starts/s', rps: 1000 / s.mean, ...s, cpuUsPerOp, ok: runs.filter((r) => r.ok).length, errors: runs.filter((r) => !r.ok).length };
}

export default {
  name: 'cold-start',
  describe: 'startTessera({port: 0, storage: "memory"}) in fresh processes, first token included (target < 1000 ms warm)',
  async run() {
    const n = Math.max(1, Number(process.env.BENCH_START_RUNS ?? 5));
    const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-snapshot-'));
    try {
      const env = { TESSERA_SNAPSHOT_DIR: dir, TESSERA_SNAPSHOT: '' };
      const cold = [await once(env)];
      const warm = [];
      for (let i = 0; i < n; i++) warm.push(await once(env));
      const plain = [];
      for (let i = 0; i < 2; i++) plain.push(await once({ ...env, TESSERA_SNAPSHOT: 'off' }));
      return [
        row('start-cold', cold, (r) => r.start),
        row('start-warm', warm, (r) => r.start),
        row('start-warm-cpu', warm, (r) => r.startCpu),
        row('start-warm+token', warm, (r) => r.start + r.token, (r) => r.processCpu - r.importCpu),
        row('process-warm', warm, (r) => r.process, (r) => r.processCpu),
        row('start-no-snapshot', plain, (r) => r.start),
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
