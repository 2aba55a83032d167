/**
 * Charts packaged with their Armada `dependencies` into a Helm repository of the user's
 * (`packageFluxCharts`, `convert --package-charts URL`): the HelmReleases then read each chart by
 * name and exact version from one HelmRepository at that URL, instead of building it from its
 * source as Flux would (without the subcharts Armada injects). Plain data: the model stays pure,
 * the packaging (which fetches) happens before.
 */
import type { Diagnostic } from '../diagnostics';

/** Where a chart of the manifest is in the packaged repository. */
export interface PackagedChartRef {
  /** The chart's name in the repository (`Chart.yaml`'s `name`). */
  readonly name: string;
  /** Its exact version there: the chart's own, with `+<digest of its files>` appended. */
  readonly version: string;
}

/** A Helm repository holding every deployed chart of a manifest, as Armada assembles them. */
export interface PackagedChartRepository {
  /** The URL the repository is published at: the HelmRepository's `spec.url`. */
  readonly url: string;
  /** Chart document name (`ChartSpec.name`) to its name and version in the repository. */
  readonly charts: Readonly<Record<string, PackagedChartRef>>;
  /**
   * What the packaging found about the charts (`packageFluxCharts`'s warnings, each at its chart
   * document): `FluxOutput` reports them at synth with its own findings.
   * @default - none
   */
  readonly diagnostics?: readonly Diagnostic[] | undefined;
}

/** The repository entry of `chart`, or undefined when the repository has none. */
export function packagedChart(repo: PackagedChartRepository, chart: string): PackagedChartRef | undefined {
  return Object.prototype.hasOwnProperty.call(repo.charts, chart) ? repo.charts[chart] : undefined;
}
