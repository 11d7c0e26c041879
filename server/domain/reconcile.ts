import type { Db } from '../db/index.js';
import type { Clock } from '../clock.js';
import type { ProcessorRegistry } from '../processor/processor.js';
import type { Vault } from '../vault.js';
import type { Env } from './keys.js';

export interface ReconcileDeps {
  vault: Vault;
  processors: ProcessorRegistry;
  clock: Clock;
}

export interface ReconcileFilter {
  merchantId?: string;
  env?: Env;
}

/** What one pass did: operations examined and how each was resolved. */
export interface ReconcileSummary {
  examined: number;
  /** Found at the processor and recorded as what it says (approved, declined, held, voided). */
  resolved: number;
  /** Not found at the processor past the point it would be: recorded as failed (never charged). */
  not_found: number;
  /** Still unknown (the processor did not answer, or it is too early to call it not found). */
  unresolved: number;
  /** Claimed by another node meanwhile. */
  skipped: number;
}

/** Being built (issue 28): resolves pending charges and refunds by asking their processor. */
export async function reconcilePending(_db: Db, _deps: ReconcileDeps, _filter: ReconcileFilter): Promise<ReconcileSummary> {
  return { examined: 0, resolved: 0, not_found: 0, unresolved: 0, skipped: 0 };
}
