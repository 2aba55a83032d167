/**
 * A Pegleg site, or documents already rendered, as an `ArmadaManifest` construct, for cdk8s and
 * Pulumi programs that use a site in place, without `armada-cdk import`. The site is rendered,
 * resolved and validated as the CLI does it (`armada-cdk validate --site`); the work is loaded
 * when the function is first called, so that the package root stays light.
 */
import type { ArmadaManifest } from '../constructs/armada-manifest';
import type { PeglegSiteOptions } from './site-options';

export type { PeglegSiteOptions, SecretValueLocation } from './site-options';

/**
 * Renders a Pegleg site (or reads rendered documents) and builds its Armada manifest as
 * constructs: `ArmadaManifest > ChartGroup > Chart`, equal in meaning to the documents. Throws an
 * `ArmadaValidationError` listing every error when the site cannot be rendered or its manifest is
 * invalid (the same errors `armada-cdk validate --site` prints).
 */
export async function loadPeglegSite(options: PeglegSiteOptions): Promise<ArmadaManifest> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use: the root stays light
  const impl = require('./site-manifest-impl') as typeof import('./site-manifest-impl');
  return impl.loadPeglegSite(options);
}
