/**
 * A background loop of one process: a round every intervalMs, one at once after kick() (a round in
 * progress is followed by another), never two rounds at a time. A failed round is reported and
 * the loop goes on; stop() waits for the round in progress. The rounds themselves are the caller's.
 * `minGapMs` spaces the starts of kicked rounds: a loop kicked by every request runs at once when
 * idle, and at most 1000/minGapMs rounds a second under load (each round takes what queued meanwhile).
 */
export class Loop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** The timer set is a kicked round's (not the interval's): further kicks leave it. */
  private kicked = false;
  private started = false;
  private intervalMs = 0;
  private lastStart = 0;

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
    private readonly opts: { minGapMs?: number } = {},
  ) {}

  /** How long a kicked round waits: until minGapMs after the last round started. */
  private gap(): number {
    return Math.max(0, this.lastStart + (this.opts.minGapMs ?? 0) - Date.now());
  }

  /** The first round runs after `firstMs` (at once by default), then one every intervalMs. */
  start(intervalMs: number, firstMs = 0): void {
    if (this.started) return;
    this.started = true;
    this.intervalMs = intervalMs;
    this.schedule(firstMs);
  }

  kick(): void {
    if (!this.started) return;
    if (this.running) this.again = true;
    else if (!this.timer || !this.kicked) {
      this.kicked = true;
      this.schedule(this.gap());
    }
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), ms);
    this.timer.unref();
  }

  private run(): void {
    this.timer = null;
    this.kicked = false;
    this.lastStart = Date.now();
    this.running = this.round()
      .then(() => undefined, this.onError)
      .finally(() => {
        this.running = null;
        if (!this.started) return;
        this.kicked = this.again;
        this.schedule(this.again ? this.gap() : this.intervalMs);
        this.again = false;
      });
  }
}
