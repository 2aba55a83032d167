/**
 * Armada's pre-upgrade deletes (`upgrade.pre.delete`) as a Pulumi dynamic resource ordered before
 * the Release: its fingerprint input changes exactly when the Release is upgraded, so its update
 * runs right before the upgrade; its create does nothing, because a first install is not an upgrade.
 */
import * as path from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import type { ClusterInputs } from './provider-support';
import type { PreDeleteInputs, PreDeleteState, PreDeleteTarget } from './pre-upgrade-delete-run';

// Serialized into the state and run in another process: only `require` and plain values.
const RUN = path.join(__dirname, 'pre-upgrade-delete-run');

/** @internal The dynamic provider; exported for tests. */
export const preUpgradeDeleteProvider: pulumi.dynamic.ResourceProvider<PreDeleteInputs, PreDeleteState> = {
  async create(inputs) {
    return { id: `${inputs.target.namespace}/${inputs.target.release}`, outs: require(RUN).createPreDelete(inputs) };
  },
  async update(_id, olds, news) {
    return { outs: await require(RUN).updatePreDelete(olds, news) };
  },
  async diff(_id, olds, news) {
    return require(RUN).diffPreDelete(olds, news);
  },
  async delete() {
    // Nothing to undo: deleted objects are recreated by the upgrade.
  },
};

/** Arguments of a {@link PreUpgradeDelete}. */
export interface PreUpgradeDeleteArgs {
  readonly target: PreDeleteTarget;
  /** Digest of the Release's inputs (secret when the values are). */
  readonly fingerprint: pulumi.Input<string>;
  /**
   * The cluster, as a secret.
   * @default - the default kubeconfig of the machine running `pulumi up`
   */
  readonly cluster?: pulumi.Input<ClusterInputs>;
}

/** Deletes the chart's `upgrade.pre.delete` resources before each upgrade of its release. */
export class PreUpgradeDelete extends pulumi.dynamic.Resource {
  declare public readonly fingerprint: pulumi.Output<string>;

  constructor(name: string, args: PreUpgradeDeleteArgs, opts: pulumi.CustomResourceOptions) {
    const props: Record<string, unknown> = { target: args.target, fingerprint: args.fingerprint };
    if (args.cluster !== undefined) props.cluster = args.cluster;
    super(preUpgradeDeleteProvider, name, props, opts, 'armada', 'PreUpgradeDelete');
  }
}
