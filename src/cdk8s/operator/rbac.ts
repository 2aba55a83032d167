/**
 * The permissions an operator needs, derived from what it will do: which namespaces its releases
 * use, what their charts create, what it waits on and deletes before upgrades, its own custom
 * resources and its leader election. Pure: what the operator does comes from its profile
 * (`profiles/`), what the site needs from its releases; the ArmadaOperator construct renders the
 * result with cdk8s-plus.
 */
import type { Grant, OperatorProfile, ReleaseAccess } from './operator-profile';
import { OperatorRbac, RoleEscalation } from './props';
import type { PolicyRule } from './rbac-covers';
import { ResourceKind } from './resource-kinds';
import { MANAGE, RBAC_GROUP } from './verbs';

/** One RBAC rule. */
export interface RbacRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  /**
   * The objects the rule is limited to.
   * @default - every object of the resources
   */
  readonly resourceNames?: readonly string[] | undefined;
  /**
   * Non-resource URLs (ClusterRoles only): held because a chart's ClusterRole grants them.
   * @default - none
   */
  readonly nonResourceURLs?: readonly string[] | undefined;
  readonly verbs: readonly string[];
}

/**
 * What helm-toolkit's `kubernetes_pod_rbac_roles` snippet (every OpenStack-Helm chart) grants,
 * per pod with dependencies, for its dependency checks: the union over the dependency types
 * (daemonsets, jobs, pods, services with endpoints, secrets).
 */
export const HELM_TOOLKIT_DEPENDENCY_RULE: RbacRule = {
  apiGroups: ['', 'extensions', 'batch', 'apps'],
  resources: ['daemonsets', 'endpoints', 'jobs', 'pods', 'secrets', 'services'],
  verbs: ['get', 'list'],
};

/** Options of {@link leastPrivilege}. */
export interface LeastPrivilegeOptions {
  readonly leaderElection: boolean;
  readonly operatorNamespace: string;
  /**
   * How the charts' RBAC objects are allowed.
   * @default 'hold'
   */
  readonly roleEscalation?: RoleEscalation | undefined;
  /**
   * Grant what the operator's GlobalNetworkPolicy download fallback uses, if its profile has
   * one (airship: the `armada-gnp` ConfigMap, Calico GlobalNetworkPolicies).
   * @default false
   */
  readonly globalNetworkPolicyFallback?: boolean | undefined;
}

/** The operator's permissions, by where they apply. */
export interface OperatorPermissions {
  /** Role rules by namespace, namespaces sorted. */
  readonly namespaced: readonly { readonly namespace: string; readonly rules: readonly RbacRule[] }[];
  /** ClusterRole rules (empty: no ClusterRole). */
  readonly cluster: readonly RbacRule[];
  /** Leader-election rules in the operator's namespace (empty: none). */
  readonly leaderElection: readonly RbacRule[];
}

const VERB_ORDER = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'bind', 'escalate'];

/** Accumulates verbs per (group, resource, names). */
class Rules {
  private readonly verbs = new Map<string, Set<string>>();

  public add(apiGroup: string, resources: string | readonly string[], verbs: readonly string[], resourceNames?: readonly string[]): this {
    for (const resource of typeof resources === 'string' ? [resources] : resources) {
      const key = JSON.stringify([apiGroup, resource, resourceNames ? [...resourceNames].sort() : []]);
      const set = this.verbs.get(key) ?? new Set<string>();
      for (const v of verbs) set.add(v);
      this.verbs.set(key, set);
    }
    return this;
  }

  public grant(grants: readonly Grant[]): this {
    for (const g of grants) this.add(g.apiGroup, g.resources, g.verbs, g.resourceNames);
    return this;
  }

  private readonly urls = new Map<string, Set<string>>();

  /** Every permission of a rule (as written by a chart: several groups, resources, URLs). */
  public addRule(rule: PolicyRule): this {
    for (const g of rule.apiGroups ?? []) this.add(g, rule.resources ?? [], rule.verbs, (rule.resourceNames ?? []).length > 0 ? rule.resourceNames : undefined);
    for (const u of rule.nonResourceURLs ?? []) {
      const set = this.urls.get(u) ?? new Set<string>();
      for (const v of rule.verbs) set.add(v);
      this.urls.set(u, set);
    }
    return this;
  }

