/**
 * Building thousands of resources with short stack traces.
 *
 * Pulumi's SDK wraps every internal promise in a "debuggable promise" that captures a stack trace
 * when it is made (`new Error().stack`, several per input property of every resource): about half
 * of the time a large program spends. Those traces are read in one place only, the promise leak
 * report that `PULUMI_DEBUG_PROMISE_LEAKS` turns on. While `ManifestDeployment` builds its
 * resources, V8's `Error.stackTraceLimit` is therefore 0, so each capture costs nothing, and it
 * is restored as soon as the resources are built (or building them threw). Building is
 * synchronous, so no other code runs with the lower limit, except the user's own code that
 * Pulumi calls while it creates a resource: the `transformations` of the component, of its
 * parents and of the stack. Those run with the limit the program had, so that an error they
 * throw keeps its stack.
 *
 * What this does not change: a resource's source position and the stack trace the SDK sends the
 * engine with each registration come from `Resource.callsites()`, which raises the limit to
 * `Infinity` for its own capture and then restores it, so they are the same with or without the
 * lower limit. Outputs resolved later (`apply` callbacks, a values function among them, and
 * registrations) run after the limit is restored.
 *
 * What it costs: an Error the SDK or armada-cdk creates while the resources are built has no
 * stack frames. That is the error a failed registration reports (the SDK preallocates it when the
 * resource is created), which then reads `failed to register new resource <name> [<type>]:
 * <reason>` with no frames under it; the name is the chart's construct path, which says where it
 * came from. With `PULUMI_DEBUG_PROMISE_LEAKS` set the limit is left alone, so the leak report
 * keeps its traces.
 */
import type * as pulumi from '@pulumi/pulumi';

/** The limit while resources are built: no frames. */
const BUILD_STACK_TRACE_LIMIT = 0;

/**
 * The transformations a resource's children run, in the SDK's own field: every child copies its
 * parent's list when it is created (`Resource`'s constructor, Pulumi 1.x to 3.x).
 */
interface HasTransformations {
  __transformations?: unknown;
}

/**
 * Runs `build` with {@link BUILD_STACK_TRACE_LIMIT}, restoring the previous limit afterwards, even
 * when it throws. `parent` is the component whose children `build` creates: the transformations
 * they inherit from it run with the previous limit.
 */
export function withShortStackTraces<T>(parent: pulumi.Resource, build: () => T): T {
  const previous = Error.stackTraceLimit;
  const lower = !process.env.PULUMI_DEBUG_PROMISE_LEAKS;
  const holder = parent as unknown as HasTransformations;
  const inherited = holder.__transformations;
  // One call of `build` either way, so that the stack traces Pulumi records are the same.
  if (lower) {
    if (Array.isArray(inherited)) holder.__transformations = inherited.map((t: unknown) => withLimit(t, previous));
    Error.stackTraceLimit = BUILD_STACK_TRACE_LIMIT;
  }
  try {
    return build();
  } finally {
    Error.stackTraceLimit = previous;
    if (lower && Array.isArray(inherited)) holder.__transformations = inherited;
  }
}

/** `transformation`, run with the stack trace limit `limit` and then the one it was called with. */
function withLimit(transformation: unknown, limit: number): unknown {
  if (typeof transformation !== 'function') return transformation;
  return function (this: unknown, ...args: unknown[]): unknown {
    const inside = Error.stackTraceLimit;
    Error.stackTraceLimit = limit;
    try {
      return (transformation as (...a: unknown[]) => unknown).apply(this, args);
    } finally {
      Error.stackTraceLimit = inside;
    }
  };
}
