/**
 * The resolved definition of a site, as plain data: what the constructs (or the importer) produce
 * and what validation, the plan and every output target read. Names are Armada's, in camelCase;
 * references between documents are by `metadata.name`, as in Armada.
 *
 * "Omitted" and "empty" are different throughout: an optional field that is `undefined` was not
 * written (Armada applies its default), while `[]` or `{}` was written and means exactly that.
 */
import type { Origin } from './diagnostics';
import type { Duration } from './duration';
import type { ChartSource } from './source';
import type { WaitResource } from './wait';

/** Which Armada document schema a definition follows; it decides several defaults. */
export enum SchemaVersion {
  /** `armada/*\/v1`: native Helm wait on by default, default waits on jobs (optional) and pods (required). */
  V1 = 1,
  /** `armada/*\/v2`: native wait off by default, default waits on every type, each optional. */
  V2 = 2,
}

/** Labels: a string-to-string map, as Kubernetes label selectors need. */
export type Labels = Readonly<Record<string, string>>;

/** `protected`: what to do when Armada would otherwise purge a failed or stuck release. */
export interface ProtectedOptions {
  /**
   * `true`: skip the chart, record it as protected and carry on with the group; `false`: fail the chart.
   * @default false
   */
  readonly continueProcessing?: boolean | undefined;
}

/** `test`: `helm test` after the chart is deployed and waited for. */
export interface TestOptions {
  /**
   * Run `helm test` for this release.
   * @default true (or the group's deprecated `testCharts`)
   */
  readonly enabled?: boolean | undefined;
  /**
   * Time limit for `helm test`.
   * @default Duration.seconds(300)
   */
  readonly timeout?: Duration | undefined;
  /**
   * Delete test pods after the run (`test.options.cleanup`). Accepted for compatibility: Armada
   * ignores it since its move to Helm 3.
   * @default - not written
   */
  readonly cleanup?: boolean | undefined;
}

/** `wait.native`: Helm's own `--wait` on install and upgrade. */
export interface NativeWaitOptions {
  /**
   * Pass `--wait` to `helm install/upgrade`.
   * @default true for armada/Chart/v1, false for armada/Chart/v2
   */
  readonly enabled?: boolean | undefined;
}

/** `wait`: what "ready" means for this chart. */
export interface WaitOptions {
  /**
   * One budget for pre-upgrade actions, `helm install/upgrade` and the resource waits.
   * @default Duration.seconds(900) (or the deprecated chart `timeout`)
   */
  readonly timeout?: Duration | undefined;
  /**
   * Base label selector, merged into every resource's labels; also selects old test pods to delete.
   * @default - no labels (Armada then waits on every resource of each type in the namespace)
   */
  readonly labels?: Labels | undefined;
  /**
   * The resources to wait on. Omit it for Armada's default list; `[]` waits on nothing.
   * @default - v1: optional jobs, then required pods; v2: every type, each optional
   */
  readonly resources?: readonly WaitResource[] | undefined;
  /**
   * Helm's native `--wait`.
   * @default - v1: enabled; v2: disabled
   */
  readonly native?: NativeWaitOptions | undefined;
}

/** Resource kinds Armada deletes before an upgrade (`upgrade.pre.delete[].type`). */
export type HookActionType = 'job' | 'cronjob' | 'pod' | (string & {});

/** One item of `upgrade.pre.delete` (and of the deprecated v1 hook lists). */
export interface HookAction {
  /** `job` (v1 also deletes CronJobs), `cronjob` or `pod`. */
  readonly type: HookActionType;
  /**
   * Labels selecting what to delete.
   * @default - everything of that type in the namespace
   */
  readonly labels?: Labels | undefined;
  /**
   * v1 only: the resource name (used by the deprecated `pre.update`).
   * @default - not written
   */
  readonly name?: string | undefined;
}

/** `upgrade.pre`: actions before `helm upgrade`, on the upgrade path only. */
export interface PreUpgradeOptions {
  /**
   * Delete these resources before upgrading (e.g. Jobs whose specs are immutable).
   * @default - nothing is deleted
   */
  readonly delete?: readonly HookAction[] | undefined;
  /**
   * v1 only, deprecated and broken in Armada since Helm 3 (it recreated DaemonSets).
   * @default - not written
   */
  readonly update?: readonly HookAction[] | undefined;
  /**
   * v1 only: accepted by the schema, never implemented by Armada.
   * @default - not written
   */
  readonly create?: readonly HookAction[] | undefined;
}

/** `upgrade.post` (v1 only; Armada ignores it). */
export interface PostUpgradeOptions {
  /**
   * Ignored by Armada.
   * @default - not written
   */
  readonly create?: readonly HookAction[] | undefined;
}

/** `upgrade.options`. */
export interface UpgradeFlags {
  /**
   * `helm upgrade --force`.
   * @default false
   */
  readonly force?: boolean | undefined;
}

