/**
 * armada-cdk/cdk8s: the cdk8s targets. A manifest renders through the outputs added for it
 * (ArmadaChartOutput, ArmadaDocuments, FluxOutput, or a ManifestOutput of your own), as a
 * cdk8s-plus construct renders what it is given: importing this module registers nothing.
 *
 * Inside this module `Chart` means Armada's; cdk8s's is always `cdk8s.Chart`.
 */
export { ArmadaChartOutput, ArmadaDocuments, ManifestOutput } from './outputs';
export type { ArmadaChartOutputProps, ArmadaDocumentsProps, OutputProps, Rendered, RenderedManifestObject, WarningHandler } from './outputs';
export type { RenderedIdentity } from './rendered-object';
export { OperatorApi } from './operator-api';
export { KeleustesReleaseNaming } from '../model/wire/keleustes-v1alpha1';
export { FluxLayout, FluxOutput } from './flux-output';
export type { FluxOutputProps } from './flux-output';
export type { FluxDirectory, FluxDirectoryFile, SecretPlaceholder } from '../model/wire/flux-gitops';
export type { FluxOptions } from '../model/wire/flux-v2';
export { ChartPackagingError, packageFluxCharts } from '../chart-repository/package-charts';
export type { ChartPackagingFailure, ChartRepositoryFile, PackageChartsOptions, PackagedCharts } from '../chart-repository/package-charts';
export type { PackagedChartRef, PackagedChartRepository } from '../model/wire/flux-packaged';
export type { SubchartOutcome } from '../model/wire/flux-subcharts';
export { checkFluxSubcharts } from '../chart-repository/subchart-outcome';
export type { SubchartCheckOptions } from '../chart-repository/subchart-outcome';
export { HelmReleasePlacement } from '../model/wire/flux-v2';
export { ArmadaOperator } from './operator/armada-operator';
export { OperatorRbac, PodSecurityLevel, ReleaseNamespaceOutput, RoleEscalation } from './operator/armada-operator';
export type { ArmadaOperatorProps, OperatorProbe, OperatorResources } from './operator/armada-operator';
export { ResourceKinds } from './operator/resource-kinds';
export type { ChartRole, ChartRoleBinding, RenderedChart, RenderedChartOptions, ResourceKind } from './operator/resource-kinds';
export type { ChartContents } from './operator/resource-kinds';
// What `ArmadaOperator.permissions()` returns and `roleEscalation` takes.
export type { OperatorPermissions, RbacRule } from './operator/rbac';
export type { PolicyRule } from './operator/rbac-covers';
