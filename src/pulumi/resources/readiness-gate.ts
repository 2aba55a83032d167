/**
 * The readiness gate after each Helm release: a Pulumi dynamic resource that runs Armada's wait
 * (see `readiness-gate-run.ts`) when it is created and whenever the release changes, then
 * `helm test` where the chart enables it. One resource for both: Pulumi charges per resource.
 */
import * as pulumi from '@pulumi/pulumi';
import type { ClusterInputs, ReleaseState } from '../provider/provider-support';
import type { GateInputs, GateState, GateTarget } from '../provider/readiness-gate-run';
import type { TestTarget } from '../provider/helm-test-run';
import { dynamicProvider } from './dynamic-provider';

/**
 * @internal The gate's dynamic provider; exported for tests. Failed tests after a passed wait
 * record the ready but untested state (see `runGate`); the gate owns nothing in the cluster (test
 * pods belong to the release, and Armada leaves them too).
 */
export const readinessGateProvider = dynamicProvider<GateInputs, GateState>({ module: 'readiness-gate-run', create: 'createGate', update: 'updateGate', diff: 'diffGate', partialFailure: 'UntestedGate' });

/** Arguments of a {@link ReadinessGate}. */
export interface ReadinessGateArgs {
  /** What to wait on. */
  readonly target: GateTarget;
  /** The Release's `status` output; a new revision makes the gate wait (and test) again. */
  readonly release?: pulumi.Input<ReleaseState> | undefined;
  /**
   * The cluster (the Kubernetes provider's kubeconfig and context), as a secret.
   * @default - the default kubeconfig of the machine running `pulumi up`
   */
  readonly cluster?: pulumi.Input<ClusterInputs> | undefined;
  /**
   * A value that differs on every run, to wait again on every `pulumi up`.
   * @default - wait only when the release or the wait settings change
   */
  readonly runToken?: string | undefined;
  /**
   * Helm's storage driver, given to `helm test` as `HELM_DRIVER`. Not compared between runs.
   * @default - helm's own (`HELM_DRIVER` of the environment, else `secret`)
   */
  readonly helmDriver?: string | undefined;
  /**
   * `helm test` once the release is ready, again after every new revision and on the next run
   * while they fail.
   * @default - no tests
   */
  readonly test?: TestTarget | undefined;
}

/**
 * Waits, as Armada does after a release, until the release's resources are ready, then runs its
 * tests when `test` is given.
 */
export class ReadinessGate extends pulumi.dynamic.Resource {
  declare public readonly target: pulumi.Output<GateTarget>;
  declare public readonly release: pulumi.Output<ReleaseState | undefined>;

  constructor(name: string, args: ReadinessGateArgs, opts: pulumi.CustomResourceOptions) {
    // Only the keys that are set: each one costs an output.
    const props: Record<string, unknown> = { target: args.target };
    if (args.release !== undefined) props.release = args.release;
    if (args.cluster !== undefined) props.cluster = args.cluster;
    if (args.runToken !== undefined) props.runToken = args.runToken;
    if (args.test !== undefined) props.test = args.test;
    if (args.helmDriver !== undefined) props.helmDriver = args.helmDriver;
    super(readinessGateProvider, name, props, opts, 'armada', 'ReadinessGate');
  }
}
