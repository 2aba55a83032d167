/**
 * Kubernetes objects shaped like the API server's JSON (zero values and unset fields left out, as
 * the server does), for the readiness rules and the fake API server.
 */
import type { DaemonSet, Deployment, Job, OwnerReference, Pod, StatefulSet } from '../../../src/pulumi/provider/readiness';

export const NS = 'openstack';

interface Meta {
  rv?: string | undefined;
  generation?: number | undefined;
  owners?: OwnerReference[] | undefined;
  annotations?: Record<string, string> | undefined;
  labels?: Record<string, string> | undefined;
}

function metadata(name: string, m: Meta, generation?: number) {
  return {
    name,
    namespace: NS,
    uid: `uid-${name}`,
    resourceVersion: m.rv ?? '1',
    ...(generation !== undefined ? { generation } : {}),
    labels: m.labels ?? { release_group: 'airship-test' },
    ...(m.annotations ? { annotations: m.annotations } : {}),
    ...(m.owners ? { ownerReferences: m.owners } : {}),
  };
}

export function owner(kind: string, name = 'owner'): OwnerReference {
  return { kind, name, uid: `uid-${name}`, controller: true };
}

export function pod(name: string, o: Meta & { phase?: string | undefined; ready?: boolean | undefined; reason?: string | undefined } = {}): Pod {
  const phase = o.phase ?? 'Running';
  const conditions =
    phase === 'Pending'
      ? [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }]
      : [
          { type: 'Initialized', status: 'True' },
          { type: 'Ready', status: o.ready === false ? 'False' : 'True' },
          { type: 'ContainersReady', status: o.ready === false ? 'False' : 'True' },
          { type: 'PodScheduled', status: 'True' },
        ];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: metadata(name, o),
    spec: { containers: [{ name: 'main', image: 'registry.local/app:1.0' }] },
    status: { phase, ...(o.reason ? { reason: o.reason } : {}), conditions },
  };
}

export function job(name: string, o: Meta & { completions?: number | null | undefined; succeeded?: number | undefined; active?: number | undefined } = {}): Job {
  const completions = o.completions === undefined ? 1 : o.completions;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(name, o, o.generation ?? 1),
    spec: { ...(completions !== null ? { completions } : {}), parallelism: 1 },
    status: { ...(o.succeeded ? { succeeded: o.succeeded } : {}), ...(o.active ? { active: o.active } : {}) },
  };
}

export function deployment(
  name: string,
  o: Meta & {
    replicas?: number | undefined;
    observedGeneration?: number | undefined;
    updated?: number | undefined;
    available?: number | undefined;
    progressDeadlineExceeded?: boolean | undefined;
  } = {},
): Deployment {
  const replicas = o.replicas ?? 1;
  const generation = o.generation ?? 1;
  const updated = o.updated ?? replicas;
  const available = o.available ?? updated;
  const progressing = o.progressDeadlineExceeded
    ? { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${name}-5d8f" has timed out progressing.` }
    : { type: 'Progressing', status: 'True', reason: updated >= replicas ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: metadata(name, o, generation),
    spec: { replicas },
    status: {
      observedGeneration: o.observedGeneration ?? generation,
      ...(replicas ? { replicas } : {}),
      ...(updated ? { updatedReplicas: updated } : {}),
      ...(available ? { readyReplicas: available, availableReplicas: available } : {}),
      conditions: [{ type: 'Available', status: available >= replicas ? 'True' : 'False' }, progressing],
    },
  };
}

export function daemonSet(
  name: string,
  o: Meta & { strategy?: string | undefined; observedGeneration?: number | undefined; desired?: number | undefined; updated?: number | undefined; available?: number | undefined } = {},
): DaemonSet {
  const generation = o.generation ?? 1;
  const desired = o.desired ?? 3;
  const updated = o.updated ?? desired;
  const available = o.available ?? updated;
  const strategy = o.strategy ?? 'RollingUpdate';
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: metadata(name, o, generation),
    spec: {
      updateStrategy: strategy === 'RollingUpdate' ? { type: strategy, rollingUpdate: { maxUnavailable: 1 } } : { type: strategy },
    },
    status: {
      observedGeneration: o.observedGeneration ?? generation,
      ...(desired ? { desiredNumberScheduled: desired, currentNumberScheduled: desired } : {}),
      ...(updated ? { updatedNumberScheduled: updated } : {}),
      ...(available ? { numberAvailable: available, numberReady: available } : {}),
    },
  };
}

export function statefulSet(
  name: string,
  o: Meta & {
    replicas?: number | undefined;
    strategy?: string | undefined;
    partition?: number | undefined;
    observedGeneration?: number | undefined;
    ready?: number | undefined;
    currentRevision?: string | undefined;
    updateRevision?: string | undefined;
  } = {},
): StatefulSet {
  const generation = o.generation ?? 1;
  const replicas = o.replicas ?? 2;
  const ready = o.ready ?? replicas;
  const strategy = o.strategy ?? 'RollingUpdate';
  const currentRevision = o.currentRevision ?? `${name}-7c9d6f`;
  const updateRevision = o.updateRevision ?? currentRevision;
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: metadata(name, o, generation),
    spec: {
      replicas,
      updateStrategy:
        strategy === 'RollingUpdate' ? { type: strategy, rollingUpdate: { partition: o.partition ?? 0 } } : { type: strategy },
    },
    status: {
      observedGeneration: o.observedGeneration ?? generation,
      ...(replicas ? { replicas } : {}),
      ...(ready ? { readyReplicas: ready } : {}),
      ...(replicas ? { currentReplicas: updateRevision === currentRevision ? replicas : replicas - 1 } : {}),
      ...(replicas ? { updatedReplicas: updateRevision === currentRevision ? replicas : 1 } : {}),
      currentRevision,
      updateRevision,
    },
  };
}
