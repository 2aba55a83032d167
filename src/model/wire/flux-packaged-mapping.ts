/**
 * A HelmRelease's chart read from the packaged chart repository (see flux-packaged.ts): one
 * HelmRepository at the repository's URL, shared by every HelmRelease of its namespace, and the
 * chart by name and exact version. The chart's own source is not written, so none of the source
 * findings (branches, tarball directories, local directories) apply.
 */
import { Diagnostics, show } from '../diagnostics';
import type { ChartSpec } from '../spec';
import { packagedChart, PackagedChartRepository } from './flux-packaged';
import type { FluxSources } from './flux-sources';

/** What flux-v2.ts's ChartMapping.chart returns for a packaged chart. */
export type PackagedChartSource = { readonly kind: 'none' } | { readonly kind: 'HelmRepository'; readonly id: string; readonly chart: string; readonly version: string };

export function packagedChartRef(repo: PackagedChartRepository, chart: ChartSpec, sources: FluxSources, namespace: string, d: Diagnostics): PackagedChartSource {
  const ref = packagedChart(repo, chart.name);
  if (ref === undefined) {
    d.error(chart.origin, ['source'], 'flux-source', `chart ${show(chart.name)} is not in the packaged chart repository ${show(repo.url)}, which lists ${Object.keys(repo.charts).length === 0 ? 'no chart' : Object.keys(repo.charts).sort().map((n) => show(n)).join(', ')}: package the charts of this manifest again`);
    return { kind: 'none' };
  }
  return { kind: 'HelmRepository', id: sources.add({ kind: 'HelmRepository', namespace, url: repo.url }), chart: ref.name, version: ref.version };
}
