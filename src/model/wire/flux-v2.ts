/**
 * The site as Flux objects: one `helm.toolkit.fluxcd.io/v2` HelmRelease per deployed chart, with
 * Armada's order as `dependsOn`, and the `source.toolkit.fluxcd.io/v1` GitRepository and
 * HelmRepository objects they read their charts from (shared, deduplicated).
 *
 * Ordering: every HelmRelease of plan step N depends on every HelmRelease of step N-1, plus the
 * chart's `addDependency` edges; nothing else serialises, so the charts of a parallel group
 * reconcile together. A HelmRelease is reconciled only when its dependencies are Ready, and Ready
 * includes Helm's wait and the tests, which is what Armada's step barrier means.
 *
 * Releases are adopted, not reinstalled: `releaseName` is the Helm release Armada installed, and
 * `storageNamespace` is the chart's namespace, where Helm 3 (and so Armada) keeps the release.
 *
 * Placed in the charts' namespaces, the output also creates those namespaces (see
 * flux-namespaces.ts): Armada's Helm created a namespace with its release, and a HelmRelease's
 * `install.createNamespace` cannot create the namespace the HelmRelease itself is in.
 */
import { Diagnostics, FieldPath, formatFieldPath, MessageWriterOf, show } from '../diagnostics';
import { Duration, GO_DURATION_MAX_SECONDS } from '../duration';
import { hasOwnKey } from '../own-keys';
import { effectiveNativeWait } from '../effective';
import { dns1123LabelProblem, dns1123SubdomainProblem } from '../names';
import { redactCredentials } from '../safe-text';
import { Plan, PlannedRelease } from '../plan';
import { firstByName } from '../first-by-name';
import { ChartSource, SourceType } from '../source';
import { ChartSpec, HookAction, ManifestSpec } from '../spec';
import type { KubeObject } from './airship-v1';
import { ordered, valuesOut, WriterForm } from './emit';
import { leafPaths } from '../values';
import { fluxNamespaceObjects } from './flux-namespaces';
import { machineryNamespace } from '../system-namespaces';
import { lostWaits } from './flux-waits';
import type { EffectiveWaitResource } from '../wait';
import { doubtfulBranch, FluxSourceKey, FluxSources, GitRef, helmReleaseObjectName, SOURCE_API_VERSION, gitRef, scopedName } from './flux-sources';
import { urlCredentials } from './flux-credentials';
import { PackagedChartRepository } from './flux-packaged';
import { packagedChartRef } from './flux-packaged-mapping';
import { SubchartOutcome, subchartsText } from './flux-subcharts';

export const HELM_RELEASE_API_VERSION = 'helm.toolkit.fluxcd.io/v2';
/** Annotations carrying the plan on each HelmRelease, for people reading the cluster. */
export const FLUX_STEP_ANNOTATION = 'armada-cdk.io/step';
export const FLUX_GROUP_ANNOTATION = 'armada-cdk.io/chart-group';
export const FLUX_MANIFEST_ANNOTATION = 'armada-cdk.io/manifest';

/** The namespace Flux is installed into by `flux bootstrap`. */
export const FLUX_DEFAULT_NAMESPACE = 'flux-system';
export const FLUX_DEFAULT_INTERVAL = Duration.minutes(10);

/** Where the HelmRelease objects live. */
export enum HelmReleasePlacement {
  /**
   * Every HelmRelease in one namespace (`namespace`, `flux-system` by default), each installing
   * into its chart's namespace through `targetNamespace`: `dependsOn` never crosses namespaces.
   */
  SINGLE_NAMESPACE = 'single-namespace',
  /**
   * Each HelmRelease in its chart's namespace (the tenant's namespace): the releases of a site
   * that spans namespaces then depend on each other across namespaces. The output starts with a
   * `v1` Namespace for each namespace it writes into, created only when missing and never pruned
   * by kustomize-controller, except `default`, `kube-system`, `kube-public`, `kube-node-lease`,
   * `flux-system` and `namespace` (Flux's own), which exist already or are Flux's to create.
   */
  CHART_NAMESPACE = 'chart-namespace',
}

/** Options of {@link toFluxObjects}. */
export interface FluxOptions {
  /**
   * How often Flux reconciles each HelmRelease (`spec.interval`): it re-applies the release when
   * it drifted from its spec, at this period, besides reacting to changes of the spec or chart.
   * @default FLUX_DEFAULT_INTERVAL (10 minutes)
   */
  readonly interval?: Duration | undefined;
  /**
   * How often Flux checks each GitRepository and HelmRepository for a new revision.
   * @default - the `interval`
   */
  readonly sourceInterval?: Duration | undefined;
  /**
   * Where the HelmReleases live: all in `namespace` (their `dependsOn` then never crosses
   * namespaces), or each in its chart's namespace (a site spanning namespaces then depends across
   * namespaces, which helm-controller allows, also with `--no-cross-namespace-refs`, but which a
   * policy forbidding cross-namespace references refuses; a warning says so).
   * @default HelmReleasePlacement.SINGLE_NAMESPACE
   */
  readonly placement?: HelmReleasePlacement | undefined;
  /**
   * The namespace Flux runs in. With `HelmReleasePlacement.SINGLE_NAMESPACE` every HelmRelease
   * is written there; with `CHART_NAMESPACE` it is the one namespace the output writes objects
   * into (a chart's, or `sourceNamespace`) without a Namespace object for it: Flux's own
   * installation creates and owns it.
   * @default FLUX_DEFAULT_NAMESPACE ('flux-system')
   */
  readonly namespace?: string | undefined;
  /**
   * The namespace of the GitRepository and HelmRepository objects. A HelmRelease whose source is
   * in another namespace is refused by a helm-controller run with `--no-cross-namespace-refs`.
   * @default - the namespace of the HelmReleases that use them (with CHART_NAMESPACE placement,
   *   a source is written once per namespace that uses it)
   */
  readonly sourceNamespace?: string | undefined;
  /**
   * Write every HelmRelease with `spec.suspend: true`: Flux then neither installs, upgrades nor
   * uninstalls anything until each is resumed (`flux resume helmrelease`), a safe first apply
   * when a site moves over from Armada.
   * @default false
   */
  readonly suspend?: boolean | undefined;
  /**
   * Where Flux finds the directories of local sources: the directory, as written in
   * `source.location`, to a git source that holds the same tree (`ChartSource.git(url, {
   * reference, subpath })`, its subpath being the directory's place in the repository). The
   * chart's own subpath is read inside it.
   * @default - none: a local chart refers to a GitRepository for you to create (a warning)
   */
  readonly localSources?: Readonly<Record<string, ChartSource>> | undefined;
  /**
   * A Helm repository of the user's that holds every deployed chart assembled as Armada deploys
   * it (made by `packageFluxCharts`): each HelmRelease then reads its chart by name and exact
   * version from one HelmRepository at its URL, with the subcharts Armada injects, and the
   * charts' own sources are not written.
   * @default - none: each chart is read from its own source, as Flux builds it
   */
  readonly chartRepository?: PackagedChartRepository | undefined;
  /**
   * What Flux makes of each chart's Armada `dependencies`, by chart name, found from the charts'
   * contents (`checkSubcharts`); the warning about a chart's dependencies says it.
   * @default - none: the warning says that the outcome is not known
   */
  readonly subchartOutcomes?: Readonly<Record<string, SubchartOutcome>> | undefined;
  /**
   * The sources that need credentials: a source, named by its URL (the GitRepository's or
   * HelmRepository's `spec.url`, or a chart's `source.location` that gives it, a tarball's URL
   * included) or by its object name, to the Secret that holds them, written as the source's
   * `spec.secretRef` (for a GitRepository `username` and `password`, a token as the password,
   * or `identity` and `known_hosts` for `ssh://`; for a HelmRepository `username` and
   * `password`). The Secret must exist in the source's namespace, each of them with
   * CHART_NAMESPACE. A name that matches no source is an error.
   * @default - no source has a secretRef
   */
  readonly sourceSecrets?: Readonly<Record<string, string>> | undefined;
}

