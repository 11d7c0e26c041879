import type { Queryable } from './db/index.js';
import { Loop } from './lib/loop.js';
import type { Vault } from './vault.js';

// Which data key the cluster writes under (table data_keys, migration 023), and the watch that
// keeps a running node from writing under any other. The canary (vault-canary.ts) proves at start
// that a node can read what is stored; this proves, all the time, that what it writes can be read:
//
// - the first start on a database records its key as 'current';
// - `tessera data-key reencrypt` records its key as 'current' and every other key that wrote here
//   as 'retired', before it rewrites anything: a retired key is never written again;
// - each node reads the record every DATA_KEY_CHECK_MS (and at each /readyz). A node whose key is
//   retired, or that does not hold the current key, is left behind: /readyz 503 (check `data_key`),
//   every write of payment data refused with VAULT03 (503, Retry-After), one error line saying why.
//   A node whose key is new to the record and that holds the current key as retired is a rotation's
//   first step (docs/decisions/redis-and-data-key.md): it stays ready.

/** How often a running node reads which data key the cluster writes under. */
export const DATA_KEY_CHECK_MS = 5_000;
/**
 * How long a node trusts its last reading of the record: past it without a successful read (the
 * read failing or timing out), it refuses to write payment data until it reads the record again.
 * A check every DATA_KEY_CHECK_MS whose read may take up to its statement deadline (db/pg.ts: 12 s)
 * succeeds within this when the database answers.
 */
export const DATA_KEY_STALE_MS = 20_000;
/**
 * How long `data-key reencrypt` lets nodes notice a retirement before its final count: a node
 * writes under the key it last read for at most DATA_KEY_STALE_MS, and a transaction that encrypted
 * before its node noticed commits within its deadline (DEADLINES.txMs, 25 s) or never (db/pg.ts).
 */
export const DATA_KEY_SETTLE_MS = DATA_KEY_STALE_MS + 25_000;

export interface ClusterKey {
  key_id: string;
  state: 'current' | 'retired';
  since: Date;
}

export const clusterKeys = (q: Queryable): Promise<ClusterKey[]> =>
  q.query<ClusterKey>('SELECT key_id, state, since FROM data_keys ORDER BY since, key_id');

/** Why this node must not write under its key, or null when it may. */
export function leftBehind(vault: Vault, keys: ClusterKey[]): string | null {
  const mine = vault.currentKeyId;
  const current = keys.find((k) => k.state === 'current');
  const at = (k: ClusterKey) => new Date(k.since).toISOString();
  const own = keys.find((k) => k.key_id === mine);
  if (own?.state === 'retired') {
    return `data key id ${mine} (TESSERA_DATA_KEY) was retired at ${at(own)} by tessera data-key reencrypt` +
      (current ? `; the cluster writes under data key id ${current.key_id}` : '');
  }
  if (current && current.key_id !== mine && !vault.hasKey(current.key_id)) {
    return `the cluster writes under data key id ${current.key_id}, which this node does not hold (TESSERA_DATA_KEY is data key id ${mine})`;
  }
  return null;
}

/** At start (vault-canary.ts): why a node whose key is retired must not start, or null. */
export async function retiredAtStart(q: Queryable, vault: Vault): Promise<string | null> {
  const keys = await clusterKeys(q);
  return keys.some((k) => k.key_id === vault.currentKeyId && k.state === 'retired') ? leftBehind(vault, keys) : null;
}

/**
 * At start, once the canary is checked: a database with no current key yet whose only canary is
 * this node's key records it as current. Two canaries are a rotation under way on a database from
 * before the record: the re-encryption will record it.
 */
export async function recordFirstKey(q: Queryable, vault: Vault, now: Date): Promise<void> {
  const [{ current, others }] = await q.query<{ current: number; others: number }>(
    `SELECT (SELECT count(*) FROM data_keys WHERE state = 'current')::int AS current,
            (SELECT count(*) FROM vault_canary WHERE key_id <> $1)::int AS others`,
    [vault.currentKeyId],
  );
  if (current === 0 && others === 0) {
    await q.query("INSERT INTO data_keys (key_id, state, since) VALUES ($1, 'current', $2) ON CONFLICT (key_id) DO NOTHING", [vault.currentKeyId, now]);
  }
}

/**
 * `data-key reencrypt`, before it rewrites anything: this vault's key becomes current, every other
 * key that wrote here (canary rows, the current one before) retired. Answers when the record last
 * changed (now, or when an earlier run changed it): nodes have had DATA_KEY_SETTLE_MS after it.
 */
