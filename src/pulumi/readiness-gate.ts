/**
 * The readiness gate after each Helm release: a Pulumi dynamic resource that runs Armada's wait
 * (see `readiness-gate-run.ts`) when it is created and whenever the release changes, then
 * `helm test` where the chart enables it. One resource for both: Pulumi charges per resource.
 */
import * as path from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import type { ClusterInputs, ReleaseState } from './provider-support';
import type { GateInputs, GateState, GateTarget } from './readiness-gate-run';
import type { TestTarget } from './helm-test-run';

// The provider is serialized into the state and run by Pulumi in another process: it may only use
// `require` and plain values, so it loads its logic by absolute path at run time.
const RUN = path.join(__dirname, 'readiness-gate-run');

/** @internal The gate's dynamic provider; exported for tests. */
export const readinessGateProvider: pulumi.dynamic.ResourceProvider<GateInputs, GateState> = {
  async create(inputs) {
    const id = `${inputs.target.namespace}/${inputs.target.release}`;
    return { id, outs: await run(id, inputs, undefined) };
  },
  async update(id, olds, news) {
    return { outs: await run(id, news, olds) };
  },
  async diff(_id, olds, news) {
    return require(RUN).diffGate(olds, news);
  },
  async delete() {
    // A gate owns nothing in the cluster; test pods belong to the release, and Armada leaves them too.
  },
};

/**
 * Runs the gate. Failed tests after a passed wait become the dynamic provider's "created but
 * failed to initialise" error (`id`, `properties`, `reasons`), whose properties the engine stores
 * as the resource's state: they must carry the provider itself (`__provider`), as every state of a
 * dynamic resource does, or the resource could not be updated or deleted later.
 */
async function run(id: string, news: GateInputs, olds: GateState | undefined): Promise<GateState> {
  const logic = require(RUN);
  try {
    return await logic.runGate(news, olds);
  } catch (e) {
    if (!(e instanceof logic.UntestedGate)) throw e;
    const failure = e as Error & { state: GateState };
    throw Object.assign(new Error(failure.message), { id, properties: { ...failure.state, __provider: (news as unknown as Record<string, unknown>).__provider }, reasons: [failure.message] });
  }
}

/** Arguments of a {@link ReadinessGate}. */
export interface ReadinessGateArgs {
  /** What to wait on. */
  readonly target: GateTarget;
  /** The Release's `status` output; a new revision makes the gate wait (and test) again. */
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
  /**
   * `helm test` once the release is ready, again after every new revision and on the next run
   * while they fail.
   * @default - no tests
   */
  readonly test?: TestTarget;
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
    super(readinessGateProvider, name, props, opts, 'armada', 'ReadinessGate');
  }
}
