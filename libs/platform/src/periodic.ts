// A background task that runs every `intervalMs` on a timer that does not keep the process
// alive: one pass at a time (a tick while a pass still runs is skipped, so a slow sweep never
// piles up behind itself), failures logged and retried on the next tick, and `stop()` waits
// for the pass in flight, so a service shuts its pool only after its sweeps have finished.

import type { Logger } from './logging';

export class Periodic {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly pass: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  /** Starts the timer; with `immediately`, also runs a first pass now. */
  start(options: { immediately?: boolean } = {}): this {
    if (this.timer) return this;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
    if (options.immediately) this.tick();
    return this;
  }

  /** Runs a pass now unless one is already running. */
  tick(): void {
    if (this.running) return;
    this.running = this.pass()
      .then(() => undefined)
      .catch((err: unknown) => this.logger.error({ err }, `${this.name} failed`))
      .finally(() => (this.running = undefined));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
