/**
 * Armada's readiness and exclusion rules (`armada/handlers/wait.py` at HEAD), as pure functions of
 * Kubernetes objects in the JSON form the API server returns. No I/O: the watch loop feeds them.
 *
 * Where Armada reads a field that may be unset it writes `x or 0`; the `?? 0` below are that.
 */
import { SchemaVersion } from '../../../model/spec';
import { MinReady, minReadyThreshold, ParsedMinReady, parseMinReady, WaitResourceType } from '../../../model/wait';
import { InvalidWaitResourceError } from './errors';
import type { Condition, DaemonSet, Deployment, Job, KubeObject, Pod, StatefulSet, UpdateStrategy } from './objects';

/** The verdict of a readiness rule on one object. */
export interface Readiness {
  readonly ready: boolean;
  /** Armada's status message for the object. */
  readonly message: string;
  /**
   * Set when Armada's rule raises `WaitException` ("unlikely to become ready"): the object counts as
   * not ready, and the wait goes on until the deadline, as in Armada.
   */
  readonly unlikely?: string | undefined;
}

/** How a controller is judged. */
export interface ControllerRuleOptions {
  /**
   * How many pods must be ready: a count, or `'N%'` of the controller's pods, rounded up.
   * @default '100%'
   */
  readonly minReady?: MinReady | undefined;
  /**
   * DaemonSets and StatefulSets: accept an update that the controller does not roll out by itself
   * (an OnDelete strategy, or a partitioned StatefulSet rollout).
   * @default false
   */
  readonly allowAsyncUpdates?: boolean | undefined;
}

const ROLLING_UPDATE = 'RollingUpdate';
/** Armada's prefix for the `WaitException` raised on async updates. */
const ASYNC_UPDATE_NOT_ALLOWED = 'Async update not allowed';
const HELM_HOOK_ANNOTATION = 'helm.sh/hook';
// `test-failure` is a Helm 2 hook; Armada still skips it so that leftovers of old test runs are ignored.
const HELM_TEST_HOOKS: readonly string[] = ['test', 'test-success', 'test-failure'];

/**
 * The label selector Armada builds from a wait's labels: comma-joined `k=v`. Keys are sorted so
 * that the same labels always give the same selector (Armada keeps dict order).
 */
export function labelSelector(labels: Readonly<Record<string, string>>): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(',');
}

/** Whether the object has an owner reference, of `kind` when given (Armada's `has_owner`). */
export function hasOwner(obj: KubeObject, kind?: string): boolean {
  return (obj.metadata?.ownerReferences ?? []).some((o) => kind === undefined || o.kind === kind);
}

/**
 * Whether the pod is a Helm test hook (Armada's `is_test_pod`): its `helm.sh/hook` annotation,
 * split on commas with no trimming, names `test`, `test-success` or `test-failure`.
 */
export function isHelmTestPod(pod: Pod): boolean {
  const hooks = pod.metadata?.annotations?.[HELM_HOOK_ANNOTATION];
  return !!hooks && hooks.split(',').some((h) => HELM_TEST_HOOKS.includes(h));
}

/**
 * Why a pod is left out of a pod wait, or undefined when it counts (`PodWait.get_exclude_reason`):
 * Helm test pods; pods whose phase is `Evicted`; in v1 pods owned by a Job, in v2 pods with any owner.
 * `schemaVersion` is the chart document's own (`PlannedRelease.schemaVersion`), not the manifest's:
 * Armada reads `chart['schema']` here, so a v1 chart in a v2 manifest keeps the v1 rule.
 */
export function podExcludeReason(pod: Pod, schemaVersion: SchemaVersion): string | undefined {
  if (isHelmTestPod(pod)) return 'helm test pod';
  // Armada compares the phase itself; a kubelet eviction sets phase Failed with reason Evicted,
  // which this rule (like Armada's) does not catch. Kept as is so the gate agrees with Armada.
  if (pod.status?.phase === 'Evicted') return 'pod was evicted';
  if (schemaVersion < SchemaVersion.V2) {
    return hasOwner(pod, 'Job') ? 'owned by job' : undefined;
  }
  return hasOwner(pod) ? 'owned by another resource' : undefined;
}

/** Why a job is left out of a job wait (`JobWait.get_exclude_reason`): jobs created by a CronJob. */
export function jobExcludeReason(job: Job): string | undefined {
  return hasOwner(job, 'CronJob') ? 'owned by cronjob (not part of release)' : undefined;
}

/** Why an object of a wait type is left out of the wait; undefined when it counts. */
export function excludeReason(type: string, obj: KubeObject, schemaVersion: SchemaVersion): string | undefined {
  if (type === WaitResourceType.POD) return podExcludeReason(obj as Pod, schemaVersion);
  if (type === WaitResourceType.JOB) return jobExcludeReason(obj as Job);
  return undefined;
}

