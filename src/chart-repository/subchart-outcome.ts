/**
 * `--check-subcharts`: for each deployed chart with Armada `dependencies`, the chart built as
 * Flux builds it and as Armada does, both rendered with `helm template`, and the objects compared.
 *
 * - As Armada: the Pulumi path's chart (chartResolver: the source, then assembleChart).
 * - As Flux: source-controller's rules (internal/helm/chart: builder_local.go, dependency_manager.go).
 *   A chart from Git (or a local directory published in Git) is built from its directory as it
 *   is: its `charts/`, and, when the dependencies Chart.yaml (or requirements.yaml, the lock file
 *   first) lists are not all there (counted as source-controller counts them), each missing one
 *   added: a `file://` (or empty) repository from the path inside the source, a remote one
 *   downloaded by the controller from its own pod. A chart from a tarball is the tarball's chart
 *   as packaged: no dependency is added (a HelmRepository's chart is installed as it is).
 *
 * Both renders get the chart's own version, the release name and namespace and the values Armada
 * passes; what the comparison finds is what the subcharts change, nothing else.
 */
import { execFile } from 'child_process';
import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { gunzipSync } from 'zlib';
import * as yaml from 'yaml';
import { firstByName } from '../model/first-by-name';
import type { Plan, PlannedRelease } from '../model/plan';
import { ChartSource, SourceType } from '../model/source';
import type { ChartSpec, ManifestSpec } from '../model/spec';
import type { SubchartOutcome } from '../model/wire/flux-subcharts';
import { ChartResolverOptions, chartResolver } from '../pulumi/chart-resolver';
import { resolveChartSource } from '../pulumi/sources';
import { HELM_SEMVER } from './semver';

/** Options of {@link subchartOutcomes}. */
export interface SubchartCheckOptions extends ChartResolverOptions {
  /** The helm executable that renders both builds (`helm`, or a path). */
  readonly helm: string;
  /**
   * FluxOptions.localSources: the Git repository Flux reads each local directory from.
   * @default - none: a chart from a local directory cannot be built by Flux
   */
  readonly localSources?: Readonly<Record<string, ChartSource>> | undefined;
}

/** The outcome for every deployed chart with `dependencies`, by chart name. */
export async function subchartOutcomes(spec: ManifestSpec, plan: Plan, options: SubchartCheckOptions): Promise<Record<string, SubchartOutcome>> {
  const byName = firstByName(spec.charts);
  const resolve = chartResolver(spec, options);
  const out: Record<string, SubchartOutcome> = {};
  const seen = new Set<string>();
  for (const r of plan.releases) {
    const chart = byName.get(r.chart);
    if (chart === undefined || chart.dependencies === undefined || seen.has(chart.name)) continue;
    seen.add(chart.name);
    out[chart.name] = await outcomeOf(chart, r, resolve, options);
  }
  return out;
}

