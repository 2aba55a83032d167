/**
 * `convert --to helmfile`'s conversion: a site read from documents (Armada's files, or a Pegleg
 * site rendered) as the helmfile's text, its secret values taken out. The command line only parses
 * the options, calls this, reports and writes.
 */
import type { Diagnostic } from '../model/diagnostics';
import { buildPlan } from '../model/plan';
import type { ManifestSpec } from '../model/spec';
import { HelmfileOptions, toHelmfile } from '../model/wire/helmfile';
import { toYamlDocument } from '../model/wire/yaml';
import type { StreamSecrets } from '../pegleg/secrets';
import { helmfileSecretValues } from './secret-values';

/** The documents the site was read from and their secrets. */
export interface ReadSite {
  readonly spec: ManifestSpec;
  readonly documents: Parameters<typeof helmfileSecretValues>[1];
  readonly secrets: StreamSecrets;
}

/** What {@link helmfileFromDocuments} gives. */
export interface HelmfileText {
  /** The state file: one YAML document (no document markers, as Helmfile reads it). */
  readonly text: string;
  /** The conversion's findings (the site's own are the reader's). */
  readonly diagnostics: readonly Diagnostic[];
}

/** The site as a helmfile: `options` as given, and the secret values of the documents. */
export function helmfileFromDocuments(site: ReadSite, options: Omit<HelmfileOptions, 'secretValues'>): HelmfileText {
  const out = toHelmfile(site.spec, buildPlan(site.spec), { ...options, secretValues: helmfileSecretValues(site.spec, site.documents, site.secrets) });
  return { text: toYamlDocument(out.helmfile), diagnostics: out.diagnostics.all };
}