/** A pod is ready when it Succeeded, or is Running with condition `Ready=True`. */
export function podReadiness(pod: Pod): Readiness {
  const name = nameOf(pod);
  const phase = pod.status?.phase;
  if (phase === 'Succeeded') return { ready: true, message: `Pod ${name} succeeded` };
  if (phase === 'Running' && condition(pod.status?.conditions, 'Ready')?.status === 'True') {
    return { ready: true, message: `Pod ${name} ready` };
  }
  return { ready: false, message: `Waiting for pod ${name} to be ready...` };
}

/**
 * A job is ready when `spec.completions` equals `status.succeeded`, compared as Armada does: an
 * unset value is `None`, so a job with neither (a work-queue job that has not succeeded yet) counts
 * as complete, and `0` differs from unset.
 */
export function jobReadiness(job: Job): Readiness {
  const name = nameOf(job);
  const expected = job.spec?.completions ?? null;
  const completed = job.status?.succeeded ?? null;
  if (expected !== completed) return { ready: false, message: `Waiting for job ${name} to be successfully completed...` };
  return { ready: true, message: `job ${name} successfully completed` };
}

/**
 * A deployment is ready when its spec is observed, it has not exceeded its progress deadline, every
 * replica is updated, and `minReady` of the updated replicas are available.
 */
export function deploymentReadiness(deployment: Deployment, options: ControllerRuleOptions = {}): Readiness {
  const minReady = resolveMinReady(options.minReady);
  const name = nameOf(deployment);
  const status = deployment.status ?? {};
  const generation = deployment.metadata?.generation ?? 0;
  const observed = status.observedGeneration ?? 0;
  if (generation > observed) return { ready: false, message: 'Waiting for deployment spec update to be observed...' };

  if (condition(status.conditions, 'Progressing')?.reason === 'ProgressDeadlineExceeded') {
    return { ready: false, message: `deployment ${name} exceeded its progress deadline` };
  }
  const replicas = deployment.spec?.replicas ?? 0;
  const updated = status.updatedReplicas ?? 0;
  const available = status.availableReplicas ?? 0;
  if (updated < replicas) {
    return {
      ready: false,
      message: `Waiting for deployment ${name} rollout to finish: ${updated} out of ${replicas} new replicas have been updated...`,
    };
  }
  if (available < minReadyThreshold(minReady.parsed, updated)) {
    return {
      ready: false,
      message: `Waiting for deployment ${name} rollout to finish: ${available} of ${updated} updated replicas are available, with min_ready=${minReady.source}`,
    };
  }
  return { ready: true, message: `deployment ${name} successfully rolled out` };
}

/**
 * A daemon set is ready when its spec is observed, every scheduled pod is updated, and `minReady`
 * of the desired pods are available. Without `allowAsyncUpdates`, an updated daemon set
 * (`observedGeneration > 1`) whose strategy is not RollingUpdate is unlikely to become ready.
 */
export function daemonSetReadiness(daemonSet: DaemonSet, options: ControllerRuleOptions = {}): Readiness {
  const minReady = resolveMinReady(options.minReady);
  const name = nameOf(daemonSet);
  const status = daemonSet.status ?? {};
  const generation = daemonSet.metadata?.generation ?? 0;
  const observed = status.observedGeneration ?? 0;

  if (!options.allowAsyncUpdates && observed > 1) {
    const unlikely = asyncUpdateReason(daemonSet.spec?.updateStrategy, false, 0);
    if (unlikely) return unlikelyReady('daemonset', name, unlikely);
  }
  if (generation > observed) return { ready: false, message: 'Waiting for daemon set spec update to be observed...' };

  const updated = status.updatedNumberScheduled ?? 0;
  const desired = status.desiredNumberScheduled ?? 0;
  const available = status.numberAvailable ?? 0;
  if (updated < desired) {
    return {
      ready: false,
      message: `Waiting for daemon set ${name} rollout to finish: ${updated} out of ${desired} new pods have been updated...`,
    };
  }
  if (available < minReadyThreshold(minReady.parsed, desired)) {
    return {
      ready: false,
      message: `Waiting for daemon set ${name} rollout to finish: ${available} of ${desired} updated pods are available, with min_ready=${minReady.source}`,
    };
  }
  return { ready: true, message: `daemon set ${name} successfully rolled out` };
}

/**
 * A stateful set is ready when its spec is observed, `minReady` of its replicas are ready, and the
 * update revision is the current revision. Without `allowAsyncUpdates`, an updated stateful set
 * (`observedGeneration > 1`) with a non-RollingUpdate strategy or a partitioned rollout is unlikely
 * to become ready.
 */
