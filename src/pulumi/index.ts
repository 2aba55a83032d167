/**
 * armada-cdk/pulumi: deploy an ArmadaManifest with `pulumi up`, with Armada's ordering, waits,
 * tests and pre-upgrade deletes. Loads `@pulumi/pulumi` and `@pulumi/kubernetes`; the readiness
 * gate also needs `@kubernetes/client-node` at deployment time.
 */
export { ManifestDeployment, ChartGroupDeployment, ChartDeployment, releaseFingerprint } from './manifest-deployment';
export type { ManifestDeploymentArgs, ChartDeploymentArgs } from './manifest-deployment';
export { releaseInputs, unsupportedFields, HELM_CLI_MAX_HISTORY } from './release-args';
export type { ReleaseInputs } from './release-args';
export { layoutDeployment, previousPath, previousKey } from './layout';
export type { ChartUnit, GroupListing, DeploymentLayout } from './layout';
export { chartResolver, prepareCharts, publishChart, needsRefresh, ChartPreparationError } from './chart-resolver';
export type { ChartResolverOptions, ResolveChart } from './chart-resolver';
export { ReadinessGate } from './readiness-gate';
export type { ReadinessGateArgs } from './readiness-gate';
export type { GateTarget, GateInputs, GateState, TestRecord, WaitSummary } from './readiness-gate-run';
export { PreUpgradeDelete } from './pre-upgrade-delete';
export type { PreUpgradeDeleteArgs } from './pre-upgrade-delete';
export type { DeleteAction, PreDeleteTarget } from './pre-upgrade-delete-run';
export type { TestTarget } from './helm-test-run';
export type { ClusterInputs } from './provider-support';
// What a user meets when a deployment fails or is configured: the gate's timeout error and the
// chart source errors, and where the chart cache lives.
export { ReadinessTimeoutError } from './readiness';
export type { NotReadyResource } from './readiness';
export { ChartSourceError, defaultCacheDir } from './sources';
export type { ChartSourceErrorCode, ResolveChartSourceOptions } from './sources';
