import { Construct } from 'constructs';
import { DiagnosticCodes } from '../model/codes';
import { Duration } from '../model/duration';
import { ChartSource, SourceType } from '../model/source';
import { dns1123LabelProblem } from '../model/names';
import { firstByName } from '../model/first-by-name';
import { FLUX_DEFAULT_INTERVAL, FLUX_DEFAULT_NAMESPACE, FluxOptions, HelmReleasePlacement, intervalProblem, toFluxObjects } from '../model/wire/flux-v2';
import { ManifestOutput, OutputProps, Rendered } from './outputs';
import { yamlHazards } from './yaml-hazards';

/**
 * Props of {@link FluxOutput}: the manifest and its output, and the Flux options of the wire
 * target (one definition of each option and its default).
 */
export interface FluxOutputProps extends OutputProps, FluxOptions {}

/**
 * Renders a manifest as Flux objects into the enclosing cdk8s Chart: one
 * `helm.toolkit.fluxcd.io/v2` HelmRelease per deployed chart, ordered by `dependsOn` as Armada
 * orders the plan, and the GitRepository / HelmRepository sources they read their charts from.
 */
export class FluxOutput extends ManifestOutput {
  private readonly props: FluxOutputProps;

  /** @internal */
  protected override _kindName(): string {
    return 'FluxOutput';
  }

  constructor(scope: Construct, id: string, props: FluxOutputProps) {
    super(scope, id, props);
    for (const [name, value] of [['namespace', props.namespace], ['sourceNamespace', props.sourceNamespace]] as const) {
      const p = value === undefined ? undefined : dns1123LabelProblem(value);
      if (p) throw new Error(`${this.node.path}: ${name}: received ${JSON.stringify(value)}; a namespace ${p}`);
    }
    for (const [name, value] of [['interval', props.interval], ['sourceInterval', props.sourceInterval]] as const) {
      if (value === undefined) continue;
      const p = Duration.isDuration(value) ? intervalProblem(value) : `received ${JSON.stringify(value)}; use Duration.minutes(...) or Duration.seconds(...)`;
      if (p) throw new Error(`${this.node.path}: ${name}: ${p}`);
    }
    const placements = Object.values(HelmReleasePlacement) as string[];
    if (props.placement !== undefined && !placements.includes(props.placement)) {
      throw new Error(`${this.node.path}: placement: received ${JSON.stringify(props.placement)}; use HelmReleasePlacement.SINGLE_NAMESPACE or HelmReleasePlacement.CHART_NAMESPACE`);
    }
    for (const [dir, source] of Object.entries(props.localSources ?? {})) {
      if (!ChartSource.isChartSource(source) || source.type !== SourceType.GIT) {
        throw new Error(`${this.node.path}: localSources[${JSON.stringify(dir)}]: received ${ChartSource.isChartSource(source) ? `a ${source.type} source` : JSON.stringify(source)}; use ChartSource.git(url, { reference, subpath }): a Flux GitRepository is what reads a directory tree`);
      }
    }
    this.props = props;
  }

  protected render(): Rendered {
    const { spec, plan } = this.manifest.resolve();
    const p = this.props;
    const r = toFluxObjects(spec, plan, {
      interval: p.interval ?? FLUX_DEFAULT_INTERVAL,
      sourceInterval: p.sourceInterval,
      placement: p.placement,
      namespace: p.namespace ?? FLUX_DEFAULT_NAMESPACE,
      sourceNamespace: p.sourceNamespace,
      suspend: p.suspend,
      localSources: p.localSources,
      chartRepository: p.chartRepository,
      subchartOutcomes: p.subchartOutcomes,
    });
    const diagnostics = [...r.diagnostics.all];
    const byName = firstByName(spec.charts);
    const charts = new Map(plan.releases.map((x) => [x.name, byName.get(x.chart)!]));
    for (const o of r.objects) {
      const values = (o.spec as { values?: unknown } | undefined)?.values;
      for (const h of yamlHazards(values, 'values', 'go-yaml', 'armada-cdk convert --to flux-v2')) {
        diagnostics.push({ severity: 'error', ...(charts.get(o.metadata.name)?.origin ?? spec.origin).locate(), field: h.field, code: DiagnosticCodes.YAML_1_1, message: h.message });
      }
    }
    return {
      objects: r.objects.map((o) => ({
        identity: { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, namespace: o.metadata.namespace },
        body: o as Record<string, unknown>,
      })),
      diagnostics,
    };
  }
}
