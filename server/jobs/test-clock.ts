import { randomUUID } from 'node:crypto';
import { Db, Queryable } from '../db/index.js';
import { completeDueReviews } from './sweeps.js';
import { E, GatewayError } from '../errors.js';
import { targetOf } from './clock-target.js';
import type { AdvanceInput } from '../schemas/test-helpers.js';
import { JobDeps, RunSummary, Skips, emptySummary, runDueBetween } from './runs.js';

// The test clock of a merchant's test environment: "now" there is real time + offset_ms (table
// test_clocks, read by auth.ts into req.now). It only moves forward. Advancing it runs, in time
// order, everything that fell due in between; token expiry needs nothing: it follows req.now.
//
// An advance is a small state machine in the clock row (migration 017), so it is bounded and safe
// across nodes: at most SYNC_RUNS runs inside the request that asks for it (which then answers 200
// as before); a longer one answers 202 and a worker of this process finishes it in the background,
// CHUNK_RUNS runs at a time, committing how far it got after each chunk (the clock shows that
// point meanwhile). Every run is its own transaction and gives the event loop a turn (runs.ts), at
// most PERMITS chunks run at once per process, and one advance at a time per merchant: another
// one waits while the first is inside its request, and is CLOCK03 (409) once it is in the
// background. The worker holds a lease; when its node dies, the next scheduler round (or the next
// clock request of that merchant) on any node takes the advance over from where it was.

/** Runs an advance may do inside the request that asked for it. */
export const SYNC_RUNS = 100;
/** Runs between two commits of an advance's progress. */
const CHUNK_RUNS = 25;
/** A worker's hold on an advance (real time), renewed at every commit; then any node may take it over. */
export const LEASE_MS = 60_000;
/** Advance chunks running at once in one process (each uses one database connection at a time). */
const PERMITS = 2;
/** How often a request waiting for an advance held by another node looks again. */
const POLL_MS = 50;

export interface AdvanceDeps extends JobDeps {
  /** An advance billed something: its callbacks wait for the scheduler (kick it). */
  onBilled?(): void;
  /** An advance finished or went to the background: cached key lookups carry the old offset. */
  onMoved?(): void;
}

type State = 'ready' | 'running' | 'background';
interface ClockRow {
  offset_ms: number;
  advance_state: State;
  advance_from: Date | null;
  advance_to: Date | null;
  advance_base: Date | null;
  advance_reached: Date | null;
  advance_ran: RunSummary | string | null;
  advance_owner: string | null;
  advance_lease: Date | null;
  advance_started_at: Date | null;
  advance_finished_at: Date | null;
}
const COLUMNS = `offset_ms, advance_state, advance_from, advance_to, advance_base, advance_reached, advance_ran,
  advance_owner, advance_lease, advance_started_at, advance_finished_at`;

/** The merchant's last advance (under way or finished). */
export interface AdvanceView {
  previous: Date;
  to: Date;
  /** Everything due up to here has run. */
  reached: Date;
  ran: RunSummary;
  started_at: Date;
  finished_at: Date | null;
}

export interface TestClock {
  now: Date;
  offset_ms: number;
  real_now: Date;
  advancing: boolean;
  advance: AdvanceView | null;
}

const ranOf = (v: ClockRow['advance_ran']): RunSummary => ({ ...emptySummary(), ...(typeof v === 'string' ? JSON.parse(v) : v ?? {}) });
const runsIn = (r: RunSummary) => r.billings + r.failed_billings + r.scheduled_transactions + r.failed_scheduled_transactions + r.errors;
function addTo(total: RunSummary, more: RunSummary): void {
  for (const k of Object.keys(total) as Array<keyof RunSummary>) total[k] += more[k];
}

async function rowOf(q: Queryable, merchantId: string, lock = false): Promise<ClockRow | undefined> {
  const [row] = await q.query<ClockRow>(`SELECT ${COLUMNS} FROM test_clocks WHERE merchant_id = $1${lock ? ' FOR UPDATE' : ''}`, [merchantId]);
  return row;
}

function clockOf(row: ClockRow | undefined, realNow: Date): TestClock {
  const offset = Number(row?.offset_ms ?? 0);
  const advance = row?.advance_from ? {
    previous: row.advance_from, to: row.advance_to!, reached: row.advance_reached!, ran: ranOf(row.advance_ran),
    started_at: row.advance_started_at!, finished_at: row.advance_finished_at,
  } : null;
  return { now: new Date(realNow.getTime() + offset), offset_ms: offset, real_now: realNow, advancing: !!row && row.advance_state !== 'ready', advance };
}

