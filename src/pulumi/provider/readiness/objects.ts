/**
 * The parts of Kubernetes objects the readiness rules read, as the API server returns them (JSON,
 * camelCase). Every field is optional: the server omits zero values and unset fields, and the
 * rules must treat a missing field the way Armada treats `None`.
 */

/** `metadata.ownerReferences[]`. */
export interface OwnerReference {
  readonly kind?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly controller?: boolean;
}

/** `metadata`. */
export interface ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly OwnerReference[] | null;
}

/** One entry of `status.conditions`. */
export interface Condition {
  readonly type?: string;
  readonly status?: string;
  readonly reason?: string;
  readonly message?: string;
}

/** Any namespaced object, as listed or watched. */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ObjectMeta;
  readonly spec?: unknown;
  readonly status?: unknown;
}

/** `v1/Pod`. */
export interface Pod extends KubeObject {
  readonly status?: {
    readonly phase?: string;
    readonly reason?: string;
    readonly conditions?: readonly Condition[] | null;
  };
}

/** `batch/v1/Job`. */
export interface Job extends KubeObject {
  readonly spec?: { readonly completions?: number | null; readonly parallelism?: number | null };
  readonly status?: { readonly succeeded?: number | null; readonly failed?: number | null; readonly active?: number | null };
}

/** `apps/v1/Deployment`. */
export interface Deployment extends KubeObject {
  readonly spec?: { readonly replicas?: number | null };
  readonly status?: {
    readonly observedGeneration?: number | null;
    readonly replicas?: number | null;
    readonly updatedReplicas?: number | null;
    readonly readyReplicas?: number | null;
    readonly availableReplicas?: number | null;
    readonly conditions?: readonly Condition[] | null;
  };
}

/** `spec.updateStrategy` of a DaemonSet or StatefulSet. */
export interface UpdateStrategy {
  readonly type?: string;
  readonly rollingUpdate?: { readonly partition?: number | null; readonly maxUnavailable?: number | string | null } | null;
}

/** `apps/v1/DaemonSet`. */
export interface DaemonSet extends KubeObject {
  readonly spec?: { readonly updateStrategy?: UpdateStrategy | null };
  readonly status?: {
    readonly observedGeneration?: number | null;
    readonly desiredNumberScheduled?: number | null;
    readonly currentNumberScheduled?: number | null;
    readonly updatedNumberScheduled?: number | null;
    readonly numberAvailable?: number | null;
    readonly numberReady?: number | null;
  };
}

/** `apps/v1/StatefulSet`. */
export interface StatefulSet extends KubeObject {
  readonly spec?: { readonly replicas?: number | null; readonly updateStrategy?: UpdateStrategy | null };
  readonly status?: {
    readonly observedGeneration?: number | null;
    readonly replicas?: number | null;
    readonly readyReplicas?: number | null;
    readonly currentReplicas?: number | null;
    readonly updatedReplicas?: number | null;
    readonly currentRevision?: string | null;
    readonly updateRevision?: string | null;
  };
}
