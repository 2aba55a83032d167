/**
 * The Flux target's GitOps directory as files, and what it says about the site's secrets: the one
 * function behind `convert --to flux-v2 -o DIR` and the cdk8s `FluxOutput`'s directory layout, so
 * that both write the same bytes. The CLI parses flags and writes files; the construct writes
 * files; everything in between is here.
 *
 * Secrets: the values of a chart that are secret (a Deckhand site's, or those the user marks) are
 * never written in clear. With `substituteFrom` they become `${SECRET_...}` placeholders that
 * kustomize-controller fills from a Secret of the cluster (see flux-substitute.ts); without it,
 * they are an error when the output goes to files, and a warning when it goes to a stream the user
 * redirects.
 */
import { DiagnosticCodes } from '../codes';
import { Diagnostic, FieldPath, formatFieldPath } from '../diagnostics';
import { firstByName } from '../first-by-name';
import type { Plan } from '../plan';
import type { ManifestSpec } from '../spec';
import type { KubeObject } from './airship-v1';
import { fluxLayout } from './flux-layout';
import { forSubstitution, SecretPlaceholder } from './flux-substitute';
import { FLUX_DEFAULT_INTERVAL, FLUX_DEFAULT_NAMESPACE, FluxOptions, goDuration } from './flux-v2';
import { toYamlDocument, toYamlStream } from './yaml';

export type { SecretPlaceholder } from './flux-substitute';

/**
 * Which values of each release hold secrets: the Helm release name to the paths inside its
 * values. Made by {@link fluxSecretPaths}.
 */
export type FluxSecretPaths = ReadonlyMap<string, readonly FieldPath[]>;

/**
 * The secret values of the site by release, and the findings about them: `secretsByChart` maps an
 * Armada chart name to the paths inside its values that hold secrets. Each value of a chart
 * deployed twice is listed once, with its first release. Without `substituteFrom`, each chart with
 * secrets is an error when `toFiles` (the output is a file, in Git) and a warning otherwise.
 */
export function fluxSecretPaths(
  spec: ManifestSpec,
  plan: Plan,
  secretsByChart: ReadonlyMap<string, readonly FieldPath[]>,
  options: {
    readonly substituteFrom?: string | undefined;
    /** Whether the output goes to files (an error) or to a stream the user redirects (a warning). */
    readonly toFiles: boolean;
    /** Where the secrets come from, as the message says it. */
    readonly from: string;
    /** How to keep them out of Git, for the message. */
    readonly fix: string;
  },
): { secretPaths: FluxSecretPaths; diagnostics: Diagnostic[] } {
  const secretPaths = new Map<string, readonly FieldPath[]>();
  const diagnostics: Diagnostic[] = [];
  if (secretsByChart.size === 0) return { secretPaths, diagnostics };
  const charts = firstByName(spec.charts);
  for (const x of plan.releases) {
    const found = secretsByChart.get(x.chart);
    if (found === undefined || found.length === 0 || secretPaths.has(x.name)) continue;
    // A value substituted twice (two substitutions, or a layer's and its parent's) is one.
    const paths = [...new Map(found.map((p) => [JSON.stringify(p), p])).values()];
    secretPaths.set(x.name, paths);
    if (options.substituteFrom !== undefined) continue;
    const fields = paths.slice(0, 3).map((p) => formatFieldPath(['values', ...p])).join(', ') + (paths.length > 3 ? ` and ${paths.length - 3} more` : '');
    const origin = charts.get(x.chart)?.origin ?? spec.origin;
    diagnostics.push({
      severity: options.toFiles ? 'error' : 'warning',
      ...origin.locate(),
      field: formatFieldPath(['values', ...paths[0]]),
      code: DiagnosticCodes.FLUX_SOURCE,
      message: `${fields} hold${paths.length === 1 ? 's' : ''} secrets of the site (${options.from}): the HelmRelease would carry ${paths.length === 1 ? 'it' : 'them'} in clear in spec.values, in Git; ${options.fix}`,
    });
  }
  return { secretPaths, diagnostics };
}

