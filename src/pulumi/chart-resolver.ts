/**
 * The chart directory each Release installs, prepared at program time the way Armada's pre-flight
 * does: fetch every source, then assemble Armada `dependencies` (dependencies of dependencies
 * first). The result is copied into a content-addressed directory, so the Release's `chart` input
 * changes exactly when the chart does, which is when Armada's diff would upgrade.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { plural } from '../model/diagnostics';
import { firstByName } from '../model/first-by-name';
import { SourceType } from '../model/source';
import type { ChartSpec, ManifestSpec } from '../model/spec';
import { assembleChart, resolveChartSource, ResolveChartSourceOptions } from './sources';
import { dedupe, discardEntry, isDirectory, publishDir, removeTree, tempPath, treeDigest } from './sources/cache';
import { cacheRoot } from './sources/options';

/** Options of {@link chartResolver}: those of `resolveChartSource`, except `refresh`, which is decided per source. */
export type ChartResolverOptions = Omit<ResolveChartSourceOptions, 'refresh'>;

/** Turns a chart of the manifest into the directory to install. */
export type ResolveChart = (chart: ChartSpec) => Promise<string>;

const FULL_SHA = /^[0-9a-f]{40}$/i;

/**
 * Git references other than a full commit SHA move (a branch, a tag, a Gerrit change), and Armada
 * fetches on every run: those are fetched again once per program run. A SHA and a tarball are
 * kept from the cache.
 */
export function needsRefresh(chart: ChartSpec): boolean {
  return chart.source.type === SourceType.GIT && !FULL_SHA.test(chart.source.effectiveReference ?? 'master');
}

/**
 * The default chart resolution for a manifest: each chart's source through the on-disk cache, its
 * `dependencies` assembled into `charts/` (a present list replaces the chart's own), recursively,
 * and the result published under `<cacheDir>/charts/<name>-<content hash>`. Each chart and each
 * source is prepared once, however many charts share it.
 */
export function chartResolver(spec: ManifestSpec, options: ChartResolverOptions = {}): ResolveChart {
  const charts = firstByName(spec.charts);
  const sources = new Map<string, Promise<string>>();
  const assembled = new Map<string, Promise<string>>();
  const published = new Map<string, Promise<string>>();

  const source = (chart: ChartSpec): Promise<string> => {
    let p = sources.get(chart.name);
    if (!p) {
      p = resolveChartSource(chart.source, { ...options, refresh: needsRefresh(chart) }).then((r) => r.dir);
      sources.set(chart.name, p);
    }
    return p;
  };

  const assemble = (chart: ChartSpec, chain: readonly string[]): Promise<string> => {
    if (chain.includes(chart.name)) {
      return Promise.reject(new Error(`subchart dependencies form a cycle: ${[...chain, chart.name].join(' -> ')}`));
    }
    let p = assembled.get(chart.name);
    if (!p) {
      p = (async () => {
        const dir = await source(chart);
        if (chart.dependencies === undefined) return dir;
        const deps = await Promise.all(
          chart.dependencies.map((name) => {
            const dep = charts.get(name);
            if (!dep) throw new Error(`subchart dependency ${JSON.stringify(name)} is not in the manifest`);
            return assemble(dep, [...chain, chart.name]);
          }),
        );
        return assembleChart(dir, deps, options);
      })();
      assembled.set(chart.name, p);
    }
    return p;
  };

  return (chart) => {
    let p = published.get(chart.name);
    if (!p) {
      p = assemble(chart, []).then((dir) => publishChart(dir, chart.name, options));
      published.set(chart.name, p);
    }
    return p;
  };
}

/**
 * Copies a chart directory to `<cacheDir>/charts/<label>-<hash of its files>` (once: the entry
 * is immutable) and returns that path. Only names, contents and symlink targets count, not
 * timestamps or modes, so the same chart gives the same path on every machine with the same
 * `cacheDir`.
 */
export async function publishChart(dir: string, label: string, options: { readonly cacheDir?: string | undefined } = {}): Promise<string> {
  const src = path.resolve(dir);
  const hash = await fingerprint(src);
  const root = path.join(cacheRoot(options), 'charts');
  const target = path.join(root, `${safeName(label)}-${hash.slice(0, 20)}`);
  return dedupe(`chart\0${target}`, async () => {
    if (await isDirectory(target)) {
      // The Release installs this directory: one changed since it was published (by hand, or
      // half-deleted) would deploy something no manifest says, so it is made again.
      if ((await fingerprint(target)) === hash) return target;
      await discardEntry(target);
    }
    await fs.mkdir(root, { recursive: true });
    const tmp = tempPath(root, 'chart');
    try {
      await fs.cp(src, tmp, { recursive: true, verbatimSymlinks: true, filter: (s) => path.basename(s) !== '.git' });
      await publishDir(tmp, target);
    } catch (e) {
      await removeTree(tmp);
      throw e;
    }
    return target;
  });
}

/**
 * Hash of a tree's relative names, contents and symlink targets, in a stable order (`.git` left
 * out): the name of a published chart directory, so its inputs never change.
 */
export function fingerprint(root: string): Promise<string> {
  return treeDigest(root, { executableBits: false, otherEntries: false });
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 60) || 'chart';
}

/** Every chart that could not be prepared, each with its construct location and the reason. */
export class ChartPreparationError extends Error {
  public override readonly name = 'ChartPreparationError';
  constructor(public readonly failures: readonly { readonly chart: string; readonly location: string; readonly message: string }[]) {
    super(
      `${plural(failures.length, 'chart')} could not be prepared, so nothing was deployed:\n` +
        failures.map((f) => `  ${f.location}: chart ${JSON.stringify(f.chart)}: ${f.message}`).join('\n'),
    );
  }
}

/**
 * Prepares every chart before any is installed, as Armada's pre-flight downloads every source
 * before deploying anything; failures are reported together.
 * @returns chart name -> directory
 * @throws ChartPreparationError listing every chart that failed
 */
export async function prepareCharts(charts: readonly ChartSpec[], resolve: ResolveChart): Promise<Map<string, string>> {
  const settled = await Promise.allSettled(
    charts.map(async (c) => {
      const dir = await resolve(c);
      if (typeof dir !== 'string' || dir === '') throw new Error(`resolveChart returned ${JSON.stringify(dir)}; it must return the chart's directory`);
      return dir;
    }),
  );
  const dirs = new Map<string, string>();
  const failures: { chart: string; location: string; message: string }[] = [];
  settled.forEach((s, i) => {
    const chart = charts[i];
    if (s.status === 'fulfilled') dirs.set(chart.name, s.value);
    else failures.push({ chart: chart.name, location: chart.origin.locate().location, message: s.reason instanceof Error ? s.reason.message : String(s.reason) });
  });
  if (failures.length > 0) throw new ChartPreparationError(failures);
  return dirs;
}
