// Preloaded into a `tessera serve` of the fault suite (NODE_OPTIONS=--import=<this file>) to give
// that node a wall clock PROOF_CLOCK_SKEW_MS ahead of the others: `new Date()` and `Date.now()`
// read the skewed time; dates built from a value, timers and performance.now() are unchanged. Two
// nodes of one database whose clocks disagree by a minute is what made a live claim look abandoned
// (issue 27, 4). Test-only: nothing in server/ reads this.
const skew = Number(process.env.PROOF_CLOCK_SKEW_MS ?? 0);
if (Number.isFinite(skew) && skew !== 0) {
  const RealDate = Date;
  const now = () => RealDate.now() + skew;
  globalThis.Date = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget);
    },
    apply() {
      return new RealDate(now()).toString();
    },
    get(target, prop, receiver) {
      return prop === 'now' ? now : Reflect.get(target, prop, receiver);
    },
  });
}
