import { promises as fs } from 'fs';
import * as path from 'path';
import { dedupe, discardEntry, hashOf, isDirectory, publishVerified, removeTree, tempPath, treeDigest, verifyEntry } from './cache';
import { readChartMetadata } from './chart-dir';
import { ChartSourceError } from './errors';
import { CacheOptions, cacheRoot, logger } from './options';

/** Options of `assembleChart`. */
export interface AssembleChartOptions extends CacheOptions {}

/**
 * Applies Armada's subchart rule (`ChartBuilder.from_chart_doc`) to a resolved chart.
 *
 * - `dependencies` undefined (the Chart document has no `dependencies` key): `chartDir` is
 *   returned unchanged and Helm uses the chart's own `charts/`.
 * - an array, even empty: the chart is copied to a work directory under `<cacheDir>/work/`, its
 *   `charts/` is replaced by an empty one, and each dependency directory is copied to
 *   `charts/<name>`, `<name>` being the `name` in that dependency's `Chart.yaml`.
 *
 * Dependency directories are taken as they are: to honour the dependencies of a dependency, pass
 * the result of `assembleChart` for it. The work directory is named after a hash of the contents,
 * so an unchanged chart reuses it and a changed one gets a new one; the cache is never modified.
 *
 * @param chartDir a chart directory, typically `ResolvedChartSource.dir`
 * @param dependencies directories of the dependency charts, in the Chart document's order
 * @returns the directory to install
 * @throws ChartSourceError `not-a-chart` or `dependency` when a directory cannot be used
 */
export async function assembleChart(chartDir: string, dependencies: readonly string[] | undefined, options: AssembleChartOptions = {}): Promise<string> {
  if (dependencies === undefined) return chartDir;
  const log = logger(options);
  const chart = path.resolve(chartDir);
  const meta = await readChartMetadata(chart, 'assembleChart');

  const deps: { name: string; dir: string }[] = [];
  for (const d of dependencies) {
    const dir = path.resolve(d);
    if (!(await isDirectory(dir))) throw new ChartSourceError('dependency', `assembleChart(${meta.name}): dependency ${dir} is not a directory`);
    const { name } = await readChartMetadata(dir, `assembleChart(${meta.name}): dependency`);
    if (name === '.' || name === '..' || /[/\\\0]/.test(name)) {
      throw new ChartSourceError('dependency', `assembleChart(${meta.name}): dependency ${dir} has name "${name}" in Chart.yaml, which cannot be a directory under charts/`);
    }
    const twin = deps.find((x) => x.name === name);
    if (twin) {
      throw new ChartSourceError('dependency', `assembleChart(${meta.name}): dependencies ${twin.dir} and ${dir} are both named "${name}" in Chart.yaml; each subchart needs its own name under charts/`);
    }
    deps.push({ name, dir });
  }

  // Order does not change the result (each dependency has its own directory), so it must not change the key.
  const sorted = [...deps].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const key = hashOf('assemble/v1', await fingerprint(chart, new Set([path.join(chart, 'charts')])), ...(await Promise.all(sorted.map(async (d) => `${d.name}\0${await fingerprint(d.dir)}`))));
  const workRoot = path.join(cacheRoot(options), 'work');
  const target = path.join(workRoot, `${safe(meta.name)}-${key.slice(0, 20)}`);

  const missing = meta.dependencies.filter((n) => !deps.some((d) => d.name === n));
  if (missing.length > 0) {
    log(`assemble: ${meta.name}'s Chart.yaml lists ${missing.map((n) => `"${n}"`).join(', ')}, which the Armada dependencies do not provide; Helm will report them missing from charts/`);
  }

  return dedupe(`work\0${target}`, async () => {
    if (await isDirectory(target)) {
      if (await verifyEntry(target)) {
        log(`assemble: reusing ${meta.name} with ${describe(deps)}`);
        return target;
      }
      log(`assemble: ${target} no longer matches the digest recorded when it was assembled; assembling it again`);
      await discardEntry(target);
    }
    await fs.mkdir(workRoot, { recursive: true });
    const tmp = tempPath(workRoot, safe(meta.name));
    try {
      const skip = path.join(chart, 'charts');
      await copyTree(chart, tmp, (src) => src !== skip);
      await fs.mkdir(path.join(tmp, 'charts'));
      for (const d of deps) await copyTree(d.dir, path.join(tmp, 'charts', d.name));
      await publishVerified(tmp, target);
    } catch (e) {
      await removeTree(tmp);
      throw e;
    }
    log(`assemble: ${meta.name} with ${describe(deps)} in ${target}`);
    return target;
  });
}

function describe(deps: readonly { name: string }[]): string {
  return deps.length === 0 ? 'no subcharts (charts/ emptied)' : `subcharts ${deps.map((d) => d.name).join(', ')}`;
}

function safe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'chart';
}

/** Copies a chart, leaving out git metadata (a chart at the root of a clone would carry the whole history). */
async function copyTree(src: string, dest: string, keep: (src: string) => boolean = () => true): Promise<void> {
  await fs.cp(src, dest, { recursive: true, verbatimSymlinks: true, filter: (s) => path.basename(s) !== '.git' && keep(s) });
}

/** Hash of a tree's names, kinds, executable bits and contents, in a stable order. */
function fingerprint(root: string, skip: ReadonlySet<string> = new Set()): Promise<string> {
  return treeDigest(root, { otherEntries: false, skip });
}
