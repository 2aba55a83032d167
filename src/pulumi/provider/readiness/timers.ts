/**
 * Timers that survive long delays. Node fires a `setTimeout` above 2^31-1 ms (about 24.8 days)
 * after 1 ms instead, so a far deadline would fire at once; these re-arm in steps instead.
 */

/** The longest delay Node's timers take as given. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay Node takes as given: at most {@link MAX_TIMER_MS}, never negative or NaN. */
export function clampDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}

/**
 * Calls `fn` once `ms` have passed, however long that is; returns the function that cancels it.
 * The timer does not keep the process alive when `unref` is set.
 */
export function setLongTimeout(fn: () => void, ms: number, options: { readonly unref?: boolean | undefined } = {}): () => void {
  const due = Date.now() + Math.max(0, ms);
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = due - Date.now();
    timer = setTimeout(left > MAX_TIMER_MS ? arm : fn, clampDelay(left));
    if (options.unref) timer.unref();
  };
  arm();
  return () => {
    if (timer !== undefined) clearTimeout(timer);
  };
}
