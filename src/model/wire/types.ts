/**
 * The wire shapes of the operator custom resources this library writes, as TypeScript types: the
 * airship `armada.airshipit.org/v1` ArmadaChart `data`, and the keleustes
 * `armada.airshipit.org/v1alpha1` ArmadaChart, ArmadaChartGroup and ArmadaManifest `spec`.
 *
 * These interfaces are the one source of truth for the CRDs that armada-cdk installs: the CRD
 * generator turns them into apiextensions.k8s.io/v1 structural schemas (field docs become the
 * `description`s), so a field added here appears in the CRD, and a field the writers emit without
 * adding it here is pruned by the API server (the CRD tests catch that).
 *
 * Conventions the generator relies on:
 * - A property is required in the CRD when it is not optional here. Required means "the operator
 *   (or, for airship, armada-go that feeds it) cannot work without it", not "our writers always
 *   write it": CRs written by other tools must stay valid.
 * - `number` is a JSON number; `@integer` or `@format int32|int64` makes it an integer.
 * - `number | string` is `x-kubernetes-int-or-string`.
 * - A string enum or a union of string literals is an `enum`.
 * - `Record<string, unknown>` is a free-form object (`x-kubernetes-preserve-unknown-fields`);
 *   `Record<string, string>` is a map of strings.
 * - `@pattern`, `@format`, `@minimum`, `@minLength` and `@maxLength` are copied to the schema. In
 *   a pattern, write `*\/` for `*` followed by `/`, which would otherwise end the comment.
 *
 * Status types describe what the operators write (our writers never emit status); they mirror
 * the upstream CRDs so that the operators' status updates pass validation unchanged.
 */
import type { SourceType } from '../source';

/** Labels selecting Kubernetes objects (a label selector of equality terms). */
export type WireLabels = Readonly<Record<string, string>>;

// ---------------------------------------------------------------------------------------------
// airship armada-operator, armada.airshipit.org/v1
// ---------------------------------------------------------------------------------------------

/**
 * The specification of an ArmadaChart: one Helm release. The Helm release name is the object's
 * `metadata.name`; keep `metadata.namespace` equal to `namespace`.
 */
export interface AirshipArmadaChartData {
  /**
   * Name of the chart. The operator uses it only as the key of its network-policy workaround
   * (the `armada-gnp` ConfigMap) when a chart download times out.
   */
  readonly chart_name?: string;
  /**
   * The Armada release name before the manifest's prefix. The operator does not read it (the Helm
   * release is `metadata.name`); armada-go requires it.
   */
  readonly release: string;
  /**
   * Namespace of the release for upgrades, tests, waits, pre-upgrade deletes and uninstalls
   * (installs go to the object's own namespace, so keep the two equal).
   */
  readonly namespace: string;
  /** Where the chart comes from. */
  readonly source: AirshipChartSource;
  /** What to wait for after an install or upgrade. */
  readonly wait?: AirshipChartWait;
  /** Helm tests after the wait. */
  readonly test?: AirshipChartTest;
  /** Actions before an upgrade. */
  readonly upgrade?: AirshipChartUpgrade;
  /** Helm values for the release, free-form (passed to Helm as written). */
  readonly values?: Readonly<Record<string, unknown>>;
}

/** A chart tarball location. */
export interface AirshipChartSource {
  /**
   * The Armada source type. The operator ignores it and always downloads `location` as an
   * HTTP(S) chart tarball.
   */
  readonly type?: SourceType;
  /** URL of the chart tarball (`.tgz`), downloaded by the operator over HTTP(S). */
  readonly location: string;
  /** Directory of the chart inside the tarball (ignored by the operator). */
  readonly subpath?: string;
}

/** Resource waits after an install or upgrade. */
export interface AirshipChartWait {
  /**
   * Seconds to wait for the whole release; 0 means the operator's default of 900. Native Helm
   * waits only apply when it is greater than 0.
   * @integer
   */
  readonly timeout?: number;
  /** Labels added to the selector of every wait resource. */
  readonly labels?: WireLabels;
  /**
   * Kinds of objects to wait for. When absent the operator waits for jobs and pods; an empty list
   * waits for nothing.
   */
  readonly resources?: readonly AirshipChartWaitResource[];
  /** Helm's own wait (`helm install --wait`). */
  readonly native?: AirshipChartWaitNative;
}

