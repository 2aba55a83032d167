import { brand, isBranded } from './brand';

/** The resource kinds Armada knows how to wait on (`wait.resources[].type`). */
export enum WaitResourceType {
  POD = 'pod',
  JOB = 'job',
  DEPLOYMENT = 'deployment',
  DAEMONSET = 'daemonset',
  STATEFULSET = 'statefulset',
}

/** The types Armada accepts; anything else raises `ManifestException` in Armada. */
export const WAIT_RESOURCE_TYPES: readonly string[] = Object.values(WaitResourceType);

/** Controller kinds, for which `minReady` means something. */
export const CONTROLLER_TYPES: readonly string[] = [WaitResourceType.DEPLOYMENT, WaitResourceType.DAEMONSET, WaitResourceType.STATEFULSET];

/**
 * How many pods of a controller must be ready: an absolute count (`2`) or a percentage of the
 * controller's pods (`'80%'`, rounded up as Armada does).
 */
export type MinReady = number | `${number}%`;

/** Options of one wait resource. */
export interface WaitResourceOptions {
  /**
   * Labels that select the resources, added to the chart's `wait.labels`.
   * @default - only the chart's `wait.labels`
   */
  readonly labels?: Readonly<Record<string, string>> | undefined;
  /**
   * Controllers only: how many pods must be ready.
   * @default '100%'
   */
  readonly minReady?: MinReady | undefined;
  /**
   * Whether finding no resource of this type is a failure (the wait times out) or is skipped.
   * @default true
   */
  readonly required?: boolean | undefined;
  /**
   * DaemonSets and StatefulSets only: accept an update strategy other than a plain rolling update
   * (OnDelete, or a partitioned StatefulSet rollout) instead of treating it as never ready.
   * @default false
   */
  readonly allowAsyncUpdates?: boolean | undefined;
}

const WAIT = Symbol.for('armada-cdk.WaitResource');

/** One entry of `wait.resources`: a kind of resource the chart waits on, with its readiness rule. */
export class WaitResource {
  /** Pods: ready when Succeeded, or Running with the Ready condition. */
  public static pod(options: Omit<WaitResourceOptions, 'minReady' | 'allowAsyncUpdates'> = {}): WaitResource {
    return new WaitResource(WaitResourceType.POD, options);
  }
  /** Jobs: ready when every completion succeeded. */
  public static job(options: Omit<WaitResourceOptions, 'minReady' | 'allowAsyncUpdates'> = {}): WaitResource {
    return new WaitResource(WaitResourceType.JOB, options);
  }
  /** Deployments: rolled out, with `minReady` pods available. */
  public static deployment(options: Omit<WaitResourceOptions, 'allowAsyncUpdates'> = {}): WaitResource {
    return new WaitResource(WaitResourceType.DEPLOYMENT, options);
  }
  /** DaemonSets: updated on every node, with `minReady` pods available. */
  public static daemonSet(options: WaitResourceOptions = {}): WaitResource {
    return new WaitResource(WaitResourceType.DAEMONSET, options);
  }
  /** StatefulSets: `minReady` replicas ready and the update revision current. */
  public static statefulSet(options: WaitResourceOptions = {}): WaitResource {
    return new WaitResource(WaitResourceType.STATEFULSET, options);
  }
  /**
   * A wait resource by its Armada type name. Used by the importer; an unknown type is reported
   * at synth, not here.
   */
  public static of(type: string, options: WaitResourceOptions = {}): WaitResource {
    return new WaitResource(type, options);
  }
  /** True when `x` is a WaitResource (also across copies of this library). */
  public static isWaitResource(x: unknown): x is WaitResource {
    return isBranded(x, WAIT);
  }

  /** The labels, minReady, required and allowAsyncUpdates as written. */
  public readonly options: WaitResourceOptions;

  private constructor(
    /** The Armada type name (`pod`, `job`, `deployment`, `daemonset`, `statefulset`). */
    public readonly type: string,
    options: WaitResourceOptions,
  ) {
    // Labels of the wrong type are kept as they are, for validation to report.
    this.options = { ...options, labels: typeof options.labels === 'object' && options.labels !== null ? { ...options.labels } : options.labels };
    brand(this, WAIT);
  }
}


/** A wait resource with Armada's defaults applied: what a deployment really waits on. */
export interface EffectiveWaitResource {
  readonly type: string;
  /** `wait.labels` overlaid with the item's own labels. */
  readonly labels: Readonly<Record<string, string>>;
  readonly minReady: MinReady;
  readonly required: boolean;
  readonly allowAsyncUpdates: boolean;
}

/** Armada's default list for `armada/Chart/v1` when `wait.resources` is absent: optional jobs, then required pods. */
export const V1_DEFAULT_WAIT_RESOURCES: readonly { readonly type: string; readonly required: boolean }[] = [
  { type: WaitResourceType.JOB, required: false },
  { type: WaitResourceType.POD, required: true },
];

/** Armada's default list for `armada/Chart/v2`: every type, jobs first, each optional. */
export const V2_DEFAULT_WAIT_RESOURCES: readonly { readonly type: string; readonly required: boolean }[] = [
  { type: WaitResourceType.JOB, required: false },
  { type: WaitResourceType.DAEMONSET, required: false },
  { type: WaitResourceType.STATEFULSET, required: false },
  { type: WaitResourceType.DEPLOYMENT, required: false },
  { type: WaitResourceType.POD, required: false },
];

/** Armada's default `min_ready`. */
export const DEFAULT_MIN_READY = '100%';

/** Parsed `minReady`: a count, or a percentage 0-100; undefined when the value is not valid. */
export type ParsedMinReady = { readonly kind: 'count'; readonly count: number } | { readonly kind: 'percent'; readonly percent: number };

/**
 * Parses `minReady` the way Armada does: an integer is a count; a string must be `N%`.
 * Returns undefined for anything else (Armada raises `ManifestException`).
 */
export function parseMinReady(value: unknown): ParsedMinReady | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0 ? { kind: 'count', count: value } : undefined;
  }
  if (typeof value === 'string') {
    const m = /^(\d+)%$/.exec(value);
    if (!m) return undefined;
    const percent = Number(m[1]);
    return percent <= 100 ? { kind: 'percent', percent } : undefined;
  }
  return undefined;
}

/**
 * The number of ready pods a controller with `total` pods needs: `ceil(total * N / 100)` for a
 * percentage (`ControllerWait._is_min_ready`), the count itself otherwise.
 */
export function minReadyThreshold(minReady: ParsedMinReady, total: number): number {
  if (minReady.kind === 'count') return minReady.count;
  // Same IEEE-754 expression as Armada's `math.ceil(total * (number / 100))`, so that the
  // rounding edges agree with Armada too (100 pods at 7% need 8: 100 * 0.07 = 7.000000000000001).
  return Math.ceil(total * (minReady.percent / 100));
}