export async function readTestClock(q: Queryable, merchantId: string, realNow: Date): Promise<TestClock> {
  return clockOf(await rowOf(q, merchantId), realNow);
}

/** What this process does about advances, per database. */
class Local {
  /** Bumped by stopAdvances: work of an older generation stops at its next chunk. */
  generation = 0;
  readonly workers = new Map<string, Promise<void>>();
  /** Advances running inside their request, by merchant: a second request of that merchant awaits it. */
  readonly inline = new Map<string, Promise<unknown>>();
  private free = PERMITS;
  private readonly queue: Array<() => void> = [];

  async permit<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.free++;
    }
  }
}
const locals = new WeakMap<Db, Local>();
function localOf(db: Db): Local {
  let l = locals.get(db);
  if (!l) locals.set(db, (l = new Local()));
  return l;
}

/** One advance as held by this process (`owner` in the row). */
class Advance {
  private readonly skip: Skips = { sub: [], st: [] };
  private readonly generation: number;

  constructor(
    readonly deps: AdvanceDeps, readonly merchantId: string, readonly owner: string,
    readonly from: Date, public reached: Date, readonly to: Date, readonly base: Date, readonly ran: RunSummary,
  ) {
    this.generation = localOf(deps.db).generation;
  }

  static fromRow(deps: AdvanceDeps, merchantId: string, owner: string, row: ClockRow): Advance {
    return new Advance(deps, merchantId, owner, row.advance_from!, row.advance_reached!, row.advance_to!, row.advance_base!, ranOf(row.advance_ran));
  }

  /** This process stopped its advances since this one started here. */
  get stale(): boolean {
    return localOf(this.deps.db).generation !== this.generation;
  }

  get offsetMs(): number {
    return this.reached.getTime() - this.base.getTime();
  }

  /**
   * Up to `budget` runs, CHUNK_RUNS at a time, each chunk's progress committed: 'done', 'more'
   * (budget spent, or this process is stopping) or 'lost' (another node took the advance over).
   */
  async step(budget: number): Promise<'done' | 'more' | 'lost'> {
    const local = localOf(this.deps.db);
    for (let used = 0; used < budget;) {
      if (this.stale) return 'more';
      const step = await local.permit(() => runDueBetween(this.deps, { merchantId: this.merchantId, env: 'test' }, this.reached, this.to, {
        maxRuns: Math.min(CHUNK_RUNS, budget - used), skip: this.skip,
      }));
      addTo(this.ran, step.ran);
      used += runsIn(step.ran);
      this.reached = step.reached;
      if (!(await this.commit(step.done))) return 'lost';
      if (step.ran.billings + step.ran.failed_billings > 0) this.deps.onBilled?.();
      if (step.done) {
        await this.finished();
        return 'done';
      }
    }
    return 'more';
  }

  /** Writes how far it got (and "now" with it) and renews the lease; false when the advance is no longer this owner's. */
  private async commit(done: boolean): Promise<boolean> {
    const realNow = this.deps.clock.now();
    const rows = await this.deps.db.query(
      `UPDATE test_clocks SET offset_ms = $3, advance_reached = $4, advance_ran = $5::jsonb, advance_lease = $6, updated_at = $7,
              advance_state = CASE WHEN $8::boolean THEN 'ready' ELSE advance_state END,
              advance_finished_at = CASE WHEN $8::boolean THEN $7::timestamptz END
        WHERE merchant_id = $1 AND advance_owner = $2 AND advance_state <> 'ready' RETURNING merchant_id`,
      [this.merchantId, this.owner, this.offsetMs, this.reached, this.ran, new Date(realNow.getTime() + LEASE_MS), realNow, done],
    );
    return rows.length === 1;
  }

  private async finished(): Promise<void> {
    this.deps.onMoved?.();
    try {
      // Account-updater reviews due on the moved clock complete now too, not at the next loop round.
      await completeDueReviews(this.deps.db, this.deps.clock.now());
    } catch (err) {
      this.deps.log?.error({ err, merchant_id: this.merchantId }, 'account-updater reviews after a clock advance failed; the outbox loop completes them');
    }
  }

