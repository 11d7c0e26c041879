import type { Clock } from '../clock.js';
import { Db } from '../db/index.js';
import { DispatchResult, dispatchEvents } from '../domain/webhooks.js';

// The webhook dispatcher: turns undispatched events into deliveries (domain/webhooks.ts,
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
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private again = false;
  private started = false;
  private intervalMs = 2000;
  log: DispatcherOptions['log'];

  constructor(private readonly opts: DispatcherOptions) {
    this.log = opts.log;
  }

  /** Dispatches every undispatched event (batch after batch) at `now`; tests call this instead of sleeping. */
  async runOnce(now: Date = this.opts.clock.now()): Promise<DispatchResult> {
    const total: DispatchResult = { events: 0, deliveries: 0, webhooks: 0, messages: 0 };
    const size = this.opts.batchSize ?? 100;
    for (let i = 0; i < 10_000; i++) {
      const r = await dispatchEvents(this.opts.db, now, size);
      for (const k of Object.keys(total) as (keyof DispatchResult)[]) total[k] += r[k];
      if (r.events < size) break;
    }
    if (total.deliveries > 0) this.opts.onQueued?.(total);
    return total;
  }

  /** A round every intervalMs, and one soon after kick(); rounds never overlap. */
  start(intervalMs = 2000): void {
    if (this.started) return;
    this.started = true;
    this.intervalMs = intervalMs;
    this.schedule(0);
  }

  /** A request just wrote an event: dispatch it without waiting for the next round. */
  kick(): void {
    if (!this.started) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.round(), ms);
    this.timer.unref();
  }

  private round(): void {
    this.timer = null;
    this.running = this.runOnce()
      .catch((err) => this.log?.error({ err }, 'webhook dispatch round failed; retrying next round'))
      .finally(() => {
        this.running = null;
        if (!this.started) return;
        this.schedule(this.again ? 0 : this.intervalMs);
        this.again = false;
      });
  }

  /** Stops the loop and waits for a round in progress. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
