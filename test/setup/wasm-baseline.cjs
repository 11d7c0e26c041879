// Preloaded (`--require`, through NODE_OPTIONS: vitest.config.ts) into every Node process the
// proof, e2e and QA suites start: their gateways, `tessera` commands, npm and Playwright runs. Those
// processes live for seconds and a few hundred requests, and V8 spent more CPU optimising PGlite's
// WebAssembly (TurboFan, in background threads) than the optimised code saved them: a gateway start
// 2.7-3.6 s of CPU, 1.5 s on the baseline compiler alone (docs/decisions/test-suite-time.md).
// The JavaScript and the WebAssembly are the shipped ones; only V8's compiler tier for the
// WebAssembly differs, and WebAssembly gives the same results on either tier. A gateway started any
// other way (`npm start`, production, `npm run bench`) optimises as V8 decides.
require('node:v8').setFlagsFromString('--liftoff-only');