export async function recordCurrentKey(q: Queryable, vault: Vault, now: Date): Promise<Date> {
  const mine = vault.currentKeyId;
  await q.query('LOCK TABLE vault_canary IN SHARE ROW EXCLUSIVE MODE'); // as a start's check: one at a time
  await q.query(
    `INSERT INTO data_keys (key_id, state, since) SELECT key_id, 'retired', $2 FROM vault_canary WHERE key_id <> $1
     ON CONFLICT (key_id) DO UPDATE SET state = 'retired', since = excluded.since WHERE data_keys.state <> 'retired'`,
    [mine, now],
  );
  await q.query("UPDATE data_keys SET state = 'retired', since = $2 WHERE state = 'current' AND key_id <> $1", [mine, now]);
  await q.query(
    `INSERT INTO data_keys (key_id, state, since) VALUES ($1, 'current', $2)
     ON CONFLICT (key_id) DO UPDATE SET state = 'current', since = excluded.since WHERE data_keys.state <> 'current'`,
    [mine, now],
  );
  const [{ latest }] = await q.query<{ latest: Date }>('SELECT max(since) AS latest FROM data_keys');
  return new Date(latest);
}

interface WatchLog {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * A running node's watch on the record: `check()` reads it, stops or resumes the vault's writes
 * and logs each change of verdict once; `readiness` is the /readyz check `data_key` (critical).
 */
export class DataKeyWatch {
  /** Why this node is left behind, or null. */
  problem: string | null = null;
  log?: WatchLog;
  private loop: Loop;

  /** When the record was last read (ms). */
  private readAt: number;

  constructor(
    private readonly db: Queryable,
    private readonly vault: Vault,
    private readonly intervalMs = DATA_KEY_CHECK_MS,
    private readonly now: () => number = Date.now,
    private readonly staleMs = DATA_KEY_STALE_MS,
  ) {
    this.readAt = now();
    this.loop = new Loop(() => this.check(), (err) => this.unread(err));
  }

  /**
   * A failed read: the verdict stands while it is fresh; past staleMs the node refuses to write
   * payment data (VAULT03) until a read succeeds, since the record may have retired its key meanwhile.
   */
  unread(err: unknown): void {
    this.log?.warn({ err }, 'data key: reading the cluster\'s data key failed; next round');
    const since = Math.round((this.now() - this.readAt) / 1000);
    if (this.now() - this.readAt > this.staleMs && this.problem === null) {
      this.problem = `the cluster's data key record could not be read for ${since} s`;
      this.log?.error({ data_key: this.vault.currentKeyId }, `${this.problem}: this node refuses to store payment data (VAULT03) until it reads it again`);
      this.vault.refuseWrites(this.problem, Math.ceil(this.intervalMs / 1000));
    }
  }

  readonly readiness = { critical: true, check: () => this.check() };

  /** Reads the record; true while this node may write. A failed read changes nothing and throws. */
  async check(): Promise<boolean> {
    const problem = leftBehind(this.vault, await clusterKeys(this.db));
    this.readAt = this.now();
    if (problem !== this.problem) {
      if (problem) {
        this.report(problem);
      } else if (this.problem) {
        this.log?.info({ data_key: this.vault.currentKeyId }, 'data key: this node may write again (the cluster\'s record changed)');
      }
      this.problem = problem;
      this.vault.refuseWrites(problem, Math.ceil(this.intervalMs / 1000));
    }
    return problem === null;
  }

  /** Checks every intervalMs from now on (the first check is watchDataKey's, before listening). */
  start(log: WatchLog): void {
    this.log = log;
    if (this.problem) this.report(this.problem);
    this.loop.start(this.intervalMs, this.intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private report(problem: string): void {
    this.log?.error({ data_key: this.vault.currentKeyId },
      `${problem}: this node reports /readyz 503 and refuses to store payment data (VAULT03) until it is restarted with the cluster's data key in TESSERA_DATA_KEY`);
  }
}

/**
 * start.ts: the watch of a node, checked once before it listens (a node already left behind
 * starts unready) and registered as the critical /readyz check `data_key`; `start(log)` once the
 * app's logger exists, `stop()` at close.
 */
export async function watchDataKey(db: Queryable, vault: Vault, readiness: Record<string, { critical: boolean; check(): Promise<boolean> }>): Promise<DataKeyWatch> {
  const watch = new DataKeyWatch(db, vault);
  await watch.check();
  readiness.data_key = watch.readiness;
  return watch;
}
