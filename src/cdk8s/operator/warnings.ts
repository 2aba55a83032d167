/** What synthesis warns about a bundle: broad RBAC, sensitive namespaces, guessed kinds, escalation. */
import type { DiagnosticCode } from '../../model/codes';
import type { Diagnostic } from '../../model/diagnostics';
import { machineryNamespace } from '../../model/system-namespaces';
import type { ReleaseAccess } from './operator-profile';
import { OperatorRbac, RoleEscalation } from './props';
import { ResourceKind, ResourceKinds } from './resource-kinds';

/** The options the warnings depend on. */
export interface WarningOptions {
  readonly location: string;
  readonly mode: OperatorRbac;
  readonly sensitiveNamespaces?: readonly string[] | undefined;
  readonly defaultResourceKinds?: readonly ResourceKind[] | undefined;
  readonly roleEscalation?: RoleEscalation | undefined;
}

export function bundleWarnings(o: WarningOptions, releases: readonly ReleaseAccess[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const warn = (code: DiagnosticCode, message: string) => out.push({ severity: 'warning', location: o.location, message, code });
  const list = (xs: readonly string[]) => [...new Set(xs)].map((x) => JSON.stringify(x)).join(', ');
  if (o.mode === OperatorRbac.CLUSTER_ADMIN) {
    warn(
      'cluster-admin',
      'rbac "cluster-admin" binds the operator to cluster-admin: anyone who can create an ArmadaChart, or reach the operator\'s pod or token, controls the whole cluster; prefer the least-privilege default (give the manifest)',
    );
  }
  if (o.mode === OperatorRbac.CLUSTER_WIDE) {
    warn(
      'cluster-wide',
      'rbac "cluster-wide" grants Secrets, ServiceAccounts, Roles and workloads in every namespace, kube-system included: anyone who can create an ArmadaChart can read every Secret and act as any ServiceAccount of the cluster, close to cluster-admin; prefer the least-privilege default (give the manifest, or releaseNamespaces)',
    );
  }
  const marked = new Set(o.sensitiveNamespaces ?? []);
  const inSensitive = releases.filter((r) => machineryNamespace(r.namespace) !== undefined || marked.has(r.namespace));
  for (const ns of [...new Set(inSensitive.map((r) => r.namespace))]) {
    const charts = inSensitive.filter((r) => r.namespace === ns).map((r) => r.chart);
    const machinery = machineryNamespace(ns);
    warn(
      'sensitive-namespace',
      `${charts[0] === '*' ? 'releases' : `charts ${list(charts)}`} install into namespace ${JSON.stringify(ns)}: the operator gets Secrets, ServiceAccounts and Roles there, which in ${machinery ? `${ns} (${machinery})` : 'a namespace marked sensitive'} is close to cluster-admin for anyone who can create an ArmadaChart; move those releases to a namespace of their own`,
    );
  }
  const guessed = releases.filter((r) => r.helmToolkitRoles).map((r) => r.chart);
  if (guessed.length > 0 && o.mode === OperatorRbac.LEAST_PRIVILEGE) {
    warn(
      'default-kinds',
      `${guessed[0] === '*' ? 'every release uses' : `charts ${list(guessed)} use`} the default kind list, a guess of what an OpenStack-Helm chart creates: ${kindList(o.defaultResourceKinds ?? ResourceKinds.HELM_RELEASE)}, and helm-toolkit's dependency-check Roles (get, list on daemonsets, endpoints, jobs, pods, secrets, services); anything else they create (a ClusterRole, a CRD, another kind, a Role with other rules) fails to install with Forbidden; read each chart rendered with resourceKinds: { chart: ResourceKinds.fromRenderedChart('rendered/chart.yaml') }`,
    );
  }
  if (o.roleEscalation === RoleEscalation.ESCALATE) {
    warn(
      'role-escalation',
      `roleEscalation "escalate" grants escalate and bind on roles in ${list(releases.map((r) => r.namespace))}: anyone who can create an ArmadaChart can grant any permission within those namespaces; the default ("hold") grants only the rules the charts' Roles contain`,
    );
  }
  const external = releases.flatMap((r) => (r.bindings ?? []).filter((b) => !(r.roles ?? []).some((x) => x.kind === b.roleRef.kind && x.name === b.roleRef.name)).map((b) => `${r.chart}: ${b.kind} ${b.name} -> ${b.roleRef.kind} ${b.roleRef.name}`));
  if (external.length > 0 && o.roleEscalation !== RoleEscalation.ESCALATE) {
    warn('bind', `bindings to roles their chart does not contain get bind on exactly those roles (their rules are unknown here, and the operator would otherwise have to hold them): ${external.join('; ')}`);
  }
  return out;
}

function kindList(kinds: readonly ResourceKind[]): string {
  return kinds.map((k) => `${k.apiGroup === '' ? '' : `${k.apiGroup}/`}${k.resource}`).join(', ');
}
