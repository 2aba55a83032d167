/**
 * The deadline of the readiness wait after a Helm release. Armada sets one deadline before
 * `helm install/upgrade` and the wait gets what the release left (`ChartWait`); when the release
 * used all of it, the wait fails at once. Running `armada apply` again finds nothing to change and
 * waits with the whole budget from then (its no-op deployment).
 */

/**
 * How long after the release's budget ran out a wait still counts as part of that deployment:
 * the engine starts the wait seconds after the release ends, and Helm may overrun its own timeout
 * a little. A wait that starts later belongs to another run.
 */
export const SAME_RUN_GRACE_MS = 60_000;

/** What {@link waitDeadline} decides from. */
export interface WaitDeadlineInput {
  /** Epoch ms now. */
  readonly now: number;
  /** `wait.timeout` in seconds. */
  readonly timeoutSeconds: number;
  /** False for a step that deploys the chart again without installing it: a fresh budget. */
  readonly sharesDeadline: boolean;
  /** Epoch ms at which the release's install or upgrade started (Helm's `info.last_deployed`). */
  readonly deployStart?: number | undefined;
  /**
   * Epoch ms at which this process started: a release deployed since then was deployed by this run.
   * @default - the process start (`performance.timeOrigin`)
   */
  readonly runStart?: number | undefined;
}

/**
 * The wait's deadline in epoch ms.
 *
 * - The release's deadline (`deployStart + timeout`) while it is ahead.
 * - When it has passed and the release was deployed by this run (since the process started, or
 *   less than {@link SAME_RUN_GRACE_MS} before its budget ran out): still that deadline, so the
 *   wait fails at once, as Armada's does. The release used the whole budget; a wait with a fresh
 *   one would double the time `wait.timeout` allows.
 * - When it has passed and the release was deployed by an earlier run (a `pulumi up` after a
 *   failed wait, a re-check with `recheckReadiness: 'always'`): the whole budget from now, as
 *   Armada's no-op deployment waits.
 * - No shared deadline (`sharesDeadline` false) or no known start: the whole budget from now.
 */
export function waitDeadline(input: WaitDeadlineInput): number {
  const budget = input.timeoutSeconds * 1000;
  if (!input.sharesDeadline || input.deployStart === undefined) return input.now + budget;
  const shared = input.deployStart + budget;
  if (shared > input.now) return shared;
  const runStart = input.runStart ?? performance.timeOrigin;
  const sameRun = input.deployStart >= runStart || input.now - shared <= SAME_RUN_GRACE_MS;
  return sameRun ? shared : input.now + budget;
}
