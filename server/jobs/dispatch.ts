import type { Clock } from '../clock.js';
import { Db } from '../db/index.js';
import { DispatchResult, dispatchEvents, hasWebhookRules } from '../domain/dispatch.js';
import type { Scope } from '../domain/keys.js';
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
  /** How long kick(scope) trusts its last answer to "does this merchant environment have rules?". Default 1 s. */
  listenersTtlMs?: number;
}

/** Merchant environments whose "has rules" answer is kept, at most (then all are asked again). */
const MAX_LISTENERS = 10_000;

export class WebhookDispatcher {
  log: DispatcherOptions['log'];
  // Kicked after every private-key write (app.ts): at once when idle, at most 100 rounds a second under load.
  private readonly loop = new Loop(
    () => this.runOnce(),
    (err) => this.log?.error({ err }, 'webhook dispatch round failed; retrying next round'),
    { minGapMs: 10 },
  );

  /** Per merchant environment: whether it had webhook rules when last asked, and when. */
  private readonly listening = new Map<string, { at: number; yes: boolean }>();
  private readonly asking = new Set<string>();
  /** Bumped by rulesChanged: an answer asked for before a change is used once, not kept. */
  private epoch = 0;

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

  /**
   * A request may just have written an event: dispatch without waiting for the next round. With
   * the request's `scope`, only when that merchant environment has webhook rules: without one its
   * events are recorded dispatched (domain/events.ts, eventInsert) and a round would be three
   * statements for nothing. The answer is kept listenersTtlMs; a rule made on another node is seen within
   * that, and its first events meanwhile wait for the next round. rulesChanged() forgets it at once.
   */
  kick(scope?: Scope): void {
    if (!scope) return this.loop.kick();
    const key = `${scope.merchantId}/${scope.env}`;
    const known = this.listening.get(key);
    if (known && Date.now() - known.at < (this.opts.listenersTtlMs ?? 1000)) {
      if (known.yes) this.loop.kick();
      return;
    }
    // One question at a time per merchant environment; its answer kicks for the requests meanwhile.
    if (this.asking.has(key)) return;
    this.asking.add(key);
    const epoch = this.epoch;
    hasWebhookRules(this.opts.db, scope).then(
      (yes) => {
        if (this.listening.size >= MAX_LISTENERS) this.listening.clear();
        if (epoch === this.epoch) this.listening.set(key, { at: Date.now(), yes });
        if (yes) this.loop.kick();
      },
      () => this.loop.kick(),
    ).finally(() => this.asking.delete(key));
  }

  /** The rules of `scope` changed through this node: the next kick(scope) asks again. */
  rulesChanged(scope: Scope): void {
    this.epoch++;
    this.listening.delete(`${scope.merchantId}/${scope.env}`);
  }

  /** Stops the loop and waits for a round in progress. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
