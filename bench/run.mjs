// Tessera benchmark: `npm run bench` (builds first). Environment:
//   BENCH_SECONDS (10)         measured duration of each scenario variant
//   BENCH_WARMUP_SECONDS (1)   unmeasured warm-up before each
//   BENCH_CONNECTIONS (64)     HTTP connections / concurrent in-process callers
//   BENCH_DATABASE_URL         run on PostgreSQL (dedicated schema, dropped at the end) instead of
//                              embedded PGlite in a fresh temp data dir
//   BENCH_ONLY                 comma-separated scenario names (see scenarios/index.mjs)
//   BENCH_RATE_LIMITS=off      gateway without the token limiter (default: production counting, ceilings lifted)
//   BENCH_REDIS_URL            count the token limiter's hits in this Redis (as REDIS_URL does; the
//                              in-process scenarios only: two-node runs without the limiter)
//   BENCH_NODE_ARGS            node flags for the two-node scenario's gateway processes (e.g. --cpu-prof)
//   BENCH_PROFILE=<dir>        CPU profile of each measured window (bench/tools/cpuprofile-summary.mjs)
//   BENCH_DIAG=1               also run the diagnostic scenarios (token-steps: the request in parts)
// Prints a table, the ratios against the targets and one `BENCH_JSON {...}` line.
import os from 'node:os';
import { openBackend } from './lib/backend.mjs';
import { fmt, table } from './lib/stats.mjs';
import { scenarios } from './scenarios/index.mjs';