  public get empty(): boolean {
    return this.verbs.size === 0 && this.urls.size === 0;
  }

  /** One rule per (group, verbs, names), its resources merged: the shortest equivalent list. */
  public rules(): RbacRule[] {
    const merged = new Map<string, { group: string; names: string[]; verbs: string[]; resources: string[] }>();
    for (const [key, set] of this.verbs) {
      const [group, resource, names] = JSON.parse(key) as [string, string, string[]];
      const verbs = [...set].sort((a, b) => VERB_ORDER.indexOf(a) - VERB_ORDER.indexOf(b) || a.localeCompare(b));
      const k = JSON.stringify([group, names, verbs]);
      const m = merged.get(k) ?? { group, names, verbs, resources: [] };
      m.resources.push(resource);
      merged.set(k, m);
    }
    const resourceRules = [...merged.values()]
      .map((m): RbacRule => {
        const rule = { apiGroups: [m.group], resources: m.resources.sort(), verbs: m.verbs };
        return m.names.length > 0 ? { ...rule, resourceNames: m.names } : rule;
      })
      .sort((a, b) => a.apiGroups[0].localeCompare(b.apiGroups[0]) || a.resources[0].localeCompare(b.resources[0]) || (a.resourceNames?.join() ?? '').localeCompare(b.resourceNames?.join() ?? ''));
    const byVerbs = new Map<string, string[]>();
    for (const [url, set] of [...this.urls.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const verbs = [...set].sort((a, b) => VERB_ORDER.indexOf(a) - VERB_ORDER.indexOf(b) || a.localeCompare(b)).join(',');
      byVerbs.set(verbs, [...(byVerbs.get(verbs) ?? []), url]);
    }
    return [...resourceRules, ...[...byVerbs.entries()].map(([verbs, urls]): RbacRule => ({ apiGroups: [], resources: [], nonResourceURLs: urls, verbs: verbs.split(',') }))];
  }
}

/** Least privilege: Roles in exactly the releases' namespaces, a ClusterRole for the rest. */
export function leastPrivilege(profile: OperatorProfile, releases: readonly ReleaseAccess[], options: LeastPrivilegeOptions): OperatorPermissions {
  const needs = profile.rbac;
  const escalate = options.roleEscalation === RoleEscalation.ESCALATE;
  const byNamespace = new Map<string, Rules>();
  const cluster = new Rules();
  const ns = (n: string) => {
    let r = byNamespace.get(n);
    if (!r) byNamespace.set(n, (r = new Rules()));
    return r;
  };
  const grant = (namespace: string, k: ResourceKind, verbs: readonly string[]) => (k.clusterScoped ? cluster : ns(namespace)).add(k.apiGroup, k.resource, verbs);

  for (const r of releases) {
    for (const k of r.kinds) grant(r.namespace, k, MANAGE);
    chartRbac(r, ns, cluster, escalate);
    if (needs.releaseNamespace.length > 0) ns(r.namespace).grant(needs.releaseNamespace);
    for (const t of r.waitTypes) {
      const k = needs.waitKinds[t];
      if (k) ns(r.namespace).add(k.apiGroup, k.resource, ['list', 'watch']);
    }
    for (const t of r.deleteTypes) {
      const k = needs.deleteKinds[t];
      if (!k) continue;
      ns(r.namespace).add(k.apiGroup, k.resource, ['deletecollection']);
      cluster.add(k.apiGroup, k.resource, ['list', 'watch']);
    }
    if (r.test && needs.test.length > 0) ns(r.namespace).grant(needs.test);
    if (r.nativeWait && needs.nativeWait.length > 0) ns(r.namespace).grant(needs.nativeWait);
  }
  (profile.watch === 'cluster' ? cluster : ns(options.operatorNamespace)).grant(needs.customResources);
  const own = needs.operatorNamespace(options.operatorNamespace);
  if (own.length > 0) ns(options.operatorNamespace).grant(own);
  if (releases.length > 0) cluster.grant(needs.withReleases);
  const gnp = needs.globalNetworkPolicyFallback;
  if (options.globalNetworkPolicyFallback && gnp) {
    ns(options.operatorNamespace).grant(gnp.operatorNamespace);
    cluster.grant(gnp.cluster);
  }
  return {
    namespaced: [...byNamespace.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([namespace, rules]) => ({ namespace, rules: rules.rules() })),
    cluster: cluster.rules(),
    leaderElection: options.leaderElection ? new Rules().grant(needs.leaderElection).rules() : [],
  };
}

/**
 * What creating the chart's RBAC objects needs: their rules held (or, with `escalate`,
 * `escalate`/`bind` on them), and `bind` on exactly the roles a binding refers to that the chart
 * does not contain (their rules are unknown here, so they cannot be held).
 */
function chartRbac(r: ReleaseAccess, ns: (n: string) => Rules, cluster: Rules, escalate: boolean): void {
  const roles = r.roles ?? [];
  if (r.helmToolkitRoles) {
    if (escalate) ns(r.namespace).add(RBAC_GROUP, 'roles', ['bind', 'escalate']);
    else ns(r.namespace).addRule(HELM_TOOLKIT_DEPENDENCY_RULE);
  }
  for (const role of roles) {
    const target = role.kind === 'Role' ? ns(role.namespace ?? r.namespace) : cluster;
    if (escalate) target.add(RBAC_GROUP, role.kind === 'Role' ? 'roles' : 'clusterroles', ['escalate'], [role.name]);
    else for (const rule of role.rules) target.addRule(rule);
  }
  for (const b of r.bindings ?? []) {
    const target = b.kind === 'RoleBinding' ? ns(b.namespace ?? r.namespace) : cluster;
    const contained = roles.some((x) => x.kind === b.roleRef.kind && x.name === b.roleRef.name);
    if (escalate || !contained) target.add(RBAC_GROUP, b.roleRef.kind === 'Role' ? 'roles' : 'clusterroles', ['bind'], [b.roleRef.name]);
  }
}

/**
 * Broad but not wildcard, for an operator with no manifest: the default kinds and everything
 * the operator itself does, in every namespace (one ClusterRole).
 */
export function clusterWide(profile: OperatorProfile, kinds: readonly ResourceKind[], options: { readonly leaderElection: boolean }): OperatorPermissions {
  const needs = profile.rbac;
  const cluster = new Rules();
  for (const k of kinds) cluster.add(k.apiGroup, k.resource, MANAGE);
  cluster.grant(needs.releaseNamespace).grant(needs.test).grant(needs.nativeWait).addRule(HELM_TOOLKIT_DEPENDENCY_RULE);
  for (const k of Object.values(needs.waitKinds)) cluster.add(k.apiGroup, k.resource, ['list', 'watch']);
  for (const k of Object.values(needs.deleteKinds)) cluster.add(k.apiGroup, k.resource, ['list', 'watch', 'deletecollection']);
  cluster.grant(needs.customResources).grant(needs.withReleases);
  return { namespaced: [], cluster: cluster.rules(), leaderElection: options.leaderElection ? new Rules().grant(needs.leaderElection).rules() : [] };
}

/** What decides the permissions besides the operator: the RBAC mode and the site's releases. */
export interface SiteAccess extends LeastPrivilegeOptions {
  readonly mode: OperatorRbac;
  /** The releases (least-privilege only). */
  readonly releases: readonly ReleaseAccess[];
  /** What a chart creates when nothing says (`cluster-wide`). */
  readonly defaultKinds: readonly ResourceKind[];
}

/** The operator's permissions in each RBAC mode; none of its own for `cluster-admin`. */
export function operatorPermissions(profile: OperatorProfile, site: SiteAccess): OperatorPermissions {
  if (site.mode === OperatorRbac.CLUSTER_ADMIN) return { namespaced: [], cluster: [], leaderElection: [] };
  if (site.mode === OperatorRbac.CLUSTER_WIDE) return clusterWide(profile, site.defaultKinds, site);
  return leastPrivilege(profile, site.releases, site);
}
