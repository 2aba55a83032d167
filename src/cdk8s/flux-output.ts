import * as fs from 'fs';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import { Construct } from 'constructs';
import { DiagnosticCodes } from '../model/codes';
import { Diagnostic, FieldPath } from '../model/diagnostics';
import { dns1123SubdomainProblem } from '../model/names';
import { FluxDirectory, fluxDirectory, FluxDirectoryFile, fluxSecretPaths } from '../model/wire/flux-gitops';
import { FLUX_BOOTSTRAP_SOURCE, repositoryPathProblem } from '../model/wire/flux-layout';
import { Duration } from '../model/duration';
import { ChartSource, SourceType } from '../model/source';
import { dns1123LabelProblem } from '../model/names';
import { firstByName } from '../model/first-by-name';
import { FLUX_DEFAULT_INTERVAL, FLUX_DEFAULT_NAMESPACE, fluxObjectsAsRead, FluxOptions, HelmReleasePlacement, intervalProblem, toFluxObjects } from '../model/wire/flux-v2';
import { ManifestOutput, OutputProps, Rendered } from './outputs';
import { yamlHazards } from './yaml-hazards';

/** What {@link FluxOutput} writes. */
export enum FluxLayout {
  /**
   * Every object into the enclosing cdk8s Chart's file (`dist/<chart>.k8s.yaml`): the sources,
   * then the HelmReleases, ordered by HelmRelease `dependsOn` alone (not revision-aware: a commit
   * that changes two steps upgrades both at once), as `convert --to flux-v2` writes to stdout.
   */
  SINGLE_FILE = 'single-file',
  /**
   * The GitOps directory `<outdir>/<manifest>/` that `convert --to flux-v2 -o DIR` writes, the
   * same files from the same code: sources/, steps/NN-<group>/, kustomization.yaml files and
   * flux-kustomizations.yaml, one Kustomization per plan step, each `dependsOn` the one before,
   * which keeps Armada's order on every commit. Written by {@link FluxOutput.writeDirectory}
   * after `app.synth()`; nothing goes into the enclosing chart's file.
   */
  DIRECTORY = 'directory',
}

/**
 * Props of {@link FluxOutput}: the manifest and its output, and the Flux options of the wire
 * target (one definition of each option and its default).
 */
export interface FluxOutputProps extends OutputProps, FluxOptions {
  /**
   * A single stream of objects in the enclosing chart's file, or the GitOps directory.
   * @default FluxLayout.SINGLE_FILE
   */
  readonly layout?: FluxLayout | undefined;
  /**
   * `DIRECTORY` only: the path, inside the Git repository Flux reads, of the directory the
   * `<manifest>/` folder is written into (relative, `/`-separated), which every Kustomization's
   * `spec.path` starts with. Write the directory there: {@link FluxOutput.writeDirectory} writes
   * into the app's outdir unless told otherwise.
   * @default - the app's outdir (`dist`), which must then be relative: run cdk8s from the root of
   *   the Git repository
   */
  readonly repositoryPath?: string | undefined;
  /**
   * `DIRECTORY` only: the GitRepository, in `namespace`, that reads that repository.
   * @default 'flux-system' (the one `flux bootstrap` makes)
   */
  readonly repositorySource?: string | undefined;
  /**
   * `DIRECTORY` only: a Secret in `namespace` whose keys kustomize-controller substitutes for
   * `${VAR}` placeholders when it applies each step (`spec.postBuild.substituteFrom`). The
   * `secretValues` become `${SECRET_<RELEASE>_<PATH>}` placeholders, the `${VAR}` placeholders of
   * the values are kept, and every other `${` is escaped as `$${`.
   * @default - no substitution: values are written as they are, and `secretValues` are an error
   */
  readonly substituteFrom?: string | undefined;
  /**
   * Values that are secret, which are never written in clear: Armada chart name (`chartName` of
   * the definition's `Chart`, its construct id by default) to the paths of its values that hold
   * secrets (`[['endpoints', 'oslo_db', 'auth', 'admin', 'password']]`; a path to a mapping or a
   * list covers every value under it): the chart and path a `siteSecret(chart, path)` of the
   * definition reads, which the tree itself does not mark. With `DIRECTORY` and `substituteFrom` each becomes a
   * placeholder ({@link FluxOutput.writeDirectory} returns the variables, the release and the
   * place of each, never the value); otherwise a chart with secret values fails the synth.
   * @default - no value is marked secret
   */
  readonly secretValues?: Readonly<Record<string, readonly FieldPath[]>> | undefined;
}