/** A Go duration as Flux's `interval` and `timeout` fields want it: `15m`, `1h30m`, `45s`. */
export function goDuration(seconds: number): string {
  // Charts share a handful of timeouts: each is written once.
  let text = durations.get(seconds);
  if (text === undefined) {
    text = formatGoDuration(seconds);
    if (durations.size < 1000) durations.set(seconds, text);
  }
  return text;
}

const durations = new Map<number, string>();

function formatGoDuration(seconds: number): string {
  if (seconds <= 0) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h > 0 ? `${h}h` : ''}${m > 0 ? `${m}m` : ''}${s > 0 ? `${s}s` : ''}`;
}

/** Where a HelmRelease is: what `dependsOn` and the source references name. */
interface ReleaseRef {
  readonly name: string;
  readonly namespace: string;
}

/**
 * With CHART_NAMESPACE the Namespaces (sorted by name) first; then sources (in first-use order),
 * then one HelmRelease per deployed chart, in plan order.
 */
export function toFluxObjects(spec: ManifestSpec, plan: Plan, options: FluxOptions = {}, form: WriterForm = {}): { objects: KubeObject[]; diagnostics: Diagnostics } {
  const r = fluxObjectsAsRead(spec, plan, options, form);
  return { objects: [...r.objects], diagnostics: r.diagnostics };
}

/** {@link toFluxObjects}' objects, each HelmRelease made when it is read. */
export interface FluxObjectsAsRead {
  /** The objects, in {@link toFluxObjects}' order; each iteration makes them anew. */
  readonly objects: Iterable<KubeObject>;
  /** How many objects `objects` gives. */
  readonly count: number;
  /** Every finding, complete before any object is read. */
  readonly diagnostics: Diagnostics;
}

/**
 * {@link toFluxObjects} for a writer that writes each object and lets it go: every finding is
 * made here, and a HelmRelease is built only when `objects` reaches it, so that a large site
 * never holds all of them (on 8,000 charts, holding them cost about 4% of a conversion's CPU
 * time, the garbage collector copying them out of the young generation).
 */
export function fluxObjectsAsRead(spec: ManifestSpec, plan: Plan, options: FluxOptions = {}, form: WriterForm = {}): FluxObjectsAsRead {
  const d = new Diagnostics();
  const placement = options.placement ?? HelmReleasePlacement.SINGLE_NAMESPACE;
  const namespace = options.namespace ?? FLUX_DEFAULT_NAMESPACE;
  const interval = options.interval ?? FLUX_DEFAULT_INTERVAL;
  const sourceInterval = options.sourceInterval ?? interval;
  checkOptions(spec, { namespace, sourceNamespace: options.sourceNamespace, interval, sourceInterval }, d);
  const charts = firstByName(spec.charts);

  // Every chart's HelmRelease is known before any is written: dependsOn may name a chart later in
  // the same parallel step.
  const refs = new Map<string, ReleaseRef>();
  const taken = new Map<string, { chart: string; release: string }>();
  const firsts: { release: PlannedRelease; step: number; group: string }[] = [];
  for (const step of plan.steps) {
    for (const r of step.releases) {
      const chart = charts.get(r.chart)!;
      if (refs.has(r.chart)) {
        d.warn(chart.origin, undefined, 'not-expressible', `${LOST}: the chart is deployed again in step ${step.index} (group ${show(step.group)}), but one HelmRelease exists per release; it is deployed once, in step ${r.firstStep}, and the steps after ${step.index} wait for that one and for every release of the steps before ${step.index}`);
        continue;
      }
      const ref = { name: helmReleaseObjectName(spec.name, r.name), namespace: placement === HelmReleasePlacement.CHART_NAMESPACE ? r.namespace : namespace };
      const clash = taken.get(`${ref.namespace}/${ref.name}`);
      if (clash !== undefined) {
        const other = charts.get(clash.chart)!;
        const why = clash.release === r.name ? 'the same Helm release name' : `Helm release ${show(clash.release)}, which gives the same name as ${show(r.name)}`;
        d.error(chart.origin, ['release'], 'flux-name', `the HelmRelease ${show(ref.name)} would be written twice in namespace ${show(ref.namespace)}: chart ${show(clash.chart)} (namespace ${show(other.namespace)}) has ${why}; ${clash.release === r.name ? 'use HelmReleasePlacement.CHART_NAMESPACE, or ' : ''}give one of them another release`);
      }
      taken.set(`${ref.namespace}/${ref.name}`, { chart: r.chart, release: r.name });
      refs.set(r.chart, ref);
      firsts.push({ release: r, step: step.index, group: step.group });
    }
  }

  const sources = new FluxSources(spec.name);
  const releaseInterval = goDuration(interval.toSeconds());
  const releases: PendingRelease[] = [];
  // Counted; only the first few are named.
  let crossings = 0;
  const crossing: string[] = [];
  const dependencies = new Dependencies(plan, refs);
  const localSources = options.localSources ?? {};
  // Index loops: they run once per chart, before V8 optimizes them, and an unoptimized
  // for...of makes an object per step.
  for (let f = 0; f < firsts.length; f++) {
    const { release, step, group } = firsts[f];
    const chart = charts.get(release.chart)!;
    const ref = refs.get(chart.name)!;
    const deps = dependencies.of(chart, step);
    for (let k = 0; k < deps.length; k++) {
      const dep = deps[k];
      if (dep.namespace === ref.namespace) continue;
      if (crossings++ < 3) crossing.push(`${ref.namespace}/${ref.name} -> ${dep.namespace}/${dep.name}`);
    }
    const mapping = new ChartMapping(spec, chart, release, d, localSources, form, options.chartRepository, options.subchartOutcomes?.[chart.name]);
    const source = mapping.chart(sources, options.sourceNamespace ?? ref.namespace);
    mapping.report();
    systemNamespace(chart, release.namespace, namespace, d);
    releases.push({ ref, deps, group, step, mapping, source });
  }

  if (crossings > 0) {
    d.warn(spec.origin, undefined, 'flux-cross-namespace', `${crossings} dependsOn reference${crossings === 1 ? '' : 's'} cross${crossings === 1 ? 'es' : ''} namespaces (${crossing.join(', ')}${crossings > 3 ? ', ...' : ''}): helm-controller follows dependsOn across namespaces, also when it runs with --no-cross-namespace-refs (that flag refuses cross-namespace chart sources), but a cluster policy that forbids cross-namespace references refuses it; HelmReleasePlacement.SINGLE_NAMESPACE keeps every reference inside one namespace`);
  }
  const foreign = [...new Set(releases.map((r) => r.ref.namespace).filter((n) => options.sourceNamespace !== undefined && n !== options.sourceNamespace))];
  if (foreign.length > 0) {
    d.warn(spec.origin, undefined, 'flux-cross-namespace', `HelmReleases in ${foreign.map((n) => show(n)).join(', ')} read their charts from sources in ${show(options.sourceNamespace)}: a helm-controller run with --no-cross-namespace-refs refuses that (AccessDenied, the HelmRelease stalls); leave sourceNamespace unset to write the sources beside the HelmReleases`);
  }

  const branches = sources.all.filter(({ key }) => key.kind === 'GitRepository' && 'branch' in key.ref);
  if (branches.length > 0) {
    const named = branches.slice(0, 3).map(({ id }) => show(sources.nameOf(id))).join(', ') + (branches.length > 3 ? ` and ${branches.length - 3} more` : '');
    d.warn(spec.origin, undefined, 'flux-assumption', `for Flux (helm.toolkit.fluxcd.io/v2): ${branches.length === 1 ? 'a GitRepository follows a branch' : `${branches.length} GitRepositories follow a branch`} (${named}): with reconcileStrategy Revision every commit to it, even one to another chart, is a new version of every chart read from it, and Flux upgrades each of those releases at once, out of the plan's order (dependsOn holds back only what is not Ready), where Armada deployed a branch's new commits only when applied; pin the references to commits`);
  }
  // SINGLE_NAMESPACE writes into Flux's namespace or ones the options name, which the user made
  // for it: its output stays as sites already apply it.
  const head: KubeObject[] = placement === HelmReleasePlacement.CHART_NAMESPACE
    ? fluxNamespaceObjects([...sources.all.map((x) => x.key.namespace), ...releases.map((r) => r.ref.namespace)], namespace)
    : [];
  const secretOf = sourceSecrets(spec, sources, options.sourceSecrets ?? {}, d);
  for (const { id, key } of sources.all) head.push(sourceObject(sources.nameOf(id), key, sourceInterval, secretOf.get(id)));
  return {
    objects: {
      *[Symbol.iterator]() {
        yield* head;
        // Built after every source is known (source names depend on all of them), when read.
        for (const r of releases) yield helmRelease(r, spec, sources, options, releaseInterval);
      },
    },
    count: head.length + releases.length,
    diagnostics: d,
  };
}

/**
 * A warning for a release installed into Flux's namespace or kube-system: helm-controller installs
 * whatever the Git repository says there, with the controllers' power.
 */
function systemNamespace(chart: ChartSpec, ns: string, fluxNamespace: string, d: Diagnostics): void {
  if (ns === fluxNamespace || ns === FLUX_DEFAULT_NAMESPACE) {
    d.warn(chart.origin, ['namespace'], 'flux-assumption', `for Flux (helm.toolkit.fluxcd.io/v2): the release installs into ${show(ns)}, Flux's own namespace: its objects sit beside Flux's controllers, which apply what they reconcile as cluster-admin, a change to its values in Git can replace their Secrets and ServiceAccounts, and flux uninstall deletes the namespace, and the release with it; give the chart a namespace of its own`);
  } else if (ns === 'kube-system') {
    d.warn(chart.origin, ['namespace'], 'flux-assumption', `for Flux (helm.toolkit.fluxcd.io/v2): the release installs into "kube-system", which holds ${machineryNamespace(ns)}: whoever can change this HelmRelease in Git acts with their power; keep it there only for a chart that belongs there (a CNI, a cluster add-on)`);
  }
}

/**
 * What a HelmRelease needs, found with the findings, to be built when it is read: plain data, as
 * thousands of them wait for the writer.
 */
interface PendingRelease {
  readonly ref: ReleaseRef;
  readonly deps: readonly ReleaseRef[];
  readonly group: string;
  readonly step: number;
  readonly mapping: ChartMapping;
  readonly source: ChartRef;
}

/**
 * Where a HelmRelease's chart comes from, before the sources' names are final: a source of the
 * output (by its id), a GitRepository the output does not write (a local source), or none (the
 * source has an error, reported).
 */
type ChartRef =
  | { readonly kind: 'none' }
  | { readonly kind: 'HelmRepository'; readonly id: string; readonly chart: string; readonly version: string }
  | { readonly kind: 'GitRepository'; readonly id: string; readonly path: string }
  | LocalChartRef;

/** A local source's GitRepository, which the output names but does not write. */
interface LocalChartRef {
  readonly kind: 'local';
  readonly location: string;
  /** The GitRepository's name. */
  readonly name: string;
  /** The GitRepository's namespace. */
  readonly namespace: string;
  readonly path: string;
}

const NO_CHART: ChartRef = { kind: 'none' };

function helmRelease(p: PendingRelease, spec: ManifestSpec, sources: FluxSources, options: FluxOptions, interval: string): KubeObject {
  const { ref, deps, mapping } = p;
  const release = mapping.release;
  return {
    apiVersion: HELM_RELEASE_API_VERSION,
    kind: 'HelmRelease',
    metadata: {
      name: ref.name,
      namespace: ref.namespace,
      annotations: { [FLUX_GROUP_ANNOTATION]: p.group, [FLUX_MANIFEST_ANNOTATION]: spec.name, [FLUX_STEP_ANNOTATION]: String(p.step) },
    },
    spec: ordered([
      ['releaseName', release.name],
      ['targetNamespace', release.namespace],
      // Where Helm 3 keeps a release: its own namespace. Flux would use its own otherwise,
      // miss the release Armada installed and fail to install it again over its objects.
      ['storageNamespace', release.namespace],
      ['interval', interval],
      ['suspend', options.suspend === true ? true : undefined],
      ['chart', chartSpec(p.source, sources, options.sourceNamespace ?? ref.namespace, ref.namespace)],
      // Written as literals (thousands on a large site), in the order ordered() would give.
      ['dependsOn', deps.length === 0 ? undefined : deps.map((x) => (x.namespace === ref.namespace ? { name: x.name } : { name: x.name, namespace: x.namespace }))],
    ], mapping.releaseFields()),
  };
}

/** `spec.chart` of a HelmRelease whose chart comes from `c`, its source in `sourceNamespace`. */
function chartSpec(c: ChartRef, sources: FluxSources, sourceNamespace: string, releaseNamespace: string): Record<string, unknown> {
  if (c.kind === 'none') return {};
  const sourceRef = (kind: string, name: string) => ordered([['kind', kind], ['name', name], ['namespace', sourceNamespace === releaseNamespace ? undefined : sourceNamespace]]);
  if (c.kind === 'HelmRepository') return { spec: ordered([['chart', c.chart], ['version', c.version], ['sourceRef', sourceRef('HelmRepository', sources.nameOf(c.id))]]) };
  const name = c.kind === 'local' ? c.name : sources.nameOf(c.id);
  // Armada deploys whatever the reference points to on every apply; Flux's default rebuilds the
  // chart only when Chart.yaml's version changes.
  return { spec: ordered([['chart', c.path], ['sourceRef', sourceRef('GitRepository', name)], ['reconcileStrategy', 'Revision']]) };
}

const LOST = 'cannot be expressed for Flux (helm.toolkit.fluxcd.io/v2)';

/** Values larger than this (as YAML, about) make a HelmRelease near the API server's limit. */
const VALUES_SIZE_WARNING = 1024 * 1024;

// What ChartMapping finds, as writers of one message each from a value the chart holds (or a
// small record of it), and the fields they are about: a large site has a few of each per chart.
const lostText = (message: string) => `${LOST}: ${message}`;
const assumedText = (message: string) => `for Flux (helm.toolkit.fluxcd.io/v2): ${message}`;

const SOURCE_TYPE: FieldPath = ['source', 'type'];
const SOURCE_LOCATION: FieldPath = ['source', 'location'];
const SOURCE_SUBPATH: FieldPath = ['source', 'subpath'];
const SOURCE_PROXY: FieldPath = ['source', 'proxyServer'];
const SOURCE_AUTH: FieldPath = ['source', 'authMethod'];
const WAITS: FieldPath = ['wait'];
const VALUES: FieldPath = ['values'];
const PRE_DELETE: FieldPath = ['upgrade', 'pre', 'delete'];
const PRE_UPDATE: FieldPath = ['upgrade', 'pre', 'update'];
const PRE_CREATE: FieldPath = ['upgrade', 'pre', 'create'];
const POST: FieldPath = ['upgrade', 'post'];
const DEPENDENCIES: FieldPath = ['dependencies'];
const CONTINUE_PROCESSING: FieldPath = ['protected', 'continueProcessing'];

const GIT_PROXY_LOST: MessageWriterOf<ChartSource> = (s) =>
  lostText(`proxyServer ${show(s.proxyServer)}: Flux takes a Git proxy from a Secret (spec.proxySecretRef of the GitRepository) or from the source-controller's HTTPS_PROXY`);
