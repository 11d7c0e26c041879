import { createClient } from '@redis/client';
import { Db } from '../db/index.js';

// Where the card-testing defence (ratelimit.ts) keeps its counts: in memory for the one process of
// embedded PGlite, in PostgreSQL when several nodes share one database, or in Redis (REDIS_URL)
// so that a hot counter is not a hot row. Every store counts in fixed windows.

export const MINUTE = 60_000;
export const FAILURE_WINDOW = 10 * MINUTE;

/** Counts hits in fixed windows. `add` 0 reads without counting. */
export interface CounterStore {
  hit(bucket: string, windowMs: number, now: Date, add?: number): Promise<number>;
}

const windowStart = (now: Date, windowMs: number) => Math.floor(now.getTime() / windowMs) * windowMs;

/** One process (embedded PGlite holds a lock, so there is only one). */
export class MemoryCounters implements CounterStore {
  private counts = new Map<string, number>();
  private window = 0;
  async hit(bucket: string, windowMs: number, now: Date, add = 1): Promise<number> {
    const start = windowStart(now, windowMs);
    if (start > this.window + FAILURE_WINDOW) {
      this.counts.clear(); // every window we keep has ended
      this.window = start;
    }
    const k = `${bucket}@${start}`;
    const n = (this.counts.get(k) ?? 0) + add;
    if (add) this.counts.set(k, n); // a read of an unseen bucket stores nothing
    return n;
  }
}

/** Shared by every node on one PostgreSQL: one upsert per hit. */
export class DbCounters implements CounterStore {
  constructor(private db: Db) {}
  async hit(bucket: string, windowMs: number, now: Date, add = 1): Promise<number> {
    const start = new Date(windowStart(now, windowMs));
    if (add === 0) {
      const [row] = await this.db.query('SELECT count FROM rate_counters WHERE bucket = $1 AND window_start = $2', [bucket, start]);
      return row?.count ?? 0;
    }
    const [row] = await this.db.query(
      `INSERT INTO rate_counters (bucket, window_start, count) VALUES ($1, $2, $3)
       ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_counters.count + $3 RETURNING count`,
      [bucket, start, add],
    );
    if (Math.random() < 0.01) {
      await this.db.query('DELETE FROM rate_counters WHERE window_start < $1', [new Date(now.getTime() - 2 * FAILURE_WINDOW)]);
    }
    return row.count;
  }
}

/**
 * The store when there is no Redis: embedded PGlite is one process (its lock sees to that), so
 * memory; PostgreSQL may have many nodes, so the database.
 */
export const localCounters = (db: Db): CounterStore => (db.kind === 'pg' ? new DbCounters(db) : new MemoryCounters());

/** What RedisCounters needs of a client: one command at a time, and why the last one failed. */
export interface RedisLike {
  sendCommand(args: string[]): Promise<unknown>;
  /** The client's own last error (a refused password, a TLS failure), when it has one. */
  lastError?(): string | null;
}

/** Adds to the window's counter and gives it an expiry when it is new, in one step. */
const HIT = `local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n`;

/**
 * Shared by every node that points at one Redis: one INCRBY per hit, in a key that expires two
 * windows after its first hit. When Redis does not answer (down, restarting, slow), the hit
 * goes to `fallback` instead (PostgreSQL or memory): limits keep holding, counted apart from
 * Redis's until it is back. The outage is logged once, and its end once.
 */
export class RedisCounters implements CounterStore {
  private failing = false;
  /** Set once the app's logger exists. */
  log?: { warn(obj: object, msg: string): void; info(msg: string): void };
  /** Called for every hit the fallback counted (start.ts: a Prometheus counter to alert on). */
  onFallback?: () => void;
  constructor(
    private redis: RedisLike,
    private fallback: CounterStore,
    private opts: { prefix?: string } = {},
  ) {}

  async hit(bucket: string, windowMs: number, now: Date, add = 1): Promise<number> {
    const key = `${this.opts.prefix ?? 'tessera:'}rate:${bucket}:${windowStart(now, windowMs)}`;
    try {
      // A read is a GET: reading an unseen bucket (every clean request does) creates no key.
      const n = Number((await this.redis.sendCommand(add === 0 ? ['GET', key] : ['EVAL', HIT, '1', key, String(add), String(2 * windowMs)])) ?? 0);
      if (this.failing) {
        this.failing = false;
        this.log?.info('rate-limit counters: Redis answers again');
      }
      return n;
    } catch (err) {
      if (!this.failing) {
        this.failing = true;
        this.log?.warn({ err, cause: this.redis.lastError?.() ?? undefined },
          'rate-limit counters: Redis did not answer; counting in PostgreSQL or memory until it does');
      }
      this.onFallback?.();
      return this.fallback.hit(bucket, windowMs, now, add);
    }
  }
}

/**
 * A client for REDIS_URL that never queues commands while disconnected and gives each one
 * `timeoutMs`: a request waits at most that long before its hit goes to the fallback store.
 * It connects (and reconnects) in the background; `ready` says whether the first connection
 * came within `connectTimeoutMs`; `close` ends it.
 */
export function connectRedis(url: string, opts: { timeoutMs?: number; connectTimeoutMs?: number } = {}): RedisLike & {
  ready: Promise<boolean>;
  close(): Promise<void>;
} {
  const connectTimeout = opts.connectTimeoutMs ?? 2000;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5000) },
  });
  // Never crashes the process; the fallback's log line carries the last message.
  let lastError: string | null = null;
  client.on('error', (err: Error) => (lastError = err.message));
  let closed = false;
  // A connection that completes after close() is ended at once (destroy() cannot stop it earlier).
  client.on('ready', () => {
    lastError = null;
    if (closed) client.destroy();
  });
  // Settles once connected; stays pending while Redis is unreachable (the client keeps retrying).
  const connected = client.connect().then(() => true, () => false);
  let timer: NodeJS.Timeout | undefined;
  const ready = Promise.race([connected, new Promise<boolean>((r) => (timer = setTimeout(() => r(false), connectTimeout)))])
    .finally(() => clearTimeout(timer));
  return {
    ready,
    lastError: () => lastError,
    sendCommand: (args) => client.sendCommand(args, { timeout: opts.timeoutMs ?? 250 }),
    async close() {
      closed = true;
      clearTimeout(timer);
      if (client.isOpen) client.destroy(); // also stops a reconnect in progress
    },
  };
}
