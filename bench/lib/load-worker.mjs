// Child process that drives autocannon, so the load generator does not share the event loop (or
// the CPU time) of the server under test. The parent (lib/load.mjs) sends one message with the
// options and gets one message back with the summary.
import autocannon from 'autocannon';
import { pacedLoad } from './paced.mjs';
import { summarise } from './stats.mjs';

function once(opts, { recordTimes }) {
  // A fixed rate is sent open loop (paced.mjs), not with autocannon's per-second bursts; its
  // warm-up is part of the same paced run, and the measured part starts when paced.mjs says so.
  if (opts.overallRate) return pacedLoad(opts, started);
  const times = [];
  let seq = 0;
  const requests = opts.sequence?.length
    ? [
        {
          // Each request takes the next entry (method, path, headers, body); the list wraps around,
          // so a scenario that needs one-shot resources (tokens for charges) must make it longer
          // than the number of requests it can possibly send in the run.
          setupRequest: (req) => ({ ...req, ...opts.sequence[seq++ % opts.sequence.length] }),
        },
      ]
    : undefined;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: opts.urls.length === 1 ? opts.urls[0] : opts.urls,
        connections: opts.connections,
        duration: opts.seconds,
        amount: opts.amount,
        method: opts.method ?? 'GET',
        headers: opts.headers,
        body: opts.body,
        requests,
        verifyBody: opts.bodyIncludes ? (body) => body.includes(opts.bodyIncludes) : undefined,
        timeout: 30,
        // autocannon notices the end only at a sample tick: at its default of 1 s a run of `amount`
        // requests read as lasting up to a second longer (6,000 charges in 3.1 s counted as 4.02 s).
        sampleInt: 100,
      },
      (err, res) => (err ? reject(err) : resolve({ res, times })),
    );
    // autocannon's own histogram is in whole milliseconds; keep the exact times for p50/p99.
    if (recordTimes) instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
}

// The parent starts its CPU clock here.
const started = () => process.send({ started: true });

process.once('message', async (opts) => {
  try {
    let warmup = 0;
    if (opts.warmupSeconds > 0 && !opts.amount) {
      const w = await once({ ...opts, seconds: opts.warmupSeconds }, { recordTimes: false });
      warmup = w.res['2xx'] - w.res.mismatches;
    }
    if (!opts.overallRate) started();
    const { res, times } = await once(opts, { recordTimes: true });
    // A mismatched body still counts as 2xx for autocannon; it is not a success here.
    const ok = res['2xx'] - res.mismatches;
    process.send({
      ok: true,
      result: {
        seconds: res.duration,
        requests: res.requests.total,
        ok,
        warmupOk: warmup,
        rps: ok / res.duration,
        ...summarise(times),
        non2xx: res.non2xx,
        errors: res.errors,
        timeouts: res.timeouts,
        mismatches: res.mismatches,
        statusCodes: Object.fromEntries(Object.entries(res.statusCodeStats).map(([k, v]) => [k, v.count])),
      },
    });
  } catch (err) {
    process.send({ ok: false, error: String(err?.stack ?? err) });
  }
  process.disconnect();
});
