// When a Kafka consumer commits its offsets: at most every interval, the last ones by a timer
// (KafkaBus, OFFSET_COMMIT_INTERVAL_MS).

/**
 * Commits a consumer's handled offsets at most every `intervalMs`: the first batch after a
 * quiet interval commits at once, later ones within the interval leave it to a timer that
 * commits whatever has been handled by then. `commit` is the last batch's commit of every
 * resolved offset (kafkajs's own bookkeeping: after a rebalance it holds only the new
 * assignment's offsets).
 */
export class OffsetCommitter {
  private lastCommitAt = 0;
  private timer?: NodeJS.Timeout;
  private pending?: () => Promise<void>;
  private closed = false;

  constructor(
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Offsets were resolved; `commit` commits every resolved one. */
  async resolved(commit: () => Promise<void>): Promise<void> {
    if (this.closed) return;
    this.pending = commit;
    const wait = this.lastCommitAt + this.intervalMs - this.now();
    if (wait <= 0) return this.flush();
    this.arm(wait);
  }

  /** Commits what is pending now (a stop, or the interval's end). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed) return;
    const commit = this.pending;
    this.pending = undefined;
    if (!commit) return;
    this.lastCommitAt = this.now();
    try {
      await commit();
    } catch (error) {
      // Tried again at the interval's end (or with the next batch): the offsets stay resolved.
      this.onError(error);
      this.pending ??= commit;
      this.arm(this.intervalMs);
    }
  }

  /**
   * Commits what is pending, then nothing more (the consumer stops): what its last batch
   * resolves after this is left to the inbox of whoever consumes the partition next.
   */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(wait: number): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, wait);
    this.timer.unref();
  }
}
