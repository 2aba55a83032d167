/**
 * The `armada:index:Chart` component: one chart in one step of a deployment, with the Release,
 * its pre-upgrade deletes and its readiness gate.
 */
import { createHash } from 'node:crypto';
import * as pulumi from '@pulumi/pulumi';
import * as k8s from '@pulumi/kubernetes';
import type { SchemaVersion } from '../../model/spec';
import type { ChartUnit } from '../layout';
import { ClusterInputs, stableJson } from '../provider/provider-support';
import { releaseInputs } from '../release-args';
import { releaseValueInputs } from '../release-values';
import { failingOnce } from '../stable-error';
import { PreUpgradeDelete } from './pre-upgrade-delete';
import { ReadinessGate } from './readiness-gate';

/** What a chart's resources need from the rest of the deployment. */
export interface ChartDeploymentArgs {
  readonly unit: ChartUnit;
  readonly schemaVersion: SchemaVersion;
  /** The chart directory (installing units only). */
  readonly chartPath?: Promise<string> | undefined;
  /** What must be ready before this chart deploys: gates of the previous step and of explicit targets. */
  readonly waitFor: readonly pulumi.Resource[];
  /** For a repeat: the deployment that installs the release. */
  readonly installer?: ChartDeployment | undefined;
  readonly cluster?: pulumi.Output<ClusterInputs> | undefined;
  readonly helmCommand: string;
  /** Helm's storage driver, as the provider uses it: `helm test` gets it as `HELM_DRIVER`. */
  readonly helmDriver: string;
  /** Take over the release installed outside Pulumi (see `ManifestDeploymentArgs.takeover`). */
  readonly takeover: boolean;
  readonly runToken?: string | undefined;
  readonly retainOnDelete: boolean;
}

/**
 * One chart in one step: [pre-upgrade delete] > Release > readiness gate, which runs the tests
 * when they are enabled. A chart deployed again in a later step only gets a gate (without
 * tests), waiting for the Release of its first step.
 *
 * The component costs one registration per chart (a few percent of a bare Release each, under
 * mocks), and it is the parent in the URNs of the resources below it: without it, existing
 * stacks would need an alias on each of them, which costs several times what the component does.
 */
export class ChartDeployment extends pulumi.ComponentResource {
  public readonly release: k8s.helm.v3.Release;
  public readonly gate: ReadinessGate;
  public readonly preUpgradeDelete?: PreUpgradeDelete | undefined;

  constructor(name: string, args: ChartDeploymentArgs, opts: pulumi.ComponentResourceOptions) {
    super('armada:index:Chart', name, {}, opts);
    const { unit } = args;
    const planned = unit.release;
    const child = { parent: this };

    if (unit.installs) {
      const inputs = releaseInputs(planned, unit.chart);
      const chartPath = args.chartPath!;
      const actions = unit.chart.upgrade?.pre?.delete ?? [];
      if (actions.length > 0) {
        this.preUpgradeDelete = new PreUpgradeDelete(
          name,
          {
            target: {
              release: planned.name,
              namespace: planned.namespace,
              actions: actions.map((a) => (a.labels ? { type: a.type, labels: { ...a.labels } } : { type: a.type })),
              // The chart document's own version: Armada's pre-upgrade actions and wait read it.
              schemaVersion: planned.schemaVersion,
              timeoutSeconds: planned.waitTimeout,
            },
            fingerprint: releaseFingerprint(inputs, chartPath),
            ...(args.cluster ? { cluster: args.cluster } : {}),
            // Created with the Release it precedes: the imported release is then upgraded.
            ...(args.takeover ? { takeover: true } : {}),
          },
          { ...child, dependsOn: [...args.waitFor] },
        );
      }
      // Values that break the chart's values.schema.json fail the first resource that takes them,
      // and only that one, so that the error is reported once: with a pre-upgrade delete, that is
      // the delete (through its fingerprint), and the Release takes the values once the delete is
      // registered, which it never is then.
      const values = this.preUpgradeDelete && pulumi.Output.isInstance(inputs.values) ? this.preUpgradeDelete.urn.apply(() => inputs.values) : inputs.values;
      this.release = new k8s.helm.v3.Release(
        name,
        { ...inputs, ...releaseValueInputs(values as Readonly<Record<string, unknown>>), chart: chartPath },
        {
          ...child,
          dependsOn: this.preUpgradeDelete ? [...args.waitFor, this.preUpgradeDelete] : [...args.waitFor],
          retainOnDelete: args.retainOnDelete,
          // The provider's import ID of a Release. Pulumi reads the release, then diffs it against
          // these inputs and upgrades it in place: the chart path and the provider's flags, which
          // Helm does not record, always differ from what the import reads, so the takeover is an upgrade.
          ...(args.takeover ? { import: `${planned.namespace}/${planned.name}` } : {}),
        },
      );
    } else {
      this.release = args.installer!.release;
    }

    this.gate = new ReadinessGate(
      name,
      {
        target: {
          release: planned.name,
          namespace: planned.namespace,
          resources: planned.waitResources.map((r) => ({ ...r, labels: { ...r.labels } })),
          schemaVersion: planned.schemaVersion,
          timeoutSeconds: planned.waitTimeout,
          sharesDeadline: unit.installs,
        },
        release: this.release.status,
        ...(args.cluster ? { cluster: args.cluster } : {}),
        ...(unit.installs && planned.test.enabled ? { helmDriver: args.helmDriver } : {}),
        ...(args.runToken !== undefined ? { runToken: args.runToken } : {}),
        ...(unit.installs && planned.test.enabled
          ? {
              test: {
                release: planned.name,
                namespace: planned.namespace,
                timeoutSeconds: planned.test.timeoutSeconds,
                waitLabels: { ...(unit.chart.wait?.labels ?? {}) },
                helmCommand: args.helmCommand,
              },
            }
          : {}),
      },
      // An installing gate follows its Release through its inputs; a repeat also follows its step.
      unit.installs ? child : { ...child, dependsOn: [...args.waitFor] },
    );
    this.registerOutputs({});
  }
}

/**
 * Digest of a Release's inputs (chart directory, values, flags): it changes exactly when the
 * Release is upgraded. Secret when the values hold a secret; unknown in a preview when they do.
 */
export function releaseFingerprint(inputs: ReturnType<typeof releaseInputs>, chartPath: Promise<string>): pulumi.Input<string> {
  const digest = (chart: string, values: unknown) => createHash('sha256').update(stableJson({ ...inputs, values, chart })).digest('hex');
  // A plain promise when nothing is an output: an Output per chart costs, and is not needed.
  if (!containsOutput(inputs.values)) return chartPath.then((chart) => digest(chart, inputs.values));
  return failingOnce(pulumi.all([chartPath, pulumi.output(inputs.values)]).apply(([chart, values]) => digest(chart, values)));
}

function containsOutput(v: unknown): boolean {
  if (pulumi.Output.isInstance(v)) return true;
  if (Array.isArray(v)) return v.some(containsOutput);
  if (v !== null && typeof v === 'object') return Object.values(v).some(containsOutput);
  return false;
}