/** Where the directory is and how it substitutes, besides the {@link FluxOptions} of the objects. */
export interface FluxDirectoryOptions {
  /**
   * The path, inside the Git repository Flux reads, of the directory the site's folder is written
   * into (`clusters/prod`): the folder is `<repositoryPath>/<manifest>`.
   */
  readonly repositoryPath: string;
  /** The GitRepository in Flux's namespace that reads that repository. */
  readonly repositorySource: string;
  /**
   * The Secret (in Flux's namespace) the steps substitute `${VAR}` placeholders from.
   * @default - no substitution
   */
  readonly substituteFrom?: string | undefined;
}

/** One file of the directory: its path under the directory given (`<manifest>/...`) and its text. */
export interface FluxDirectoryFile {
  readonly path: string;
  readonly content: string;
}

/** The files of the GitOps directory, and what the user must know to apply it. */
export interface FluxDirectory {
  /** Every file, in a stable order, paths `/`-separated and starting with `<manifest>/`. */
  readonly files: readonly FluxDirectoryFile[];
  /** How many objects the files hold, kustomize's own files left out. */
  readonly objectCount: number;
  /** The `${VAR}` placeholders the values keep, sorted. */
  readonly placeholders: readonly string[];
  /** The secrets of the site made placeholders: variable, release and place, never the value. */
  readonly secrets: readonly SecretPlaceholder[];
  /** Notes for the user, one line each (the Secret to create and its keys), when `substituteFrom` is set. */
  readonly notes: readonly string[];
}

/**
 * The GitOps directory of a site: `objects` are the Flux objects in {@link fluxObjectsAsRead}'s
 * order, `options` those they were made with. Built only for a site without errors.
 */
export function fluxDirectory(spec: ManifestSpec, plan: Plan, objects: Iterable<KubeObject>, options: FluxOptions, directory: FluxDirectoryOptions, secretPaths: FluxSecretPaths = new Map()): FluxDirectory {
  const namespace = options.namespace ?? FLUX_DEFAULT_NAMESPACE;
  const files = fluxLayout(spec, plan, objects, {
    repositorySource: directory.repositorySource,
    substituteFrom: directory.substituteFrom,
    repositoryPath: `${directory.repositoryPath}/${spec.name}`,
    namespace,
    interval: goDuration((options.interval ?? FLUX_DEFAULT_INTERVAL).toSeconds()),
  });
  const placeholders = new Set<string>();
  const secrets: SecretPlaceholder[] = [];
  let objectCount = 0;
  const out = files.map((f) => {
    let objects = f.objects;
    const kustomize = baseName(f.path) === 'kustomization.yaml';
    if (!kustomize) objectCount += objects.length;
    if (directory.substituteFrom !== undefined && f.path.startsWith('steps/') && baseName(f.path) === 'helmreleases.yaml') {
      const r = forSubstitution(objects, secretPaths);
      objects = r.objects;
      for (const n of r.names) placeholders.add(n);
      secrets.push(...r.secrets);
    }
    // kustomization.yaml files are one document each, as kustomize reads them.
    return { path: `${spec.name}/${f.path}`, content: kustomize ? toYamlDocument(objects[0]) : toYamlStream(objects) };
  });
  const names = [...placeholders];
  return { files: out, objectCount, placeholders: names, secrets, notes: directory.substituteFrom === undefined ? [] : substitutionNotes(directory.substituteFrom, namespace, names, secrets) };
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** Where each secret was, never what it is; and the keys the Secret must hold. */
function substitutionNotes(secret: string, ns: string, placeholders: readonly string[], secrets: readonly SecretPlaceholder[]): string[] {
  const out: string[] = [];
  if (secrets.length > 0) {
    out.push(`note: ${secrets.length} secret value${secrets.length === 1 ? '' : 's'} of the site became placeholders, for the Secret ${secret} in namespace ${ns}:`);
    for (const x of secrets) out.push(`  ${x.variable}: release ${x.release}, ${formatFieldPath(['values', ...x.path])}`);
  }
  out.push(placeholders.length === 0
    ? `note: no \${VAR} placeholder in the values; the steps substitute from Secret ${secret} all the same`
    : `note: the values keep ${placeholders.map((n) => `\${${n}}`).join(', ')} for kustomize-controller to substitute from the Secret ${secret} in namespace ${ns}: create it, out of Git, with ${placeholders.length === 1 ? 'that key' : 'those keys'} (kubectl create secret generic ${secret} -n ${ns} --from-literal=${placeholders[0]}=...)`);
  return out;
}
