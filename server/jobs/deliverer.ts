import { Loop } from '../lib/loop.js';
import { CallbackDeps, CallbackRow, DeliveryOptions, claimCallbacks, deliverOne, scopeKey } from './callbacks.js';

// The process's callback deliverer (webhook deliveries and billing callbacks): it keeps up to
// `concurrency` requests in flight, at most `perScope` of each merchant environment, and claims
// more whenever one ends and whenever it is kicked (a request or a run queued callbacks), so a
// merchant's webhooks leave as fast as its endpoint answers, not a few per round. The cap per
// merchant environment is what keeps merchants apart: one merchant's backlog or hanging endpoint
// holds at most `perScope` of the slots, and the others' callbacks are claimed past it.

export interface DelivererOptions extends Pick<DeliveryOptions, 'maxAttempts' | 'timeoutMs' | 'leaseMs' | 'backoff'> {
  /** Requests in flight at once, every merchant together (default 64). */
  concurrency?: number;
  /** Requests in flight at once per merchant environment (default 4). */
  perScope?: number;
  /** Kicked claims start at most this often (default 5 ms): a kick per request stays one claim per gap under load. */
  minGapMs?: number;
}

export class CallbackDeliverer {
  /** Requests in flight, per merchant environment (scopeKey). */
  private readonly busy = new Map<string, number>();
  private inFlight = 0;
  private readonly sending = new Set<Promise<void>>();
  private readonly loop: Loop;

  constructor(private readonly deps: CallbackDeps & { log?: { error(obj: object, msg?: string): void } }, private readonly opts: DelivererOptions = {}) {
    this.loop = new Loop(
      () => this.fill(),
      (err) => this.deps.log?.error({ err }, 'claiming callbacks failed; trying again next round'),
      { minGapMs: opts.minGapMs ?? 5 },
    );
  }

  /**
   * Claims every `intervalMs` (retries falling due, callbacks another node queued) and whenever
   * kicked or a request ends; claims never overlap.
   */
  start(intervalMs = 1000): void {
    this.loop.start(intervalMs);
  }

  /** Callbacks may have been queued: claim soon. */
  kick(): void {
    this.loop.kick();
  }

  /** Requests in flight now, all merchant environments together, or one (`merchant/env`). */
  inFlightNow(key?: string): number {
    return key === undefined ? this.inFlight : (this.busy.get(key) ?? 0);
  }

  /** Stops claiming and waits for the requests in flight (each under its own deadline). */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.all([...this.sending]);
  }

  /**
   * Claims due callbacks while there is room: at most the free slots, at most each merchant
   * environment's free share of `perScope`, round-robin across environments, and sends each at
   * once. Returns when nothing more can be claimed now; each request that ends kicks the next claim.
   */
  async fill(): Promise<number> {
    const { concurrency = 64, perScope = 4, leaseMs } = this.opts;
    let claimed = 0;
    for (;;) {
      const room = concurrency - this.inFlight;
      if (room <= 0) return claimed;
      const now = this.deps.clock.now();
      const rows = await claimCallbacks(this.deps, now, { limit: room, perScope, leaseMs, busy: Object.fromEntries(this.busy) });
      for (const row of rows) this.send(row, now);
      claimed += rows.length;
      // Fewer than the room: nothing else is due, or what is waiting belongs to environments at their cap.
      if (rows.length < room) return claimed;
    }
  }

  private send(row: CallbackRow, now: Date): void {
    const key = scopeKey(row);
    this.busy.set(key, (this.busy.get(key) ?? 0) + 1);
    this.inFlight++;
    const done = deliverOne(this.deps, row, now, this.opts)
      .then(() => undefined, (err) => {
        // Not recorded (a database error): the lease runs out and the callback is claimed again.
        this.deps.log?.error({ err, callback_id: row.id }, 'callback attempt not recorded; retried when its lease ends');
      })
      .finally(() => {
        const left = (this.busy.get(key) ?? 1) - 1;
        if (left > 0) this.busy.set(key, left);
        else this.busy.delete(key);
        this.inFlight--;
        this.sending.delete(done);
        this.loop.kick();
      });
    this.sending.add(done);
  }
}
