/**
 * What the readiness gate's dynamic provider does, as plain functions: compute the deadline the
 * wait shares with the Helm release, run Armada's wait, then `helm test` where the chart enables
 * it, and decide which of the two to run again. Loaded by the provider at deployment time, so
 * everything the provider needs is reachable from here.
 */
import type { SchemaVersion } from '../../model/spec';
import type { EffectiveWaitResource } from '../../model/wait';
import { readDeployStart } from './helm-record';
import { waitDeadline } from './readiness/deadline';
import { runHelmTest, TestDependencies, TestTarget } from './helm-test-run';
import { KubeConfigLike, KubeconfigRefusedError, ResourceWaitResult, waitForResources, WaitForResourcesOptions } from './readiness';
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
  readonly release?: ReleaseState | undefined;
  readonly cluster?: ClusterInputs | undefined;
  /** Set to a new value on every run when readiness is re-checked on every `pulumi up`. */
  readonly runToken?: string | undefined;
  /** `helm test` once the release is ready (`test.enabled`, on the step that installs the release). */
  readonly test?: TestTarget | undefined;
  /** Helm's storage driver for `helm test`; like the cluster, not a change of the release. */
  readonly helmDriver?: string | undefined;
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
  readonly release?: ReleaseState | undefined;
  readonly runToken?: string | undefined;
  /** When the resources were last found ready (ISO 8601). */
  readonly checkedAt: string;
  readonly waited: readonly WaitSummary[];
  readonly test?: TestTarget | undefined;
  /**
   * The revision the tests passed on, with `test` as it stands. Absent until they pass: after a
   * failed test the gate is kept ready but untested, and the next `pulumi up` tests again
   * without waiting again.
   */
  readonly tested?: TestRecord | undefined;
}

/** Tests that passed. */
export interface TestRecord {
  /** The release revision they ran on (null when the release reported none). */
  readonly revision: number | null;
  /** When they passed (ISO 8601). */
  readonly passedAt: string;
}

/** What {@link checkReadiness} needs from the world; tests replace any of them. */
export interface GateDependencies {
  readonly loadCluster: (cluster: ClusterInputs | undefined) => Promise<KubeConfigLike>;
  readonly waitForResources: (options: WaitForResourcesOptions) => Promise<ResourceWaitResult[]>;
  /** Epoch ms at which the revision's install or upgrade started. */
  readonly readDeployStart: (kubeConfig: KubeConfigLike, namespace: string, release: string, revision: number) => Promise<number>;
  readonly log: ProviderLog;
  readonly now: () => number;
  /** Runs the release's tests (see `runHelmTest`). */
  readonly runHelmTest: typeof runHelmTest;
  /** What the default `runHelmTest` needs, for tests. */
  readonly test?: Partial<TestDependencies> | undefined;
}

/** The deadline of the wait, in epoch ms: see {@link waitDeadline} for when a re-check gets a fresh budget. */
export function gateDeadline(options: { readonly now: number; readonly timeoutSeconds: number; readonly sharesDeadline: boolean; readonly deployStart?: number | undefined }): number {
  return waitDeadline(options);
}

/**
 * Waits until the release's resources are ready, as Armada's `ChartWait.wait` does, reporting
 * progress to the log. Nothing to wait on (`resources: []`) needs no cluster.
 * @throws Error listing what was not ready at the deadline, or saying that no request can be sent
 * to the cluster (a kubeconfig `@kubernetes/client-node` refuses), at once
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
      // Nothing can be read from the cluster: the wait cannot run either, and is not started.
      if (e instanceof KubeconfigRefusedError) throw new Error(e.cannot(`wait for Helm release ${id}`), { cause: e });
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
    // Not "not ready": nothing about the release was learned.
    if (e instanceof KubeconfigRefusedError) throw new Error(e.cannot(`wait for Helm release ${id}`), { cause: e });
    throw new Error(`Helm release ${id} is not ready: ${messageOf(e)}`, { cause: e });
  }
}

/**
 * The gate's create (`olds` undefined) and update: wait when the gate is due (see
 * {@link gateDue}), then run the tests when they are due (see {@link testsDue}). A wait that
 * fails fails the resource, which keeps its previous state, so the next run waits again. A test
 * that fails after the wait passed throws an {@link UntestedGate} carrying the ready but untested
 * state, which the provider records, so the next run tests again without waiting again: what a
 * separate test resource after the gate would do.
 * @throws Error when the release is not ready; UntestedGate when its tests fail
 */