async function outcomeOf(chart: ChartSpec, release: PlannedRelease, resolve: (c: ChartSpec) => Promise<string>, options: SubchartCheckOptions): Promise<SubchartOutcome> {
  let armada: string;
  try {
    armada = await resolve(chart);
  } catch (e) {
    return { kind: 'unknown', reason: `the chart cannot be fetched and assembled as Armada does: ${(e as Error).message}` };
  }
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'armada-cdk-subcharts-'));
  try {
    const flux = await fluxBuild(chart, work, options);
    if (typeof flux !== 'string') return flux;
    const values = path.join(work, 'values.json');
    await fs.writeFile(values, JSON.stringify(chart.values ?? {}));
    const a = await helmTemplate(options.helm, release, armada, values);
    if (!a.ok) return { kind: 'unknown', reason: `helm template of the chart as Armada assembles it fails: ${a.error}` };
    const f = await helmTemplate(options.helm, release, flux, values);
    if (!f.ok) return { kind: 'cannot-build', reason: `helm template of the chart as Flux builds it fails: ${f.error}` };
    const differ = compareObjects(a.objects, f.objects);
    return differ.length === 0 ? { kind: 'same' } : { kind: 'different', objects: differ };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** The chart as source-controller builds it, copied under `work`; or why it cannot be built or known. */
async function fluxBuild(chart: ChartSpec, work: string, options: SubchartCheckOptions): Promise<string | SubchartOutcome> {
  const s = chart.source;
  let root: string;
  let dir: string;
  try {
    if (s.type === SourceType.TAR) {
      // Installed as packaged: Helm refuses it when its Chart.yaml lists what charts/ lacks.
      return (await resolveChartSource(s, options)).dir;
    }
    if (s.type === SourceType.LOCAL) {
      const published = options.localSources?.[s.location];
      if (published === undefined) return { kind: 'cannot-build', reason: `no Flux source reads the local directory ${JSON.stringify(s.location)} (name the Git repository that holds it with --local-source)` };
      const r = await resolveChartSource(published, options);
      root = r.root;
      dir = path.join(r.dir, s.effectiveSubpath ?? '.');
    } else {
      const r = await resolveChartSource(s, options);
      root = r.root;
      dir = r.dir;
    }
  } catch (e) {
    return { kind: 'unknown', reason: `the chart's source cannot be fetched as Flux would: ${(e as Error).message}` };
  }
  const target = path.join(work, 'flux', 'chart');
  await fs.cp(dir, target, { recursive: true, filter: (p) => path.basename(p) !== '.git' });
  const declared = await declaredDependencies(dir);
  const wanted = declared.dependencies;
  const present = await presentSubcharts(path.join(dir, 'charts'));
  // source-controller's collectMissing: as many present as listed means none is missing.
  if (wanted.length === present.length) return target;
  // The file the dependencies come from, as the source has it: where a finding points.
  const file = path.relative(root, path.join(dir, declared.file)).split(path.sep).join('/');
  const added = new Map<string, Dependency>();
  for (const dep of wanted) {
    // collectMissing matches a dependency by its alias, when it has one, to the names of the
    // charts in charts/ (their Chart.yaml names).
    const name = dep.alias ?? dep.name;
    if (present.includes(name)) continue;
    const repo = dep.repository ?? '';
    const which = dependencyLabel(dep);
    if (repo === '' || repo.startsWith('file://')) {
      const rel = repo === '' ? path.join('charts', dep.name) : repo.slice('file://'.length);
      const from = path.resolve(dir, rel);
      if (from !== root && !from.startsWith(root + path.sep)) return { kind: 'cannot-build', reason: `${file}: dependency ${which} at ${JSON.stringify(repo)} is outside the source Flux fetches` };
      let found: { name?: unknown; version?: unknown } | null;
      try {
        found = yaml.parse(await fs.readFile(path.join(from, 'Chart.yaml'), 'utf8')) as { name?: unknown; version?: unknown } | null;
      } catch {
        return { kind: 'cannot-build', reason: `${file}: dependency ${which}: no chart at ${JSON.stringify(repo || `charts/${dep.name}`)} in the source (source-controller: "no chart found")` };
      }
      const problem = await localVersionProblem(options.helm, work, dep, from, found);
      if (problem !== undefined) return { kind: 'cannot-build', reason: `${file}: dependency ${which}: ${problem}` };
      // source-controller renames an aliased chart it adds to the alias. Helm's render gives a
      // chart of the dependency's name (in a version it allows) the alias too, so the copy
      // keeps its own name, which the dependency check of `helm template` (not run by
      // helm-controller) looks for. That is the same build unless another chart of that name is
      // there too: Helm would alias the first one only, where source-controller's build has
      // both; not rendered then.
      const twin = added.get(dep.name);
      if (twin !== undefined && (twin.repository ?? '') !== repo) {
        return { kind: 'unknown', reason: `${file}: dependencies ${dependencyLabel(twin)} and ${which} both add a chart named ${JSON.stringify(dep.name)}, from different directories: helm template cannot render the chart as source-controller builds it` };
      }
      if (dep.alias !== undefined && present.includes(dep.name)) {
        return { kind: 'unknown', reason: `${file}: dependency ${which}: charts/ has a chart named ${JSON.stringify(dep.name)}, which Helm gives the alias when its version satisfies ${JSON.stringify(dep.version ?? '')}, and source-controller, which looks for a chart named ${JSON.stringify(dep.alias)}, adds another under that name: helm template cannot render the chart as source-controller builds it; vendor the dependency under charts/ or drop it from charts/` };
      }
      added.set(dep.name, dep);
      await fs.cp(from, path.join(target, 'charts', name), { recursive: true, filter: (p) => path.basename(p) !== '.git' });
      continue;
    }
    const host = /^[a-z]+:\/\/(\[[^\]]*\]|[^/:?#]*)/i.exec(repo)?.[1] ?? '';
    if (/^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/i.test(host)) {
      return { kind: 'cannot-build', reason: `${file}: dependency ${which} comes from ${repo}, which source-controller fetches from its own pod, where nothing serves it (a helm serve repository of the machine that ran Armada)` };
    }
    return { kind: 'unknown', reason: `${file}: dependency ${which} ${dep.version ?? ''} would be downloaded by source-controller from ${repo}, which this check does not fetch` };
  }
  return target;
}

/** `"toolkit"`, or `"toolkit" (alias "tk")`. */
function dependencyLabel(dep: Dependency): string {
  return dep.alias === undefined ? JSON.stringify(dep.name) : `${JSON.stringify(dep.name)} (alias ${JSON.stringify(dep.alias)})`;
}

/**
 * Why source-controller refuses the local chart at `from` for `dep` (its addLocalDependency: the
 * dependency's `version` must be a constraint and the chart's version must satisfy it, an absent
 * one included, which no version satisfies), or undefined. The constraint is judged by the real
 * Helm (`helm dependency update` of a chart that has only this dependency, which applies the
 * same Masterminds semver rules), not by a copy of them.
 */
async function localVersionProblem(helm: string, work: string, dep: Dependency, from: string, found: { name?: unknown; version?: unknown } | null): Promise<string | undefined> {
  const version = found?.version;
  const shown = `the chart there${typeof found?.name === 'string' ? ` (${JSON.stringify(found.name)})` : ''} has version ${JSON.stringify(version)}`;
  const wanted = dep.version === undefined ? 'no version constraint' : `version constraint ${JSON.stringify(dep.version)}`;
  if (typeof version !== 'string' || !HELM_SEMVER.test(version)) return `${shown}, which is not a SemVer version, so source-controller cannot match it to the dependency's ${wanted}; give the chart a SemVer version`;
  const probe = await fs.mkdtemp(path.join(work, 'constraint-'));
  const chart = { apiVersion: 'v2', name: 'constraint-probe', version: '0.0.0', dependencies: [{ name: dep.name, ...(dep.version !== undefined ? { version: dep.version } : {}), repository: `file://${from}` }] };
  await fs.writeFile(path.join(probe, 'Chart.yaml'), JSON.stringify(chart));
  const r = await runHelm(helm, ['dependency', 'update', probe], process.env);
  if (r.code === 0) return undefined;
  const error = lastLines(r).replace(/^Error: /, '');
  if (/invalid version\/constraint format/.test(error)) {
    const given = dep.version === undefined ? 'has no version, an empty constraint' : `has version ${JSON.stringify(dep.version)}`;
    return `${shown}; the dependency ${given}, which Helm does not accept (${error}), so source-controller refuses it ("invalid version/constraint format"): give the dependency a version constraint that ${version} satisfies, such as ${JSON.stringify(version)}`;
  }
  if (/can't get a valid version/.test(error)) {
    return `${shown}, which does not satisfy its ${wanted}, so source-controller refuses it ("can't get a valid version for constraint"): change the constraint to one that ${version} satisfies, or the chart's version`;
  }
  return `helm cannot load the chart there as a dependency: ${error}`;
}


interface Dependency {
  readonly name: string;
  readonly version?: string | undefined;
  readonly repository?: string | undefined;
  readonly alias?: string | undefined;
}

/**
 * Chart.yaml's dependencies (requirements.yaml's for an apiVersion v1 chart), the lock file's
 * first, as source-controller reads them, and the file they were read from.
 */
async function declaredDependencies(dir: string): Promise<{ file: string; dependencies: Dependency[] }> {
  const read = async (file: string): Promise<{ file: string; dependencies: Dependency[] } | undefined> => {
    try {
      const doc = yaml.parse(await fs.readFile(path.join(dir, file), 'utf8')) as { dependencies?: unknown } | null;
      const list = doc?.dependencies;
      const dependencies = Array.isArray(list) ? list.filter((d): d is Dependency => d !== null && typeof d === 'object' && typeof (d as Dependency).name === 'string') : [];
      // Helm reads `version` and `alias` as strings: an empty alias is no alias.
      return { file, dependencies: dependencies.map((d) => ({ name: d.name, version: stringField(d.version), repository: stringField(d.repository), alias: stringField(d.alias) || undefined })) };
    } catch {
      return undefined;
    }
  };
  let apiVersion: unknown;
  try {
    apiVersion = (yaml.parse(await fs.readFile(path.join(dir, 'Chart.yaml'), 'utf8')) as { apiVersion?: unknown } | null)?.apiVersion;
  } catch {
    apiVersion = undefined;
  }
  // Helm reads an apiVersion v1 chart's dependencies from requirements.yaml (and .lock).
  const v1 = apiVersion !== 'v2' && apiVersion !== 'v3';
  return (await read(v1 ? 'requirements.lock' : 'Chart.lock')) ?? (await read(v1 ? 'requirements.yaml' : 'Chart.yaml')) ?? { file: v1 ? 'requirements.yaml' : 'Chart.yaml', dependencies: [] };
}

function stringField(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** The names of the subcharts in `charts/`: directories' and archives' Chart.yaml names. */
async function presentSubcharts(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = (await fs.readdir(dir)).sort();
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const e of entries) {
    const p = path.join(dir, e);
    try {
      if ((await fs.stat(p)).isDirectory()) {
        const meta = yaml.parse(await fs.readFile(path.join(p, 'Chart.yaml'), 'utf8')) as { name?: unknown } | null;
        if (typeof meta?.name === 'string') names.push(meta.name);
      } else if (/\.tgz$/.test(e)) {
        const n = archiveChartName(await fs.readFile(p));
        if (n !== undefined) names.push(n);
      }
    } catch {
      // Not a chart: Helm does not load it as one.
    }
  }
  return names;
}

/** The `name` of `<top>/Chart.yaml` in a chart archive. */
function archiveChartName(tgz: Buffer): string | undefined {
  const tar = gunzipSync(tgz);
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = tar.toString('utf8', at, at + 100).replace(/\0.*$/s, '');
    if (name === '') return undefined;
    const size = parseInt(tar.toString('utf8', at + 124, at + 136).replace(/\0.*$/s, '').trim() || '0', 8);
    if (/^[^/]+\/Chart\.yaml$/.test(name)) {
      const meta = yaml.parse(tar.toString('utf8', at + 512, at + 512 + size)) as { name?: unknown } | null;
      return typeof meta?.name === 'string' ? meta.name : undefined;
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return undefined;
}

async function runHelm(helm: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(helm, args, { maxBuffer: 256 * 1024 * 1024, env }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : -1;
      resolve({ code, stdout, stderr: err !== null && code === -1 ? err.message : stderr });
    });
  });
}

