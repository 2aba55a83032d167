/**
 * The deployment plan: the ordered steps `armada apply` runs for a manifest (`Armada._sync`).
 * Groups deploy one at a time in `chart_groups` order; a sequenced group is one step per chart,
 * in list order; an unsequenced group is one step with all its charts at once. Each step starts
 * only when every release of the previous step is ready. Nothing else serialises, except the
 * explicit `addDependency` edges this library adds on top of Armada.
 */
import {
  chartVersion,
  effectiveNativeWait,
  effectiveTest,
  effectiveWaitResources,
  effectiveWaitTimeout,
  effectiveProtection,
  effectiveDeleteTimeout,
} from './effective';
import { firstByName } from './first-by-name';
import { releaseName } from './names';
import { ChartGroupSpec, ChartSpec, ManifestSpec, SchemaVersion } from './spec';
import { EffectiveWaitResource } from './wait';

/** One Helm release in a step, with everything the deployment needs to know about waiting. */
export interface PlannedRelease {
  /** The chart document's `metadata.name`. */
  readonly chart: string;
  /** The Helm release: `${releasePrefix}-${release}`. */
  readonly name: string;
  /** `release` before the prefix. */
  readonly release: string;
  readonly namespace: string;
  /** Seconds shared by pre-upgrade actions, the Helm install/upgrade and the resource waits. */
  readonly waitTimeout: number;
  /** Helm's own `--wait`. */
  readonly nativeWait: boolean;
  /**
   * The chart document's own schema version, which Armada's wait reads: for v1, pods owned by a
   * Job are skipped and each wait repeats until nothing changes; for v2, every owned pod is skipped
   * and each wait runs once.
   */
  readonly schemaVersion: SchemaVersion;
  /** What the readiness gate waits on, in order, labels merged, defaults applied. */
  readonly waitResources: readonly EffectiveWaitResource[];
  /** `helm test` after the wait. */
  readonly test: { readonly enabled: boolean; readonly timeoutSeconds: number };
  readonly deleteTimeout: number;
  readonly protected: { readonly protected: boolean; readonly continueProcessing: boolean };
  /** Charts (by name) whose releases this one waits for besides the step order (explicit edges). */
  readonly dependsOn: readonly string[];
  /** The first step that deploys this chart, when the chart is deployed more than once. */
  readonly firstStep: number;
}

/** One step: the releases Armada deploys together. */
export interface PlanStep {
  readonly index: number;
  /** The chart group's `metadata.name`. */
  readonly group: string;
  readonly sequenced: boolean;
  readonly releases: readonly PlannedRelease[];
}

/** The JSON form shared by the CLI (`armada-cdk plan --format json`) and the Pulumi backend. */
export interface PlanJson {
  readonly manifest: string;
  readonly releasePrefix: string;
  readonly steps: readonly {
    readonly index: number;
    readonly group: string;
    readonly sequenced: boolean;
    readonly releases: readonly {
      readonly name: string;
      readonly namespace: string;
      readonly chart: string;
      readonly waitTimeout: number;
      readonly dependsOn?: readonly string[] | undefined;
    }[];
  }[];
}

/** The ordered deployment steps of a manifest. */
export class Plan {
  constructor(
    public readonly manifest: string,
    public readonly releasePrefix: string,
    public readonly schemaVersion: SchemaVersion,
    public readonly steps: readonly PlanStep[],
  ) {}

  /** Every release in deployment order (a chart listed twice appears twice). */
  public get releases(): PlannedRelease[] {
    return this.steps.flatMap((s) => s.releases);
  }

  /** First step of each chart, built on first use: every chart of a large site asks. */
  private firstSteps?: Map<string, number> | undefined;

  /** The step index of the first deployment of each chart. */
  public firstStepOf(chart: string): number | undefined {
    if (!this.firstSteps) {
      this.firstSteps = new Map();
      for (const s of this.steps) for (const r of s.releases) if (!this.firstSteps.has(r.chart)) this.firstSteps.set(r.chart, s.index);
    }
    return this.firstSteps.get(chart);
  }

  /** The JSON form (stable key order; `dependsOn` only where explicit edges exist). */
  public toJSON(): PlanJson {
    return {
      manifest: this.manifest,
      releasePrefix: this.releasePrefix,
      steps: this.steps.map((s) => ({
        index: s.index,
        group: s.group,
        sequenced: s.sequenced,
        releases: s.releases.map((r) => ({
          name: r.name,
          namespace: r.namespace,
          chart: r.chart,
          waitTimeout: r.waitTimeout,
          ...(r.dependsOn.length > 0 ? { dependsOn: [...r.dependsOn] } : {}),
        })),
      })),
    };
  }
}

// A spec is never changed once built, and a plan is read-only: validation (twice) and every
// writer ask for the plan of the same spec, which is built once.
const plans = new WeakMap<ManifestSpec, Plan>();

/**
 * Builds the plan. Names that do not resolve are skipped here: validation reports them, and a
 * caller that found errors must not act on the plan.
 */
export function buildPlan(spec: ManifestSpec): Plan {
  let plan = plans.get(spec);
  if (plan === undefined) plans.set(spec, (plan = planOf(spec)));
  return plan;
}

function planOf(spec: ManifestSpec): Plan {
  const groups = firstByName(spec.groups);
  const charts = firstByName(spec.charts);
  const steps: PlanStep[] = [];
  const firstStep = new Map<string, number>();
  const stepCharts: { group: ChartGroupSpec; sequenced: boolean; charts: ChartSpec[] }[] = [];
  for (const groupName of spec.chartGroups) {
    const group = groups.get(groupName);
    if (!group) continue;
    const members = group.charts.map((c) => charts.get(c)).filter((c): c is ChartSpec => c !== undefined);
    const sequenced = group.sequenced === true;
    if (sequenced) for (const c of members) stepCharts.push({ group, sequenced, charts: [c] });
    else if (members.length > 0) stepCharts.push({ group, sequenced, charts: members });
  }
  stepCharts.forEach((s, index) => {
    for (const c of s.charts) if (!firstStep.has(c.name)) firstStep.set(c.name, index);
  });
  stepCharts.forEach((s, index) => {
    steps.push({
      index,
      group: s.group.name,
      sequenced: s.sequenced,
      releases: s.charts.map((c) => plannedRelease(spec, c, s.group, firstStep.get(c.name) ?? index)),
    });
  });
  return new Plan(spec.name, spec.releasePrefix, spec.schemaVersion, steps);
}

function plannedRelease(spec: ManifestSpec, chart: ChartSpec, group: ChartGroupSpec, first: number): PlannedRelease {
  return {
    chart: chart.name,
    name: releaseName(spec.releasePrefix, chart.release),
    release: chart.release,
    namespace: chart.namespace,
    waitTimeout: effectiveWaitTimeout(chart),
    nativeWait: effectiveNativeWait(chart, spec.schemaVersion),
    schemaVersion: chartVersion(chart, spec.schemaVersion),
    waitResources: effectiveWaitResources(chart, spec.schemaVersion),
    test: effectiveTest(chart, group),
    deleteTimeout: effectiveDeleteTimeout(chart),
    protected: effectiveProtection(chart),
    dependsOn: [...chart.dependsOn],
    firstStep: first,
  };
}