export async function runGate(news: GateInputs, olds: GateState | undefined, dependencies: Partial<GateDependencies> = {}): Promise<GateState> {
  const deps = withDefaults(dependencies);
  const ready = olds === undefined || gateDue(olds, news) ? await checkReadiness(news, deps) : carriedOver(olds, news);
  if (news.test === undefined) return ready;
  const untested: GateState = { ...ready, test: news.test };
  if (olds !== undefined && !testsDue(olds, news)) return { ...untested, tested: olds.tested };
  try {
    const passed = await deps.runHelmTest(
      {
        target: news.test,
        ...(news.release !== undefined ? { release: news.release } : {}),
        ...(news.cluster !== undefined ? { cluster: news.cluster } : {}),
        ...(news.helmDriver !== undefined ? { helmDriver: news.helmDriver } : {}),
      },
      deps.test,
    );
    return { ...untested, tested: { revision: news.release?.revision ?? null, passedAt: passed.passedAt } };
  } catch (e) {
    throw new UntestedGate(messageOf(e), untested, e);
  }
}

/** The provider's create: {@link runGate} with no previous state. */
export function createGate(inputs: GateInputs): Promise<GateState> {
  return runGate(inputs, undefined);
}

/** The provider's update: {@link runGate} after `olds`. */
export function updateGate(olds: GateState, news: GateInputs): Promise<GateState> {
  return runGate(news, olds);
}

/**
 * The tests of a release that is ready failed. The gate provider turns this into Pulumi's
 * "created but failed to initialise" (a dynamic provider error with `id` and `properties`): the
 * engine stores `state` and updates the resource again on the next run even when nothing changed.
 */
export class UntestedGate extends Error {
  constructor(
    message: string,
    /** The gate's state: ready, `tested` absent. */
    public readonly state: GateState,
    cause: unknown,
  ) {
    super(message, { cause });
    this.name = 'UntestedGate';
  }
}

/**
 * Whether the wait runs again: the release (its revision or status), what is waited on, or the
 * run token changed. The cluster does not count: moving it is not a change of the release.
 */
export function gateDue(olds: object, news: object): boolean {
  const [o, n] = [olds as Record<string, unknown>, news as Record<string, unknown>];
  return changedKeys(o, n, ['target', 'runToken']).length > 0 || releaseChanged(o.release, n.release, ['revision', 'status']);
}

/**
 * Whether the tests run: they are enabled and have not passed on this revision with these test
 * settings, as Armada tests after every install or upgrade and again while the last run failed.
 * A status change alone is no new deployment to test. An unknown revision (a preview) is due.
 */
export function testsDue(olds: object, news: object): boolean {
  const [o, n] = [olds as Record<string, unknown>, news as Record<string, unknown>];
  if (n.test === undefined) return false;
  const tested = o.tested as TestRecord | undefined;
  if (tested === undefined || changedKeys(o, n, ['test']).length > 0) return true;
  return releaseChanged({ revision: tested.revision ?? undefined }, n.release, ['revision']);
}

/**
 * The gate's `diff`: a change when the wait or the tests are due, or the test settings were
 * removed (nothing runs then; the state forgets them).
 */
export function diffGate(olds: object, news: object): { changes: boolean } {
  return { changes: gateDue(olds, news) || testsDue(olds, news) || changedKeys(olds as Record<string, unknown>, news as Record<string, unknown>, ['test']).length > 0 };
}

/** The state of a gate whose wait is not due: the new inputs, the last wait's results. */
function carriedOver(olds: GateState, news: GateInputs): GateState {
  return {
    target: news.target,
    ...(news.release !== undefined ? { release: news.release } : {}),
    ...(news.runToken !== undefined ? { runToken: news.runToken } : {}),
    checkedAt: olds.checkedAt,
    waited: olds.waited,
  };
}

function withDefaults(d: Partial<GateDependencies>): GateDependencies {
  return {
    loadCluster: d.loadCluster ?? loadCluster,
    waitForResources: d.waitForResources ?? waitForResources,
    readDeployStart: d.readDeployStart ?? readDeployStart,
    log: d.log ?? pulumiLog(),
    now: d.now ?? Date.now,
    runHelmTest: d.runHelmTest ?? runHelmTest,
    ...(d.test !== undefined ? { test: d.test } : {}),
  };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
