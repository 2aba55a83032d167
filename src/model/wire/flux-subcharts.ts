/**
 * What Flux makes of a chart's Armada `dependencies` (subcharts Armada injects into `charts/`):
 * source-controller builds the chart as its source has it (its `charts/`, and the dependencies
 * its Chart.yaml lists that are missing there), so the release may render the same objects, other
 * objects, or not build at all. Known only from the charts' contents (`--check-subcharts`);
 * without them the warning says that it is not known.
 */
import { show } from '../diagnostics';

/** The outcome for one chart, found by rendering both builds (see subchart-outcome.ts). */
export type SubchartOutcome =
  /** Both builds render the same objects. */
  | { readonly kind: 'same' }
  /** The objects (`Kind namespace/name`) that differ, are missing or are extra under Flux. */
  | { readonly kind: 'different'; readonly objects: readonly string[] }
  /** Flux cannot build (or Helm cannot install) the chart as its source has it. */
  | { readonly kind: 'cannot-build'; readonly reason: string }
  /** Not determined, and why. */
  | { readonly kind: 'unknown'; readonly reason: string };

const FIX = 'convert with --package-charts URL to deploy the charts as Armada assembles them, or vendor the subcharts into the chart';

/** The warning's text for a chart with `dependencies` (`deps`), given what is known. */
export function subchartsText(deps: readonly string[], outcome: SubchartOutcome | undefined): string {
  const what = deps.length === 0 ? "dependencies [] (Armada empties the chart's charts/ directory)" : `subchart dependencies ${show(deps)} (Armada injects them into charts/)`;
  const flux = "Flux builds the chart as its source has it (its charts/ and the dependencies its Chart.yaml lists)";
  if (outcome === undefined) return `${what}: ${flux}; not checked whether it then renders the same objects, renders others or cannot be built: convert with --check-subcharts to know, or with --package-charts URL to deploy what Armada deploys`;
  switch (outcome.kind) {
    case 'same':
      return `${what}: ${flux}, and it renders the same objects as Armada's (checked with helm template)`;
    case 'different': {
      const shown = outcome.objects.slice(0, 8).join(', ') + (outcome.objects.length > 8 ? ` and ${outcome.objects.length - 8} more` : '');
      return `${what}: ${flux}, and it renders ${outcome.objects.length === 1 ? 'one object' : `${outcome.objects.length} objects`} otherwise than Armada's (checked with helm template): ${shown}; ${FIX}`;
    }
    case 'cannot-build':
      return `${what}: ${flux}, and it cannot be built so: ${outcome.reason}; ${FIX}`;
    default:
      return `${what}: ${flux}; whether it renders the same objects was not determined: ${outcome.reason}`;
  }
}
