/**
 * The site as a GitOps directory Flux points at: the objects of {@link fluxObjectsAsRead} spread
 * over folders, each a kustomize folder (`kustomization.yaml` listing its files), and one
 * `kustomize.toolkit.fluxcd.io/v1` Kustomization per folder:
 *
 * ```
 * kustomization.yaml          resources: [flux-kustomizations.yaml]
 * flux-kustomizations.yaml    the Kustomizations: <site>.sources, then <site>.step-NN-<group> per plan step
 * sources/                    the GitRepository / HelmRepository objects (and Namespaces)
 * steps/NN-<group>/           the HelmReleases of plan step NN
 * ```
 *
 * Point a Kustomization of your own (or the one `flux bootstrap` made) at the directory: it
 * applies the Kustomizations, which apply the folders. Each step's Kustomization `dependsOn` the
 * one before (the first on the sources'). kustomize-controller reconciles a Kustomization only once
 * each dependency is Ready and, when both read the same GitRepository, has applied the revision
 * this one is about to apply; `wait: true` makes a step's Kustomization Ready only once every
 * HelmRelease of it is Ready. So on every commit, also one that changes an early and a late step,
 * step N+1 is applied only after step N was applied and became Ready: Armada's order, where
 * `dependsOn` between HelmReleases is not revision-aware and upgrades both at once.
 *
 * `prune: false`: a HelmRelease that leaves the directory is not uninstalled, as Armada never
 * purged a chart that left the manifest (without `enable_chart_cleanup`).
 */
import type { ManifestSpec } from '../spec';
import type { Plan } from '../plan';
import type { KubeObject } from './airship-v1';
import { FLUX_STEP_ANNOTATION, goDuration, HELM_RELEASE_API_VERSION } from './flux-v2';
import { scopedName, slug, unreserved } from './flux-sources';

export const KUSTOMIZATION_API_VERSION = 'kustomize.toolkit.fluxcd.io/v1';
/** kustomize's own file, which `kustomize build` and kustomize-controller read. */
export const KUSTOMIZE_API_VERSION = 'kustomize.config.k8s.io/v1beta1';
/** The GitRepository `flux bootstrap` makes for the repository it syncs. */
export const FLUX_BOOTSTRAP_SOURCE = 'flux-system';

/** Where the directory is, for the Kustomizations that apply its folders. */
export interface FluxLayoutOptions {
  /**
   * The directory's path inside the Git repository Flux reads (`clusters/prod/site`), which each
   * Kustomization's `spec.path` starts with.
   */
  readonly repositoryPath: string;
  /**
   * The GitRepository (in Flux's namespace) that reads that repository.
   * @default FLUX_BOOTSTRAP_SOURCE ('flux-system', the one `flux bootstrap` makes)
   */
  readonly repositorySource?: string | undefined;
  /** Flux's namespace, where the Kustomizations are written. */
  readonly namespace: string;
  /** Each Kustomization's `spec.interval`, as a Go duration. */
  readonly interval: string;
  /**
   * A Secret in Flux's namespace whose keys kustomize-controller substitutes for the `${VAR}`
   * placeholders of the steps (`spec.postBuild.substituteFrom`), so that the values they stand for
   * (passwords) stay out of Git. The HelmReleases must have every other `${` escaped as `$${`.
   * @default - no substitution: `${VAR}` reaches Helm as written
   */
  readonly substituteFrom?: string | undefined;
}

/** One file of the directory: its path (`/`-separated, relative) and its objects. */
export interface FluxLayoutFile {
  readonly path: string;
  readonly objects: readonly object[];
}

/** Why `path` cannot be a Kustomization's path inside a repository, or undefined. */
export function repositoryPathProblem(path: string): string | undefined {
  if (path.startsWith('/')) return 'must be relative to the root of the Git repository';
  if (path.split('/').includes('..')) return 'must not leave the Git repository (no ..)';
  if (!/^[A-Za-z0-9._/-]*$/.test(path)) return 'may hold letters, digits, ".", "_", "-" and "/" only';
  return undefined;
}

