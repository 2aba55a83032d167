/** The operator's permissions as Roles, ClusterRoles and their bindings to its ServiceAccount. */
import * as cdk8s from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import type { ClusterRole, IClusterRole, IRole, Role } from 'cdk8s-plus-28';
import type { Cdk8sPlus } from './cdk8s-plus';
import { OperatorRbac } from './props';
import type { OperatorPermissions, RbacRule } from './rbac';

/** Where the objects go and whom they bind. */
export interface RbacObjectsScope {
  readonly kplus: Cdk8sPlus;
  /** The construct the objects are created in (their place in the file). */
  readonly scope: Construct;
  readonly subject: InstanceType<Cdk8sPlus['ServiceAccount']>;
  readonly name: string;
  readonly namespace: string;
  readonly labels: Record<string, string>;
}

/**
 * Creates the RBAC objects: leader election, one Role per namespace, one ClusterRole, or the
 * binding to `cluster-admin`. Cluster-scoped names get the namespace appended, so that two
 * bundles in two namespaces do not collide. Returns what was created.
 */
export function createRbacObjects(at: RbacObjectsScope, mode: OperatorRbac, perms: OperatorPermissions): IConstruct[] {
  const { kplus, scope, subject, labels } = at;
  const created: IConstruct[] = [];
  const clusterName = `${at.name}-${at.namespace}`;
  if (mode === OperatorRbac.CLUSTER_ADMIN) {
    const binding = new kplus.ClusterRoleBinding(scope, 'cluster-admin', {
      metadata: { name: `${clusterName}-cluster-admin`, labels },
      role: kplus.ClusterRole.fromClusterRoleName(scope, 'cluster-admin-role', 'cluster-admin'),
    });
    binding.addSubjects(subject);
    created.push(binding);
  }
  const role = (id: string, name: string, namespace: string, rules: readonly RbacRule[]) => {
    const r = new kplus.Role(scope, `${id}-role`, { metadata: { name, namespace, labels } });
    setRules(r, rules);
    const binding = new kplus.RoleBinding(scope, `${id}-binding`, { metadata: { name, namespace, labels }, role: asRole(r) });
    binding.addSubjects(subject);
    created.push(r, binding);
  };
  if (perms.leaderElection.length > 0) role('leader-election', `${at.name}-leader-election`, at.namespace, perms.leaderElection);
  for (const { namespace, rules } of perms.namespaced) role(`namespace-${namespace}`, at.name, namespace, rules);
  if (perms.cluster.length > 0) {
    const cr = new kplus.ClusterRole(scope, 'cluster-role', { metadata: { name: clusterName, labels } });
    setRules(cr, perms.cluster);
    const binding = new kplus.ClusterRoleBinding(scope, 'cluster-role-binding', { metadata: { name: clusterName, labels }, role: asRole(cr) });
    binding.addSubjects(subject);
    created.push(cr, binding);
  }
  return created;
}

/**
 * Sets the rules as computed. cdk8s-plus writes one rule per resource; the computed list merges
 * the resources that share verbs, which is the same permission and reads as a whole.
 */
function setRules(role: IConstruct, rules: readonly RbacRule[]): void {
  const json = rules.map((r) =>
    r.nonResourceURLs
      ? { nonResourceURLs: [...r.nonResourceURLs], verbs: [...r.verbs] }
      : { apiGroups: [...r.apiGroups], resources: [...r.resources], ...(r.resourceNames ? { resourceNames: [...r.resourceNames] } : {}), verbs: [...r.verbs] },
  );
  for (const o of apiObjects(role)) o.addJsonPatch(cdk8s.JsonPatch.add('/rules', json));
}

/** The API objects a construct writes. */
export function apiObjects(c: IConstruct): cdk8s.ApiObject[] {
  return c.node.findAll().filter((x): x is cdk8s.ApiObject => x instanceof cdk8s.ApiObject);
}

/**
 * A Role as the bindings take it. cdk8s-plus's roles declare `resourceName` as `string | undefined`
 * where its `IRole` has an optional `string`, which `exactOptionalPropertyTypes` tells apart.
 */
function asRole<T extends Role | ClusterRole>(role: T): T extends ClusterRole ? IClusterRole : IRole {
  return role as never;
}
