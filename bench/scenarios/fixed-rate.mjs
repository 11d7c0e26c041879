import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import { startGateway } from '../lib/gateway.mjs';
import { httpLoad } from '../lib/load.mjs';
import { MARK, chargeRequests } from './charges.mjs';

/** Tokens for the maximum-rate measurement when the `charges` scenario did not run before this one. */
const PROBE_TOKENS = Number(process.env.BENCH_PROBE_TOKENS ?? 2000);

/**
 * Latency under a load the gateway can carry: charges by token sent at a fixed rate, half the
 * measured maximum (the `charges` result of this run when it ran, otherwise a probe of
 * PROBE_TOKENS charges at full speed), for BENCH_SECONDS after BENCH_WARMUP_SECONDS at the same
 * rate that are not counted. Requests leave on schedule, open loop
 * (lib/paced.mjs: request i at i / rate, timed from when it was due), so p99 shows the queueing a
 * busy moment causes, not the closed-loop latency of a saturated server.
 */
export default {
  name: 'fixed-rate',
  describe: 'charges by token at 50% of the measured maximum rate: p50/p99',
  async run(ctx) {
    const gw = await startGateway(ctx);
    try {
      let max = ctx.results?.find((r) => r.name === 'charges')?.rps;
      if (!max) {
        const probe = await chargeRequests(ctx, gw, PROBE_TOKENS);
        const r = await httpLoad({
          urls: gw.urls, connections: ctx.cfg.connections, amount: probe.tokens.length, seconds: 600,
          sequence: probe.tokens.map(probe.request), bodyIncludes: MARK, name: 'charges-max',
        });
        max = r.rps;
        console.log(`  maximum: ${Math.round(max)} charges/s (${r.ok} charges)`);
      }
      const rate = Math.max(1, Math.round(max / 2));
      const n = Math.round(rate * ctx.cfg.seconds);
      // BENCH_WARMUP_SECONDS at the same rate first, not counted: the sockets are opened and the
      // new app's code (and the load generator's) compiled; p99 is the steady state's.
      const warmup = Math.round(rate * ctx.cfg.warmupSeconds);
      const { tokens, request } = await chargeRequests(ctx, gw, n + warmup);
      // Where a slow charge waited: the gateway's event loop (its delay, and the GC pauses in it)
      // or elsewhere (PostgreSQL, the load generator, the scheduler).
      const loop = monitorEventLoopDelay({ resolution: 1 });
      const gcs = [];
      const gcObs = new PerformanceObserver((list) => gcs.push(...list.getEntries().map((e) => e.duration)));
      const r = await httpLoad({
        urls: gw.urls, connections: ctx.cfg.connections, overallRate: rate, amount: n, warmup, seconds: 600,
        sequence: tokens.map(request), bodyIncludes: MARK, name: 'charges-half-rate',
        onStart: () => (loop.enable(), gcObs.observe({ entryTypes: ['gc'] })),
      });
      loop.disable();
      gcObs.disconnect();
      gcs.sort((a, b) => a - b);
      const ms = (ns) => (ns / 1e6).toFixed(1);
      console.log(`  gateway event loop: delay p50 ${ms(loop.percentile(50))} ms, p99 ${ms(loop.percentile(99))} ms, max ${ms(loop.max)} ms;`
        + ` GC: ${gcs.length} pauses, ${gcs.reduce((a, b) => a + b, 0).toFixed(0)} ms in all, longest ${(gcs.at(-1) ?? 0).toFixed(1)} ms`);
      return [{ name: 'charges-half-rate', unit: `req/s (sent at ${rate}/s)`, ...r }];
    } finally {
      await gw.close();
    }
  },
};