const GIT_AUTH_LOST: MessageWriterOf<ChartSource> = (s) =>
  lostText(`authMethod ${show(s.authMethod)}: give the GitRepository spec.secretRef, a Secret with the SSH key (identity and known_hosts), and an ssh:// URL`);
const LOCAL_SOURCE_LOST: MessageWriterOf<LocalChartRef> = (x) =>
  lostText(`a local source (${show(x.location)}): no Flux source reads a directory of the machine that runs the deployment. The HelmRelease refers to GitRepository ${show(x.name)} in namespace ${show(x.namespace)} (chart path ${show(x.path)}), which is not written: push that directory to a Git repository and create the GitRepository (or name the repository in localSources), or give the chart a git or tar source`);
const BRANCH_ASSUMED: MessageWriterOf<{ what: string; doubt: string }> = (x) =>
  assumedText(`${x.what}the reference is written as the GitRepository's ref.branch, and Flux fetches only a branch of that name, where Armada fetches whatever it names; ${x.doubt}, or the source never becomes Ready and no release after it is installed`);
const GIT_PROTOCOL_ASSUMED: MessageWriterOf<{ what: string; loc: string; https: string }> = (x) =>
  assumedText(`${x.what}the git:// URL ${show(x.loc)}: Flux clones over HTTP(S) or SSH only, so it is written as ${show(x.https)}; check that the server serves the repository over HTTPS`);
