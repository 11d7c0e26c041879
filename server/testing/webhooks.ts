import { IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WaitOptions } from './client.js';

// A local HTTP endpoint standing in for the merchant's webhook URL: it records every request and
// answers with the status the test chose, so delivery, signatures and retries can be asserted.

export interface ReceivedWebhook {
  method: string;
  /** Path and query, e.g. /hooks/orders?x=1 */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent (signatures are computed over it). */
  body: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
  receivedAt: Date;
}

export interface WebhookReceiver {
  /** e.g. http://127.0.0.1:39211/hooks — any path under it is accepted too. */
  readonly url: string;
  /** Everything received since the start or the last clear(), oldest first. */
  readonly received: readonly ReceivedWebhook[];
  /** Resolves with the first request (already received or arriving) that matches. */
  waitFor(match?: (w: ReceivedWebhook) => boolean, opts?: WaitOptions): Promise<ReceivedWebhook>;
  /** Status (and optional body) of the next answers, e.g. 500 to test retries; default 200. */
  respondWith(status: number, body?: string): void;
  clear(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(opts: { host?: string; path?: string } = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<(w: ReceivedWebhook) => void>();
  let reply = { status: 200, body: '{"received":true}' };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const hook: ReceivedWebhook = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, json, receivedAt: new Date() };
      received.push(hook);
      for (const w of [...waiters]) w(hook);
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    });
  });
  server.keepAliveTimeout = 1000;
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const path = opts.path ?? '/hooks';

  return {
    url: `http://${host}:${port}${path}`,
    received,
    waitFor(match = () => true, wait = {}) {
      const timeout = wait.timeout ?? 10_000;
      const already = received.find(match);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const onHook = (w: ReceivedWebhook) => {
          if (!match(w)) return;
          cleanup();
          resolve(w);
        };
        const timer = setTimeout(() => {
          cleanup();
          const got = received.map((w) => `  ${w.method} ${w.path} ${w.body.slice(0, 120)}`).join('\n');
          reject(new Error(`no matching webhook within ${timeout} ms; received ${received.length}:\n${got || '  (nothing)'}`));
        }, timeout);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(onHook);
        };
        waiters.add(onHook);
      });
    },
    respondWith(status, body = status < 300 ? '{"received":true}' : '{"error":"test"}') {
      reply = { status, body };
    },
    clear() {
      received.length = 0;
      reply = { status: 200, body: '{"received":true}' };
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
