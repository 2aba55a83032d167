/**
 * Every deployed chart of a manifest packaged as a Helm repository (`index.yaml` and one
 * `<name>-<version>.tgz` per chart) for Flux: each chart fetched and assembled with its Armada
 * `dependencies` exactly as the Pulumi path installs it (chartResolver: the source, then
 * assembleChart, Armada's chartbuilder rule), then packaged as `helm package` would package that
 * directory (the files Helm loads from it: see helmignore.ts).
 *
 * Versions: the chart's own version with `+<12 hex digits>` appended, the start of the SHA-256 of
 * its files (as Flux appends `+<commit>` to a chart built from Git). The version changes exactly
 * when the files do, which is when Armada would upgrade; two charts of one name and version with
 * different files (helm-toolkit pinned to two references) get two versions, never one entry.
 * Everything is deterministic: the same charts give the same bytes on every run.
 */
import { createHash } from 'crypto';
import { parse as parseYaml } from 'yaml';
import { Diagnostic, diagnosticsMessage, plural } from '../model/diagnostics';
import { firstByName } from '../model/first-by-name';
import type { Plan } from '../model/plan';
import type { ChartSpec, ManifestSpec } from '../model/spec';
import type { PackagedChartRepository, PackagedChartRef } from '../model/wire/flux-packaged';
import { urlCredentials } from '../model/wire/flux-credentials';
import { toYamlDocument } from '../model/wire/yaml';
import { ChartResolverOptions, chartResolver, ChartPreparationError, prepareCharts, ResolveChart } from '../pulumi/chart-resolver';
import { chartArchive } from './chart-archive';
import { chartFiles, ChartFile } from './helmignore';
import { HELM_SEMVER } from './semver';
import { packagingErrors, packagingWarnings } from './packaging-diagnostics';

/** Options of {@link packageCharts}: where the repository is published, and how sources are fetched. */
export interface PackageChartsOptions extends ChartResolverOptions {
  /**
   * The URL the repository will be served at (`http://` or `https://`, no credentials, no query):
   * the HelmRepository's `spec.url`. Publish the files there, as they are.
   */
  readonly url: string;
}

/** A file of the repository: its name in the repository's directory and its bytes. */
export interface ChartRepositoryFile {
  /** `index.yaml`, or `<name>-<version>.tgz`. */
  readonly path: string;
  readonly content: Buffer;
}

/** The packaged repository: what to publish (`files`) and what the HelmReleases refer to. */
export interface PackagedCharts extends PackagedChartRepository {
  /** `index.yaml` first, then the archives sorted by name. */
  readonly files: readonly ChartRepositoryFile[];
  /**
   * What renders otherwise than under Armada, per chart: templates that read `.Chart.Version`,
   * which is the packaged version (with `+<digest>`) here.
   */
  readonly warnings: readonly ChartPackagingFailure[];
  /**
   * The `warnings` as diagnostics at each chart document's `source` (its file:line:column and
   * document when read from YAML), as `convert --package-charts` prints them. `FluxOutput`
   * given this result as `chartRepository` reports them at synth, as its own warnings.
   */
  readonly diagnostics: readonly Diagnostic[];
}

/** One chart that could not be packaged: where it is written, and why. */
export interface ChartPackagingFailure {
  readonly chart: string;
  /** The chart document's file:line:column (or construct path). */
  readonly location: string;
  readonly message: string;
}

/** Every chart that could not be fetched, assembled or packaged; nothing is written then. */
export class ChartPackagingError extends Error {
  public override readonly name = 'ChartPackagingError';
  /**
   * One error diagnostic per failure, at the chart document's `source` (file:line:column and
   * document when read from YAML, the construct path otherwise): what `convert
   * --package-charts` prints, and what the message lists.
   */
  public readonly diagnostics: readonly Diagnostic[];
  /**
   * @param failures - every chart that failed
   * @param diagnostics - the failures as located diagnostics
   * @default diagnostics - one per failure at its `location`, without a document or field
   */
  constructor(
    public readonly failures: readonly ChartPackagingFailure[],
    diagnostics?: readonly Diagnostic[],
  ) {
    const ds = diagnostics ?? packagingErrors(undefined, failures);
    super(diagnosticsMessage(`${plural(failures.length, 'chart')} could not be packaged, so no chart repository was written`, ds));
    this.diagnostics = ds;
  }
}

/** Why `url` cannot be a HelmRepository URL to publish at, or undefined. */
export function repositoryUrlProblem(url: string): string | undefined {
  const creds = urlCredentials(url);
  if (creds !== undefined) return `received ${JSON.stringify(creds.redacted)}, which carries ${creds.what}: the HelmRepository's spec.url would hold it in clear, in Git; give the HelmRepository spec.secretRef instead`;
  if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(url)) return `received ${JSON.stringify(url)}; it must be an http:// or https:// URL without a query or fragment, where the repository's index.yaml will be served`;
  return undefined;
}

