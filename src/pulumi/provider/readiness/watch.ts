/**
 * The readiness gate run after each Helm release: Armada's `ChartWait.wait`, one resource wait after
 * another, in list order, against one deadline shared with the release before it.
 */
import type { SchemaVersion } from '../../../model/spec';
import type { EffectiveWaitResource } from '../../../model/wait';
import { KubeApiClient } from './kube-client';
import { ClusterConfig, resolveKubeConfig } from './kubeconfig';
import { ProgressReporter } from './progress';
import { ResourceWait, ResourceWaitResult, WaitContext } from './resource-wait';
import { checkWaitResource, labelSelector } from './rules';

export type { ResourceWaitResult } from './resource-wait';

/** Options of {@link waitForResources}. */
export interface WaitForResourcesOptions {
  /** The release's namespace: every wait lists and watches there. */
  readonly namespace: string;
  /** What to wait on, in order, with Armada's defaults applied (`effectiveWaitResources`). */
  readonly resources: readonly EffectiveWaitResource[];
  /** The chart's schema version: it decides which pods count and whether waits repeat. */
  readonly schemaVersion: SchemaVersion;
  /**
   * When the whole chart wait must be over, in epoch milliseconds. It is set before the Helm
   * release (Armada sets it before pre-upgrade actions), so the waits get what the release left.
   */
  readonly deadline: number;
  /**
   * The cluster: a `KubeConfig` of `@kubernetes/client-node`, or kubeconfig contents or a path (what
   * the Pulumi Kubernetes provider's `kubeconfig` takes).
   * @default - the default kubeconfig: `KUBECONFIG`, `~/.kube/config`, or in-cluster
   */
  readonly kubeconfig?: ClusterConfig | undefined;
  /**
   * The kubeconfig context, for a kubeconfig given as a string or the default one.
   * @default - the kubeconfig's current context
   */
  readonly context?: string | undefined;
  /**
   * v1 charts: how many consecutive passes without MODIFIED events end a wait (Armada's
   * `k8s_wait_attempts`; values below 1 count as 1). v2 charts always make one pass.
   * @default 1
   */
  readonly waitAttempts?: number | undefined;
  /**
   * v1 charts: pause between passes, in milliseconds (Armada's `k8s_wait_attempt_sleep`, 1 s).
   * @default 1000
   */
  readonly waitAttemptSleepMs?: number | undefined;
  /**
   * Pause before retrying a broken connection or a 5xx, 429 or 401 answer, in milliseconds (Armada
   * retries its wait after 1 s); longer when the server's `Retry-After` asks for more.
   * @default 1000
   */
  readonly retryDelayMs?: number | undefined;
  /**
   * The longest pause between reconnects, in milliseconds. Each reconnect in a row after a watch
   * that ended at once, a 410 answer or a retried error waits twice as long as the one before,
   * from `retryDelayMs` up to this (client-go's reflector caps its backoff at 30 s too); a watch
   * that lasts starts the count again.
   * @default 30000
   */
  readonly maxRetryDelayMs?: number | undefined;
  /**
   * The source of the backoff's jitter: a number in [0, 1) per pause, which keeps between half
   * and all of it, so that the gates of many releases do not reconnect in the same instant.
   * @default Math.random
   */
  readonly jitter?: (() => number) | undefined;
  /**
   * How long a request may receive nothing before it is abandoned and retried; a watch that goes
   * silent for this long is replaced by a fresh LIST. A proxy that stops forwarding keeps the
   * connection open but dead, and only this notices it. The API server sends watch bookmarks
   * about once a minute, so a healthy but quiet watch is rarely replaced.
   * @default 90000
   */
  readonly idleTimeoutMs?: number | undefined;
  /**
   * Longest life of one watch stream, in milliseconds; the next one resumes from the same
   * resourceVersion. The API server is asked to end it then too (`timeoutSeconds`).
   * @default 300000
   */
  readonly maxWatchMs?: number | undefined;
  /**
   * Largest LIST answer accepted, in bytes; a larger one fails the wait (narrow `wait.labels`).
   * @default 268435456 (256 MiB)
   */
  readonly maxListBytes?: number | undefined;
  /**
   * Largest single watch event accepted, in bytes (etcd stores objects of at most about 1.5 MiB).
   * @default 16777216 (16 MiB)
   */
  readonly maxWatchEventBytes?: number | undefined;
  /**
   * Receives progress messages: what is waited for, how many are ready, what was skipped.
   * @default - no progress is reported
   */
  readonly onProgress?: ((message: string) => void) | undefined;
  /**
   * Least time between two status messages of a wait; start, end and skip messages are never held back.
   * @default 10000
   */
  readonly progressIntervalMs?: number | undefined;
  /**
   * Cancels the wait; it then rejects with the signal's reason.
   * @default - the wait cannot be cancelled
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Waits, as Armada does after a release, until each of `resources` is ready, one after the other.
 * Each wait lists the resources of its type matching its labels, and watches them until every
 * included one is ready; a wait that is not required and finds nothing is skipped.
 *
 * @returns how each wait ended, in order
 * @throws ReadinessTimeoutError when the deadline passes first, listing what was not ready
 * @throws InvalidWaitResourceError before waiting on anything, for a resource Armada would reject
 * @throws KubernetesApiError when the API server refuses a request (other than 401, 410, 429 and 5xx, which are handled)
 * @throws ResponseTooLargeError when a LIST answer or watch event exceeds `maxListBytes` or `maxWatchEventBytes`
 */
export async function waitForResources(options: WaitForResourcesOptions): Promise<ResourceWaitResult[]> {
  for (const resource of options.resources) checkWaitResource(resource);
  if (!options.namespace) throw new TypeError('waitForResources: `namespace` is required.');
  if (!Number.isFinite(options.deadline)) throw new TypeError(`waitForResources: \`deadline\` must be epoch milliseconds, got ${options.deadline}.`);
  const signal = options.signal ?? new AbortController().signal;
  signal.throwIfAborted();
  // `wait.resources: []` waits on nothing, so it must not need a cluster either.
  if (options.resources.length === 0) return [];

  const limits = {
    idleMs: positive(options.idleTimeoutMs, 90_000, 'idleTimeoutMs'),
    maxListBytes: positive(options.maxListBytes, 256 * 1024 * 1024, 'maxListBytes'),
    maxEventBytes: positive(options.maxWatchEventBytes, 16 * 1024 * 1024, 'maxWatchEventBytes'),
  };
  const watchMaxMs = positive(options.maxWatchMs, 300_000, 'maxWatchMs');
  const client = new KubeApiClient(await resolveKubeConfig(options.kubeconfig, options.context), limits);
  const progress = new ProgressReporter(options.onProgress, options.progressIntervalMs ?? 10_000);
  const ctx: WaitContext = {
    client,
    namespace: options.namespace,
    schemaVersion: options.schemaVersion,
    deadline: options.deadline,
    waitAttempts: Math.max(1, Math.floor(options.waitAttempts ?? 1)),
    waitAttemptSleepMs: Math.max(0, options.waitAttemptSleepMs ?? 1000),
    retryDelayMs: Math.max(0, options.retryDelayMs ?? 1000),
    maxRetryDelayMs: Math.max(0, options.maxRetryDelayMs ?? 30_000),
    jitter: options.jitter ?? Math.random,
    watchMaxMs,
    signal,
    progress,
  };

  const results: ResourceWaitResult[] = [];
  try {
    for (const [i, resource] of options.resources.entries()) {
      const after = options.resources.slice(i + 1).map((r) => ({ type: r.type, labelSelector: labelSelector(r.labels) }));
      results.push(await new ResourceWait(ctx, resource, after).run());
    }
  } finally {
    progress.dispose();
  }
  return results;
}

function positive(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isFinite(value) && value > 0)) throw new TypeError(`waitForResources: \`${option}\` must be a positive number, got ${value}.`);
  return value;
}
