/**
 * Armada's pre-upgrade deletes (`upgrade.pre.delete`) as a Pulumi dynamic resource ordered before
 * the Release: its fingerprint input changes exactly when the Release is upgraded, so its update
 * runs right before the upgrade; its create does nothing, because a first install is not an
 * upgrade, except in a takeover, whose first `pulumi up` upgrades the existing release.
 */
import * as pulumi from '@pulumi/pulumi';
import type { ClusterInputs } from '../provider/provider-support';
import type { PreDeleteInputs, PreDeleteState, PreDeleteTarget } from '../provider/pre-upgrade-delete-run';
import { dynamicProvider } from './dynamic-provider';

/**
 * @internal The dynamic provider; exported for tests. Its delete has nothing to undo: deleted
 * objects are recreated by the upgrade.
 */
export const preUpgradeDeleteProvider = dynamicProvider<PreDeleteInputs, PreDeleteState>({ module: 'pre-upgrade-delete-run', create: 'createPreDelete', update: 'updatePreDelete', diff: 'diffPreDelete' });

/** Arguments of a {@link PreUpgradeDelete}. */
export interface PreUpgradeDeleteArgs {
  readonly target: PreDeleteTarget;
  /** Digest of the Release's inputs (secret when the values are). */
  readonly fingerprint: pulumi.Input<string>;
  /**
   * The cluster, as a secret.
   * @default - the default kubeconfig of the machine running `pulumi up`
   */
  readonly cluster?: pulumi.Input<ClusterInputs> | undefined;
  /**
   * The Release takes over an existing release, which its first `pulumi up` upgrades: the create
   * deletes then, as the update does before any other upgrade.
   * @default false
   */
  readonly takeover?: boolean | undefined;
}

/** Deletes the chart's `upgrade.pre.delete` resources before each upgrade of its release. */
export class PreUpgradeDelete extends pulumi.dynamic.Resource {
  declare public readonly fingerprint: pulumi.Output<string>;

  constructor(name: string, args: PreUpgradeDeleteArgs, opts: pulumi.CustomResourceOptions) {
    const props: Record<string, unknown> = { target: args.target, fingerprint: args.fingerprint };
    if (args.cluster !== undefined) props.cluster = args.cluster;
    if (args.takeover === true) props.takeover = true;
    super(preUpgradeDeleteProvider, name, props, opts, 'armada', 'PreUpgradeDelete');
  }
}
