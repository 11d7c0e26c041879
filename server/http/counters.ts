import { Db, Queryable } from '../db/index.js';

export { RedisDeadlineError, connectRedis, type RedisConnection } from './redis.js';

// Where the card-testing defence (ratelimit.ts) keeps its counts: in memory for the one process of
// embedded PGlite, in PostgreSQL when several nodes share one database, or in Redis (REDIS_URL)
// so that a hot counter is not a hot row. Every store counts in fixed windows.

export const MINUTE = 60_000;
export const FAILURE_WINDOW = 10 * MINUTE;

/** One count of `hits`: `add` 0 reads without counting. */
export interface Hit {
  bucket: string;
  windowMs: number;
  add: number;
}

/** Counts hits in fixed windows. `add` 0 reads without counting. */
export interface CounterStore {
  hit(bucket: string, windowMs: number, now: Date, add?: number): Promise<number>;
  /** Several hits of distinct buckets at once, their counts in order: one statement on PostgreSQL. */
  hits(list: Hit[], now: Date): Promise<number[]>;
}

/** `hits` as a `hit` each, sent together (memory: no round trip; Redis: pipelined on one connection). */
const oneByOne = (store: CounterStore, list: Hit[], now: Date) =>
  Promise.all(list.map((h) => store.hit(h.bucket, h.windowMs, now, h.add)));

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
  hits(list: Hit[], now: Date): Promise<number[]> {
    return oneByOne(this, list, now);
  }
}

/**
 * Upserts the counters that add, reads the others, in one statement: `i` numbers the rows (one per
 * counter and window). The list travels as one JSON parameter (the same on pg and PGlite). Rows
 * are written in bucket order, so two statements that touch the same counters lock them in the
 * same order and never deadlock.
 */
const HITS_SQL = `WITH h AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(i integer, bucket text, window_start timestamptz, add integer)
), up AS (
  INSERT INTO rate_counters (bucket, window_start, count)
  SELECT bucket, window_start, add FROM h WHERE add <> 0 ORDER BY bucket
  ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_counters.count + excluded.count
  RETURNING bucket, window_start, count
)
SELECT h.i, up.count FROM up JOIN h USING (bucket, window_start)
UNION ALL
SELECT h.i, c.count FROM h JOIN rate_counters c USING (bucket, window_start) WHERE h.add = 0`;

interface Pending {
  list: Hit[];
  now: Date;
  resolve(counts: number[]): void;
  reject(err: unknown): void;
}

/**
 * Shared by every node on one PostgreSQL. The hits of all the requests that arrive in the same
 * turn of the event loop go to the database as ONE statement (under load, one statement for many
 * token requests: a round trip per request cost this node as much CPU as the rest of the
 * counting), on the Db's relaxed connections (a counter lost in a crash is harmless; a merchant's
 * per-key counter is one hot row that would otherwise be locked through a WAL flush each time).
 * Each request still gets its own count: the counts a batch adds to one counter are handed out
 * in arrival order, so exactly one request sees each threshold, as with a statement each.
 */
export class DbCounters implements CounterStore {
  private q: Queryable;
  private queue: Pending[] = [];
  /** A batch's statement is out: the hits meanwhile wait for it and go together after it. */
  private flushing = false;
  constructor(db: Db) {
    this.q = db.relaxed ?? db;
  }
  async hit(bucket: string, windowMs: number, now: Date, add = 1): Promise<number> {
    return (await this.hits([{ bucket, windowMs, add }], now))[0];
  }
  hits(list: Hit[], now: Date): Promise<number[]> {
    return new Promise((resolve, reject) => {
      if (this.queue.push({ list, now, resolve, reject }) === 1 && !this.flushing) setImmediate(() => void this.flush());
    });
  }

  /**
   * One batch at a time per node: under load the hits that arrive while a statement is out make
   * the next batch, as a group commit does, instead of statements of their own racing for the same
   * hot rows on other connections (the per-key counter is locked by each until it commits).
   */
  private async flush(): Promise<void> {
    this.flushing = true;
    const batch = this.queue;
    this.queue = [];
    try {
      await this.flushBatch(batch);
    } catch (err) {
      // Whatever failed (a statement refused, or a query that threw instead of rejecting), the
      // batch's requests get the error: never a request left waiting, never a rejection unowned.
      for (const p of batch) p.reject(err);
    } finally {
      this.flushing = false;
      if (this.queue.length > 0) setImmediate(() => void this.flush());
    }
  }

  private async flushBatch(batch: Pending[]): Promise<void> {
    // One row per counter and window: the adds of the batch summed, or a read.
    const rows = new Map<string, { i: number; bucket: string; window_start: string; add: number }>();
    const keys = batch.map(({ list, now }) => list.map((h) => {
      const ws = new Date(windowStart(now, h.windowMs)).toISOString();
      const key = `${h.bucket}@${ws}`;
      const row = rows.get(key) ?? rows.set(key, { i: rows.size, bucket: h.bucket, window_start: ws, add: 0 }).get(key)!;
      row.add += h.add;
      return key;
    }));
    const after = new Map<number, number>();
    for (const r of await this.q.query<{ i: number; count: number }>(HITS_SQL, [JSON.stringify([...rows.values()])])) after.set(r.i, r.count);
    // Walk the batch backwards: what a request saw is the count after it, before the later ones' adds.
    const left = new Map([...rows].map(([k, r]) => [k, after.get(r.i) ?? 0])); // a read of an unseen counter: 0
    const answers = batch.map(() => [] as number[]);
    for (let b = batch.length - 1; b >= 0; b--) {
      batch[b].list.forEach((h, j) => {
        const key = keys[b][j];
        answers[b][j] = left.get(key)!;
        left.set(key, left.get(key)! - h.add);
      });
    }
    batch.forEach((p, b) => p.resolve(answers[b]));
    if ([...rows.values()].some((r) => r.add > 0) && Math.random() < 0.01) {
      // Not awaited: the next batch does not wait for the sweep. Its failure, thrown or rejected
      // (a database closing under it), is nobody's business: the next sweep deletes the same rows.
      const oldest = new Date(batch[0].now.getTime() - 2 * FAILURE_WINDOW);
      void (async () => this.q.query('DELETE FROM rate_counters WHERE window_start < $1', [oldest]))().catch(() => {});
    }
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
  /** The client pipelines commands sent together on its connection: one round trip. */
  hits(list: Hit[], now: Date): Promise<number[]> {
    return oneByOne(this, list, now);
  }
}
