import { printable } from '../../../model/safe-text';
import { clampDelay } from './timers';

/**
 * Progress messages for a long wait: milestones go out at once; status updates at most once per
 * interval, and the latest one is delivered when the interval ends, so the log shows where the
 * wait stands without a line per watch event.
 */
export class ProgressReporter {
  private lastStatus = -Infinity;
  private pending: string | undefined;
  private lastText: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: ((message: string) => void) | undefined,
    private readonly intervalMs: number,
  ) {}

  /** A message that always goes out (start, done, skipped); it supersedes a pending status. */
  public milestone(message: string): void {
    this.dispose();
    this.emit(message);
  }

  /** A status that may be coalesced with the next ones; repeated identical statuses are dropped. */
  public status(message: string): void {
    if (message === this.lastText) {
      // Back where the log last left it: nothing new to say.
      this.pending = undefined;
      return;
    }
    const wait = this.lastStatus + this.intervalMs - Date.now();
    if (wait <= 0 && this.timer === undefined) {
      this.emitStatus(message);
      return;
    }
    this.pending = message;
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, clampDelay(wait));
      this.timer.unref();
    }
  }

  /** Delivers the pending status now, if any. */
  public flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const message = this.pending;
    this.pending = undefined;
    if (message !== undefined) this.emitStatus(message);
  }

  /** Drops the pending status (the wait is over, a milestone or an error says how). */
  public dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }

  private emitStatus(message: string): void {
    // Only statuses count towards the interval: the first status after a milestone goes out at once.
    this.lastStatus = Date.now();
    this.emit(message);
  }

  private emit(message: string): void {
    this.lastText = message;
    if (!this.sink) return;
    try {
      // Status messages quote what the cluster says of its objects: escaped, one line each.
      this.sink(printable(message));
    } catch {
      // A failing logger must not fail the deployment it reports on.
    }
  }
}
