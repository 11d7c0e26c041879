/**
 * At most `slots` tasks at a time, and one per key. A task whose key is already running or waiting
 * is refused at once (`busy()` is thrown); the others wait for a slot in arrival order, holding
 * nothing meanwhile (no connection, no transaction). A waiting task whose signal aborts leaves the
 * queue and throws the signal's reason. Used by the test reset (domain/merchant/reset.ts): one reset per
 * merchant environment, and never more of the connection pool than its share.
 */
export class Gate {
  private running = 0;
  private readonly keys = new Set<string>();
  private readonly waiting: (() => void)[] = [];

  constructor(readonly slots: number) {
    if (!(slots >= 1)) throw new Error('a gate needs at least one slot');
  }

  /** Whether a task of this key runs or waits now. */
  holds(key: string): boolean {
    return this.keys.has(key);
  }

  /** Tasks running now, and waiting for a slot. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(key: string, task: () => Promise<T>, opts: { busy: () => Error; signal?: AbortSignal }): Promise<T> {
    if (this.keys.has(key)) throw opts.busy();
    this.keys.add(key);
    try {
      await this.acquire(opts.signal);
      try {
        return await task();
      } finally {
        this.release();
      }
    } finally {
      this.keys.delete(key);
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.running < this.slots) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener('abort', leave);
        this.running++;
        resolve();
      };
      const leave = () => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal!.reason);
      };
      this.waiting.push(turn);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}
