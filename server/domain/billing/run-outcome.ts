import type { Queryable } from '../../db/index.js';
import { resolveBilling } from './billings.js';
import { resolveScheduled } from './scheduled.js';
import type { Transaction } from '../payments/transactions.js';

/**
 * What a live charge's final outcome resolves besides the charge: the billing or scheduled
 * transaction whose run made it, if any (each finds nothing for any other charge). Recorded in the
 * transaction that records the outcome (charge-finish.ts, recordOutcome). Billing sits above
 * payments (server/domain/README.md), so the callers above the domain pass this down: the charge
 * and billing routes, the scheduler's runs, and every reconciler (ReconcileDeps.resolveRuns).
 */
export async function resolveRuns(q: Queryable, txn: Transaction, now: Date): Promise<void> {
  await resolveBilling(q, txn, now);
  await resolveScheduled(q, txn, now);
}
