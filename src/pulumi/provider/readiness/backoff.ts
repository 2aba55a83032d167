/**
 * The pause before reconnecting to the API server after a watch that ended at once, a 410 (the
 * resourceVersion expired) or a retried error: doubling from the base up to a cap, so a server or
 * proxy that closes every stream at once, or answers every watch with 410, sees a few requests a
 * minute instead of hundreds a second. client-go's reflector does the same (800 ms doubling to
 * 30 s). The jitter spreads the gates of many releases that lost the same API server, so they do
 * not all come back in the same instant.
 */

/** A number in [0, 1), as `Math.random` returns; tests pass a constant. */
export type JitterSource = () => number;

export class Backoff {
  private failures = 0;

  constructor(
    /** The first pause, in milliseconds. */
    private readonly baseMs: number,
    /** The longest pause, in milliseconds. */
    private readonly maxMs: number,
    private readonly jitter: JitterSource,
  ) {}

  /**
   * The pause before the next attempt, one more failure in a row: `base·2^(n−1)` capped at the
   * maximum, of which the jitter keeps between half and all ("equal jitter": never less than half,
   * so the growth is kept whatever the source returns).
   * @param firstIsFree - the first failure in a row gets no pause (a 410 after a healthy stream is
   *   the ordinary end of a long watch: relist at once)
   */
  public next(firstIsFree = false): number {
    this.failures++;
    if (firstIsFree && this.failures === 1) return 0;
    const n = firstIsFree ? this.failures - 1 : this.failures;
    const full = Math.min(this.maxMs, this.baseMs * 2 ** Math.min(n - 1, 40));
    const r = this.jitter();
    const unit = Number.isFinite(r) ? Math.min(1, Math.max(0, r)) : 1;
    return full / 2 + (full / 2) * unit;
  }

  /** After a healthy stream: the next failure starts from the base again. */
  public reset(): void {
    this.failures = 0;
  }

  /** Failures in a row so far. */
  public get streak(): number {
    return this.failures;
  }
}
