/**
 * armada-cdk/cdk8s: the cdk8s targets. Importing this module also makes every ArmadaManifest
 * created inside a `cdk8s.Chart` render itself as airship v1 ArmadaCharts into that chart, unless
 * an explicit output (ArmadaChartOutput, ArmadaDocuments) renders it instead.
 *
 * Inside this module `Chart` means Armada's; cdk8s's is always `cdk8s.Chart`.
 */
import * as cdk8s from 'cdk8s';
import { IConstruct } from 'constructs';
import { onManifestCreated } from '../constructs/registry';
import { AutomaticOutput } from './outputs';

export { ArmadaChartOutput, ArmadaDocuments } from './outputs';
export { OperatorApi } from './operator-api';
export type { ArmadaChartOutputProps, ArmadaDocumentsProps, OutputProps, WarningHandler } from './outputs';
export { KeleustesReleaseNaming } from '../model/wire/keleustes-v1alpha1';
export { RenderedObject } from './rendered-object';
export * from './flux-output';
export { ArmadaOperator } from './operator/armada-operator';
export type { ArmadaOperatorProps, OperatorProbe, OperatorRbac, OperatorResources, PodSecurityLevel } from './operator/armada-operator';
export { ResourceKinds } from './operator/resource-kinds';
export type { ChartRole, ChartRoleBinding, RenderedChart, RenderedChartOptions, ResourceKind } from './operator/resource-kinds';
export type { ChartContents } from './operator/releases';
export { describeFinding, escalationFindings, heldByServiceAccount } from './operator/escalation';
export type { ChartInstall, EscalationFinding, HeldRules } from './operator/escalation';
export { covers } from './operator/rbac-covers';
export type { PolicyRule } from './operator/rbac-covers';
export { operatorCrds } from './operator/crds';
export type { CustomResourceDefinitionJson } from './operator/crds';
export type { OperatorPermissions, RbacRule, RoleEscalation } from './operator/rbac';
export type { RenderedIdentity } from './rendered-object';

onManifestCreated((manifest) => {
  let inChart = false;
  for (let s: IConstruct | undefined = manifest.node.scope; s; s = s.node.scope) if (cdk8s.Chart.isChart(s)) inChart = true;
  if (inChart) new AutomaticOutput(manifest, 'armada-cdk-output', { manifest });
});
