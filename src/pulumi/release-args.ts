/**
 * What each Armada chart field becomes on a `kubernetes:helm.sh/v3:Release`, as plain functions:
 * the Release inputs, and a warning (with the field path) for every field the Pulumi backend
 * cannot honour as Armada does.
 */
import type { Diagnostic } from '../model/diagnostics';
import type { PlannedRelease } from '../model/plan';
import type { ChartSpec } from '../model/spec';
import { isPlainObject, timestampsAsStrings } from '../model/values';
import { checkedValues } from './checked-values';
import { DiagnosticCodes } from '../model/codes';

/**
 * Helm's CLI keeps 10 revisions on upgrade (`--history-max`), which is what Armada gets; the
 * Pulumi provider keeps every revision unless told otherwise.
 */
export const HELM_CLI_MAX_HISTORY = 10;

/** The Release inputs for one planned release, except the chart path, which is resolved at program time. */
export interface ReleaseInputs {
  readonly name: string;
  readonly namespace: string;
  readonly createNamespace: true;
  readonly values: Readonly<Record<string, unknown>>;
  readonly timeout: number;
  readonly skipAwait: boolean;
  readonly waitForJobs: boolean;
  readonly forceUpdate: boolean;
  readonly disableCRDHooks: boolean;
  readonly disableOpenapiValidation: true;
  readonly maxHistory: number;
}

/**
 * Armada's `helm install/upgrade` command line (`armada/handlers/helm.py`) as Release inputs:
 *
 * - `name`/`namespace`: the planned release; `createNamespace` as `--create-namespace`.
 * - `values`: the chart's values, Pulumi outputs and secrets included (checked against a local
 *   chart's values.schema.json once known: `checkedValues`). No `allowNullValues`: up to provider
 *   4.29 it did nothing (the provider dropped every `null` before reading it), and from 4.30 the
 *   provider keeps nulls by default, ignores the flag and logs a deprecation for every Release
 *   that sets it. A `null` removes the chart's default, as in Armada's values file, with 4.30 or later.
 * - `timeout`: `wait.timeout`, the budget the readiness gate then shares (see the gate).
 * - `skipAwait`: off exactly when native wait is on (`--wait`); `waitForJobs` when that wait
 *   covers a chart that waits on jobs.
 * - `forceUpdate`: `upgrade.options.force` (the provider passes it to upgrades only, as Armada).
 * - `disableCRDHooks`: `upgrade.noHooks`. The provider hands this flag to `helm upgrade` as its
 *   `--no-hooks` and leaves installs alone, which is Armada's behaviour; `disableWebhooks` would
 *   instead skip the hooks of the first install.
 * - `disableOpenapiValidation`: Armada always passes `--disable-openapi-validation`. The
 *   provider applies it to installs only: its upgrade never sets Helm's flag. Helm's OpenAPI check
 *   then only runs where the API server lacks server-side field validation (before Kubernetes
 *   1.25): Helm skips its client-side check whenever the server offers `fieldValidation`, and never
 *   asks the server to be strict, so a newer server drops an unknown field with a warning, which
 *   is what the flag lets through. On an older server the upgrade of such a chart fails where
 *   Armada's succeeds (docs/pulumi.md).
 */
export function releaseInputs(release: PlannedRelease, chart: ChartSpec): ReleaseInputs {
  return {
    name: release.name,
    namespace: release.namespace,
    createNamespace: true,
    // The schema check sees what Helm receives (timestamps as their text, integers as numbers).
    values: checkedValues({ ...chart, values: pulumiValues(chart.values ?? {}) }),
    timeout: release.waitTimeout,
    skipAwait: !release.nativeWait,
    waitForJobs: release.nativeWait && release.waitResources.some((r) => r.type === 'job'),
    forceUpdate: chart.upgrade?.options?.force === true,
    disableCRDHooks: chart.upgrade?.noHooks === true,
    disableOpenapiValidation: true,
    maxHistory: HELM_CLI_MAX_HISTORY,
  };
}

/**
 * Imported values may hold timestamps (Helm gets the text Armada's `yaml.safe_dump` writes) and
 * integers beyond 2^53 (bigints): Helm reads every number of a values file as a float64, so the
 * chart gets the nearest double whichever way it is deployed; Pulumi carries the same double.
 */
function pulumiValues(values: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'bigint') return Number(v);
    if (Array.isArray(v)) return v.map(walk);
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(timestampsAsStrings(values)) as Readonly<Record<string, unknown>>;
}

/** Paths of the bigints in `values`. */
function bigintPaths(v: unknown, path: string[] = []): { path: string[]; value: bigint }[] {
  if (typeof v === 'bigint') return [{ path, value: v }];
  if (Array.isArray(v)) return v.flatMap((x, i) => bigintPaths(x, [...path, String(i)]));
  if (isPlainObject(v)) return Object.entries(v).flatMap(([k, x]) => bigintPaths(x, [...path, k]));
  return [];
}

/** The fields of deployed charts that the Pulumi backend cannot express faithfully, as warnings. */
export function unsupportedFields(deployed: readonly ChartSpec[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const warn = (chart: ChartSpec, field: string, message: string) => {
    const where = chart.origin.locate(field.split('.'));
    out.push({
      severity: 'warning',
      location: where.location,
      ...(where.document ? { document: where.document } : {}),
      field: where.field ?? field,
      message,
      code: DiagnosticCodes.PULUMI_UNSUPPORTED,
    });
  };
  for (const chart of deployed) {
    if (chart.protected?.continueProcessing === true) {
      warn(chart, 'protected.continueProcessing', 'Pulumi cannot skip a failed release and carry on: a failed release or readiness gate fails `pulumi up`, and the later steps, which depend on it, do not run. A failed release is never uninstalled, so `protected` itself holds');
    }
    if (chart.delete?.timeout !== undefined) {
      warn(chart, 'delete.timeout', 'has no effect: Armada uses it to uninstall a failed release before reinstalling it, and the Pulumi backend upgrades a failed release in place instead');
    }
    for (const b of bigintPaths(chart.values)) {
      warn(chart, ['values', ...b.path].join('.'), `the integer ${b.value} is beyond 2^53: Helm reads every number of a values file as a 64-bit float (Helm 3 and 4), so the chart receives ${Number(b.value)} however it is deployed, by Armada as by Pulumi`);
    }
    if ((chart.upgrade?.pre?.update?.length ?? 0) > 0) {
      warn(chart, 'upgrade.pre.update', 'is not performed by the Pulumi backend (Armada itself has not been able to since its move to Helm 3)');
    }
  }
  return out;
}
