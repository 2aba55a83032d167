/**
 * What packaging found, as the diagnostics the rest of armada-cdk reports: each at the chart
 * document's `source` (file:line:column and document when read from YAML, the construct path
 * otherwise). `packageCharts` builds them, so that `convert --package-charts` and
 * `packageFluxCharts` report the same findings at the same places.
 */
import { DiagnosticCodes } from '../model/codes';
import type { Diagnostic } from '../model/diagnostics';
import type { ManifestSpec } from '../model/spec';

/** A finding about one chart's packaging: the chart, its document's location, what. */
export interface ChartFinding {
  readonly chart: string;
  readonly location: string;
  readonly message: string;
}

/** Where a finding about a chart's packaging points: its document's source (without the site: the finding's own location). */
function at(spec: ManifestSpec | undefined, f: ChartFinding): { location: string; document?: string | undefined; field?: string | undefined } {
  const chart = spec?.charts.find((c) => c.name === f.chart);
  return chart === undefined ? { location: f.location } : chart.origin.locate(['source']);
}

/** Charts that could not be fetched, assembled or packaged: errors. */
export function packagingErrors(spec: ManifestSpec | undefined, failures: readonly ChartFinding[]): Diagnostic[] {
  return failures.map((f) => ({ severity: 'error', ...at(spec, f), code: DiagnosticCodes.FLUX_SOURCE, message: `chart ${JSON.stringify(f.chart)} cannot be packaged: ${f.message}` }));
}

/** What a packaged chart renders otherwise than under Armada: warnings. */
export function packagingWarnings(spec: ManifestSpec, warnings: readonly ChartFinding[]): Diagnostic[] {
  return warnings.map((w) => ({ severity: 'warning', ...at(spec, w), code: DiagnosticCodes.FLUX_ASSUMPTION, message: `packaged chart: ${w.message}` }));
}
