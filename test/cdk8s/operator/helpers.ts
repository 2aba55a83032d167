import * as cdk8s from 'cdk8s';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, WaitResource } from '../../../src';
import { ArmadaOperator, ArmadaOperatorProps } from '../../../src/cdk8s';
import { Diagnostic } from '../../../src/model/diagnostics';

/**
 * Synthesizes an ArmadaOperator alone in a chart; returns its objects, in file order, the CRDs
 * and the release namespaces written beside it, and the warnings.
 */
export function synthOperator(props: Omit<ArmadaOperatorProps, 'onWarning'> = {}) {
  const warnings: Diagnostic[] = [];
  const app = new cdk8s.App();
  const chart = new cdk8s.Chart(app, 'operator');
  const operator = new ArmadaOperator(chart, 'armada-operator', { ...props, onWarning: (w) => warnings.push(w) });
  const objects = cdk8s.Testing.synth(chart) as any[];
  const namespaces = operator.releaseNamespaceChart ? (cdk8s.Testing.synth(operator.releaseNamespaceChart) as any[]) : [];
  const crds = cdk8s.Testing.synth(operator.crdChart) as any[];
  return { objects, warnings, operator, namespaces, crds };
}

/** `kind namespace/name` of each object, in order. */
export const ids = (objects: readonly any[]) => objects.map((o) => `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`);

/** Rules as one line each: `group resources[names]: verbs`, for exact, readable assertions. */
export function ruleLines(role: any): string[] {
  return role.rules.map((r: any) => `${r.apiGroups.map((g: string) => g || 'core').join(',')} ${r.resources.join(',')}${r.resourceNames?.length ? `[${r.resourceNames.join(',')}]` : ''}: ${r.verbs.join(',')}`);
}

/** Every Role and ClusterRole of a bundle, by `kind namespace/name`, as rule lines. */
export function rbacOf(objects: readonly any[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const o of objects) if (o.kind === 'Role' || o.kind === 'ClusterRole') out[ids([o])[0]] = ruleLines(o);
  return out;
}

export const MANAGE = 'get,list,watch,create,update,patch,delete';

/** A keleustes-expressible site (one namespace) with a local chart that has dependencies. */
export function keleustesSite(namespace = 'openstack') {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'armada' });
  const htk = new Chart(site, 'helm-toolkit', { namespace, source: ChartSource.local('/opt/armada/helm-charts/helm-toolkit') });
  const infra = new ChartGroup(site, 'infra', { sequenced: true });
  new Chart(infra, 'mariadb', {
    namespace,
    source: ChartSource.local('/opt/armada/helm-charts/mariadb'),
    dependencies: [htk],
    wait: { timeout: Duration.minutes(15), resources: [WaitResource.statefulSet()] },
  });
  new Chart(infra, 'memcached', { namespace, source: ChartSource.git('https://opendev.org/openstack/openstack-helm-infra', { subpath: 'memcached' }) });
  return site;
}