/**
 * Renders a manifest as Flux objects into the enclosing cdk8s Chart: one
 * `helm.toolkit.fluxcd.io/v2` HelmRelease per deployed chart, ordered by `dependsOn` as Armada
 * orders the plan, and the GitRepository / HelmRepository sources they read their charts from.
 */
export class FluxOutput extends ManifestOutput {
  /** What this output writes. */
  public readonly layout: FluxLayout;
  private readonly props: FluxOutputProps;
  private readonly repositoryPath: string | undefined;
  private directory?: FluxDirectory | undefined;

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
    const layouts = Object.values(FluxLayout) as string[];
    if (props.layout !== undefined && !layouts.includes(props.layout)) {
      throw new Error(`${this.node.path}: layout: received ${JSON.stringify(props.layout)}; use FluxLayout.SINGLE_FILE or FluxLayout.DIRECTORY`);
    }
    this.layout = props.layout ?? FluxLayout.SINGLE_FILE;
    const directoryOnly = [['repositoryPath', props.repositoryPath], ['repositorySource', props.repositorySource], ['substituteFrom', props.substituteFrom]] as const;
    if (this.layout !== FluxLayout.DIRECTORY) {
      for (const [name, value] of directoryOnly) {
        if (value !== undefined) throw new Error(`${this.node.path}: ${name}: received ${JSON.stringify(value)} with layout ${this.layout}; it applies to FluxLayout.DIRECTORY only (the Kustomizations of the GitOps directory)`);
      }
    } else {
      const outdir = cdk8s.App.of(this).outdir;
      const repoPath = props.repositoryPath ?? outdir.split(/[\\/]+/).join('/');
      const problem = repositoryPathProblem(repoPath);
      if (problem) {
        throw new Error(props.repositoryPath === undefined
          ? `${this.node.path}: the Kustomizations need the directory's path in the Git repository Flux reads, and the app's outdir ${JSON.stringify(outdir)} ${problem}; give it as repositoryPath`
          : `${this.node.path}: repositoryPath: received ${JSON.stringify(props.repositoryPath)}; it ${problem}`);
      }
      this.repositoryPath = repoPath;
      for (const [name, value, what] of [['repositorySource', props.repositorySource, 'a GitRepository name'], ['substituteFrom', props.substituteFrom, 'a Secret name']] as const) {
        const p = value === undefined ? undefined : dns1123SubdomainProblem(value);
        if (p) throw new Error(`${this.node.path}: ${name}: received ${JSON.stringify(value)}; ${what} ${p}`);
      }
    }
    for (const [chart, paths] of Object.entries(props.secretValues ?? {})) {
      const bad = Array.isArray(paths) ? paths.find((x) => !Array.isArray(x) || x.length === 0 || !x.every((seg) => typeof seg === 'string' || (typeof seg === 'number' && Number.isInteger(seg) && seg >= 0))) : paths;
      if (bad !== undefined) throw new Error(`${this.node.path}: secretValues[${JSON.stringify(chart)}]: received ${JSON.stringify(bad)}; give a list of paths inside the chart's values, each a non-empty list of keys and list indexes, e.g. [['endpoints', 'oslo_db', 'auth', 'admin', 'password']]`);
    }
    this.props = props;
  }

  /**
   * `DIRECTORY` only: the files of the GitOps directory, paths relative to the directory
   * (`<manifest>/kustomization.yaml`, ...), as `convert --to flux-v2 -o DIR` writes them. Rendered
   * once, as synth renders; throws with every error, as synth does.
   */
  public directoryFiles(): readonly FluxDirectoryFile[] {
    return this.renderedDirectory().files;
  }

  /**
   * `DIRECTORY` only: writes the GitOps directory, `<outdir>/<manifest>/`, replacing the files of
   * the same name (call it after `app.synth()`, which reports every error and warning first;
   * called alone, it throws with the errors and writes nothing). Returns the directory: its
   * files, and the placeholders and secrets the Secret of `substituteFrom` must hold, with the
   * `notes` that say so.
   * @param outdir where to write: the directory `repositoryPath` names in the Git repository
   * @default outdir - the app's outdir
   */
  public writeDirectory(outdir?: string): FluxDirectory {
    const dir = this.renderedDirectory();
    const root = outdir ?? cdk8s.App.of(this).outdir;
    for (const f of dir.files) {
      const file = path.join(root, ...f.path.split('/'));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, f.content);
    }
    return dir;
  }

  private renderedDirectory(): FluxDirectory {
    if (this.layout !== FluxLayout.DIRECTORY) throw new Error(`${this.node.path}: the layout is ${this.layout}: its objects go into the enclosing chart's file; use FluxLayout.DIRECTORY for the GitOps directory`);
    const errors = this._renderErrors();
    if (this.directory === undefined) throw new Error(`${this.node.path}: the GitOps directory cannot be written:\n  ${errors.join('\n  ')}`);
    return this.directory;
  }

  private options(): FluxOptions {
    const p = this.props;
    return {
      interval: p.interval ?? FLUX_DEFAULT_INTERVAL,
      sourceInterval: p.sourceInterval,
      placement: p.placement,
      namespace: p.namespace ?? FLUX_DEFAULT_NAMESPACE,
      sourceNamespace: p.sourceNamespace,
      suspend: p.suspend,
      localSources: p.localSources,
      chartRepository: p.chartRepository,
      subchartOutcomes: p.subchartOutcomes,
      sourceSecrets: p.sourceSecrets,
    };
  }

  /** The secret values, by chart, and the findings about them (an unknown chart is an error). */
  private secrets(): { secretPaths: ReturnType<typeof fluxSecretPaths>['secretPaths']; diagnostics: Diagnostic[] } {
    const { spec, plan } = this.manifest.resolve();
    const given = this.props.secretValues ?? {};
    const names = new Set(spec.charts.map((c) => c.name));
    const unknown: Diagnostic[] = Object.keys(given).filter((c) => !names.has(c)).map((c) => ({
      severity: 'error',
      ...spec.origin.locate(),
      location: this.node.path,
      field: `secretValues[${JSON.stringify(c)}]`,
      code: DiagnosticCodes.FLUX_OPTION,
      message: `received chart ${JSON.stringify(c)}, which the manifest ${JSON.stringify(spec.name)} does not have; its charts are ${[...names].map((n) => JSON.stringify(n)).join(', ')}`,
    }));
    const r = fluxSecretPaths(spec, plan, new Map(Object.entries(given)), {
      substituteFrom: this.layout === FluxLayout.DIRECTORY ? this.props.substituteFrom : undefined,
      toFiles: true,
      from: 'marked in secretValues',
      fix: this.layout === FluxLayout.DIRECTORY ? 'give the FluxOutput substituteFrom, which puts a ${SECRET_...} placeholder there' : 'use FluxLayout.DIRECTORY with substituteFrom, which puts a ${SECRET_...} placeholder there',
    });
    return { secretPaths: r.secretPaths, diagnostics: [...unknown, ...r.diagnostics] };
  }

  /** What packageFluxCharts found (in the result given as chartRepository), reported as convert reports it: after the rest. */
  private packagingFindings(): readonly Diagnostic[] {
    return this.props.chartRepository?.diagnostics ?? [];
  }

  protected render(): Rendered {
    const { spec, plan } = this.manifest.resolve();
    const secrets = this.secrets();
    if (this.layout === FluxLayout.DIRECTORY) {
      const r = fluxObjectsAsRead(spec, plan, this.options());
      const diagnostics = [...r.diagnostics.all, ...secrets.diagnostics, ...this.packagingFindings()];
      // Written by armada-cdk's own YAML writer, as convert writes them: no cdk8s YAML hazard.
      if (!diagnostics.some((d) => d.severity === 'error')) this.directory = fluxDirectory(spec, plan, r.objects, this.options(), { repositoryPath: this.repositoryPath!, repositorySource: this.props.repositorySource ?? FLUX_BOOTSTRAP_SOURCE, substituteFrom: this.props.substituteFrom }, secrets.secretPaths);
      return { objects: [], diagnostics };
    }
    const r = toFluxObjects(spec, plan, this.options());
    const diagnostics = [...r.diagnostics.all, ...secrets.diagnostics, ...this.packagingFindings()];
    const byName = firstByName(spec.charts);
    const charts = new Map(plan.releases.map((x) => [x.name, byName.get(x.chart)!]));
    for (const o of r.objects) {
      const values = (o.spec as { values?: unknown } | undefined)?.values;
      for (const h of yamlHazards(values, 'values', 'go-yaml', 'armada-cdk convert --to flux-v2')) {
        diagnostics.push({ severity: 'error', ...(charts.get(String((o.spec as { releaseName?: unknown } | undefined)?.releaseName))?.origin ?? spec.origin).locate(), field: h.field, code: DiagnosticCodes.YAML_1_1, message: h.message });
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
