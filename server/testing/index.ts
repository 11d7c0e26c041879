// `tessera/testing`: a real gateway per test worker, started from code, and the helpers a
// checkout test needs. No test-framework dependency (Playwright fixtures: `tessera/playwright`).
import { ensureSnapshot } from '../db/snapshot.js';
import { RunningTessera, StartOptions, startTessera } from '../start.js';
import { TesseraClient, tesseraClient } from './client.js';

export { startTessera, clockFrom } from '../start.js';
export type { RunningTessera, StartOptions } from '../start.js';
export * from './cards.js';
export * from './client.js';
export * from './webhooks.js';

export type TestGatewayOptions = Omit<StartOptions, 'storage' | 'dataDir' | 'databaseUrl' | 'dataKey' | 'retiredDataKeys'>;

export interface TestGateway extends TesseraClient {
  url: string;
  tokenizerUrl: string;
  merchantId: string;
  publicKey: string;
  privateKey: string;
  /** The underlying gateway: the Fastify app, the database, the outbox worker. */
  running: RunningTessera;
  /** Wipes the test records, then applies the start options' `settings` again. */
  reset(): Promise<{ deleted: Record<string, number> }>;
  close(): Promise<void>;
}

/** Rate limits off: a test suite tokenizes far faster than any shopper, from one address. */
export const NO_RATE_LIMITS = { perIp: 0, perKey: 0, failures: 0 } as const;

/**
 * startTessera() for tests: in memory, a free port on 127.0.0.1, silent, rate limits off (pass
 * `rateLimits` to test them), and the client helpers bound to the demo merchant's test keys.
 */
export async function startTestGateway(opts: TestGatewayOptions = {}): Promise<TestGateway> {
  const running = await startTessera({ port: 0, logLevel: 'silent', rateLimits: { ...NO_RATE_LIMITS }, ...opts, storage: 'memory' });
  const { merchantId, publicKey, privateKey } = running;
  if (!merchantId || !publicKey || !privateKey) {
    await running.close();
    throw new Error('startTestGateway: the in-memory database was not empty (no demo keys)');
  }
  const client = tesseraClient({ url: running.url, publicKey, privateKey });
  return {
    ...client,
    url: running.url,
    tokenizerUrl: running.tokenizerUrl,
    merchantId,
    publicKey,
    privateKey,
    running,
    async reset() {
      const result = await client.reset();
      if (opts.settings) await client.settings(opts.settings);
      return result;
    },
    close: () => running.close(),
  };
}

/**
 * Builds the cached in-memory database snapshot if it is missing (a few seconds, once per
 * migration set), so parallel workers all start warm. Call it from a global setup. Waits when
 * another process is building it; throws (with the cause) when it cannot be built.
 */
export async function prepareSnapshot(): Promise<{ path: string; built: boolean; ms: number }> {
  const started = Date.now();
  const { path, built } = await ensureSnapshot();
  return { path, built, ms: Date.now() - started };
}
