/**
 * Armada's defaults, applied: what a deployment really does with a chart. Every target that acts
 * (the plan, Pulumi, the readiness gate) reads these; the document writers do not, so that what
 * the user left out stays out of the output.
 */
import { Duration } from './duration';
import { ChartGroupSpec, ChartSpec, HookAction, SchemaVersion } from './spec';
import {
  DEFAULT_MIN_READY,
  WaitResource,
  EffectiveWaitResource,
  V1_DEFAULT_WAIT_RESOURCES,
  V2_DEFAULT_WAIT_RESOURCES,
} from './wait';

/** `const.DEFAULT_CHART_TIMEOUT`. */
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 900;
/** `const.DEFAULT_TEST_TIMEOUT`. */
export const DEFAULT_TEST_TIMEOUT_SECONDS = 300;
/** `const.DEFAULT_DELETE_TIMEOUT`. */
export const DEFAULT_DELETE_TIMEOUT_SECONDS = 300;

/**
 * The seconds of a timeout. The plan is built before validation, so a field may still hold a
 * value of the wrong type (validation reports it): it counts as not set.
 */
function seconds(t: Duration | undefined): number | undefined {
  return Duration.isDuration(t) ? t.toSeconds() : undefined;
}

/** The wait budget: `wait.timeout`, then the deprecated chart `timeout`, then 900 s (`ChartWait.__init__`). */
export function effectiveWaitTimeout(chart: ChartSpec): number {
  return seconds(chart.wait?.timeout) ?? seconds(chart.timeout) ?? DEFAULT_WAIT_TIMEOUT_SECONDS;
}

/** The schema version a chart is judged by: its own document's, else the manifest's. */
export function chartVersion(chart: ChartSpec, manifestVersion: SchemaVersion): SchemaVersion {
  return chart.schemaVersion ?? manifestVersion;
}

/** The schema version a group is judged by: its own document's, else the manifest's. */
export function groupVersion(group: ChartGroupSpec, manifestVersion: SchemaVersion): SchemaVersion {
  return group.schemaVersion ?? manifestVersion;
}

/** Whether Helm's own `--wait` is used: `wait.native.enabled`, defaulting to on for a v1 chart and off for v2. */
export function effectiveNativeWait(chart: ChartSpec, manifestVersion: SchemaVersion): boolean {
  return chart.wait?.native?.enabled ?? chartVersion(chart, manifestVersion) === SchemaVersion.V1;
}

/**
 * The resources waited on, in order, with `wait.labels` merged into each. No `resources` gives the
 * default list of the chart's own schema version (`ChartWait.__init__` reads the chart document's
 * schema); `[]` gives nothing.
 */
export function effectiveWaitResources(chart: ChartSpec, manifestVersion: SchemaVersion): EffectiveWaitResource[] {
  const version = chartVersion(chart, manifestVersion);
  const base = chart.wait?.labels ?? {};
  // A list of the wrong type (reported by validation) counts as not set.
  const resources = Array.isArray(chart.wait?.resources) ? chart.wait.resources.filter((r) => WaitResource.isWaitResource(r)) : undefined;
  if (resources === undefined) {
    const defaults = version === SchemaVersion.V1 ? V1_DEFAULT_WAIT_RESOURCES : V2_DEFAULT_WAIT_RESOURCES;
    return defaults.map((d) => ({
      type: d.type,
      labels: { ...base },
      minReady: DEFAULT_MIN_READY,
      required: d.required,
      allowAsyncUpdates: false,
    }));
  }
  return resources.map((r) => ({
    type: r.type,
    // Armada (`ChartWait.__init__`): the chart's labels are the base, the item's own labels win.
    labels: { ...base, ...(r.options.labels ?? {}) },
    minReady: r.options.minReady ?? DEFAULT_MIN_READY,
    required: r.options.required ?? true,
    allowAsyncUpdates: r.options.allowAsyncUpdates ?? false,
  }));
}

/** Whether and how `helm test` runs after the wait (`armada/handlers/test.py::Test.__init__`). */
export function effectiveTest(chart: ChartSpec, group?: ChartGroupSpec): { enabled: boolean; timeoutSeconds: number } {
  let enabled = group?.testCharts ?? true;
  let timeoutSeconds = DEFAULT_TEST_TIMEOUT_SECONDS;
  const test = chart.test;
  if (typeof test === 'boolean') {
    enabled = test;
  } else if (test && Object.keys(test).some((k) => (test as Record<string, unknown>)[k] !== undefined)) {
    // Armada tests `elif test_values:`; an empty `test: {}` is falsy and changes nothing.
    if (test.enabled !== undefined) enabled = test.enabled;
    timeoutSeconds = seconds(test.timeout) ?? timeoutSeconds;
  }
  return { enabled, timeoutSeconds };
}

/** Time limit for uninstalling a failed release: `delete.timeout`, then 300 s. */
export function effectiveDeleteTimeout(chart: ChartSpec): number {
  return seconds(chart.delete?.timeout) ?? DEFAULT_DELETE_TIMEOUT_SECONDS;
}

/** Whether `protected` is in effect: Armada tests `if protected:`, so `{}` is not protected. */
export function effectiveProtection(chart: ChartSpec): { protected: boolean; continueProcessing: boolean } {
  const p = chart.protected;
  const isProtected = p !== undefined && Object.keys(p).some((k) => (p as Record<string, unknown>)[k] !== undefined);
  return { protected: isProtected, continueProcessing: isProtected && p?.continueProcessing === true };
}

/**
 * The `type: job` items of a pre-upgrade delete list whose CronJobs no `cronjob` item deletes.
 * Armada v1 deletes a job item's CronJobs too (`PreUpdateActions.delete_resources`), v2 only its
 * Jobs: these are the items whose meaning changes between the versions. A `cronjob` item with a
 * subset of a job item's labels selects all of its CronJobs, and so covers it.
 */
export function jobDeletesWithoutCronJobs(list: readonly HookAction[]): number[] {
  const cronLabels = list.filter((h) => h.type === 'cronjob').map((h) => h.labels ?? {});
  const out: number[] = [];
  list.forEach((h, i) => {
    if (h.type !== 'job') return;
    const labels = h.labels ?? {};
    const covered = cronLabels.some((c) => Object.entries(c).every(([k, v]) => labels[k] === v));
    if (!covered) {
      out.push(i);
      // The next job item with these labels is covered by the item this one implies.
      cronLabels.push(labels);
    }
  });
  return out;
}
