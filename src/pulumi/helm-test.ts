/**
 * `helm test` after the readiness gate (`test.enabled`), as a Pulumi dynamic resource that runs
 * on creation and whenever the release's revision changes; a failed run is retried by the next
 * `pulumi up`, as Armada reruns tests that did not pass.
 */
import * as path from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import type { ClusterInputs, ReleaseState } from './provider-support';
import type { TestInputs, TestState, TestTarget } from './helm-test-run';

// Serialized into the state and run in another process: only `require` and plain values.
const RUN = path.join(__dirname, 'helm-test-run');

/** @internal The dynamic provider; exported for tests. */
export const helmTestProvider: pulumi.dynamic.ResourceProvider<TestInputs, TestState> = {
  async create(inputs) {
    return { id: `${inputs.target.namespace}/${inputs.target.release}`, outs: await require(RUN).runHelmTest(inputs) };
  },
  async update(_id, _olds, news) {
    return { outs: await require(RUN).runHelmTest(news) };
  },
  async diff(_id, olds, news) {
    return require(RUN).diffTest(olds, news);
  },
  async delete() {
    // Test pods belong to the release; Armada leaves them too.
  },
};

/** Arguments of a {@link HelmTest}. */
export interface HelmTestArgs {
  readonly target: TestTarget;
  /** The Release's `status` output; a new revision runs the tests again. */
  readonly release?: pulumi.Input<ReleaseState>;
  /**
   * The cluster, as a secret.
   * @default - the default kubeconfig of the machine running `pulumi up`
   */
  readonly cluster?: pulumi.Input<ClusterInputs>;
}

/** Runs `helm test` for a release. */
export class HelmTest extends pulumi.dynamic.Resource {

  constructor(name: string, args: HelmTestArgs, opts: pulumi.CustomResourceOptions) {
    const props: Record<string, unknown> = { target: args.target };
    if (args.release !== undefined) props.release = args.release;
    if (args.cluster !== undefined) props.cluster = args.cluster;
    super(helmTestProvider, name, props, opts, 'armada', 'HelmTest');
  }
}
