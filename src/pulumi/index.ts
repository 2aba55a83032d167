/**
 * armada-cdk/pulumi: deploy an ArmadaManifest with `pulumi up`, with Armada's ordering, waits,
 * tests and pre-upgrade deletes. Loads `@pulumi/pulumi` and `@pulumi/kubernetes`; the readiness
 * gate also needs `@kubernetes/client-node` at deployment time.
 *
 * The layout, release arguments, chart preparation and the dynamic providers are internal: a
 * program needs the component, its arguments and what it exposes.
 */
export { ManifestDeployment } from './resources/manifest-deployment';
export type { ManifestDeploymentArgs } from './resources/manifest-deployment';
export type { ChartResolverOptions, ResolveChart } from './chart-resolver';
// `ManifestDeployment.readinessGates` holds these; the deployment creates them.
export type { ReadinessGate, ReadinessGateArgs } from './resources/readiness-gate';
export type { GateTarget } from './provider/readiness-gate-run';
export type { TestTarget } from './provider/helm-test-run';
export type { ClusterInputs, ReleaseState } from './provider/provider-support';
// What a user meets when chart sources fail or are configured, and where the chart cache lives.
export { ChartSourceError, defaultCacheDir } from './sources';
export type { CacheOptions, ChartSourceErrorCode, ResolveChartSourceOptions } from './sources';
// A Pegleg site as an ArmadaManifest whose secret values are Pulumi secrets.
export { loadPeglegSite } from './pegleg-site';
