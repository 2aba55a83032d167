/**
 * armada-cdk/cdk8s: the cdk8s targets. Importing this module also makes every ArmadaManifest
 * created inside a `cdk8s.Chart` render itself as airship v1 ArmadaCharts into that chart, unless
 * an explicit output (ArmadaChartOutput, ArmadaDocuments) renders it instead.
 *
 * Inside this module `Chart` means Armada's; cdk8s's is always `cdk8s.Chart`.
 */
import * as cdk8s from 'cdk8s';
import { IConstruct } from 'constructs';
import { onManifestCreated } from '../constructs/armada-manifest';
import { AutomaticOutput } from './outputs';

export { ArmadaChartOutput, ArmadaDocuments } from './outputs';
export type { ArmadaChartOutputProps, ArmadaDocumentsProps, OutputProps, WarningHandler } from './outputs';
// The outputs' common base and what their `render()` returns, for a user who names "any output".
export type { ManifestOutput, Rendered } from './outputs';
export type { RenderedIdentity } from './rendered-object';
export { OperatorApi } from './operator-api';
export { KeleustesReleaseNaming } from '../model/wire/keleustes-v1alpha1';
export { FluxOutput } from './flux-output';
export type { FluxOutputProps } from './flux-output';
export type { FluxOptions } from '../model/wire/flux-v2';
export { HelmReleasePlacement } from '../model/wire/flux-v2';
export { ArmadaOperator } from './operator/armada-operator';
export type { ArmadaOperatorProps, OperatorProbe, OperatorRbac, OperatorResources, PodSecurityLevel, RoleEscalation } from './operator/armada-operator';
export { ResourceKinds } from './operator/resource-kinds';
export type { ChartRole, ChartRoleBinding, RenderedChart, RenderedChartOptions, ResourceKind } from './operator/resource-kinds';
export type { ChartContents } from './operator/resource-kinds';
// What `ArmadaOperator.permissions()` returns and `roleEscalation` takes.
export type { OperatorPermissions, RbacRule } from './operator/rbac';
export type { PolicyRule } from './operator/rbac-covers';

onManifestCreated((manifest) => {
  let inChart = false;
  for (let s: IConstruct | undefined = manifest.node.scope; s; s = s.node.scope) if (cdk8s.Chart.isChart(s)) inChart = true;
  if (inChart) new AutomaticOutput(manifest, 'armada-cdk-output', { manifest });
});