/** One kind of object to wait for. */
export interface AirshipChartWaitResource {
  /**
   * The kind, singular and lowercase: job, pod, deployment, daemonset, statefulset, armadachart,
   * installation or tigerastatus.
   */
  readonly type: string;
  /** Labels selecting the objects, added to the wait's labels. */
  readonly labels?: WireLabels;
  /**
   * For controllers: how many pods must be ready, as a count ("2") or a percentage ("80%").
   * @pattern ^[0-9]+%?$
   */
  readonly min_ready?: string;
  /**
   * Namespace of the objects (the operator's default: `data.namespace`). Not written by
   * armada-cdk; kept so that ArmadaCharts written by other tools keep it.
   */
  readonly namespace?: string;
  /** Accepted and unused by the operator. Not written by armada-cdk. */
  readonly condition?: string;
  /**
   * Seconds the operator sleeps before this wait. Not written by armada-cdk.
   * @integer
   */
  readonly delay?: number;
}

/** Helm's own wait. */
export interface AirshipChartWaitNative {
  /** Whether Helm waits for the release's objects itself. */
  readonly enabled?: boolean;
}

/** Helm tests. */
export interface AirshipChartTest {
  /** Whether `helm test` runs after the wait. */
  readonly enabled?: boolean;
}

/** Upgrade options. */
export interface AirshipChartUpgrade {
  /** Actions before the upgrade. */
  readonly pre?: AirshipChartPreUpgrade;
}

/** Actions before an upgrade. */
export interface AirshipChartPreUpgrade {
  /** Objects deleted (foreground) before the upgrade. */
  readonly delete?: readonly AirshipChartDeleteResource[];
  /** Uninstall, then install, instead of upgrading. Not written by armada-cdk (Armada has no such option). */
  readonly cleanup?: boolean;
  /** Replace the CRDs from the chart's crds/ before the upgrade. Not written by armada-cdk. */
  readonly update_crd?: boolean;
}

/** Objects to delete before an upgrade. */
export interface AirshipChartDeleteResource {
  /** The kind: job (the default when empty), pod, cronjob or deployment. */
  readonly type?: string;
  /** Labels selecting the objects. */
  readonly labels?: WireLabels;
}

/** The observed state of an ArmadaChart, written by the operator. */
export interface AirshipArmadaChartStatus {
  /**
   * The last observed generation.
   * @format int64
   */
  readonly observedGeneration?: number;
  /** Conditions of the ArmadaChart; the operator sets `Ready`. */
  readonly conditions?: readonly AirshipCondition[];
  /** Status of the Helm release (deployed, failed, pending-install, ...). */
  readonly helmStatus?: string;
  /** Whether the release's resources were waited for. */
  readonly waitCompleted?: boolean;
  /** Whether the release was tested. */
  readonly tested?: boolean;
  /**
   * Reconciliation failures against the latest desired state; reset after a success.
   * @format int64
   */
  readonly failures?: number;
  /**
   * Install failures against the latest desired state; reset after a success.
   * @format int64
   */
  readonly installFailures?: number;
  /**
   * Upgrade failures against the latest desired state; reset after a success.
   * @format int64
   */
  readonly upgradeFailures?: number;
  /** URL of the chart of the last reconciliation attempt. */
  readonly lastAttemptedChartSource?: string;
  /** SHA1 checksum of the values of the last reconciliation attempt. */
  readonly lastAttemptedValuesChecksum?: string;
}

/** A standard Kubernetes condition (metav1.Condition). */
export interface AirshipCondition {
  /**
   * Type of the condition, in CamelCase or in foo.example.com/CamelCase.
   * @maxLength 316
   * @pattern ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$
   */
  readonly type: string;
  /** Status of the condition: True, False or Unknown. */
  readonly status: 'True' | 'False' | 'Unknown';
  /**
   * The `metadata.generation` the condition was set for.
   * @format int64
   * @minimum 0
   */
  readonly observedGeneration?: number;
  /**
   * When the condition last changed status.
   * @format date-time
   */
  readonly lastTransitionTime: string;
  /**
   * A programmatic identifier of the reason for the last transition, in CamelCase.
   * @maxLength 1024
   * @minLength 1
   * @pattern ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$
   */
  readonly reason: string;
  /**
   * A human readable message about the transition.
   * @maxLength 32768
   */
  readonly message: string;
}

