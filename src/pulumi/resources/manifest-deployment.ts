/**
 * `pulumi up` on an ArmadaManifest: the component tree `armada:index:Manifest` >
 * `armada:index:ChartGroup` > `armada:index:Chart`, each chart a Helm Release between its
 * pre-upgrade deletes and its readiness gate (which also runs its tests), ordered by the plan's steps.
 */
import * as pulumi from '@pulumi/pulumi';
import * as k8s from '@pulumi/kubernetes';
import { ArmadaManifest } from '../../constructs/armada-manifest';
import { Diagnostic, diagnosticsMessage, errorsOf, formatDiagnostic, hasErrors, plural } from '../../model/diagnostics';
import type { SchemaVersion } from '../../model/spec';
import { ChartPreparationError, chartResolver, ChartResolverOptions, prepareCharts, ResolveChart } from '../chart-resolver';
import { aliasDiagnostics, DeploymentLayout, layoutDeployment, previousKey } from '../layout';
import type { ClusterInputs } from '../provider/provider-support';
import { optionDiagnostics } from '../deployment-options';
import { unsupportedFields } from '../release-args';
import { withStableMessage } from '../stable-error';
import { withShortStackTraces } from '../stack-trace-limit';
import { ChartDeployment } from './chart-deployment';
import { ChartGroupDeployment } from './chart-group-deployment';
import type { ReadinessGate } from './readiness-gate';

/** Arguments of a {@link ManifestDeployment}. */
export interface ManifestDeploymentArgs {
  /** The site to deploy. */
  readonly manifest: ArmadaManifest;
  /**
   * Kubeconfig (contents or path) for what the Kubernetes provider does not do itself: readiness
   * gates, pre-upgrade deletes and `helm test`. It must point at the provider's cluster: pass the
   * provider the same value. Kept secret.
   * @default - the default kubeconfig of the machine running `pulumi up` (`KUBECONFIG`, `~/.kube/config`, in-cluster)
   */
  readonly kubeconfig?: pulumi.Input<string> | undefined;
  /**
   * Kubeconfig context, as given to the provider.
   * @default - the kubeconfig's current context
   */
  readonly context?: pulumi.Input<string> | undefined;
  /**
   * Turns a chart into the directory its Release installs (the chart's source fetched and its
   * `dependencies` assembled). Replace it to resolve charts yourself, or in tests.
   * @default - `chartResolver(spec, sources)`: local, tar and git sources through an on-disk cache
   */
  readonly resolveChart?: ResolveChart | undefined;
  /**
   * Options of the default chart resolution (cache directory, proxy and TLS settings, git).
   * Keep `cacheDir` the same on every machine that runs `pulumi up`: chart paths are Release inputs.
   * @default - the defaults of `resolveChartSource`
   */
  readonly sources?: ChartResolverOptions | undefined;
  /**
   * The helm executable that runs `helm test`: Helm 3 or Helm 4 (both read the release records
   * the provider's embedded Helm 3 writes).
   * @default 'helm'
   */
  readonly helmCommand?: string | undefined;
  /**
   * Helm's storage driver, as the Kubernetes provider uses it (its `helmReleaseSettings.driver`):
   * `helm test` gets it as `HELM_DRIVER`, so that it finds the release where the provider keeps it.
   * @default - `PULUMI_K8S_HELM_DRIVER` of the environment running `pulumi up`, else `'secret'`: the provider's own default
   */
  readonly helmDriver?: string | undefined;
  /**
   * Take over releases that already exist, installed by `armada apply` (or `helm install`), instead
   * of installing them: each Release gets Pulumi's `import` resource option with the ID
   * `<namespace>/<name>` of its release, and keeps the inputs armada-cdk computes. The first
   * `pulumi up` then reads each release into the stack and upgrades it in place, to the same chart
   * and values where Armada deployed those, which continues its revision history: no Release is
   * created or replaced. Each release runs its `upgrade.pre.delete` actions before that upgrade,
   * its readiness wait after it and its tests, as after any upgrade.
   *
   * Every release of the manifest must exist (`pulumi preview` fails naming the one that does not).
   * An option for the first `pulumi up` of a stack: a release already in the stack is not imported
   * again, so leaving it on changes nothing for them, but a chart added later would be imported
   * rather than installed. Remove it once the first `pulumi up` succeeded. See docs/pulumi.md.
   * @default false
   */
  readonly takeover?: boolean | undefined;
  /**
   * `'always'` waits for every release's readiness on every `pulumi up`, as `armada apply` does
   * even when nothing changed (each run then shows every gate as updated); `'on-change'` only when
   * the release or its wait settings changed.
   * @default 'on-change'
   */
  readonly recheckReadiness?: 'on-change' | 'always' | undefined;
  /**
   * Uninstall a release when its chart leaves the manifest or the stack is destroyed, like
   * Armada's `--enable-chart-cleanup`. Without it the Releases are created with `retainOnDelete`,
   * so Pulumi forgets them but Helm keeps them, as `armada apply` does.
   * @default false
   */
  readonly chartCleanup?: boolean | undefined;
  /**
   * Renamed constructs: new construct path (inside the manifest) -> old one, for example
   * `{ 'databases': 'infra' }` after renaming the group `infra`, or
   * `{ 'infra/db': 'infra/mariadb' }` after renaming a chart. A path also covers what is under it.
   * The resources keep their URNs (Pulumi aliases), so nothing is replaced. Every key must be the
   * path of a chart group or chart the deployment creates (or a path above one), and every value a
   * non-empty string: otherwise the program stops with the manifest's other errors, since a key
   * that renamed nothing would leave the renamed resources to be replaced.
   * @default - no renames
   */
  readonly aliases?: Readonly<Record<string, string>> | undefined;
}

