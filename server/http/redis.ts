import { createRequire } from 'node:module';
import type { RedisLike } from './counters.js';

// @redis/client is required when a connection is first opened, not imported: loading it (hundreds
// of command modules) cost every process ~0.2 s of CPU, `tessera --help` and every gateway without
// REDIS_URL included (docs/decisions/test-suite-time.md).
const require = createRequire(import.meta.url);
let library: typeof import('@redis/client') | undefined;
const redisLibrary = () => (library ??= require('@redis/client') as typeof import('@redis/client'));

// The Redis client of the rate-limit counters (REDIS_URL), and the deadline each command keeps.
//
// @redis/client's own per-command `timeout` (and `abortSignal`) only covers a command while it
// waits to be written: once on the socket it waits for its reply without limit (commands-queue.js
// removes both listeners as it writes). Redis answers in order, so every command behind one that
// is never answered waits too. A Redis that is down closes the connection and fails them; a frozen
// one (SIGSTOP, a stalled VM or disk, a black-holed network) does not: the kernel keeps accepting
// what is written, and requests hung on it for good. `socketTimeout` does not help under traffic
// either: it counts idle time, and every write resets it.
//
// So the deadline is ours, on every command, written or not: a command without its answer after
// `timeoutMs` fails (its hit goes to the fallback store), and the connection is dropped with the
// client (destroy() fails every command written or queued on it at once) and replaced by a new
// one. With `disableOfflineQueue`, commands sent while the new one connects fail at once instead
// of queueing. A connection attempt gets `connectTimeoutMs` from the TCP handshake to the client's
// own (a frozen server completes the TCP handshake in its kernel, then never answers HELLO/CLIENT
// SETINFO): past it, it is replaced too. Replacements back off from 100 ms to 5 s until one works.

const backoff = (n: number) => Math.min(100 * 2 ** n, 5000);

/** A command that got no answer within its deadline. */
export class RedisDeadlineError extends Error {}

export interface RedisConnection extends RedisLike {
  /** Whether the first connection was made within `connectTimeoutMs`. */
  ready: Promise<boolean>;
  /** Resolves when a connection is up (at once if one is). */
  whenReady(): Promise<void>;
  /** Commands sent and neither answered nor failed yet: at most `maxPending`. */
  pending(): number;
  /** Connections dropped because a command missed its deadline. */
  stalls(): number;
  close(): Promise<void>;
}

/** What this module uses of a client. */
interface Client {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  sendCommand(args: string[]): Promise<unknown>;
  destroy(): void;
}

/**
 * A client for REDIS_URL whose every command is answered or failed within `timeoutMs` (250),
 * never queued while disconnected, with at most `maxPending` (1,000) commands outstanding. It
 * connects (and reconnects) in the background; `close` ends it.
 */
export function connectRedis(url: string, opts: { timeoutMs?: number; connectTimeoutMs?: number; maxPending?: number } = {}): RedisConnection {
  const deadline = opts.timeoutMs ?? 250;
  const connectTimeout = opts.connectTimeoutMs ?? 2000;
  const maxPending = opts.maxPending ?? 1000;
  let lastError: string | null = null;
  let closed = false;
  let pending = 0;
  let stalls = 0;
  let replaced = 0; // replacements since a connection last came up
  let handshake: NodeJS.Timeout | undefined;
  let reopen: NodeJS.Timeout | undefined;
  let waiters: (() => void)[] = [];
  let firstReady: (ok: boolean) => void = () => {};
  const connected = new Promise<boolean>((resolve) => (firstReady = resolve));

  const open = (): Client => {
    const c = redisLibrary().createClient({
      url,
      disableOfflineQueue: true,
      // The library's own timeout would only duplicate ours (and costs an AbortSignal per command).
      commandOptions: { timeout: 0 },
      socket: { connectTimeout, reconnectStrategy: backoff },
    });
    // Never crashes the process; the fallback's log line carries the last message.
    // A replaced client's late events are its own business: they never touch its successor's.
    c.on('error', (err: Error) => {
      if (c !== client) return;
      lastError = err.message;
      clearTimeout(handshake); // the library retries; its next attempt arms its own
    });
    c.on('connect', () => {
      if (c !== client) return;
      clearTimeout(handshake);
      handshake = setTimeout(() => replace(c, `no answer to the connection handshake within ${connectTimeout} ms`), connectTimeout);
      handshake.unref();
    });
    c.on('ready', () => {
      if (closed) c.destroy(); // a connection that completes after close() is ended at once
      if (c !== client || closed) return;
      clearTimeout(handshake);
      lastError = null;
      replaced = 0;
      firstReady(true);
      for (const w of waiters.splice(0)) w();
    });
    c.connect().catch(() => {}); // failures arrive as 'error'; a replaced client's connect rejects
    return c;
  };

  /** Drops `c` (every command on it fails now) and opens another after a pause. */
  const replace = (c: Client, why: string) => {
    if (c !== client || closed) return;
    clearTimeout(handshake);
    c.destroy();
    lastError = why; // after destroy(), whose own 'error' says only "Disconnects client"
    reopen = setTimeout(() => {
      if (!closed) client = open();
    }, backoff(replaced++));
    reopen.unref();
  };

  let client = open();
  let timer: NodeJS.Timeout | undefined;
  const ready = Promise.race([connected, new Promise<boolean>((r) => (timer = setTimeout(() => r(false), connectTimeout)))])
    .finally(() => clearTimeout(timer));

  return {
    ready,
    lastError: () => lastError,
    pending: () => pending,
    stalls: () => stalls,
    whenReady: () => (client.isReady ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    sendCommand(args) {
      const c = client;
      if (closed || !c.isReady) return Promise.reject(new Error(`Redis is not connected${lastError ? ` (${lastError})` : ''}`));
      if (pending >= maxPending) return Promise.reject(new Error(`${pending} Redis commands are already waiting for an answer`));
      pending++;
      return new Promise((resolve, reject) => {
        const late = setTimeout(() => {
          reject(new RedisDeadlineError(`Redis gave no answer within ${deadline} ms`));
          stalls++;
          replace(c, `a command got no answer within ${deadline} ms; connection dropped`);
        }, deadline);
        c.sendCommand(args)
          .then(resolve, reject)
          .finally(() => {
            clearTimeout(late);
            pending--;
          });
      });
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(handshake);
      clearTimeout(reopen);
      waiters = [];
      if (client.isOpen) client.destroy(); // also stops a reconnect in progress
    },
  };
}
