// The package's entry point: build a gateway into your own Fastify setup, or start a whole one.
export { buildApp } from './app.js';
export type { AppOptions, Services } from './app.js';
export { startTessera } from './start.js';
export type { RunningTessera, StartOptions } from './start.js';
