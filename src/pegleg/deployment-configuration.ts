/**
 * Shipyard's `shipyard/DeploymentConfiguration/v1` names the Armada manifest a site deploys
 * (`data.armada.manifest`): Shipyard passes it to Armada as the target manifest.
 */

/** The schema Shipyard reads its deployment configuration from. */
export const DEPLOYMENT_CONFIGURATION = 'shipyard/DeploymentConfiguration/v1';

/**
 * `data.armada.manifest` of the first `shipyard/DeploymentConfiguration/v1` among `documents`
 * (anything with a `raw` document), or undefined when there is none or it names no manifest.
 */
export function deploymentConfigurationManifest(documents: readonly { readonly raw: unknown }[]): string | undefined {
  for (const { raw } of documents) {
    if (!isMap(raw) || raw.schema !== DEPLOYMENT_CONFIGURATION) continue;
    const armada = isMap(raw.data) ? raw.data.armada : undefined;
    const manifest = isMap(armada) ? armada.manifest : undefined;
    return typeof manifest === 'string' ? manifest : undefined;
  }
  return undefined;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
