/**
 * `loadPeglegSite` for Pulumi programs: the site's secret values (substituted from Deckhand's
 * Passphrase, Certificate, key documents or encrypted ones) become Pulumi secrets, so that Pulumi
 * encrypts them in its state and masks them in its output.
 */
import * as pulumi from '@pulumi/pulumi';
import type { ArmadaManifest } from '../constructs/armada-manifest';
import { loadPeglegSite as load } from '../pegleg/site-manifest';
import type { PeglegSiteOptions } from '../pegleg/site-options';

/**
 * Renders a Pegleg site (or reads rendered documents) into an `ArmadaManifest` for a
 * `ManifestDeployment`, every secret chart value a `pulumi.secret`.
 *
 * @param options as the package root's `loadPeglegSite`; `secret` defaults to `pulumi.secret`.
 */
export function loadPeglegSite(options: PeglegSiteOptions): Promise<ArmadaManifest> {
  return load({ ...options, secret: options.secret ?? ((value) => pulumi.secret(value)) });
}
