/**
 * The parts of Kubernetes objects the readiness rules read, as the API server returns them (JSON,
 * camelCase). Every field is optional: the server omits zero values and unset fields, and the
 * rules must treat a missing field the way Armada treats `None`.
 */

/** `metadata.ownerReferences[]`. */
export interface OwnerReference {
  readonly kind?: string | undefined;
  readonly name?: string | undefined;
  readonly uid?: string | undefined;
  readonly controller?: boolean | undefined;
}

/** `metadata`. */
export interface ObjectMeta {
  readonly name?: string | undefined;
  readonly namespace?: string | undefined;
  readonly uid?: string | undefined;
  readonly resourceVersion?: string | undefined;
  readonly generation?: number | undefined;
  readonly labels?: Readonly<Record<string, string>> | undefined;
  readonly annotations?: Readonly<Record<string, string>> | undefined;
  readonly ownerReferences?: readonly OwnerReference[] | null | undefined;
}

/** One entry of `status.conditions`. */
export interface Condition {
  readonly type?: string | undefined;
  readonly status?: string | undefined;
  readonly reason?: string | undefined;
  readonly message?: string | undefined;
}

/** Any namespaced object, as listed or watched. */
export interface KubeObject {
  readonly apiVersion?: string | undefined;
  readonly kind?: string | undefined;
  readonly metadata?: ObjectMeta | undefined;
  readonly spec?: unknown;
  readonly status?: unknown;
}

/** `v1/Pod`. */
export interface Pod extends KubeObject {
  readonly status?: {
    readonly phase?: string | undefined;
    readonly reason?: string | undefined;
    readonly conditions?: readonly Condition[] | null | undefined;
  };
}

/** `batch/v1/Job`. */
export interface Job extends KubeObject {
  readonly spec?: { readonly completions?: number | null | undefined; readonly parallelism?: number | null | undefined } | undefined;
  readonly status?: { readonly succeeded?: number | null | undefined; readonly failed?: number | null | undefined; readonly active?: number | null | undefined } | undefined;
}

/** `apps/v1/Deployment`. */
export interface Deployment extends KubeObject {
  readonly spec?: { readonly replicas?: number | null | undefined } | undefined;
  readonly status?: {
    readonly observedGeneration?: number | null | undefined;
    readonly replicas?: number | null | undefined;
    readonly updatedReplicas?: number | null | undefined;
    readonly readyReplicas?: number | null | undefined;
    readonly availableReplicas?: number | null | undefined;
    readonly conditions?: readonly Condition[] | null | undefined;
  };
}

/** `spec.updateStrategy` of a DaemonSet or StatefulSet. */
export interface UpdateStrategy {
  readonly type?: string | undefined;
  readonly rollingUpdate?: { readonly partition?: number | null | undefined; readonly maxUnavailable?: number | string | null | undefined } | null | undefined;
}

/** `apps/v1/DaemonSet`. */
export interface DaemonSet extends KubeObject {
  readonly spec?: { readonly updateStrategy?: UpdateStrategy | null | undefined } | undefined;
  readonly status?: {
    readonly observedGeneration?: number | null | undefined;
    readonly desiredNumberScheduled?: number | null | undefined;
    readonly currentNumberScheduled?: number | null | undefined;
    readonly updatedNumberScheduled?: number | null | undefined;
    readonly numberAvailable?: number | null | undefined;
    readonly numberReady?: number | null | undefined;
  };
}

/** `apps/v1/StatefulSet`. */
export interface StatefulSet extends KubeObject {
  readonly spec?: { readonly replicas?: number | null | undefined; readonly updateStrategy?: UpdateStrategy | null | undefined } | undefined;
  readonly status?: {
    readonly observedGeneration?: number | null | undefined;
    readonly replicas?: number | null | undefined;
    readonly readyReplicas?: number | null | undefined;
    readonly currentReplicas?: number | null | undefined;
    readonly updatedReplicas?: number | null | undefined;
    readonly currentRevision?: string | null | undefined;
    readonly updateRevision?: string | null | undefined;
  };
}