const TAR_ASSUMED: MessageWriterOf<{ key: { url: string }; chart: string; version: string }> = (x) =>
  assumedText(`a tar source becomes HelmRepository ${show(x.key.url)} with chart ${show(x.chart)} version ${show(x.version)}: this assumes that directory is a Helm repository (it serves an index.yaml listing that chart version, as helm repo index writes it); a plain directory of tarballs cannot be expressed`);
const TAR_SUBPATH_LOST: MessageWriterOf<{ subpath: string | undefined; chart: string }> = (x) =>
  lostText(`subpath ${show(x.subpath)}: Flux installs chart ${show(x.chart)} as packaged, and cannot pick another chart inside the tarball`);
const TAR_PROXY_LOST: MessageWriterOf<ChartSource> = (s) => lostText(`proxyServer ${show(s.proxyServer)}: a HelmRepository has no proxy; set HTTPS_PROXY on the source-controller`);

const WAITS_LOST: MessageWriterOf<{ waits: readonly EffectiveWaitResource[]; native: boolean; namespace: string }> = (x) => lostText(lostWaits(x.waits, x.native, x.namespace));

const VALUES_SIZE_LOST: MessageWriterOf<number> = (size) =>
  lostText(`the values alone are about ${(size / 1024 / 1024).toFixed(1)} MiB, and a HelmRelease holds them: the API server refuses an object over about 1.5 MiB (etcd's request limit), and a client-side kubectl apply one over 256 KiB (its last-applied annotation), where Armada handed Helm a file; put them in ConfigMaps or Secrets the HelmRelease reads with valuesFrom`);