export function statefulSetReadiness(statefulSet: StatefulSet, options: ControllerRuleOptions = {}): Readiness {
  const minReady = resolveMinReady(options.minReady);
  const name = nameOf(statefulSet);
  const spec = statefulSet.spec ?? {};
  const status = statefulSet.status ?? {};
  const generation = statefulSet.metadata?.generation ?? 0;
  const observed = status.observedGeneration ?? 0;
  const replicas = spec.replicas ?? 0;

  if (!options.allowAsyncUpdates && observed > 1) {
    const unlikely = asyncUpdateReason(spec.updateStrategy, true, replicas);
    if (unlikely) return unlikelyReady('statefulset', name, unlikely);
  }
  // Unlike the other controllers, Armada also waits while nothing has been observed at all.
  if (observed === 0 || generation > observed) {
    return { ready: false, message: 'Waiting for statefulset spec update to be observed...' };
  }
  const readyReplicas = status.readyReplicas ?? 0;
  if (replicas !== 0 && readyReplicas < minReadyThreshold(minReady.parsed, replicas)) {
    return {
      ready: false,
      message: `Waiting for statefulset ${name} rollout to finish: ${readyReplicas} of ${replicas} pods are ready, with min_ready=${minReady.source}`,
    };
  }
  // Armada's `or 0`: an unset and an empty revision are the same.
  const updateRevision = status.updateRevision || '';
  const currentRevision = status.currentRevision || '';
  if (updateRevision !== currentRevision) {
    return {
      ready: false,
      message: `waiting for statefulset rolling update to complete ${status.updatedReplicas ?? 0} pods at revision ${updateRevision}...`,
    };
  }
  return {
    ready: true,
    message: `statefulset rolling update complete ${status.currentReplicas ?? 0} pods at revision ${currentRevision}...`,
  };
}

/** The rule of a wait type applied to one object. Throws {@link InvalidWaitResourceError} for an unknown type. */
export function resourceReadiness(type: string, obj: KubeObject, options: ControllerRuleOptions = {}): Readiness {
  switch (type) {
    case WaitResourceType.POD:
      return podReadiness(obj as Pod);
    case WaitResourceType.JOB:
      return jobReadiness(obj as Job);
    case WaitResourceType.DEPLOYMENT:
      return deploymentReadiness(obj as Deployment, options);
    case WaitResourceType.DAEMONSET:
      return daemonSetReadiness(obj as DaemonSet, options);
    case WaitResourceType.STATEFULSET:
      return statefulSetReadiness(obj as StatefulSet, options);
    default:
      throw new InvalidWaitResourceError(`invalid \`type\` for item in \`wait.resources\`: ${type}`);
  }
}

/**
 * Checks a wait resource the way Armada does when it builds its waits, before waiting on anything:
 * the type must be known, `minReady` must parse, and `allowAsyncUpdates` is only accepted by
 * daemon sets and stateful sets (Armada rejects the unknown keyword for the other types).
 */
export function checkWaitResource(resource: {
  readonly type: string;
  readonly minReady?: MinReady | undefined;
  readonly allowAsyncUpdates?: boolean | undefined;
}): void {
  const types: readonly string[] = Object.values(WaitResourceType);
  if (!types.includes(resource.type)) {
    throw new InvalidWaitResourceError(`invalid \`type\` for item in \`wait.resources\`: ${resource.type}`);
  }
  resolveMinReady(resource.minReady);
  const asyncTypes: readonly string[] = [WaitResourceType.DAEMONSET, WaitResourceType.STATEFULSET];
  if (resource.allowAsyncUpdates && !asyncTypes.includes(resource.type)) {
    throw new InvalidWaitResourceError(
      `invalid config for item in \`wait.resources\`: allow_async_updates is not accepted for type ${resource.type}`,
    );
  }
}

function resolveMinReady(minReady: MinReady | undefined): { parsed: ParsedMinReady; source: string } {
  const value = minReady ?? '100%';
  const parsed = parseMinReady(value);
  if (!parsed) {
    throw new InvalidWaitResourceError(
      `\`min_ready\` must be a non-negative integer or a percent e.g. '80%', got ${JSON.stringify(value)}`,
    );
  }
  return { parsed, source: String(value) };
}

function asyncUpdateReason(strategy: UpdateStrategy | null | undefined, partitionable: boolean, replicas: number): string | undefined {
  const type = strategy?.type ?? '';
  if (type !== ROLLING_UPDATE) return `${ASYNC_UPDATE_NOT_ALLOWED}: update strategy type = ${type}`;
  if (partitionable && replicas !== 0 && strategy?.rollingUpdate?.partition) {
    return `${ASYNC_UPDATE_NOT_ALLOWED}: partitioned rollout`;
  }
  return undefined;
}

function unlikelyReady(type: string, name: string, reason: string): Readiness {
  return { ready: false, message: `${type} ${name} unlikely to become ready: ${reason}`, unlikely: reason };
}

/** The first condition of a type, as Armada's `_get_resource_condition`. */
function condition(conditions: readonly Condition[] | null | undefined, type: string): Condition | undefined {
  return (conditions ?? []).find((c) => c.type === type);
}

function nameOf(obj: KubeObject): string {
  return obj.metadata?.name ?? '';
}