/**
 * Deploys an ArmadaManifest as `armada apply` would: every release of a step waits for every
 * release of the previous step to be ready (and tested, where tests are enabled), and for the
 * charts it `addDependency`s on; nothing else serialises. Each chart is a
 * `kubernetes:helm.sh/v3:Release` named exactly `${releasePrefix}-${release}`, followed by a
 * readiness gate running Armada's wait and then `helm test` when enabled; `upgrade.pre.delete`
 * runs before each upgrade.
 *
 * Validation errors of the manifest stop the program with one error listing all of them;
 * warnings go to Pulumi's log. Pass the Kubernetes provider in `opts` (`provider` or
 * `providers`); the children inherit it.
 */
export class ManifestDeployment extends pulumi.ComponentResource {
  /** Helm release name -> Helm status (`deployed`, ...). */
  public readonly releases: pulumi.Output<Record<string, string>>;
  /** Helm release name -> its Release resource, for `dependsOn` from other resources. */
  public readonly helmReleases: Readonly<Record<string, k8s.helm.v3.Release>>;
  /** Helm release name -> the readiness gate of its (first) deployment. */
  public readonly readinessGates: Readonly<Record<string, ReadinessGate>>;

  constructor(name: string, args: ManifestDeploymentArgs, opts: pulumi.ComponentResourceOptions = {}) {
    super('armada:index:Manifest', name, {}, opts);
    if (!args || !ArmadaManifest.isArmadaManifest(args.manifest)) {
      throw new pulumi.ResourceError(`ManifestDeployment ${name}: args.manifest must be an ArmadaManifest; received ${args ? typeof args.manifest : 'no args'}`, this, true);
    }
    const manifest = args.manifest;
    const resolved = manifest.resolve({ opaqueValues: pulumi.Output.isInstance });
    const layout = hasErrors(resolved.diagnostics) ? undefined : layoutDeployment(resolved.spec, resolved.plan, manifest.node.path);
    const installing = layout ? layout.units.filter((u) => u.installs) : [];
    const diagnostics = [
      ...resolved.diagnostics,
      ...(layout ? [...layout.diagnostics, ...unsupportedFields(installing.map((u) => u.chart))] : []),
      ...aliasDiagnostics(args.aliases, layout, `ManifestDeployment ${name}`, pulumi.Output.isInstance),
      ...optionDiagnostics(args, `ManifestDeployment ${name}`, pulumi.Output.isInstance),
    ];
    const failure = diagnosticsFailure(diagnostics, `ManifestDeployment ${name} (manifest ${manifest.node.path})`);
    // Pulumi's log adds its own severity.
    for (const d of diagnostics) if (d.severity === 'warning') void pulumi.log.warn(formatDiagnostic(d).replace(/^warning: /, ''), this);
    if (failure !== undefined || !layout) throw new pulumi.ResourceError(failure ?? `ManifestDeployment ${name}: the manifest has errors`, this, true);

    const resolve = args.resolveChart ?? chartResolver(resolved.spec, args.sources);
    const prepared = prepareCharts(
      installing.map((u) => u.chart),
      resolve,
    ).catch((e: unknown) => {
      throw stableError(e instanceof ChartPreparationError ? e.message : `ManifestDeployment ${name}: ${e instanceof Error ? e.message : String(e)}`, this);
    });
    // Every Release waits for all of them, so the first failure is reported once and before anything is installed.
    prepared.catch(() => undefined);

    const options: BuildOptions = {
      schemaVersion: resolved.plan.schemaVersion,
      chartPath: (chart) => prepared.then((dirs) => dirs.get(chart)!),
      cluster: args.kubeconfig !== undefined || args.context !== undefined ? pulumi.secret(pulumi.output({ kubeconfig: args.kubeconfig, context: args.context })) : undefined,
      helmCommand: args.helmCommand ?? 'helm',
      helmDriver: args.helmDriver ?? defaultHelmDriver(),
      takeover: args.takeover === true,
      runToken: args.recheckReadiness === 'always' ? new Date().toISOString() : undefined,
      retainOnDelete: args.chartCleanup !== true,
      aliases: args.aliases,
    };
    const built = withShortStackTraces(this, () => {
      const { releases, gates } = buildDeployment(this, name, layout, options);
      const names = Object.keys(releases);
      const statuses = pulumi.all(names.map((n) => releases[n].status)).apply((all) => Object.fromEntries(names.map((n, i) => [n, all[i]?.status])));
      this.registerOutputs({ releases: statuses });
      return { releases, gates, statuses };
    });
    this.helmReleases = built.releases;
    this.readinessGates = built.gates;
    this.releases = built.statuses;
  }
}

