import bare from './bare.mjs';
import charges from './charges.mjs';
import clockAdvance from './clock-advance.mjs';
import coldStart from './cold-start.mjs';
import dashboard from './dashboard.mjs';
import fixedRate from './fixed-rate.mjs';
import jsonpTokens from './jsonp-tokens.mjs';
import peer from './peer.mjs';
import rawInsert from './raw-insert.mjs';
import tokenSteps from './token-steps.mjs';
import twoNode from './two-node.mjs';
import webhookDrain from './webhook-drain.mjs';
import webhookLatency from './webhook-latency.mjs';

/**
 * The scenarios, run in this order on one shared database (see lib/backend.mjs).
 *
 * A scenario is { name, describe, run(ctx) } where ctx = { cfg: { seconds, warmupSeconds,
 * connections }, backend: { kind, label, db, vault, clock } } and run() resolves to a list of results
 * { name, unit, rps, p50, p99, max, mean (ms), ok, errors, non2xx?, ... }. HTTP scenarios use
 * httpLoad() (autocannon in a child process), in-process ones loopLoad() (lib/load.mjs).
 *
 * To add one, write scenarios/<name>.mjs and list it here (charges.mjs shows a scenario whose
 * requests each spend a one-shot resource). Ratios against the baselines live in run.mjs (RATIOS).
 * BENCH_ONLY=name,name runs a subset. Scenarios marked `diagnostic` run only with BENCH_DIAG=1 or
 * when BENCH_ONLY names them.
 */
export const scenarios = [bare, rawInsert, jsonpTokens, charges, fixedRate, peer, twoNode, tokenSteps, coldStart, clockAdvance, webhookLatency, webhookDrain, dashboard];