  /** Hands the advance over at once (this process stops, or its worker failed). */
  release(): Promise<unknown> {
    return this.deps.db.query('UPDATE test_clocks SET advance_lease = $3 WHERE merchant_id = $1 AND advance_owner = $2', [this.merchantId, this.owner, new Date(0)]);
  }

  /** The rest of the advance in the background; one worker per merchant and process. */
  spawn(): Promise<void> {
    const local = localOf(this.deps.db);
    const running = local.workers.get(this.merchantId);
    if (running) return running;
    const work = (async () => {
      try {
        if ((await this.step(Infinity)) === 'more') await this.release();
      } catch (err) {
        this.deps.log?.error({ err, merchant_id: this.merchantId }, 'test-clock advance stopped; the next scheduler round takes it over');
        await this.release().catch(() => {});
      } finally {
        local.workers.delete(this.merchantId);
      }
    })();
    local.workers.set(this.merchantId, work);
    return work;
  }
}

type Begun = { job: Advance } | { busy: ClockRow; expired: boolean };

/** Locks the clock row: starts an advance when none is under way, else says which one is. */
function begin(deps: AdvanceDeps, merchantId: string, body: AdvanceInput): Promise<Begun> {
  return deps.db.tx(async (q): Promise<Begun> => {
    const realNow = deps.clock.now();
    await q.query(
      'INSERT INTO test_clocks (merchant_id, offset_ms, updated_at) VALUES ($1, 0, $2) ON CONFLICT (merchant_id) DO NOTHING',
      [merchantId, realNow],
    );
    const row = (await rowOf(q, merchantId, true))!;
    if (row.advance_state !== 'ready') return { busy: row, expired: !row.advance_lease || row.advance_lease < realNow };
    const from = new Date(realNow.getTime() + Number(row.offset_ms));
    const to = targetOf(from, body);
    const owner = randomUUID();
    await q.query(
      `UPDATE test_clocks SET advance_state = 'running', advance_from = $2, advance_to = $3, advance_base = $4, advance_reached = $2,
              advance_ran = $5::jsonb, advance_owner = $6, advance_lease = $7, advance_started_at = $4, advance_finished_at = NULL, updated_at = $4
        WHERE merchant_id = $1`,
      [merchantId, from, to, realNow, emptySummary(), owner, new Date(realNow.getTime() + LEASE_MS)],
    );
    return { job: new Advance(deps, merchantId, owner, from, from, to, realNow, emptySummary()) };
  });
}

/** Takes over an advance whose lease has run out and finishes it in the background here; false when there is none to take. */
async function takeOver(deps: AdvanceDeps, merchantId: string, realNow: Date): Promise<boolean> {
  if (localOf(deps.db).workers.has(merchantId)) return false;
  const owner = randomUUID();
  const [row] = await deps.db.query<ClockRow>(
    `UPDATE test_clocks SET advance_owner = $2, advance_lease = $3, advance_state = 'background'
      WHERE merchant_id = $1 AND advance_state <> 'ready' AND advance_lease < $4 RETURNING ${COLUMNS}`,
    [merchantId, owner, new Date(realNow.getTime() + LEASE_MS), realNow],
  );
  if (!row) return false;
  void Advance.fromRow(deps, merchantId, owner, row).spawn();
  return true;
}

/** Scheduler rounds: takes over the advances nobody holds any more (their node stopped); how many. */
export async function resumeAdvances(deps: AdvanceDeps, realNow: Date): Promise<number> {
  const rows = await deps.db.query<{ merchant_id: string }>(
    `SELECT merchant_id FROM test_clocks WHERE advance_state <> 'ready' AND advance_lease < $1 ORDER BY advance_lease LIMIT 20`, [realNow],
  );
  let n = 0;
  for (const r of rows) if (await takeOver(deps, r.merchant_id, realNow)) n++;
  return n;
}