/** `./a/b` from `a/b/`, `./a/b`, `.`: the form Flux's examples write. */
function normalPath(...parts: string[]): string {
  const segments = parts.join('/').split('/').filter((s) => s !== '' && s !== '.');
  return segments.length === 0 ? './' : `./${segments.join('/')}`;
}

function kustomizeFile(resources: string[]): object {
  return { apiVersion: KUSTOMIZE_API_VERSION, kind: 'Kustomization', resources };
}

/**
 * The directory's files, in a stable order. `objects` are {@link fluxObjectsAsRead}'s: Namespaces
 * and sources first, then HelmReleases with their step annotation.
 */
export function fluxLayout(spec: ManifestSpec, plan: Plan, objects: Iterable<KubeObject>, options: FluxLayoutOptions): FluxLayoutFile[] {
  const sources: KubeObject[] = [];
  const steps = new Map<number, KubeObject[]>();
  for (const o of objects) {
    if (o.apiVersion !== HELM_RELEASE_API_VERSION) {
      sources.push(o);
      continue;
    }
    const step = Number(o.metadata.annotations?.[FLUX_STEP_ANNOTATION]);
    const list = steps.get(step);
    if (list) list.push(o);
    else steps.set(step, [o]);
  }
  const indexes = [...steps.keys()].sort((a, b) => a - b);
  const width = String(Math.max(0, ...indexes)).length;
  const groupOf = new Map(plan.steps.map((s) => [s.index, s.group]));
  // A step's budget: each release's wait and tests in turn, which is the most its HelmReleases
  // can take; a Kustomization that times out only reports, it uninstalls nothing.
  const budget = new Map(plan.steps.map((s) => [s.index, s.releases.filter((r) => r.firstStep === s.index).reduce((t, r) => t + r.waitTimeout + (r.test.enabled ? r.test.timeoutSeconds : 0), 0)]));

  const source = { kind: 'GitRepository', name: options.repositorySource ?? FLUX_BOOTSTRAP_SOURCE };
  const kustomization = (name: string, folder: string, dependsOn: string | undefined, timeout: number | undefined): object => ({
    apiVersion: KUSTOMIZATION_API_VERSION,
    kind: 'Kustomization',
    metadata: { name, namespace: options.namespace },
    spec: {
      ...(dependsOn === undefined ? {} : { dependsOn: [{ name: dependsOn }] }),
      interval: options.interval,
      path: normalPath(options.repositoryPath, folder),
      ...(options.substituteFrom === undefined || dependsOn === undefined ? {} : { postBuild: { substituteFrom: [{ kind: 'Secret', name: options.substituteFrom }] } }),
      prune: false,
      sourceRef: { ...source },
      ...(timeout === undefined || timeout <= 0 ? {} : { timeout: goDuration(timeout) }),
      wait: true,
    },
  });

  const files: FluxLayoutFile[] = [];
  const flux: object[] = [];
  const sourcesName = unreserved(scopedName(spec.name, 'sources'));
  flux.push(kustomization(sourcesName, 'sources', undefined, undefined));
  // kustomize refuses a resource file without objects.
  files.push({ path: 'sources/kustomization.yaml', objects: [kustomizeFile(sources.length > 0 ? ['sources.yaml'] : [])] });
  if (sources.length > 0) files.push({ path: 'sources/sources.yaml', objects: sources });
  let previous = sourcesName;
  for (const i of indexes) {
    const group = groupOf.get(i) ?? '';
    const folder = `steps/${String(i).padStart(width, '0')}-${slug(group, 40) || 'group'}`;
    const name = unreserved(scopedName(spec.name, `step-${String(i).padStart(width, '0')}-${group}`));
    flux.push(kustomization(name, folder, previous, budget.get(i)));
    files.push({ path: `${folder}/kustomization.yaml`, objects: [kustomizeFile(['helmreleases.yaml'])] });
    files.push({ path: `${folder}/helmreleases.yaml`, objects: steps.get(i)! });
    previous = name;
  }
  return [{ path: 'kustomization.yaml', objects: [kustomizeFile(['flux-kustomizations.yaml'])] }, { path: 'flux-kustomizations.yaml', objects: flux }, ...files];
}