const NULL_VALUES_LOST: MessageWriterOf<readonly FieldPath[]> = (found) =>
  lostText(`null ${found.length > 1 ? `at ${found.slice(0, 3).map((f) => formatFieldPath(f)).join(', ')}${found.length > 3 ? ' and more' : ''}` : 'here'}: the HelmRelease keeps it in spec.values, but kustomize-controller and kubectl apply drop a null from the object when they update it, and Helm then keeps the chart's default, which Armada's values file removed; put such values in a ConfigMap the HelmRelease reads with valuesFrom`);

const PRE_DELETE_LOST: MessageWriterOf<readonly HookAction[]> = (preDelete) =>
  lostText(`upgrade.pre.delete (${preDelete.map((h) => h.type).join(', ')}): nothing in Flux runs before an upgrade; make those Jobs Helm hooks with helm.sh/hook-delete-policy: before-hook-creation, or give them ttlSecondsAfterFinished, so that an upgrade can recreate them`);
const PRE_UPDATE_LOST = lostText('upgrade.pre.update (Armada has ignored it since Helm 3, and Flux has no equivalent)');
const PRE_CREATE_LOST = lostText('upgrade.pre.create (never implemented by Armada, and Flux has no equivalent)');
const POST_LOST = lostText('upgrade.post (ignored by Armada, and Flux has no equivalent)');
const SUBCHARTS_LOST: MessageWriterOf<{ deps: readonly string[]; outcome: SubchartOutcome | undefined }> = (x) => lostText(subchartsText(x.deps, x.outcome));
const CONTINUE_PROCESSING_LOST = lostText('continueProcessing=true: the release is left in place when it fails (no remediation), but the HelmReleases that depend on it wait until it is Ready, where Armada carries on with the group');

function checkOptions(spec: ManifestSpec, o: { namespace: string; sourceNamespace?: string | undefined; interval: Duration; sourceInterval: Duration }, d: Diagnostics): void {
  for (const [name, value] of [['namespace', o.namespace], ['sourceNamespace', o.sourceNamespace]] as const) {
    const p = value === undefined ? undefined : dns1123LabelProblem(value);
    if (p) d.error(spec.origin, undefined, 'flux-option', `Flux option ${name}: received ${show(value)}; a namespace ${p}`);
  }
  for (const [name, value] of [['interval', o.interval], ['sourceInterval', o.sourceInterval]] as const) {
    const p = intervalProblem(value);
    if (p) d.error(spec.origin, undefined, 'flux-option', `Flux option ${name}: ${p}`);
  }
}

/** Why `value` is not an interval Flux reads (a Go duration of whole seconds, greater than 0), or undefined. */
export function intervalProblem(value: Duration): string | undefined {
  const p = value.problem();
  if (p) return p.replace('a timeout', 'an interval');
  if (value.toSeconds() > GO_DURATION_MAX_SECONDS) return `received ${value.toSeconds()} seconds; Flux reads an interval as a Go duration, which ends at ${GO_DURATION_MAX_SECONDS} seconds (about 292 years)`;
  return undefined;
}

/**
 * The previous step's releases, then the chart's own edges; never itself, each once. A step whose
 * releases are all repeats has no HelmRelease of its own: theirs belong to earlier steps and do
 * not wait for the rest of the step before this one, so the steps before it are added too, back
 * to one that installs a release first (whose HelmReleases wait for everything before them).
 */
class Dependencies {
  private readonly before = new Map<number, StepReleases>();
  constructor(
    private readonly plan: Plan,
    private readonly refs: ReadonlyMap<string, ReleaseRef>,
  ) {}

  /** What the release of `chart` in step `step` depends on. */
  public of(chart: ChartSpec, step: number): readonly ReleaseRef[] {
    const before = this.releasesBefore(step);
    // One list for every chart of the step that adds no edge of its own (most of a large site's).
    if (chart.dependsOn.length === 0 && !before.has.has(chart.name)) return before.refs;
    const out: ReleaseRef[] = [];
    const seen = new Set<string>([chart.name]);
    const add = (n: string) => {
      const ref = this.refs.get(n);
      if (ref === undefined || seen.has(n)) return;
      seen.add(n);
      out.push(ref);
    };
    for (const n of before.charts) add(n);
    for (const n of chart.dependsOn) add(n);
    return out;
  }

