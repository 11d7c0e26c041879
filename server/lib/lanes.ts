/**
 * Work under way beside a loop's next steps, a few at a time: a step is started only when a lane is
 * free (`free()`), and the loop ends when all are done (`idle()`). A failed piece of work frees its
 * lane (its own code owns its errors). Live runs' processor calls (jobs/runs.ts) and the
 * reconciler's lookups (domain/payments/reconcile.ts) go this way, so one slow processor holds a loop for
 * its calls several at a time, not one by one.
 */
export class Lanes {
  private readonly running = new Set<Promise<unknown>>();
  constructor(private readonly limit: number) {}

  async free(): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
  }

  add(work: Promise<unknown>): void {
    const done: Promise<unknown> = work.catch(() => {}).finally(() => this.running.delete(done));
    this.running.add(done);
  }

  async idle(): Promise<void> {
    await Promise.all(this.running);
  }
}