const num = (name, dflt) => {
  const v = process.env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got ${v}`);
  return n;
};

const cfg = {
  seconds: num('BENCH_SECONDS', 10),
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 1),
  connections: Math.max(1, Math.round(num('BENCH_CONNECTIONS', 64))),
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  diag: process.env.BENCH_DIAG === '1',
  only: (process.env.BENCH_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean),
};

/** Ratios reported when both sides were measured: [label, numerator, denominator, target]. */
const RATIOS = [
  ['tokens/s / raw-insert/s', 'jsonp-tokens', 'raw-insert', 0.5],
  ['tokens/s / bare/s', 'jsonp-tokens', 'bare', null],
  ['charges/s / raw-insert/s', 'charges', 'raw-insert', 0.35],
  ['charges/s two nodes / one node', 'charges-2-nodes', 'charges-1-node', 1.6],
  ['charges/s one node / raw-insert/s', 'charges-1-node', 'raw-insert', null],
  ['QA gateway / stripe-stateful-mock, sequential charges/s', 'peer-tessera-qa', 'peer-stripe-mock', 0.33],
];
const P99_TARGETS = { 'jsonp-tokens': 10, charges: 20, 'charges-half-rate': 15, 'start-warm': 1000 };

async function main() {
  const selected = cfg.only.length
    ? scenarios.filter((s) => cfg.only.includes(s.name))
    : scenarios.filter((s) => (cfg.diag || !s.diagnostic) && (!s.pgOnly || cfg.databaseUrl));
  if (selected.length === 0) throw new Error(`BENCH_ONLY matched no scenario (have: ${scenarios.map((s) => s.name)})`);

  const backend = await openBackend(cfg);
  const results = [];
  const ctx = { cfg, backend, results }; // results so far: a later scenario may build on an earlier one's
  const load0 = os.loadavg()[0];
  console.log(`Tessera bench: ${backend.label}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load average ${load0.toFixed(2)}, ` +
      `${cfg.connections} connections, ${cfg.seconds}s per run after ${cfg.warmupSeconds}s warm-up\n`,
  );
  try {
    for (const s of selected) {
      console.log(`- ${s.name}: ${s.describe}`);
      for (const r of await s.run(ctx)) {
        results.push(r);
        console.log(`  ${r.name}: ${fmt.rate(r.rps)} ${r.unit}, p50 ${fmt.ms(r.p50)} ms, p99 ${fmt.ms(r.p99)} ms`);
      }
    }
  } finally {
    await backend.close();
  }
  report(backend, results, [load0, os.loadavg()[0]]);
}

function report(backend, results, loadavg) {
  const by = Object.fromEntries(results.map((r) => [r.name, r]));
  console.log(
    '\n' +
      table(
        ['scenario', 'rate', 'unit', 'p50 ms', 'p99 ms', 'max ms', 'cpu us/op', 'ok', 'non-2xx', 'errors'],
        results.map((r) => [
          r.name, fmt.rate(r.rps), r.unit, fmt.ms(r.p50), fmt.ms(r.p99), fmt.ms(r.max), fmt.rate(r.cpuUsPerOp), String(r.ok),
          r.non2xx == null ? '-' : String(r.non2xx), String((r.errors ?? 0) + (r.mismatches ?? 0)),
        ]),
      ),
  );
  const ratios = {};
  const rows = [];
  for (const [label, a, b, target] of RATIOS) {
    if (!by[a] || !by[b]) continue;
    const v = by[a].rps / by[b].rps;
    ratios[label] = v;
    rows.push([label, fmt.ratio(v), target == null ? '' : `>= ${target}`, target == null ? '' : v >= target ? 'ok' : 'BELOW']);
  }
  // The same ratio from CPU time per operation: what it would be with the CPU to itself
  // (requests/s on a busy shared machine mostly measures the neighbours). PGlite only: with
  // PostgreSQL the database's CPU time is in another process and not counted.
  for (const [label, a, b, target] of RATIOS) {
    if (backend.kind !== 'pglite') break;
    if (!by[a]?.cpuUsPerOp || !by[b]?.cpuUsPerOp) continue;
    const v = by[b].cpuUsPerOp / by[a].cpuUsPerOp;
    ratios[`${label} (cpu)`] = v;
    rows.push([`${label} (cpu/op)`, fmt.ratio(v), target == null ? '' : `>= ${target}`, target == null ? '' : v >= target ? 'ok' : 'BELOW']);
  }
  for (const [name, target] of Object.entries(P99_TARGETS)) {
    if (!by[name]) continue;
    ratios[`${name} p99 ms`] = by[name].p99;
    rows.push([`${name} p99 (ms)`, fmt.ms(by[name].p99), `<= ${target}`, by[name].p99 <= target ? 'ok' : 'ABOVE']);
  }
  // Where the CPU went (two-node): on a machine with few cores the nodes, PostgreSQL and the load
  // generator share them, and the two-node ratio cannot pass what the cores allow.
  const withCpu = results.filter((r) => r.cpu);
  if (withCpu.length) {
    console.log('\n' + table(
      ['scenario', 'cores busy', 'node cores', 'node ms/op', 'postgres ms/op', 'other ms/op', 'total ms/op'],
      withCpu.map((r) => [
        r.name, `${r.cpu.coresBusy.toFixed(2)} of ${r.cpu.cores}`, r.cpu.nodeCores.map((c) => c.toFixed(2)).join(' + '),
        r.cpu.msPerOp.nodes.toFixed(2), r.cpu.msPerOp.postgres.toFixed(2), r.cpu.msPerOp.other.toFixed(2), r.cpu.msPerOp.total.toFixed(2),
      ]),
    ));
    const one = by['charges-1-node'];
    if (one?.cpu) {
      // Two nodes can at best keep every core busy at the one-node cost per charge.
      const ceiling = one.cpu.cores / one.cpu.msPerOp.total * 1000 / one.rps;
      ratios['two-node ceiling of this machine'] = ceiling;
      rows.push(['two nodes / one node: most this machine allows', fmt.ratio(Math.min(2, ceiling)), '', `${one.cpu.cores} cores / ${one.cpu.msPerOp.total.toFixed(2)} ms CPU per charge`]);
    }
  }
  if (rows.length) console.log('\n' + table(['ratio', 'value', 'target', ''], rows));
  if (loadavg[0] > 1 || loadavg[1] > 1) {
    console.log(`\nnote: 1-min load average ${loadavg.map((l) => l.toFixed(1)).join(' -> ')} on ${os.cpus().length} CPUs: other work shares the machine, rates are low and noisy`);
  }

  const round = (n, d = 2) => (typeof n === 'number' ? Number(n.toFixed(d)) : n);
  const json = {
    db: backend.kind,
    // What cpuUsPerOp counts (user + system, all threads): the server side's process per successful
    // operation; the load generator runs in a child process and is not counted.
    cpuScope: backend.kind === 'pglite'
      ? 'server process, database included (embedded PGlite runs in it); peer-stripe-mock: the mock process; two-node: the gateway processes; webhook-*/charges-kicked/rounds: client in the process too'
      : 'gateway process only (PostgreSQL apart; two-node: cpuMsPerOp has postgres); peer-*: the mock process / in-memory QA gateway; webhook-*: client in the process too',
    node: process.version,
    cpus: os.cpus().length,
    connections: cfg.connections,
    seconds: cfg.seconds,
    loadavg: loadavg.map((l) => round(l, 2)),
    results: Object.fromEntries(
      results.map((r) => [
        r.name,
        { rps: round(r.rps, 0), p50: round(r.p50, 3), p99: round(r.p99, 3), cpuUsPerOp: round(r.cpuUsPerOp, 1), ok: r.ok, non2xx: r.non2xx, errors: (r.errors ?? 0) + (r.mismatches ?? 0),
          ...(r.cpu ? { cpuMsPerOp: Object.fromEntries(Object.entries(r.cpu.msPerOp).map(([k, v]) => [k, round(v, 3)])), coresBusy: round(r.cpu.coresBusy, 2) } : {}) },
      ]),
    ),
    ratios: Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, round(v, 3)])),
  };
  console.log(`\nBENCH_JSON ${JSON.stringify(json)}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