interface BuildOptions {
  readonly schemaVersion: SchemaVersion;
  readonly chartPath: (chart: string) => Promise<string>;
  readonly cluster?: pulumi.Output<ClusterInputs> | undefined;
  readonly helmCommand: string;
  readonly helmDriver: string;
  readonly takeover: boolean;
  readonly runToken?: string | undefined;
  readonly retainOnDelete: boolean;
  readonly aliases?: Readonly<Record<string, string>> | undefined;
}

/** Creates the group and chart components of a layout under `parent`. */
function buildDeployment(parent: ManifestDeployment, name: string, layout: DeploymentLayout, o: BuildOptions) {
  const aliasOf = (key: string): pulumi.ComponentResourceOptions => {
    const old = previousKey(key, o.aliases);
    return old === undefined ? {} : { aliases: [{ name: `${name}/${old}` }] };
  };
  const groups = layout.groups.map((g) => new ChartGroupDeployment(`${name}/${g.key}`, { parent, ...aliasOf(g.key) }));
  const charts: ChartDeployment[] = [];
  const releases: Record<string, k8s.helm.v3.Release> = {};
  const gates: Record<string, ReadinessGate> = {};
  for (const i of layout.creationOrder) {
    const unit = layout.units[i];
    const waitFor = new Set<pulumi.Resource>();
    for (const a of unit.after) waitFor.add(charts[a].gate);
    for (const e of unit.explicit) waitFor.add(charts[e].gate);
    const chart = new ChartDeployment(
      `${name}/${unit.key}`,
      {
        unit,
        schemaVersion: o.schemaVersion,
        chartPath: unit.installs ? o.chartPath(unit.chart.name) : undefined,
        waitFor: [...waitFor],
        installer: unit.installs ? undefined : charts[unit.installer],
        cluster: o.cluster,
        helmCommand: o.helmCommand,
        helmDriver: o.helmDriver,
        takeover: o.takeover,
        runToken: o.runToken,
        retainOnDelete: o.retainOnDelete,
      },
      { parent: groups[unit.group], ...aliasOf(unit.key) },
    );
    charts[i] = chart;
    if (unit.installs) {
      releases[unit.release.name] = chart.release;
      gates[unit.release.name] = chart.gate;
    }
  }
  for (const g of groups) g._done();
  return { releases, gates };
}

/**
 * The Kubernetes provider's Helm storage driver when its `helmReleaseSettings.driver` is not set:
 * `PULUMI_K8S_HELM_DRIVER`, else `secret`. The provider does not read `HELM_DRIVER`, so neither do we.
 */
export function defaultHelmDriver(env: NodeJS.ProcessEnv = process.env): string {
  return env.PULUMI_K8S_HELM_DRIVER || 'secret';
}

/** The message listing every error, or undefined when there is none. */
export function diagnosticsFailure(diagnostics: readonly Diagnostic[], what: string): string | undefined {
  const errors = errorsOf(diagnostics);
  if (errors.length === 0) return undefined;
  return diagnosticsMessage(`${what} has ${plural(errors.length, 'error')}`, errors);
}

/**
 * A ResourceError whose message stays as written: every Release awaiting the charts rethrows the
 * same error, and Pulumi prefixes the message of a failed input each time it passes one.
 */
function stableError(message: string, resource: pulumi.Resource): pulumi.ResourceError {
  return withStableMessage(new pulumi.ResourceError(message, resource, true));
}
