import { deliverCallbacks, DeliveryOptions } from './callbacks.js';
import { Loop } from '../lib/loop.js';
import { JobDeps, RunSummary, runDue, serial } from './runs.js';
import { resumeAdvances, stopAdvances } from './test-clock.js';

// The scheduler: one loop per server process. A round runs the due work of every merchant
// environment (runs.ts: each run claimed with FOR UPDATE SKIP LOCKED in a transaction of its own,
// so several processes on one PostgreSQL never bill the same run twice), delivers due callbacks,
// and takes over test-clock advances whose node stopped holding them (test-clock.ts).

export * from './runs.js';

export interface SchedulerOptions {
  /** Pause between rounds. Default 5 s. */
  intervalMs?: number;
  delivery?: DeliveryOptions;
  /** Called after a round that ran recurring work (its events wait for the webhook dispatcher: start.ts kicks it). */
  onRan?: () => void;
}

/**
 * The per-process loop: a round runs what is due (runDue), delivers due callbacks and takes over
 * the test-clock advances nobody holds any more (they then run in the background, not in the
 * round). Rounds never overlap; start() and stop() are for startTessera; tests call tick() or runDue().
 */
export class Scheduler {
  private readonly loop = new Loop(
    () => this.tick(),
    (err) => this.deps.log?.error({ err }, 'scheduler round failed; retrying next round'),
  );

  constructor(readonly deps: JobDeps, private readonly opts: SchedulerOptions = {}) {}

  /** One round now (serialised with any other round of this process). */
  tick(realNow?: Date): Promise<{ ran: RunSummary; callbacks: Awaited<ReturnType<typeof deliverCallbacks>>; resumed: number }> {
    return serial(this.deps.db, async () => {
      const now = realNow ?? this.deps.clock.now();
      const ran = await runDue(this.deps, now);
      if (Object.values(ran).some((n) => n > 0)) this.opts.onRan?.();
      const callbacks = await deliverCallbacks(this.deps, undefined, this.opts.delivery);
      const resumed = await resumeAdvances({ ...this.deps, onBilled: () => this.kick() }, now);
      return { ran, callbacks, resumed };
    });
  }

  start(): void {
    this.loop.start(this.opts.intervalMs ?? 5000);
  }

  /** Asks for a round soon (e.g. a request queued a callback). */
  kick(): void {
    this.loop.kick();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await stopAdvances(this.deps.db);
  }
}
