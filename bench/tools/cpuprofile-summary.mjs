// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by area.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/run.mjs   (e.g. with BENCH_ONLY=jsonp-tokens)
//   node bench/tools/cpuprofile-summary.mjs /tmp/prof/<file>.cpuprofile [top=25] [authenticate,createToken]
// The optional third argument lists function names whose inclusive time (self + callees, counted
// once per sample) is printed too: where the time of one request step goes.
import { readFileSync } from 'node:fs';

const [file, topArg, inclArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpuprofile-summary.mjs <file.cpuprofile> [top] [fnA,fnB,... for inclusive time]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const inclusiveNames = (inclArg ?? '').split(',').filter(Boolean);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) {
  const id = prof.samples[i];
  self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

function area(cf) {
  const u = cf.url || '';
  const f = cf.functionName || '';
  if (f === '(idle)') return 'idle';
  if (f === '(garbage collector)') return 'gc';
  if (f === '(program)') return 'program (native, incl. wasm compile/runtime glue)';
  // V8 samples wall time: a process that wakes its peer on loopback is often descheduled inside the
  // write, and that wait lands here. Compare with process.cpuUsage()'s system time (docs/decisions/performance.md).
  if ((f === 'writev' || f === 'writeBuffer' || f === 'writeUtf8String') && !u) return 'socket writes (mostly descheduled wall time, not CPU)';
  if (u.startsWith('wasm://') || /^\$?(func|wasm-function)/.test(f)) return 'pglite wasm (postgres)';
  if (u.includes('@electric-sql/pglite')) return 'pglite js';
  if (u.includes('/node_modules/fastify') || u.includes('/node_modules/@fastify') || u.includes('find-my-way') ||
    u.includes('light-my-request') || u.includes('avvio') || u.includes('fast-json-stringify') ||
    u.includes('fast-querystring') || u.includes('/pino') || u.includes('ajv')) return 'fastify & plugins';
  if (u.includes('/node_modules/pg') || u.includes('/node_modules/postgres/')) return 'database driver (pg, postgres)';
  if (u.includes('/dist/server/') || u.includes('/dist/src/')) return 'tessera';
  if (u.startsWith('node:') || u === '') return `node/native ${f ? '' : ''}`.trim();
  if (u.includes('/node_modules/')) return 'other deps';
  return 'other';
}

const byFn = new Map();
const byArea = new Map();
for (const [id, t] of self) {
  const cf = nodes.get(id).callFrame;
  const key = `${cf.functionName || '(anonymous)'}  ${(cf.url || '').replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|bench)\//, '$1/')}:${cf.lineNumber + 1}`;
  byFn.set(key, (byFn.get(key) ?? 0) + t);
  const a = area(cf);
  byArea.set(a, (byArea.get(a) ?? 0) + t);
}
const pct = (t) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
console.log(`total sampled ${(total / 1e6).toFixed(2)} s\n\nby area (self time):`);
for (const [a, t] of [...byArea].sort((x, y) => y[1] - x[1])) console.log(`${pct(t)}  ${(t / 1e3).toFixed(0).padStart(7)} ms  ${a}`);
console.log(`\ntop ${top} functions (self time):`);
for (const [k, t] of [...byFn].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(t)}  ${k}`);

if (inclusiveNames.length) {
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map(inclusiveNames.map((n) => [n, 0]));
  for (let i = 0; i < prof.samples.length; i++) {
    const seen = new Set();
    for (let id = prof.samples[i]; id !== undefined; id = parent.get(id)) {
      const name = nodes.get(id).callFrame.functionName;
      if (incl.has(name) && !seen.has(name)) {
        seen.add(name);
        incl.set(name, incl.get(name) + (dt[i] ?? 0));
      }
    }
  }
  console.log('\ninclusive time (stack contains the function):');
  for (const [n, t] of incl) console.log(`${pct(t)}  ${(t / 1e3).toFixed(0).padStart(7)} ms  ${n}`);
}
