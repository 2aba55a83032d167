/**
 * Whether the operator may create everything its charts contain, by Kubernetes' rules: each
 * object needs create (and Helm's upgrade and uninstall verbs) on its kind; a Role or ClusterRole
 * needs every permission it grants to be held already (or `escalate` on it); a binding needs the
 * bound role's permissions held in the binding's scope (or `bind` on that role). Namespaced
 * permissions come from the operator's Role in that namespace plus its ClusterRole; cluster ones
 * from the ClusterRole only. Pure.
 */
import { covers, describePermission, PolicyRule } from './rbac-covers';
import type { RenderedChart } from './resource-kinds';

/** What the operator holds: rules per namespace and cluster-wide. */
export interface HeldRules {
  /** Rules of the Roles bound in a namespace (ClusterRole rules are added by the check). */
  readonly namespaced: (namespace: string) => readonly PolicyRule[];
  readonly cluster: readonly PolicyRule[];
}

/** One chart, installed into a namespace, and what it contains. */
export interface ChartInstall {
  readonly chart: string;
  readonly namespace: string;
  readonly contents: Pick<RenderedChart, 'kinds' | 'roles' | 'bindings'>;
}

/** One object of a chart the operator could not create, and the permissions it lacks. */
export interface EscalationFinding {
  readonly chart: string;
  /** `Role openstack/name`, `ClusterRole name`, `kind apps/deployments in openstack`. */
  readonly object: string;
  /** Broken-down permissions, `get extensions/services`. */
  readonly missing: readonly string[];
}

const RBAC = 'rbac.authorization.k8s.io';
/** What Helm does with each object of a release over its life. */
const HELM_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/** Every object of the charts the held rules do not let the operator create, in chart order. */
export function escalationFindings(held: HeldRules, charts: readonly ChartInstall[]): EscalationFinding[] {
  const out: EscalationFinding[] = [];
  const inNamespace = (ns: string) => [...held.namespaced(ns), ...held.cluster];
  const lacks = (rules: readonly PolicyRule[], wanted: readonly PolicyRule[]) => covers(rules, wanted).uncovered.map(describePermission);
  const holds = (rules: readonly PolicyRule[], verb: string, resource: string, name: string) => covers(rules, [{ apiGroups: [RBAC], resources: [resource], verbs: [verb], resourceNames: [name] }]).covered;
  for (const { chart, namespace, contents } of charts) {
    const report = (object: string, missing: string[]) => {
      if (missing.length > 0) out.push({ chart, object, missing });
    };
    for (const k of contents.kinds) {
      const scope = k.clusterScoped ? held.cluster : inNamespace(namespace);
      report(`kind ${k.apiGroup === '' ? '' : `${k.apiGroup}/`}${k.resource}${k.clusterScoped ? '' : ` in ${namespace}`}`, lacks(scope, [{ apiGroups: [k.apiGroup], resources: [k.resource], verbs: HELM_VERBS }]));
    }
    for (const role of contents.roles) {
      const ns = role.namespace ?? namespace;
      const scope = role.kind === 'Role' ? inNamespace(ns) : held.cluster;
      if (holds(scope, 'escalate', role.kind === 'Role' ? 'roles' : 'clusterroles', role.name)) continue;
      report(role.kind === 'Role' ? `Role ${ns}/${role.name}` : `ClusterRole ${role.name}`, lacks(scope, role.rules));
    }
    for (const b of contents.bindings) {
      const ns = b.namespace ?? namespace;
      const scope = b.kind === 'RoleBinding' ? inNamespace(ns) : held.cluster;
      const object = b.kind === 'RoleBinding' ? `RoleBinding ${ns}/${b.name}` : `ClusterRoleBinding ${b.name}`;
      const resource = b.roleRef.kind === 'Role' ? 'roles' : 'clusterroles';
      if (holds(scope, 'bind', resource, b.roleRef.name)) continue;
      const bound = contents.roles.find((r) => r.kind === b.roleRef.kind && r.name === b.roleRef.name);
      // A role from outside the chart: its rules are unknown, so only `bind` on it will do.
      report(object, bound ? lacks(scope, bound.rules) : [`bind ${RBAC}/${resource}[${b.roleRef.name}]`]);
    }
  }
  return out;
}

/** One line per finding: what the operator lacks to create which object of which chart. */
export function describeFinding(f: EscalationFinding): string {
  return `chart ${JSON.stringify(f.chart)}: ${f.object}: the operator lacks ${f.missing.join(', ')}; Kubernetes refuses to let it create an object granting more than it holds, so the install fails with Forbidden`;
}

type Obj = Record<string, any>;

/**
 * The rules a ServiceAccount holds through the RBAC objects of a bundle (rendered YAML): Roles
 * and ClusterRoles bound to it by RoleBindings per namespace, ClusterRoles by
 * ClusterRoleBindings; a binding to `cluster-admin` holds everything.
 */
export function heldByServiceAccount(objects: readonly Obj[], account: { readonly namespace: string; readonly name: string }): HeldRules {
  const boundTo = (o: Obj) => (o.subjects ?? []).some((s: Obj) => s.kind === 'ServiceAccount' && s.name === account.name && s.namespace === account.namespace);
  const rulesOf = (kind: string, name: string, namespace?: string): PolicyRule[] => {
    if (kind === 'ClusterRole' && name === 'cluster-admin') return [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }];
    const role = objects.find((o) => o.kind === kind && o.metadata?.name === name && o.metadata?.namespace === namespace);
    return (role?.rules ?? []) as PolicyRule[];
  };
  const cluster = objects.filter((o) => o.kind === 'ClusterRoleBinding' && boundTo(o)).flatMap((b) => rulesOf('ClusterRole', b.roleRef.name));
  const namespaced = (ns: string) =>
    objects
      .filter((o) => o.kind === 'RoleBinding' && o.metadata?.namespace === ns && boundTo(o))
      .flatMap((b) => (b.roleRef.kind === 'Role' ? rulesOf('Role', b.roleRef.name, ns) : rulesOf('ClusterRole', b.roleRef.name)));
  return { namespaced, cluster };
}