/** Stops this process's advances after their current chunk and hands them over (shutdown). */
export async function stopAdvances(db: Db): Promise<void> {
  const local = localOf(db);
  local.generation++;
  await Promise.all([...local.workers.values(), ...local.inline.values()].map((p) => p.catch(() => {})));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET /test_helpers/clock: the clock; an advance nobody holds any more is taken over here. `wait`: answers once no advance is under way. */
export async function clockStatus(deps: AdvanceDeps, merchantId: string, opts: { wait?: boolean } = {}): Promise<TestClock> {
  const local = localOf(deps.db);
  const generation = local.generation;
  for (;;) {
    const realNow = deps.clock.now();
    const row = await rowOf(deps.db, merchantId);
    // A process that is stopping its advances neither takes one over nor keeps a request waiting.
    const stopping = local.generation !== generation;
    if (!stopping && row && row.advance_state !== 'ready' && (!row.advance_lease || row.advance_lease < realNow)) await takeOver(deps, merchantId, realNow);
    if (!opts.wait || stopping || !row || row.advance_state === 'ready') return clockOf(row, realNow);
    const mine = local.workers.get(merchantId) ?? local.inline.get(merchantId);
    if (mine) await mine.catch(() => {});
    else await sleep(POLL_MS);
  }
}

export interface Advanced extends Omit<TestClock, 'advance'> {
  previous: Date;
  to: Date;
  ran: RunSummary;
}

/**
 * POST /test_helpers/clock/advance. Starts an advance (CLOCK03 while another one of this merchant
 * is in the background; waits while one is inside its request), runs up to SYNC_RUNS of it here
 * and answers it done; a longer one goes on in the background and answers `advancing: true` with
 * how far it got, unless `wait`, which answers when it is done.
 */
export async function advanceTestClock(
  deps: AdvanceDeps, merchantId: string, body: AdvanceInput, opts: { wait?: boolean } = {},
): Promise<Advanced> {
  const local = localOf(deps.db);
  let job: Advance;
  for (;;) {
    const b = await begin(deps, merchantId, body);
    if ('job' in b) {
      job = b.job;
      break;
    }
    if (b.busy.advance_state === 'background' || b.expired) {
      if (b.expired) await takeOver(deps, merchantId, deps.clock.now());
      const { advance_to: to, advance_reached: reached } = b.busy;
      throw new GatewayError(E.CLOCK_BUSY, `the test clock is advancing to ${to?.toISOString()} and has reached ${reached?.toISOString()}; `
        + 'GET /test_helpers/clock shows its progress (?wait=true answers when it is done); advance again after that');
    }
    // Inside another request: that one answers within SYNC_RUNS runs, done or in the background.
    const mine = local.inline.get(merchantId);
    if (mine) await mine.catch(() => {});
    else await sleep(POLL_MS);
  }

  // The part inside this request; it ends done, or with the advance handed to a background worker.
  const inline = (async (): Promise<{ outcome: 'done' | 'lost' | 'background'; worker?: Promise<void> }> => {
    try {
      const outcome = await job.step(SYNC_RUNS);
      if (outcome !== 'more') return { outcome };
      const moved = await deps.db.query(
        `UPDATE test_clocks SET advance_state = 'background' WHERE merchant_id = $1 AND advance_owner = $2 AND advance_state = 'running' RETURNING 1`,
        [merchantId, job.owner],
      );
      deps.onMoved?.();
      if (moved.length === 0) return { outcome: 'lost' };
      if (!job.stale) return { outcome: 'background', worker: job.spawn() };
      await job.release(); // this process is stopping: the next scheduler round, here or elsewhere, goes on
      return { outcome: 'background' };
    } catch (err) {
      await job.release().catch(() => {});
      throw err;
    }
  })();
  local.inline.set(merchantId, inline);
  let part: Awaited<typeof inline>;
  try {
    part = await inline;
  } finally {
    if (local.inline.get(merchantId) === inline) local.inline.delete(merchantId);
  }
  const done = { previous: job.from, to: job.to, now: job.to, offset_ms: job.to.getTime() - job.base.getTime(), real_now: job.base, advancing: false };
  if (part.outcome === 'done') return { ...done, ran: job.ran };
  if (opts.wait && !job.stale) {
    await part.worker;
    // Finished here, or by another node that took it over: the row has the whole summary then.
    const c = await clockStatus(deps, merchantId, { wait: true });
    const same = c.advance?.started_at.getTime() === job.base.getTime() && c.advance.to.getTime() === job.to.getTime();
    if (!c.advancing) return { ...done, ran: same ? c.advance!.ran : job.ran };
  }
  return { previous: job.from, to: job.to, now: job.reached, offset_ms: job.offsetMs, real_now: job.base, ran: { ...job.ran }, advancing: true };
}