// ---------------------------------------------------------------------------------------------
// keleustes armada-operator, armada.airshipit.org/v1alpha1
// ---------------------------------------------------------------------------------------------

/** The specification of an ArmadaChart: one Helm release, installed into the object's namespace. */
export interface KeleustesArmadaChartSpec {
  /** Name of the chart (not used by the operator). */
  readonly chart_name: string;
  /** Helm release name, used as is (the operator adds no prefix). */
  readonly release: string;
  /** Namespace of the chart (ignored: the release goes into the object's namespace). */
  readonly namespace?: string;
  /**
   * Seconds allotted for the chart to deploy (deprecated).
   * @integer
   */
  readonly timeout?: number;
  /** What to wait for (not used by the operator). */
  readonly wait?: KeleustesChartWait;
  /** Helm tests (not used by the operator). */
  readonly test?: KeleustesChartTest;
  /** Whether a failed release is kept (not used by the operator). */
  readonly protected?: KeleustesChartProtected;
  /** Upgrade options (not used by the operator). */
  readonly upgrade?: KeleustesChartUpgrade;
  /** Delete options (not used by the operator). */
  readonly delete?: KeleustesChartDelete;
  /** Where the chart comes from. */
  readonly source: KeleustesChartSource;
  /**
   * Subcharts. When the list is not empty, the operator copies its bundled helm-toolkit into the
   * chart's `charts/` directory; the names are not read.
   */
  readonly dependencies: readonly string[];
  /**
   * Helm values for the release. Stored as written, but the operator decodes them into its typed
   * OpenStack-Helm values struct, which drops every key it does not know (about 33 top-level
   * keys reach Helm).
   */
  readonly values?: Readonly<Record<string, unknown>>;
  /**
   * The state to reach: `uninitialized` (wait for the group or manifest to enable it) or
   * `deployed`.
   */
  readonly target_state: string;
  /**
   * Revisions kept in the object's history (not used by the operator).
   * @format int32
   */
  readonly revisionHistoryLimit?: number;
}

/** Where a chart comes from. */
export interface KeleustesChartSource {
  /** The source type: a directory inside the operator image, a tarball URL or a git repository. */
  readonly type: SourceType;
  /** The path, tarball URL or git repository URL. */
  readonly location: string;
  /** Directory of the chart inside the source. */
  readonly subpath: string;
  /** Git branch, tag or commit. */
  readonly reference?: string;
  /** Proxy for the download. */
  readonly proxy_server?: string;
  /** Git authentication method: ssh or http. */
  readonly auth_method?: string;
}

/** Resource waits. */
export interface KeleustesChartWait {
  /**
   * Seconds to wait for the chart to deploy.
   * @format int64
   */
  readonly timeout?: number;
  /** Labels added to every wait resource. */
  readonly labels?: WireLabels;
  /** Kinds of objects to wait for. */
  readonly resources?: readonly KeleustesChartWaitResource[];
  /** Helm's own wait. */
  readonly native?: KeleustesChartWaitNative;
}

/** One kind of object to wait for. */
export interface KeleustesChartWaitResource {
  /** The kind: deployment, daemonset, statefulset, pod or job. */
  readonly type: string;
  /** Labels selecting the objects. */
  readonly labels?: WireLabels;
  /**
   * For controllers: how many pods must be ready (a count; this CRD has no percentages).
   * @integer
   */
  readonly min_ready?: number;
}

/** Helm's own wait. */
export interface KeleustesChartWaitNative {
  /** Whether Helm waits for the release's objects itself. */
  readonly enabled?: boolean;
}

/** Helm tests. */
export interface KeleustesChartTest {
  /** Whether tests run. */
  readonly enabled?: boolean;
  /**
   * Seconds allotted to the tests.
   * @format int64
   */
  readonly timeout?: number;
  /** Test options. */
  readonly options?: KeleustesChartTestOptions;
}

/** Test options. */
export interface KeleustesChartTestOptions {
  /** Whether test pods are deleted after the run. */
  readonly cleanup?: boolean;
}

/** Protection of a failed release. */
export interface KeleustesChartProtected {
  /** Whether processing continues after a protected release failed. */
  readonly continue_processing?: boolean;
}

