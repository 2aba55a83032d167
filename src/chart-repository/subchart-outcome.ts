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
  const wanted = await declaredDependencies(dir);
  const present = await presentSubcharts(path.join(dir, 'charts'));
  // source-controller's collectMissing: as many present as listed means none is missing.
  if (wanted.length === present.length) return target;
  for (const dep of wanted) {
    const name = dep.alias ?? dep.name;
    if (present.includes(name)) continue;
    const repo = dep.repository ?? '';
    if (repo === '' || repo.startsWith('file://')) {
      const rel = repo === '' ? path.join('charts', dep.name) : repo.slice('file://'.length);
      const from = path.resolve(dir, rel);
      if (from !== root && !from.startsWith(root + path.sep)) return { kind: 'cannot-build', reason: `dependency ${JSON.stringify(dep.name)} at ${JSON.stringify(repo)} is outside the source Flux fetches` };
      try {
        await fs.access(path.join(from, 'Chart.yaml'));
      } catch {
        return { kind: 'cannot-build', reason: `dependency ${JSON.stringify(dep.name)}: no chart at ${JSON.stringify(repo || `charts/${dep.name}`)} in the source (source-controller: "no chart found")` };
      }
      await fs.cp(from, path.join(target, 'charts', name), { recursive: true, filter: (p) => path.basename(p) !== '.git' });
      continue;
    }
    const host = /^[a-z]+:\/\/(\[[^\]]*\]|[^/:?#]*)/i.exec(repo)?.[1] ?? '';
    if (/^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/i.test(host)) {
      return { kind: 'cannot-build', reason: `dependency ${JSON.stringify(dep.name)} comes from ${repo}, which source-controller fetches from its own pod, where nothing serves it (a helm serve repository of the machine that ran Armada)` };
    }
    return { kind: 'unknown', reason: `dependency ${JSON.stringify(dep.name)} ${dep.version ?? ''} would be downloaded by source-controller from ${repo}, which this check does not fetch` };
  }
  return target;
}

interface Dependency {
  readonly name: string;
  readonly version?: string | undefined;
  readonly repository?: string | undefined;
  readonly alias?: string | undefined;
}

/** Chart.yaml's dependencies (requirements.yaml's for an apiVersion v1 chart), the lock file's first. */
async function declaredDependencies(dir: string): Promise<Dependency[]> {
  const read = async (file: string): Promise<Dependency[] | undefined> => {
    try {
      const doc = yaml.parse(await fs.readFile(path.join(dir, file), 'utf8')) as { dependencies?: unknown } | null;
      const list = doc?.dependencies;
      return Array.isArray(list) ? list.filter((d): d is Dependency => d !== null && typeof d === 'object' && typeof (d as Dependency).name === 'string') : [];
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
  return (await read(v1 ? 'requirements.lock' : 'Chart.lock')) ?? (await read(v1 ? 'requirements.yaml' : 'Chart.yaml')) ?? [];
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

async function helmTemplate(helm: string, release: PlannedRelease, dir: string, values: string): Promise<{ ok: true; objects: Map<string, unknown> } | { ok: false; error: string }> {
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(helm, ['template', release.name, dir, '--namespace', release.namespace, '--values', values], { maxBuffer: 256 * 1024 * 1024, env: { ...process.env, HELM_NAMESPACE: release.namespace } }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : -1;
      resolve({ code, stdout, stderr: err !== null && code === -1 ? err.message : stderr });
    });
  });
  if (r.code !== 0) return { ok: false, error: r.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${r.code}` };
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
