/**
 * `convert --to helmfile`'s conversion: a site read from documents (Armada's files, or a Pegleg
 * site rendered) as the helmfile's text, its secret values taken out. The command line only parses
 * the options, calls this, reports and writes.
 */
import { buildPlan } from '../model/plan';
import type { ManifestSpec } from '../model/spec';
import { Diagnostic, formatFieldPath } from '../model/diagnostics';
import { HelmfileOptions, HelmfileSecret, toHelmfile } from '../model/wire/helmfile';
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
  /**
   * What the user must set for helmfile, one line each: every variable that carries a secret
   * value, with its release and place. The warnings say it too, but a report folds a warning
   * repeated on the values, and every one of these must be set.
   */
  readonly notes: readonly string[];
}

/** The site as a helmfile: `options` as given, and the secret values of the documents. */
export function helmfileFromDocuments(site: ReadSite, options: Omit<HelmfileOptions, 'secretValues'>): HelmfileText {
  const out = toHelmfile(site.spec, buildPlan(site.spec), { ...options, secretValues: helmfileSecretValues(site.spec, site.documents, site.secrets) });
  return { text: toYamlDocument(out.helmfile), diagnostics: out.diagnostics.all, notes: secretNotes(out.secrets) };
}

/** The variables to set, or nothing when no value is secret. Names and places only, never a value. */
function secretNotes(secrets: readonly HelmfileSecret[]): string[] {
  if (secrets.length === 0) return [];
  return [
    secrets.length === 1
      ? 'note: 1 secret value of the site is written as a ref+envsubst:// reference; set its variable in the environment of helmfile, or change the reference to your secret store:'
      : `note: ${secrets.length} secret values of the site are written as ref+envsubst:// references; set each variable in the environment of helmfile, or change the references to your secret store:`,
    ...secrets.map((s) => `  ${s.variable}: release ${s.release}, ${formatFieldPath(['values', ...s.path])}`),
  ];
}
