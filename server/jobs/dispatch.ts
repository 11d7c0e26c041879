import { Db } from '../db/index.js';
import { DispatchResult, dispatchEvents, listeningModes } from '../domain/events/dispatch.js';
import type { Scope } from '../domain/merchant/keys.js';
import type { Mode } from '../domain/events/strategies.js';

// What is left of the webhook dispatcher now that an event's deliveries are queued as it is
// recorded (domain/events/events.ts, withEvent; domain/events/dispatch.ts, fanOut): waking the delivery loops
// after a request that may have queued some (DeliveryWake), and the events a gateway version
// before issue 27 left undispatched (dispatchLeftovers, run by the scheduler's rounds and settle).

export interface WakeOptions {
  db: Db;
  /** Wakes the loops that deliver what a request of a listening environment may have queued. */
  onQueued: (what: { webhooks: boolean; messages: boolean }) => void;
  /** How long kick(scope) trusts its last answer to "which modes listen in this environment?". Default 1 s. */
  listenersTtlMs?: number;
}

/** Merchant environments whose answer is kept, at most (then all are asked again). */
const MAX_LISTENERS = 10_000;

const wakes = (modes: Mode[]) => ({ webhooks: modes.includes('webhook'), messages: modes.some((m) => m !== 'webhook') });

/**
 * Kicked after every private-key write (app.ts), in both environments: wakes the callback
 * deliverer when the request's merchant environment has a rule related to a webhook strategy, the
 * outbox when to an email or SMS one; nothing where no rule listens (a Map lookup, and one
 * question per environment per listenersTtlMs). A rule made on another node is seen within the
 * TTL (its first deliveries meanwhile wait for the loops' own rounds); rulesChanged() forgets the
 * answer at once. kick() without a scope (a run that may have queued deliveries) wakes both.
 */
export class DeliveryWake {
  /** Per merchant environment: what listened when last asked, and when. */
  private readonly listening = new Map<string, { at: number; modes: Mode[] }>();
  private readonly asking = new Set<string>();
  /** Bumped by rulesChanged: an answer asked for before a change is used once, not kept. */
  private epoch = 0;

  constructor(private readonly opts: WakeOptions) {}

  kick(scope?: Scope): void {
    if (!scope) return this.wake(['webhook', 'email']);
    const key = `${scope.merchantId}/${scope.env}`;
    const known = this.listening.get(key);
    if (known && Date.now() - known.at < (this.opts.listenersTtlMs ?? 1000)) return this.wake(known.modes);
    // One question at a time per merchant environment; its answer wakes for the requests meanwhile.
    if (this.asking.has(key)) return;
    this.asking.add(key);
    const epoch = this.epoch;
    listeningModes(this.opts.db, scope).then(
      (modes) => {
        if (this.listening.size >= MAX_LISTENERS) this.listening.clear();
        if (epoch === this.epoch) this.listening.set(key, { at: Date.now(), modes });
        this.wake(modes);
      },
      () => this.wake(['webhook', 'email']),
    ).finally(() => this.asking.delete(key));
  }

  /** The rules or strategies of `scope` changed through this node: the next kick(scope) asks again. */
  rulesChanged(scope: Scope): void {
    this.epoch++;
    this.listening.delete(`${scope.merchantId}/${scope.env}`);
  }

  private wake(modes: Mode[]): void {
    const what = wakes(modes);
    if (what.webhooks || what.messages) this.opts.onQueued(what);
  }
}

/**
 * Fans out the events left undispatched (dispatchEvents), batch after batch, each batch in a
 * transaction of its own; `now` (real time) is when they are marked dispatched. With none, one
 * probe of the partial index events_undispatched (empty) and no transaction.
 */
export async function dispatchLeftovers(db: Db, now: Date, batchSize = 100): Promise<DispatchResult> {
  const total: DispatchResult = { events: 0, deliveries: 0, webhooks: 0, messages: 0 };
  if ((await db.query('SELECT 1 FROM events WHERE dispatched_at IS NULL LIMIT 1')).length === 0) return total;
  for (let i = 0; i < 10_000; i++) {
    const r = await db.tx((q) => dispatchEvents(q, now, batchSize));
    for (const k of Object.keys(total) as (keyof DispatchResult)[]) total[k] += r[k];
    if (r.events < batchSize) break;
  }
  return total;
}