/**
 * Packages every chart the plan deploys into a Helm repository (see the module comment).
 * @param resolve how a chart becomes its directory (default: chartResolver, as the Pulumi path)
 * @throws ChartPackagingError listing every chart that failed, with a located diagnostic for each; Error for a bad `url`
 */
export async function packageCharts(spec: ManifestSpec, plan: Plan, options: PackageChartsOptions, resolve?: ResolveChart): Promise<PackagedCharts> {
  const problem = repositoryUrlProblem(options.url);
  if (problem) throw new Error(`the chart repository URL: ${problem}`);
  const byName = firstByName(spec.charts);
  const deployed: ChartSpec[] = [];
  for (const r of plan.releases) {
    const c = byName.get(r.chart);
    if (c !== undefined && !deployed.includes(c)) deployed.push(c);
  }
  const { url: _url, ...resolverOptions } = options;
  let dirs: Map<string, string>;
  try {
    dirs = await prepareCharts(deployed, resolve ?? chartResolver(spec, resolverOptions));
  } catch (e) {
    if (e instanceof ChartPreparationError) throw new ChartPackagingError(e.failures, packagingErrors(spec, e.failures));
    throw e;
  }
  const failures: ChartPackagingFailure[] = [];
  const warnings: ChartPackagingFailure[] = [];
  const charts: Record<string, PackagedChartRef> = {};
  const archives = new Map<string, { file: string; content: Buffer; meta: Record<string, unknown>; digest: string }>();
  for (const c of deployed) {
    try {
      const p = await packageChart(dirs.get(c.name)!);
      const key = `${p.ref.name}-${p.ref.version}.tgz`;
      const twin = archives.get(key);
      // Same name, version and files: one archive. Same name and version, other bytes: only a
      // digest collision could do it, and one entry cannot serve both.
      if (twin !== undefined && !twin.content.equals(p.content)) throw new Error(`its archive ${key} would differ from another chart's of the same name and version`);
      archives.set(key, { file: key, content: p.content, meta: p.meta, digest: sha256(p.content) });
      charts[c.name] = p.ref;
      if (p.versionReaders.length > 0) {
        const shown = p.versionReaders.slice(0, 3).join(', ') + (p.versionReaders.length > 3 ? ` and ${p.versionReaders.length - 3} more` : '');
        warnings.push({ chart: c.name, location: c.origin.locate().location, message: `${shown} read${p.versionReaders.length === 1 ? 's' : ''} .Chart.Version, which is ${JSON.stringify(p.ref.version)} in the packaged chart, where Armada's Helm read ${JSON.stringify(p.version)}: the objects that print it differ (the digest in the version makes every change of the chart's files a new version, which Flux installs)` });
      }
    } catch (e) {
      failures.push({ chart: c.name, location: c.origin.locate().location, message: (e as Error).message });
    }
  }
  if (failures.length > 0) throw new ChartPackagingError(failures, packagingErrors(spec, failures));
  const sorted = [...archives.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return {
    url: options.url,
    charts,
    warnings,
    diagnostics: packagingWarnings(spec, warnings),
    files: [{ path: 'index.yaml', content: Buffer.from(repositoryIndex(sorted)) }, ...sorted.map((a) => ({ path: a.file, content: a.content }))],
  };
}

/** The time written as `created` and `generated`: the index must not change from run to run. */
export const INDEX_TIME = '1970-01-01T00:00:00Z';

/** Helm's index.yaml (`helm repo index`'s layout, keys sorted), with relative URLs. */
function repositoryIndex(archives: readonly { file: string; meta: Record<string, unknown>; digest: string }[]): string {
  const entries: Record<string, Record<string, unknown>[]> = {};
  for (const a of archives) {
    const name = String(a.meta.name);
    const entry = sortKeys({ ...a.meta, created: INDEX_TIME, digest: a.digest, urls: [a.file] });
    (entries[name] ??= []).push(entry);
  }
  const out: Record<string, unknown> = { apiVersion: 'v1', entries: {}, generated: INDEX_TIME };
  for (const name of Object.keys(entries).sort()) {
    // Helm lists the newest first; versions that differ in their digest alone, by the digest.
    (out.entries as Record<string, unknown>)[name] = entries[name].sort((x, y) => (String(x.version) < String(y.version) ? 1 : String(x.version) > String(y.version) ? -1 : 0));
  }
  return toYamlDocument(out);
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The fields of Chart.yaml that Helm's index keeps (its chart Metadata). */
const METADATA_FIELDS = ['apiVersion', 'name', 'home', 'sources', 'version', 'description', 'keywords', 'maintainers', 'icon', 'appVersion', 'deprecated', 'annotations', 'kubeVersion', 'dependencies', 'type'];


/** The digest part of a packaged version: the start of the SHA-256 of the chart's files. */
export function filesDigest(files: readonly ChartFile[]): string {
  const h = createHash('sha256');
  for (const f of files) h.update(`${f.name}\0${f.data.length}\0`).update(f.data);
  return h.digest('hex').slice(0, 12);
}

/** `version` with `digest` as its build metadata (after any it has). */
export function packagedVersion(version: string, digest: string): string {
  return version.includes('+') ? `${version}.${digest}` : `${version}+${digest}`;
}

/**
 * One chart directory as its archive: the files Helm loads, Chart.yaml's version replaced by the
 * packaged version (as `helm package --version` does), under `<name>/`.
 */
export async function packageChart(dir: string): Promise<{ ref: PackagedChartRef; content: Buffer; meta: Record<string, unknown>; versionReaders: string[]; version: string }> {
  let files: ChartFile[];
  try {
    files = await chartFiles(dir);
  } catch (e) {
    throw new Error(`the chart cannot be read as Helm reads one: ${(e as Error).message}`);
  }
  const chartYaml = files.find((f) => f.name === 'Chart.yaml');
  if (chartYaml === undefined) throw new Error('it is not a Helm chart: it has no Chart.yaml');
  const text = chartYaml.data.toString('utf8').replace(/^\uFEFF/, '');
  let meta: unknown;
  try {
    meta = parseYaml(text);
  } catch (e) {
    throw new Error(`its Chart.yaml is not YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) throw new Error(`its Chart.yaml is not a mapping`);
  const m = meta as Record<string, unknown>;
  const name = m.name;
  if (typeof name !== 'string' || !/^[A-Za-z0-9._-]+$/.test(name) || name === '.' || name === '..') {
    throw new Error(`its Chart.yaml: name ${JSON.stringify(name)} is not a chart name (letters, digits, ".", "_" and "-")`);
  }
  const version = typeof m.version === 'number' ? String(m.version) : m.version;
  if (typeof version !== 'string' || !HELM_SEMVER.test(version)) {
    throw new Error(`its Chart.yaml: version ${JSON.stringify(m.version)} is not a SemVer version, which Helm requires of a chart`);
  }
  const packaged = packagedVersion(version, filesDigest(files));
  const rewritten = withVersion(text, packaged, m);
  if (rewritten === undefined) throw new Error(`its Chart.yaml: its version line cannot be rewritten to ${packaged} (write it as a plain top-level "version: ${version}" line)`);
  const out = files.map((f) => (f === chartYaml ? { name: f.name, data: Buffer.from(rewritten) } : f));
  const index: Record<string, unknown> = {};
  for (const k of METADATA_FIELDS) if (m[k] !== undefined && m[k] !== null) index[k] = m[k];
  index.version = packaged;
  if (typeof index.appVersion === 'number') index.appVersion = String(index.appVersion);
  // Templates of the chart and of its subcharts (whose .Chart is their own: unchanged).
  const versionReaders = files.filter((f) => /^templates\//.test(f.name) && f.data.includes('.Chart.Version')).map((f) => f.name);
  return { ref: { name, version: packaged }, content: chartArchive(name, out), meta: index, versionReaders, version };
}

/**
 * Chart.yaml with its top-level `version:` line replaced, everything else kept byte for byte (so
 * nothing else of the chart's metadata can change); undefined when the result does not parse to
 * the same metadata with the new version.
 */
function withVersion(text: string, version: string, before: Record<string, unknown>): string | undefined {
  const lines = /^version:[ \t]*(?:"[^"\n]*"|'[^'\n]*'|[^\s#'"][^\s#]*)[ \t]*(#.*)?$/gm;
  const found = text.match(lines);
  if (found === null || found.length !== 1) return undefined;
  const out = text.replace(lines, (_line, comment: string | undefined) => `version: ${version}${comment !== undefined ? ` ${comment}` : ''}`);
  try {
    const after = parseYaml(out) as Record<string, unknown>;
    return JSON.stringify({ ...before, version }) === JSON.stringify(after) ? out : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Packages every chart a manifest deploys, with the subcharts Armada injects, into a Helm
 * repository for Flux: write `files` into a directory served at `options.url`, and give the
 * result to `FluxOutput` as `chartRepository`, whose HelmReleases then read each chart from one
 * HelmRepository by name and exact version (`<version>+<digest of the chart's files>`). The
 * same charts give the same bytes on every run. What renders otherwise than under Armada is in
 * `diagnostics` (warnings at each chart's document), which `FluxOutput` reports at synth.
 * @throws ChartPackagingError listing every chart that could not be fetched or packaged, each as
 *   an error diagnostic at its chart document (`diagnostics`, all of them in the message)
 */
export function packageFluxCharts(manifest: { resolve(): { spec: ManifestSpec; plan: Plan } }, options: PackageChartsOptions): Promise<PackagedCharts> {
  const { spec, plan } = manifest.resolve();
  return packageCharts(spec, plan, options);
}
