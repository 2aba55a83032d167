/**
 * Building thousands of resources with short stack traces.
 *
 * Pulumi's SDK wraps every internal promise in a "debuggable promise" that captures a stack trace
 * when it is made (`new Error().stack`, several per input property of every resource): about half
 * of the time a large program spends. Those traces are read in one place only, the promise leak
 * report that `PULUMI_DEBUG_PROMISE_LEAKS` turns on. While `ManifestDeployment` builds its
 * resources, V8's `Error.stackTraceLimit` is therefore 0, so each capture costs nothing, and it
 * is restored as soon as the resources are built (or building them threw). Building is
 * synchronous, so no other code runs with the lower limit.
 *
 * What this does not change: a resource's source position and the stack trace the SDK sends the
 * engine with each registration come from `Resource.callsites()`, which raises the limit to
 * `Infinity` for its own capture and then restores it, so they are the same with or without the
 * lower limit. Outputs resolved later (`apply` callbacks, registrations) run after the limit is
 * restored.
 *
 * What it costs: an Error created while the resources are built has no stack frames. That is the
 * error a failed registration reports (the SDK preallocates it when the resource is created), which
 * then reads `failed to register new resource <name> [<type>]: <reason>` with no frames under it;
 * the name is the chart's construct path, which says where it came from. It is also any error
 * thrown while they are built, by a `transformations` callback for example. With
 * `PULUMI_DEBUG_PROMISE_LEAKS` set the limit is left alone, so the leak report keeps its traces.
 */

/** The limit while resources are built: no frames. */
const BUILD_STACK_TRACE_LIMIT = 0;

/** Runs `build` with {@link BUILD_STACK_TRACE_LIMIT}, restoring the previous limit afterwards, even when it throws. */
export function withShortStackTraces<T>(build: () => T): T {
  const previous = Error.stackTraceLimit;
  // One call of `build` either way, so that the stack traces Pulumi records are the same.
  if (!process.env.PULUMI_DEBUG_PROMISE_LEAKS) Error.stackTraceLimit = BUILD_STACK_TRACE_LIMIT;
  try {
    return build();
  } finally {
    Error.stackTraceLimit = previous;
  }
}