/** `upgrade`: applied only when Armada upgrades an existing release. */
export interface UpgradeOptions {
  /**
   * `helm upgrade --no-hooks` (v1: `upgrade.no_hooks`, v2: `upgrade.options.no_hooks`).
   * @default false
   */
  readonly noHooks?: boolean | undefined;
  /**
   * Actions before the upgrade.
   * @default - none
   */
  readonly pre?: PreUpgradeOptions | undefined;
  /**
   * v1 only; ignored by Armada.
   * @default - not written
   */
  readonly post?: PostUpgradeOptions | undefined;
  /**
   * Helm flags for the upgrade.
   * @default - none
   */
  readonly options?: UpgradeFlags | undefined;
}

/** `delete`: uninstalling a failed or stuck release before reinstalling it. */
export interface DeleteOptions {
  /**
   * Time limit for `helm uninstall`.
   * @default Duration.seconds(300)
   */
  readonly timeout?: Duration | undefined;
}

/**
 * The fields of an `armada/Chart` document that a definition states as they are: shared by the
 * construct props (`ChartProps`) and the resolved spec (`ChartSpec`).
 */
export interface ChartOptions {
  /**
   * The schema version of this chart's own `armada/Chart` document. Armada judges every document
   * by its own schema, so a v1 chart listed by a v2 manifest keeps the v1 rules: its wait
   * defaults, Helm's native wait, which pods the wait skips (only Job-owned ones) and the repeated
   * wait passes, and its v1-only fields (`chart_name`, `timeout`, `install`, ...).
   * @default - the manifest's schemaVersion
   */
  readonly schemaVersion?: SchemaVersion | undefined;
  /**
   * v1 `chart_name` (Armada does not read it; kept for round trips).
   * @default - the chart name
   */
  readonly chartName?: string | undefined;
  /**
   * What to do when Armada finds this release failed or stuck.
   * @default - not protected: Armada uninstalls and reinstalls it
   */
  readonly protected?: ProtectedOptions | undefined;
  /**
   * `helm test` after the wait. A boolean is the deprecated v1 form.
   * @default - enabled, 300 s
   */
  readonly test?: TestOptions | boolean | undefined;
  /**
   * What "ready" means.
   * @default - 900 s; v1: optional jobs then required pods, native wait on; v2: every type optional, native wait off
   */
  readonly wait?: WaitOptions | undefined;
  /**
   * Options applied only when Armada upgrades an existing release.
   * @default - no pre-upgrade actions, hooks run, no --force
   */
  readonly upgrade?: UpgradeOptions | undefined;
  /**
   * Uninstall of a failed release before reinstalling it.
   * @default - 300 s
   */
  readonly delete?: DeleteOptions | undefined;
  /**
   * v1 `install` block. Armada never reads it; accepted so that imported documents round trip.
   * @default - not written
   */
  readonly install?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Deprecated v1 chart timeout, used only when `wait.timeout` is not set.
   * @default - not written
   */
  readonly timeout?: Duration | undefined;
}

/** One `armada/Chart` document, resolved: references are chart names. */
export interface ChartSpec extends ChartOptions {
  /** `metadata.name`: the name other documents refer to. */
  readonly name: string;
  /** `release`, before the manifest's prefix. */
  readonly release: string;
  readonly namespace: string;
  readonly source: ChartSource;
  readonly values?: Readonly<Record<string, unknown>> | undefined;
  /** Subcharts by chart name; undefined keeps the chart's own `charts/`. */
  readonly dependencies?: readonly string[] | undefined;
  /** Beyond Armada: charts (by name) whose readiness this chart's deployment waits for. */
  readonly dependsOn: readonly string[];
  readonly origin: Origin;
}

/** One `armada/ChartGroup` document, resolved. */
export interface ChartGroupSpec {
  readonly name: string;
  /** The group document's own schema version; undefined means the manifest's. */
  readonly schemaVersion?: SchemaVersion | undefined;
  readonly description?: string | undefined;
  readonly sequenced?: boolean | undefined;
  /** v1 deprecated: default `test.enabled` for the group's charts. */
  readonly testCharts?: boolean | undefined;
  /** The unused `data.name` field of the document. */
  readonly displayName?: string | undefined;
  /** Chart names, in deployment order. */
  readonly charts: readonly string[];
  readonly origin: Origin;
}

/** One `armada/Manifest` document with every group and chart it can reach, resolved. */
export interface ManifestSpec {
  readonly name: string;
  readonly releasePrefix: string;
  readonly schemaVersion: SchemaVersion;
  /** Group names, in deployment order. */
  readonly chartGroups: readonly string[];
  /** Every group definition available to the manifest (listed or not). */
  readonly groups: readonly ChartGroupSpec[];
  /** Every chart definition available to the manifest (deployed, subchart-only or unused). */
  readonly charts: readonly ChartSpec[];
  readonly origin: Origin;
  /**
   * For names that are referenced but not defined in the manifest: where that name is defined,
   * when it is known (a construct outside the manifest), to make the message actionable.
   */
  readonly foreignDefinitions?: Readonly<Record<string, string>> | undefined;
}
