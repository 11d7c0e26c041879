import type { Clock } from '../clock.js';
import { Db } from '../db/index.js';
import { DispatchResult, dispatchEvents } from '../domain/dispatch.js';
import { Loop } from '../lib/loop.js';

// The webhook dispatcher: turns undispatched events into deliveries (domain/dispatch.ts,
// dispatchEvents: claim with FOR UPDATE SKIP LOCKED, match, queue, mark dispatched, one
// transaction). Delivery itself is the callback queue's (jobs/callbacks.ts, run by the scheduler)
// for webhooks and the outbox's for email and SMS; `onQueued` kicks them.

export interface DispatcherOptions {
  db: Db;
  clock: Clock;
  /** Events claimed per transaction. */
  batchSize?: number;
  /** Called after a round that queued work: e.g. kick the scheduler (callbacks) and the outbox. */
  onQueued?: (r: DispatchResult) => void;
  log?: { error(obj: object, msg?: string): void };
}

export class WebhookDispatcher {
  log: DispatcherOptions['log'];
  // Kicked after every private-key write (app.ts): at once when idle, at most 100 rounds a second under load.
  private readonly loop = new Loop(
    () => this.runOnce(),
    (err) => this.log?.error({ err }, 'webhook dispatch round failed; retrying next round'),
    { minGapMs: 10 },
  );

  constructor(private readonly opts: DispatcherOptions) {
    this.log = opts.log;
  }

  /** Dispatches every undispatched event (batch after batch) at `now`; tests call this instead of sleeping. */
  async runOnce(now: Date = this.opts.clock.now()): Promise<DispatchResult> {
    const total: DispatchResult = { events: 0, deliveries: 0, webhooks: 0, messages: 0 };
    const size = this.opts.batchSize ?? 100;
    for (let i = 0; i < 10_000; i++) {
      const r = await this.opts.db.tx((q) => dispatchEvents(q, now, size));
      for (const k of Object.keys(total) as (keyof DispatchResult)[]) total[k] += r[k];
      if (r.events < size) break;
    }
    if (total.deliveries > 0) this.opts.onQueued?.(total);
    return total;
  }

  /** A round every intervalMs, and one soon after kick(); rounds never overlap. */
  start(intervalMs = 2000): void {
    this.loop.start(intervalMs);
  }

  /** A request may just have written an event: dispatch without waiting for the next round. */
  kick(): void {
    this.loop.kick();
  }

  /** Stops the loop and waits for a round in progress. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
