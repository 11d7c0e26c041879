import { CallbackDeliverer, DelivererOptions } from './deliverer.js';
import { dispatchLeftovers } from './dispatch.js';
import { Loop } from '../lib/loop.js';
import { JobDeps, RunSummary, runDue, serial } from './runs.js';
import { resumeAdvances, stopAdvances } from './test-clock.js';

// The scheduler: one loop per server process. A round runs the due work of every merchant
// environment (runs.ts: each run claimed with FOR UPDATE SKIP LOCKED in a transaction of its own,
// so several processes on one PostgreSQL never bill the same run twice), fans out events an older
// gateway version left undispatched, and takes over test-clock advances whose node stopped holding
// them (test-clock.ts). Callbacks (webhook deliveries, billing callbacks) have a loop of their own,
// started and stopped with it: the deliverer (deliverer.ts), which kick() wakes.

export * from './runs.js';

export interface SchedulerOptions {
  /** Pause between rounds. Default 5 s. */
  intervalMs?: number;
  /** The callback deliverer's concurrency, per-merchant cap and attempt options. */
  delivery?: DelivererOptions;
  /** Pause between the deliverer's own claims when nothing kicks it (retries falling due). Default 1 s. */
  deliveryIntervalMs?: number;
  /** Called after a round that ran recurring work (its events' email and SMS deliveries: start.ts wakes the outbox). */
  onRan?: () => void;
}

/**
 * The per-process loop: a round runs what is due (runDue), fans out leftover events and takes over
 * the test-clock advances nobody holds any more (they then run in the background, not in the
 * round). Rounds never overlap; start() and stop() are for startTessera; tests call tick() or runDue().
 */
export class Scheduler {
  private readonly loop = new Loop(
    () => this.tick(),
    (err) => this.deps.log?.error({ err }, 'scheduler round failed; retrying next round'),
  );

  /** The process's callback deliverer: started, kicked and stopped with the scheduler. */
  readonly callbacks: CallbackDeliverer;

  constructor(readonly deps: JobDeps, private readonly opts: SchedulerOptions = {}) {
    this.callbacks = new CallbackDeliverer(deps, opts.delivery);
  }

  /** One round now (serialised with any other round of this process). */
  tick(realNow?: Date): Promise<{ ran: RunSummary; resumed: number }> {
    return serial(this.deps.db, async () => {
      const now = realNow ?? this.deps.clock.now();
      const ran = await runDue(this.deps, now);
      // The runs' events may have queued deliveries and the billings callbacks.
      if (Object.values(ran).some((n) => n > 0)) {
        this.opts.onRan?.();
        this.callbacks.kick();
      }
      const left = await dispatchLeftovers(this.deps.db, now);
      if (left.webhooks) this.callbacks.kick();
      if (left.messages) this.deps.notify?.kick();
      const resumed = await resumeAdvances({
        ...this.deps,
        onBilled: () => {
          this.kick();
          this.deps.notify?.kick();
        },
      }, now);
      return { ran, resumed };
    });
  }

  start(): void {
    this.loop.start(this.opts.intervalMs ?? 5000);
    this.callbacks.start(this.opts.deliveryIntervalMs);
  }

  /** A request or a run queued callbacks: the deliverer claims them now. */
  kick(): void {
    this.callbacks.kick();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.callbacks.stop();
    await stopAdvances(this.deps.db);
  }
}