  /** The releases of the steps before `step` (see the class comment), each once, in order. */
  private releasesBefore(step: number): StepReleases {
    let before = this.before.get(step);
    if (before !== undefined) return before;
    const refs: ReleaseRef[] = [];
    const charts: string[] = [];
    const has = new Set<string>();
    for (let s = step - 1; s >= 0; s--) {
      const releases = this.plan.steps[s].releases;
      for (const r of releases) {
        const ref = this.refs.get(r.chart);
        if (ref === undefined || has.has(r.chart)) continue;
        has.add(r.chart);
        charts.push(r.chart);
        refs.push(ref);
      }
      if (releases.some((r) => r.firstStep === this.plan.steps[s].index)) break;
    }
    // A copy of its own length: the HelmReleases keep the list until they are written.
    before = { refs: refs.slice(), charts, has };
    this.before.set(step, before);
    return before;
  }
}

/** The releases a step's HelmReleases wait for: their references, and the charts they are of. */
interface StepReleases {
  readonly refs: readonly ReleaseRef[];
  readonly charts: readonly string[];
  readonly has: ReadonlySet<string>;
}

/**
 * The Secret of each source `given` names (by URL, a chart's location of it, or object name), by
 * source identity; a name that matches no source, or a Secret name that is none, is an error.
 */
function sourceSecrets(spec: ManifestSpec, sources: FluxSources, given: Readonly<Record<string, string>>, d: Diagnostics): Map<string, string> {
  const out = new Map<string, string>();
  const entries = Object.entries(given);
  if (entries.length === 0) return out;
  const used = new Set<string>();
  for (const [handle, secret] of entries) {
    const p = typeof secret === 'string' ? dns1123SubdomainProblem(secret) : 'must be a string';
    if (p) {
      d.error(spec.origin, undefined, 'flux-option', `Flux option sourceSecrets[${show(redactCredentials(handle))}]: received ${show(secret)}; a Secret name ${p}`);
      used.add(handle);
    }
  }
  for (const { id } of sources.all) {
    // The first handle given wins: the source's URL, then a chart's location, then its name.
    const handle = sources.handles(id).find((h) => Object.prototype.hasOwnProperty.call(given, h));
    if (handle === undefined) continue;
    used.add(handle);
    if (!dns1123SubdomainProblem(given[handle])) out.set(id, given[handle]);
  }
  const unused = entries.filter(([h]) => !used.has(h)).map(([h]) => h);
  if (unused.length > 0) {
    // A source URL never holds credentials (they are refused), so it is quoted as written.
    const known = sources.all.map(({ id, key }) => `${key.kind} ${sources.nameOf(id)} (${key.url})`);
    for (const h of unused) d.error(spec.origin, undefined, 'flux-option', `Flux option sourceSecrets[${show(redactCredentials(h))}]: matches no source of the site; name one by its URL, a chart's source location or its object name: ${known.length === 0 ? 'the site has no source' : known.slice(0, 5).join(', ') + (known.length > 5 ? ` and ${known.length - 5} more` : '')}`);
  }
  return out;
}

function sourceObject(name: string, key: FluxSourceKey, interval: Duration, secret: string | undefined): KubeObject {
  return {
    apiVersion: SOURCE_API_VERSION,
    kind: key.kind,
    metadata: { name, namespace: key.namespace },
    spec: ordered([
      ['url', key.url],
      ['ref', key.kind === 'GitRepository' ? { ...key.ref } : undefined],
      ['interval', goDuration(interval.toSeconds())],
      // source-controller's own field (a LocalObjectReference): credentials stay in the cluster.
      ['secretRef', secret === undefined ? undefined : { name: secret }],
    ]),
  };
}

/** A tarball named the way `helm package` names it: `<chart>-<semver>.tgz`. */
const PACKAGED = /^(.+?)-(v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)\.(?:tgz|tar\.gz)$/;

/** One chart's HelmRelease fields, and the findings about what Flux cannot carry. */
class ChartMapping {
  constructor(
    private readonly spec: ManifestSpec,
    private readonly c: ChartSpec,
    /** The release the HelmRelease is of. */
    public readonly release: PlannedRelease,
    private readonly d: Diagnostics,
    private readonly localSources: Readonly<Record<string, ChartSource>>,
    private readonly form: WriterForm,
    private readonly repository?: PackagedChartRepository | undefined,
    private readonly subcharts?: SubchartOutcome | undefined,
  ) {}

  // A message that names values comes from a writer of this module, applied to a value the chart
  // holds anyway (see Diagnostics.warnOf); one that names none is a string of this module.
  private lost<T>(field: FieldPath, message: string | MessageWriterOf<T>, value?: T): void {
    if (typeof message === 'string') this.d.warn(this.c.origin, field, 'not-expressible', message);
    else this.d.warnOf(this.c.origin, field, 'not-expressible', message, value as T);
  }

  /** What the output assumes about the world, which the definition does not say. */
  private assumed<T>(field: FieldPath, message: MessageWriterOf<T>, value: T): void {
    this.d.warnOf(this.c.origin, field, 'flux-assumption', message, value);
  }

