/**
 * `convert --to flux-v2 --package-charts URL`: every deployed chart fetched, assembled with its
 * Armada dependencies as the Pulumi path installs it, and packaged into a Helm repository written
 * beside the output (`DIR/<manifest>.charts/`) for the user to publish at URL; the HelmReleases
 * read the charts from a HelmRepository at URL. Also `--check-subcharts`, which fetches the
 * sources to say what Flux makes of each chart's Armada dependencies (see subchart-outcome).
 * The packaging modules load for these options only.
 */
import * as path from 'path';
import type { Diagnostic } from '../model/diagnostics';
import type { Plan } from '../model/plan';
import type { ChartSource } from '../model/source';
import type { ManifestSpec } from '../model/spec';
import type { PackagedChartRepository } from '../model/wire/flux-packaged';
import type { SubchartOutcome } from '../model/wire/flux-subcharts';
import { flag, OptionSpec, ParsedArgs, str } from './args';
import { UsageError } from './io';

export const FLUX_PACKAGING_OPTIONS: Record<string, OptionSpec> = {
  'package-charts': { type: 'string' },
  'check-subcharts': { type: 'boolean' },
  'check-helm': { type: 'string' },
  'chart-cache': { type: 'string' },
};

export const FLUX_PACKAGING_HELP = `  --package-charts URL flux-v2 with -o: fetch every deployed chart, assemble it with its Armada
                       dependencies (as Armada and the Pulumi target install it), package it as
                       helm package does, and write a Helm repository (index.yaml and
                       <chart>-<version>+<digest>.tgz files) to DIR/<manifest>.charts/ for you
                       to publish at URL; the HelmReleases read every chart from one
                       HelmRepository at URL, by name and exact version
  --check-subcharts    flux-v2: fetch the sources of the charts with Armada dependencies, build
                       each as Flux would and as Armada does, render both with helm template and
                       say per chart: same render, different render (which objects), or cannot
                       build; needs helm (--check-helm PATH, or helm on PATH)
  --check-helm PATH    flux-v2 with --check-subcharts: the helm it renders with (default: helm)
  --chart-cache DIR    flux-v2 with --package-charts or --check-subcharts: where fetched sources
                       are kept between runs (default: the Pulumi target's chart cache)`;

/** The packaging options, checked before any file is read. */
export interface FluxPackagingArgs {
  readonly url?: string | undefined;
  readonly check: boolean;
  readonly helm: string;
  readonly cacheDir?: string | undefined;
}

export function fluxPackagingArgs(args: ParsedArgs, dir: string | undefined, cwd: string): FluxPackagingArgs | undefined {
  const url = str(args, 'package-charts');
  const check = flag(args, 'check-subcharts');
  const helm = str(args, 'check-helm');
  const cache = str(args, 'chart-cache');
  if (url === undefined && !check) {
    for (const [o, v] of [['check-helm', helm], ['chart-cache', cache]] as const) {
      if (v !== undefined) throw new UsageError(`--${o} applies with --package-charts or --check-subcharts; received it without either`, 'convert');
    }
    return undefined;
  }
  if (url !== undefined) {
    if (dir === undefined || dir === '-') throw new UsageError('--package-charts writes a chart repository beside the output, in DIR/<manifest>.charts/: give -o DIR', 'convert');
    if (check) throw new UsageError('--check-subcharts says what Flux makes of the charts as their sources have them; with --package-charts the charts are packaged as Armada assembles them, and there is nothing to check: give one or the other', 'convert');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded for this option only
    const { repositoryUrlProblem } = require('../chart-repository/package-charts') as typeof import('../chart-repository/package-charts');
    const p = repositoryUrlProblem(url);
    if (p) throw new UsageError(`--package-charts: ${p}`, 'convert');
  }
  if (helm !== undefined && !check) throw new UsageError('--check-helm applies with --check-subcharts (the renders it compares); --package-charts does not run helm', 'convert');
  return { url, check, helm: helm === undefined ? 'helm' : helm.includes('/') ? path.resolve(cwd, helm) : helm, cacheDir: cache === undefined ? undefined : path.resolve(cwd, cache) };
}

/** What the packaging adds to the conversion. */
export interface FluxPackaging {
  /** For FluxOptions.chartRepository. */
  readonly repository?: PackagedChartRepository | undefined;
  /** For FluxOptions.subchartOutcomes. */
  readonly outcomes?: Readonly<Record<string, SubchartOutcome>> | undefined;
  /** The repository's files, named `<manifest>.charts/<file>` below -o DIR. */
  readonly files: readonly { name: string; content: Uint8Array }[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Packages the charts, or checks the subcharts; every failure is an error diagnostic (nothing is written then). */
export async function runFluxPackaging(spec: ManifestSpec, plan: Plan, a: FluxPackagingArgs, localSources?: Readonly<Record<string, ChartSource>> | undefined): Promise<FluxPackaging> {
  const options = { ...(a.cacheDir !== undefined ? { cacheDir: a.cacheDir } : {}), log: () => undefined };
  if (a.url !== undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded for this option only
    const { packageCharts, ChartPackagingError } = require('../chart-repository/package-charts') as typeof import('../chart-repository/package-charts');
    try {
      const r = await packageCharts(spec, plan, { ...options, url: a.url });
      return {
        repository: { url: r.url, charts: r.charts },
        files: r.files.map((f) => ({ name: `${spec.name}.charts/${f.path}`, content: f.content })),
        diagnostics: r.diagnostics,
      };
    } catch (e) {
      if (!(e instanceof ChartPackagingError)) throw e;
      // The library's diagnostics; the command names its option in front of them.
      return { files: [], diagnostics: e.diagnostics.map((d) => ({ ...d, message: `--package-charts: ${d.message}` })) };
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded for this option only
  const { subchartOutcomes } = require('../chart-repository/subchart-outcome') as typeof import('../chart-repository/subchart-outcome');
  const r = await subchartOutcomes(spec, plan, { ...options, helm: a.helm, localSources });
  return { outcomes: r, files: [], diagnostics: [] };
}
