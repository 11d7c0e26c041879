/**
 * A background loop of one process: a round every intervalMs, one at once after kick() (a round in
 * progress is followed by another), never two rounds at a time. A failed round is reported and
 * the loop goes on; stop() waits for the round in progress. The rounds themselves are the caller's.
 */
export class Loop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  private intervalMs = 0;

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(intervalMs: number): void {
    if (this.started) return;
    this.started = true;
    this.intervalMs = intervalMs;
    this.schedule(0);
  }

  kick(): void {
    if (!this.started) return;
    if (this.running) this.again = true;
    else this.schedule(0);
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
    this.running = this.round()
      .then(() => undefined, this.onError)
      .finally(() => {
        this.running = null;
        if (!this.started) return;
        this.schedule(this.again ? 0 : this.intervalMs);
        this.again = false;
      });
  }
}