  /** Registers the chart's source; returns where the chart comes from (see {@link chartSpec}). */
  public chart(sources: FluxSources, sourceNamespace: string): ChartRef {
    if (this.repository !== undefined) return packagedChartRef(this.repository, this.c, sources, sourceNamespace, this.d);
    const s = this.c.source;
    if (s.type === SourceType.TAR) {
      const t = this.tar(sourceNamespace);
      if (t === undefined) return NO_CHART;
      return { kind: 'HelmRepository', id: sources.add(t.key, s.location), chart: t.chart, version: t.version };
    }
    let key: FluxSourceKey | undefined;
    let location: string | undefined;
    let path = chartPath(s.subpath);
    const published = s.type === SourceType.LOCAL && Object.prototype.hasOwnProperty.call(this.localSources, s.location) ? this.localSources[s.location] : undefined;
    if (published !== undefined) {
      const what = `localSources[${show(s.location)}]`;
      if (!ChartSource.isChartSource(published) || published.type !== SourceType.GIT) {
        this.d.error(this.c.origin, ['source', 'location'], 'flux-source', `${what}: received ${ChartSource.isChartSource(published) ? `a ${published.type} source` : show(published)}; it must be a git source (ChartSource.git), since a GitRepository is what Flux reads a directory tree from`);
        return NO_CHART;
      }
      const url = this.gitUrl(published.location, `${what}: `);
      if (url === undefined) return NO_CHART;
      key = { kind: 'GitRepository', namespace: sourceNamespace, url, ref: gitRef(published.reference) };
      location = published.location;
      this.checkBranch(['source', 'location'], key.ref, `${what}: `);
      path = chartPath(`${published.effectiveSubpath}/${s.effectiveSubpath}`);
    } else if (s.type === SourceType.GIT) {
      const url = this.gitUrl(s.location, '');
      if (url === undefined) return NO_CHART;
      key = { kind: 'GitRepository', namespace: sourceNamespace, url, ref: gitRef(s.reference) };
      location = s.location;
      this.checkBranch(['source', 'reference'], key.ref);
      if (s.proxyServer !== undefined) this.lost(SOURCE_PROXY, GIT_PROXY_LOST, s);
      if (s.authMethod !== undefined) this.lost(SOURCE_AUTH, GIT_AUTH_LOST, s);
    }
    if (key === undefined) {
      // A local directory: nothing in Flux reads the deployment host's disk. The HelmRelease
      // still refers to a GitRepository, so that the order stays whole and the fix is one object.
      const local: LocalChartRef = { kind: 'local', location: s.location, name: scopedName(this.spec.name, `local-${s.location}`), namespace: sourceNamespace, path };
      this.lost(SOURCE_TYPE, LOCAL_SOURCE_LOST, local);
      return local;
    }
    return { kind: 'GitRepository', id: sources.add(key, location), path };
  }

  /**
   * Whether `loc` carries credentials, which the output would write in clear into a source's
   * spec.url (an error that quotes the URL without them).
   */
  private hasCredentials(loc: string, kind: string, what: string): boolean {
    const found = urlCredentials(loc);
    if (found === undefined) return false;
    this.d.error(this.c.origin, ['source', 'location'], 'flux-source', `${what}received ${show(found.redacted)}, which carries ${found.what}: the ${kind}'s spec.url would hold it in clear, in Git. Remove it from the URL and give the ${kind} spec.secretRef, a Secret of the same namespace with ${kind === 'GitRepository' ? 'username and password (a token as the password), or identity and known_hosts for an ssh:// URL' : 'username and password'}: name it in sourceSecrets (--source-secret URL=SECRET)`);
    return true;
  }

  /** A reference written as a branch that may be a tag, an abbreviated commit or HEAD (see doubtfulBranch). */
  private checkBranch(field: FieldPath, ref: GitRef, what = ''): void {
    if (!('branch' in ref)) return;
    const doubt = doubtfulBranch(ref.branch);
    if (doubt) this.assumed(field, BRANCH_ASSUMED, { what, doubt });
  }

  /** A URL a GitRepository accepts; `what` prefixes the findings when the URL is not the chart's own. */
  private gitUrl(loc: string, what: string): string | undefined {
    if (this.hasCredentials(loc, 'GitRepository', what)) return undefined;
    if (/^(?:https?|ssh):\/\/[^/]/.test(loc)) return loc;
    if (/^git:\/\/[^/]/.test(loc)) {
      const https = loc.replace(/^git:/, 'https:');
      this.assumed(SOURCE_LOCATION, GIT_PROTOCOL_ASSUMED, { what, loc, https });
      return https;
    }
    const scp = /^([A-Za-z0-9._-]+@)?([A-Za-z0-9.-]+):(?!\/\/)(.+)$/.exec(loc);
    if (scp) return `ssh://${scp[1] ?? ''}${scp[2]}/${scp[3].replace(/^\//, '')}`;
    this.d.error(this.c.origin, ['source', 'location'], 'flux-source', `${what}received ${show(loc)}; a Flux GitRepository URL must start with http://, https:// or ssh://`);
    return undefined;
  }

