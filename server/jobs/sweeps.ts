import type { Db } from '../db/index.js';
import { listDueReceipts, sendDueReceipt } from '../domain/documents/receipts.js';
import { completeReview, listDueReviews } from '../domain/instruments/updater.js';

// Background tasks of the outbox worker's round (start.ts). Each piece of work gets a transaction
// of its own, so one that fails leaves the others done.

/**
 * Makes the receipts a charge asked for that no request made (the process stopped between the
 * charge's commit and its receipt). Returns how many it made.
 */
export async function sweepDueReceipts(db: Db, now: Date): Promise<number> {
  let made = 0;
  for (const r of await listDueReceipts(db, now)) {
    if (await db.tx((q) => sendDueReceipt(q, { merchantId: r.merchant_id, env: r.env }, r.id, now))) made++;
  }
  return made;
}

/**
 * Completes the account-updater reviews that are due, each on its merchant's clock. Several
 * processes may run it at once (the review skips a locked batch). Returns how many it completed.
 */
export async function completeDueReviews(db: Db, realNow: Date, limit = 100): Promise<number> {
  let completed = 0;
  for (const d of await listDueReviews(db, realNow, limit)) {
    if (await db.tx((q) => completeReview(q, d.scope, d.id, d.now))) completed++;
  }
  return completed;
}
