import type { Db } from '../db/index.js';
import { ReconcileDeps, ReconcileSummary, reconcilePending } from '../domain/payments/reconcile.js';
import { Loop } from '../lib/loop.js';
import type { Logger } from './runs.js';

/** How often each node looks for live charges and refunds to reconcile. */
export const RECONCILE_INTERVAL_MS = 30_000;

/**
 * Every node's reconciler (start.ts): a pass over the live charges and refunds whose outcome is
 * not known, or that their processor holds for review, every RECONCILE_INTERVAL_MS. Nodes share
 * the work row by row (domain/payments/reconcile.ts: a claim per row). A pass that fails is logged; the next
 * one starts over.
 */
export class Reconciler {
  private readonly loop = new Loop(
    () => this.pass(),
    (err) => this.log?.error({ err }, 'reconciliation pass failed; retrying next round'),
  );

  /** Where passes are logged (start.ts sets the app's logger). */
  log?: Logger;

  constructor(private readonly deps: ReconcileDeps & { db: Db }) {
    deps.onError ??= (err, id) => this.log?.error({ err, id }, 'reconciliation of one operation failed; it is looked at again later');
  }

  async pass(): Promise<ReconcileSummary> {
    const summary = await reconcilePending(this.deps.db, this.deps, { env: 'live' });
    if (summary.examined > 0) this.log?.info({ reconcile: summary }, 'reconciliation pass');
    return summary;
  }

  start(intervalMs = RECONCILE_INTERVAL_MS): void {
    this.loop.start(intervalMs, intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