  private tar(sourceNamespace: string): { key: FluxSourceKey; chart: string; version: string } | undefined {
    const s = this.c.source;
    if (this.hasCredentials(s.location, 'HelmRepository', '')) return undefined;
    const m = /^(https?:\/\/[^/]+(?:\/.*)?)\/([^/?#]+)$/.exec(s.location);
    const file = m ? PACKAGED.exec(m[2]) : null;
    const unversioned = m && !file ? /^(.+?)\.(?:tgz|tar\.gz)$/.exec(m[2]) : null;
    if (m && unversioned) {
      // A plain directory of tarballs (airskiff's chart server): Flux has no source for one file.
      const chart = unversioned[1];
      this.d.error(this.c.origin, ['source', 'location'], 'flux-source', `received ${show(s.location)}, a tarball whose file name has no version: a Flux HelmRepository serves a chart by name and version from its index.yaml, and no Flux source downloads a single file. Publish the chart where Flux can read it: package it as helm package does (${show(`${chart}-<version>.tgz`)}) into a directory with an index.yaml (helm repo index), and point the location at that file, or push the chart to Git and give it a git source`);
      return undefined;
    }
    if (!m || !file) {
      this.d.error(this.c.origin, ['source', 'location'], 'flux-source', `received ${show(s.location)}; a Flux HelmRepository serves a chart by name and version, which are taken from the tarball's file name, so a tar source must be an http(s) URL of a file named <chart>-<version>.tgz, as helm package names it`);
      return undefined;
    }
    const [, dir] = m;
    const [, chart, version] = file;
    const out = { key: { kind: 'HelmRepository' as const, namespace: sourceNamespace, url: dir }, chart, version };
    this.assumed(SOURCE_LOCATION, TAR_ASSUMED, out);
    const sub = s.subpath?.replace(/^\.\/|\/+$/g, '');
    if (sub !== undefined && sub !== '' && sub !== '.' && sub !== chart) {
      this.lost(SOURCE_SUBPATH, TAR_SUBPATH_LOST, { subpath: s.subpath, chart });
    }
    if (s.proxyServer !== undefined) this.lost(SOURCE_PROXY, TAR_PROXY_LOST, s);
    return out;
  }

  /** The findings about the release's fields, all made before any HelmRelease is built. */
  public report(): void {
    this.reportWaits();
    this.reportUnsupported();
    this.reportValues();
  }

  /** timeout, install, upgrade, test, uninstall, values: no findings (see {@link report}). */
  public releaseFields(): [string, unknown][] {
    const c = this.c;
    const r = this.release;
    // Native wait on: Helm 3's own --wait, as Armada ran it (Helm's legacy rules, before the
    // hooks, Jobs not waited on). Off: Helm returns after its hooks, as under Armada; a wait
    // before the hooks would deadlock a chart whose pods wait for a post-install Job, time out and
    // uninstall a healthy release (see fluxWaits).
    const native = effectiveNativeWait(c, this.spec.schemaVersion);
    const disableWait = native ? undefined : true;
    const disableWaitForJobs = native ? true : undefined;
    const p = r.protected;
    // Not protected: Armada purges a failed release and installs it anew. Protected: it leaves the
    // release as it is, which Flux does without remediation. A failed test never purges.
    const remediation = p.protected ? { retries: 0, remediateLastFailure: false } : { retries: 0, remediateLastFailure: true, ignoreTestFailures: true };
    const u = c.upgrade;
    const force = u?.options?.force === true;
    return [
      ['timeout', goDuration(r.waitTimeout)],
      // helm-controller 1.5+ waits with kstatus unless told otherwise: Helm 3's wait is `legacy`.
      ['waitStrategy', native ? { name: 'legacy' } : undefined],
      // Armada runs helm with --disable-openapi-validation, always; and force means Helm 3's
      // replace, which helm-controller does only without server-side apply (its default for an
      // install, so for a release it installs again after a failure).
      ['install', ordered([
        ['createNamespace', true],
        ['disableOpenAPIValidation', true],
        ['serverSideApply', force ? false : undefined],
        ['disableWait', disableWait],
        ['disableWaitForJobs', disableWaitForJobs],
        ['remediation', remediation],
      ])],
      ['upgrade', ordered([
        ['disableHooks', u?.noHooks === true ? true : undefined],
        ['disableOpenAPIValidation', true],
        ['force', force ? true : undefined],
        ['disableWait', disableWait],
        ['disableWaitForJobs', disableWaitForJobs],
        ['remediation', p.protected ? remediation : { ...remediation, strategy: 'uninstall' }],
      ])],
      ['test', r.test.enabled ? { enable: true, timeout: goDuration(r.test.timeoutSeconds) } : { enable: false }],
      ['uninstall', p.protected ? undefined : { timeout: goDuration(r.deleteTimeout) }],
      ['values', c.values === undefined || !hasOwnKey(c.values) ? undefined : valuesOut(c.values, undefined, this.form)],
    ];
  }

  private reportWaits(): void {
    const r = this.release;
    // Written when read, as the other findings (see lost).
    if (r.waitResources.length > 0) this.lost(WAITS, WAITS_LOST, { waits: r.waitResources, native: effectiveNativeWait(this.c, this.spec.schemaVersion), namespace: r.namespace });
  }

  /**
   * Two things of the values only a HelmRelease has to care about, found in one walk (every
   * chart's values are walked; a second finds where the nulls are, when there are any). A null removes the chart's default in Helm, and Armada passes it in
   * a values file; in a HelmRelease, kustomize-controller and kubectl apply drop nulls from
   * spec.values on update (a merge patch deletes what is null), so Helm keeps the default. And the
   * values are stored in the object, which the API server refuses past its request limit, where
   * Armada handed Helm a file of any size. One warning of each per chart.
   */
  private reportValues(): void {
    const values = this.c.values;
    if (values === undefined) return;
    const walk = new ValuesWalk();
    walk.visit(values);
    if (walk.size > VALUES_SIZE_WARNING) this.lost(VALUES, VALUES_SIZE_LOST, walk.size);
    if (walk.nulls > 0) {
      const found = nullPaths(values);
      this.lost(found[0], NULL_VALUES_LOST, found);
    }
  }

  private reportUnsupported(): void {
    const c = this.c;
    const u = c.upgrade;
    const preDelete = u?.pre?.delete;
    if (preDelete !== undefined && preDelete.length > 0) this.lost(PRE_DELETE, PRE_DELETE_LOST, preDelete);
    if (u?.pre?.update !== undefined && u.pre.update.length > 0) this.lost(PRE_UPDATE, PRE_UPDATE_LOST);
    if (u?.pre?.create !== undefined && u.pre.create.length > 0) this.lost(PRE_CREATE, PRE_CREATE_LOST);
    if (u?.post?.create !== undefined && u.post.create.length > 0) this.lost(POST, POST_LOST);
    // Packaged, the chart carries the subcharts Armada injects: nothing is lost.
    if (c.dependencies !== undefined && this.repository === undefined) this.lost(DEPENDENCIES, SUBCHARTS_LOST, { deps: c.dependencies, outcome: this.subcharts });
    if (this.release.protected.continueProcessing) this.lost(CONTINUE_PROCESSING, CONTINUE_PROCESSING_LOST);
  }
}

/**
 * About how many bytes a chart's values take as YAML, and how many nulls they hold: every chart's
 * values are walked, and nulls are rare, so their paths are found by {@link nullPaths} only where
 * there are any.
 */
class ValuesWalk {
  public size = 0;
  public nulls = 0;
  public visit(v: unknown): void {
    if (v === null) {
      this.size += 4;
      this.nulls++;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) this.visit(v[i]);
    } else if (typeof v === 'object') {
      // for-in lists the own keys in Object.keys' order without making an array of them.
      for (const k in v) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        this.size += k.length + 4;
        this.visit((v as Record<string, unknown>)[k]);
      }
    } else this.size += typeof v === 'string' ? v.length + 2 : 8;
  }
}

/** The paths of the first four nulls in `values`, in the order {@link ValuesWalk} visits them. */
function nullPaths(values: Readonly<Record<string, unknown>>): FieldPath[] {
  return leafPaths(values, (v) => v === null, 4).map((p) => ['values', ...p]);
}

/** `chart.spec.chart` of a chart in a Git repository: its path from the repository's root. */
function chartPath(subpath: string | undefined): string {
  const p = (subpath ?? '.').split('/').filter((seg) => seg !== '' && seg !== '.').join('/');
  return p === '' ? './' : `./${p}`;
}