/** The end of a failed helm's error output, on one line. */
function lastLines(r: { code: number; stderr: string }): string {
  return r.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${r.code}`;
}

async function helmTemplate(helm: string, release: PlannedRelease, dir: string, values: string): Promise<{ ok: true; objects: Map<string, unknown> } | { ok: false; error: string }> {
  const r = await runHelm(helm, ['template', release.name, dir, '--namespace', release.namespace, '--values', values], { ...process.env, HELM_NAMESPACE: release.namespace });
  if (r.code !== 0) return { ok: false, error: lastLines(r) };
  const objects = new Map<string, unknown>();
  for (const d of yaml.parseAllDocuments(r.stdout)) {
    const o = d.toJS() as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } } | null;
    if (o === null || typeof o !== 'object') continue;
    objects.set(`${String(o.kind)} ${String(o.metadata?.namespace ?? release.namespace)}/${String(o.metadata?.name)}`, o);
  }
  return { ok: true, objects };
}

/** The objects that differ, are missing or are extra, sorted. */
export function compareObjects(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): string[] {
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  return keys.filter((k) => canonical(a.get(k)) !== canonical(b.get(k))).map((k) => (a.has(k) && b.has(k) ? k : a.has(k) ? `${k} (missing under Flux)` : `${k} (only under Flux)`));
}

function canonical(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

/**
 * What Flux makes of the Armada `dependencies` of each chart a manifest deploys: the chart
 * fetched, built as source-controller builds it and as Armada assembles it, both rendered with
 * `helm template`, the objects compared. Give the result to `FluxOutput` as `subchartOutcomes`:
 * each chart's warning then says whether it renders the same objects, which differ, or why it
 * cannot be built.
 */
export function checkFluxSubcharts(manifest: { resolve(): { spec: ManifestSpec; plan: Plan } }, options: SubchartCheckOptions): Promise<Record<string, SubchartOutcome>> {
  const { spec, plan } = manifest.resolve();
  return subchartOutcomes(spec, plan, options);
}
