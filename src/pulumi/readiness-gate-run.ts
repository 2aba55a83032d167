/**
 * What the readiness gate's dynamic provider does, as plain functions: compute the deadline the
 * wait shares with the Helm release, run Armada's wait, and decide when to run again. Loaded by
 * the provider at deployment time, so everything the provider needs is reachable from here.
 */
import type { SchemaVersion } from '../model/spec';
import type { EffectiveWaitResource } from '../model/wait';
import { readDeployStart } from './helm-record';
import { waitDeadline } from './readiness/deadline';
import { KubeConfigLike, ResourceWaitResult, waitForResources, WaitForResourcesOptions } from './readiness';
import { ClusterInputs, changedKeys, loadCluster, ProviderLog, pulumiLog, ReleaseState, releaseChanged } from './provider-support';

/** What the gate waits on: fixed at program time. */
export interface GateTarget {
  /** The Helm release name. */
  readonly release: string;
  readonly namespace: string;
  /** Armada's wait list, defaults applied (`PlannedRelease.waitResources`). */
  readonly resources: readonly EffectiveWaitResource[];
  readonly schemaVersion: SchemaVersion;
  /** `wait.timeout` in seconds. */
  readonly timeoutSeconds: number;
  /**
   * True for the step that installs or upgrades the release: the wait then shares the release's
   * deadline. False for a later step that deploys the chart again, which Armada treats as a
   * no-op deployment with a fresh budget.
   */
  readonly sharesDeadline: boolean;
}

/** The gate's inputs. */
export interface GateInputs {
  readonly target: GateTarget;
  /** The Release's `status` output: a new revision (or status) means the release changed. */
  readonly release?: ReleaseState;
  readonly cluster?: ClusterInputs;
  /** Set to a new value on every run when readiness is re-checked on every `pulumi up`. */
  readonly runToken?: string;
}

/** How one resource wait ended. */
export interface WaitSummary {
  readonly type: string;
  readonly labelSelector: string;
  readonly outcome: 'ready' | 'skipped';
  readonly count: number;
}

/** The gate's outputs (its state). The cluster inputs are left out: they are secret and not compared. */
export interface GateState {
  readonly target: GateTarget;
  readonly release?: ReleaseState;
  readonly runToken?: string;
  /** When the resources were last found ready (ISO 8601). */
  readonly checkedAt: string;
  readonly waited: readonly WaitSummary[];
}

/** What {@link checkReadiness} needs from the world; tests replace any of them. */
export interface GateDependencies {
  readonly loadCluster: (cluster: ClusterInputs | undefined) => Promise<KubeConfigLike>;
  readonly waitForResources: (options: WaitForResourcesOptions) => Promise<ResourceWaitResult[]>;
  /** Epoch ms at which the revision's install or upgrade started. */
  readonly readDeployStart: (kubeConfig: KubeConfigLike, namespace: string, release: string, revision: number) => Promise<number>;
  readonly log: ProviderLog;
  readonly now: () => number;
}

/** The deadline of the wait, in epoch ms: see {@link waitDeadline} for when a re-check gets a fresh budget. */
export function gateDeadline(options: { readonly now: number; readonly timeoutSeconds: number; readonly sharesDeadline: boolean; readonly deployStart?: number }): number {
  return waitDeadline(options);
}

/**
 * Waits until the release's resources are ready, as Armada's `ChartWait.wait` does, reporting
 * progress to the log. Nothing to wait on (`resources: []`) needs no cluster.
 * @throws Error listing what was not ready at the deadline
 */
export async function checkReadiness(inputs: GateInputs, dependencies: Partial<GateDependencies> = {}): Promise<GateState> {
  const deps = withDefaults(dependencies);
  const { target } = inputs;
  const id = `${target.namespace}/${target.release}`;
  const state = (waited: readonly WaitSummary[]): GateState => ({
    target,
    ...(inputs.release !== undefined ? { release: inputs.release } : {}),
    ...(inputs.runToken !== undefined ? { runToken: inputs.runToken } : {}),
    checkedAt: new Date(deps.now()).toISOString(),
    waited,
  });
  if (target.resources.length === 0) {
    deps.log.info(`${id}: wait.resources is empty, nothing to wait on`);
    return state([]);
  }

  const kubeConfig = await deps.loadCluster(inputs.cluster);
  let deployStart: number | undefined;
  const revision = inputs.release?.revision;
  if (target.sharesDeadline && typeof revision === 'number') {
    try {
      deployStart = await deps.readDeployStart(kubeConfig, target.namespace, target.release, revision);
    } catch (e) {
      deps.log.warn(`${id}: cannot read when revision ${revision} was deployed (${messageOf(e)}); the readiness wait gets its whole ${target.timeoutSeconds}s from now instead of sharing the deadline with the release`);
    }
  }
  const now = deps.now();
  const deadline = gateDeadline({ now, timeoutSeconds: target.timeoutSeconds, sharesDeadline: target.sharesDeadline, deployStart });
  try {
    const results = await deps.waitForResources({
      namespace: target.namespace,
      resources: target.resources,
      schemaVersion: target.schemaVersion,
      deadline,
      kubeconfig: kubeConfig,
      onProgress: (m) => deps.log.info(`${id}: ${m}`),
    });
    return state(results.map((r) => ({ type: r.type, labelSelector: r.labelSelector, outcome: r.outcome, count: r.count })));
  } catch (e) {
    throw new Error(`Helm release ${id} is not ready: ${messageOf(e)}`, { cause: e });
  }
}

/**
 * The gate's `diff`: wait again when the release (its revision or status), what is waited on, or
 * the run token changed. The cluster does not count: moving it is not a change of the release.
 */
export function diffGate(olds: Readonly<Record<string, unknown>>, news: Readonly<Record<string, unknown>>): { changes: boolean } {
  return { changes: changedKeys(olds, news, ['target', 'runToken']).length > 0 || releaseChanged(olds.release, news.release, ['revision', 'status']) };
}

function withDefaults(d: Partial<GateDependencies>): GateDependencies {
  return {
    loadCluster: d.loadCluster ?? loadCluster,
    waitForResources: d.waitForResources ?? waitForResources,
    readDeployStart: d.readDeployStart ?? readDeployStart,
    log: d.log ?? pulumiLog(),
    now: d.now ?? Date.now,
  };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
