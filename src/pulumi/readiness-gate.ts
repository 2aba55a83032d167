/**
 * The readiness gate after each Helm release: a Pulumi dynamic resource that runs Armada's wait
 * (see `readiness-gate-run.ts`) when it is created and whenever the release changes.
 */
import * as path from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import type { ClusterInputs, ReleaseState } from './provider-support';
import type { GateInputs, GateState, GateTarget } from './readiness-gate-run';

// The provider is serialized into the state and run by Pulumi in another process: it may only use
// `require` and plain values, so it loads its logic by absolute path at run time.
const RUN = path.join(__dirname, 'readiness-gate-run');

/** @internal The gate's dynamic provider; exported for tests. */
export const readinessGateProvider: pulumi.dynamic.ResourceProvider<GateInputs, GateState> = {
  async create(inputs) {
    const outs = await require(RUN).checkReadiness(inputs);
    return { id: `${inputs.target.namespace}/${inputs.target.release}`, outs };
  },
  async update(_id, _olds, news) {
    return { outs: await require(RUN).checkReadiness(news) };
  },
  async diff(_id, olds, news) {
    return require(RUN).diffGate(olds, news);
  },
  async delete() {
    // A gate owns nothing in the cluster.
  },
};

/** Arguments of a {@link ReadinessGate}. */
export interface ReadinessGateArgs {
  /** What to wait on. */
  readonly target: GateTarget;
  /** The Release's `status` output; a new revision makes the gate wait again. */
  readonly release?: pulumi.Input<ReleaseState>;
  /**
   * The cluster (the Kubernetes provider's kubeconfig and context), as a secret.
   * @default - the default kubeconfig of the machine running `pulumi up`
   */
  readonly cluster?: pulumi.Input<ClusterInputs>;
  /**
   * A value that differs on every run, to wait again on every `pulumi up`.
   * @default - wait only when the release or the wait settings change
   */
  readonly runToken?: string;
}

/** Waits, as Armada does after a release, until the release's resources are ready. */
export class ReadinessGate extends pulumi.dynamic.Resource {
  declare public readonly target: pulumi.Output<GateTarget>;
  declare public readonly release: pulumi.Output<ReleaseState | undefined>;

  constructor(name: string, args: ReadinessGateArgs, opts: pulumi.CustomResourceOptions) {
    // Only the keys that are set: each one costs an output.
    const props: Record<string, unknown> = { target: args.target };
    if (args.release !== undefined) props.release = args.release;
    if (args.cluster !== undefined) props.cluster = args.cluster;
    if (args.runToken !== undefined) props.runToken = args.runToken;
    super(readinessGateProvider, name, props, opts, 'armada', 'ReadinessGate');
  }
}
