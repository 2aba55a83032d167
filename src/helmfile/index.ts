/**
 * armada-cdk/helmfile: a site as a Helmfile state file (`helmfile.yaml`, Helmfile v1), without
 * cdk8s or Pulumi. What `armada-cdk convert --to helmfile` writes; see docs/helmfile.md.
 */
import type { ArmadaManifest } from '../constructs/armada-manifest';
import { ArmadaValidationError, Diagnostic, hasErrors } from '../model/diagnostics';
import { HELMFILE_LABELS, HelmfileOptions, toHelmfile as convert } from '../model/wire/helmfile';
import { toYamlDocument } from '../model/wire/yaml';

export { HELMFILE_LABELS };
export type { HelmfileOptions };

/** What {@link toHelmfile} gives. */
export interface HelmfileOutput {
  /** The state file, one YAML document, byte-identical for an equal site and options. */
  readonly yaml: string;
  /** The warnings of the site and of the conversion (what Helmfile cannot say, secrets written as references). */
  readonly warnings: readonly Diagnostic[];
  /** The environment variables that carry the secret values (`secretValues`), in order: set them for helmfile. */
  readonly secretVariables: readonly string[];
}

/**
 * The site as a `helmfile.yaml`: one release per chart, Armada's order as `needs`, hooks running
 * `armada-cdk wait` (Armada's resource waits, tests and pre-upgrade deletes) when
 * `options.waitInput` says how the hooks read the site.
 * @throws ArmadaValidationError listing every error of the site or of the conversion
 */
export function toHelmfile(manifest: ArmadaManifest, options: HelmfileOptions = {}): HelmfileOutput {
  const resolved = manifest.resolve();
  if (hasErrors(resolved.diagnostics)) throw new ArmadaValidationError(resolved.diagnostics, `ArmadaManifest ${manifest.node.path}`);
  const out = convert(resolved.spec, resolved.plan, options);
  const all = [...resolved.diagnostics, ...out.diagnostics.all];
  if (hasErrors(all)) throw new ArmadaValidationError(all, `the Helmfile of ArmadaManifest ${manifest.node.path}`);
  return { yaml: toYamlDocument(out.helmfile), warnings: all, secretVariables: out.secretVariables };
}