/** Upgrade options. */
export interface KeleustesChartUpgrade {
  /** Whether Helm hooks are skipped during the upgrade. */
  readonly no_hooks: boolean;
  /** Helm upgrade flags. */
  readonly options?: KeleustesChartUpgradeOptions;
  /** Actions before the upgrade. */
  readonly pre?: KeleustesChartPreUpgrade;
  /** Actions after the upgrade. */
  readonly post?: KeleustesChartPostUpgrade;
}

/** Helm upgrade flags. */
export interface KeleustesChartUpgradeOptions {
  /** Whether the upgrade forces resource updates. */
  readonly force?: boolean;
  /** Whether the release's pods are restarted on upgrade (not used by the operator). */
  readonly recreate_pods?: boolean;
}

/** Actions before an upgrade. */
export interface KeleustesChartPreUpgrade {
  /** Objects deleted before the upgrade. */
  readonly delete?: readonly KeleustesHookAction[];
  /** Objects updated before the upgrade. */
  readonly update?: readonly KeleustesHookAction[];
  /** Objects created before the upgrade. */
  readonly create?: readonly KeleustesHookAction[];
}

/** Actions after an upgrade. */
export interface KeleustesChartPostUpgrade {
  /** Objects created after the upgrade. */
  readonly create?: readonly KeleustesHookAction[];
}

/** One hook action. */
export interface KeleustesHookAction {
  /** Name of the object. */
  readonly name?: string;
  /** The kind: job, cronjob or pod. */
  readonly type: string;
  /** Labels selecting the objects. */
  readonly labels?: WireLabels;
}

/** Delete options. */
export interface KeleustesChartDelete {
  /**
   * Seconds to wait for the chart to be deleted.
   * @format int64
   */
  readonly timeout?: number;
}

/** The specification of an ArmadaChartGroup: ArmadaCharts of the group's namespace, enabled in order. */
export interface KeleustesArmadaChartGroupSpec {
  /** Name of the group (free text). */
  readonly name?: string;
  /** Description of the group (free text). */
  readonly description?: string;
  /** Whether the charts are enabled one at a time, in list order. */
  readonly sequenced?: boolean;
  /** Whether the group's charts are tested (deprecated). */
  readonly test_charts?: boolean;
  /** `metadata.name`s of the ArmadaCharts of the group, in the group's namespace. */
  readonly chart_group: readonly string[];
  /** The state to reach: `uninitialized` (wait for the manifest) or `deployed`. */
  readonly target_state: string;
  /**
   * Revisions kept in the object's history (not used by the operator).
   * @format int32
   */
  readonly revisionHistoryLimit?: number;
}

/** The specification of an ArmadaManifest: ArmadaChartGroups of its namespace, enabled in order. */
export interface KeleustesArmadaManifestSpec {
  /** Prefix of the Helm releases (not used by the operator). */
  readonly release_prefix: string;
  /** `metadata.name`s of the ArmadaChartGroups, in the manifest's namespace, enabled in order. */
  readonly chart_groups: readonly string[];
  /** The state to reach: `deployed`. */
  readonly target_state: string;
  /**
   * Revisions kept in the object's history (not used by the operator).
   * @format int32
   */
  readonly revisionHistoryLimit?: number;
}

/** The observed state of a keleustes Armada object, written by the operator. */
export interface KeleustesStatus {
  /** The state reached (uninitialized, deployed, failed, pending, running, error, ...). */
  readonly actual_state: string;
  /** Whether the actual state satisfies the target state. */
  readonly satisfied: boolean;
  /** The reason for the last failure. */
  readonly reason?: string;
  /** Conditions of the object. */
  readonly conditions?: readonly KeleustesCondition[];
}

/** One condition of a keleustes Armada object. */
export interface KeleustesCondition {
  /** Type of the condition (Initializing, Running, Deployed, Failed, ...). */
  readonly type: string;
  /** Status of the condition: True, False or Unknown. */
  readonly status: string;
  /** Reason of the last transition. */
  readonly reason?: string;
  /** Message about the last transition. */
  readonly message?: string;
  /** Name of the Helm release or object the condition is about. */
  readonly resourceName?: string;
  /**
   * Revision of the Helm release the condition is about.
   * @format int32
   */
  readonly resourceVersion?: number;
  /**
   * When the condition last changed.
   * @format date-time
   */
  readonly lastTransitionTime?: string;
}
