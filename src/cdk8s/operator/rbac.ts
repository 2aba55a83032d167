/**
 * The permissions each operator needs, derived from what it will do: which namespaces its
 * releases use, what their charts create, what it waits on and deletes before upgrades, its own
 * custom resources and its leader election. Pure: the ArmadaOperator construct renders the
 * result with cdk8s-plus.
 *
 * Where each permission comes from (read from the operators' code):
 * - airship: Helm 3 SDK with the secret storage driver in the release namespace, `CreateNamespace`
 *   on install, readiness waits by list+watch in the release namespace, pre-upgrade deletes by
 *   `DeleteAllOf` (deletecollection) then a poll through controller-runtime's cache, which is
 *   cluster-wide (hence cluster-wide list/watch for those kinds only); ArmadaCharts watched in
 *   every namespace; a Lease lock named `cac83074.airshipit.org`.
 * - keleustes: one namespace (WATCH_NAMESPACE) for everything, Helm v2 Tiller with in-memory
 *   storage (no secrets), watches on every kind of its releases, ArmadaChartGroups updating and
 *   deleting their ArmadaCharts, ArmadaManifests their groups, an operator-sdk ConfigMap lock
 *   `armada-operator-lock` owned by the operator's Pod.
 */
import { OperatorApi } from '../outputs';
import type { PolicyRule } from './rbac-covers';
import { ChartRole, ChartRoleBinding, ResourceKind } from './resource-kinds';

/** One RBAC rule. */
export interface RbacRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  /**
   * The objects the rule is limited to.
   * @default - every object of the resources
   */
  readonly resourceNames?: readonly string[];
  /**
   * Non-resource URLs (ClusterRoles only): held because a chart's ClusterRole grants them.
   * @default - none
   */
  readonly nonResourceURLs?: readonly string[];
  readonly verbs: readonly string[];
}

/**
 * How the operator may create the Roles, ClusterRoles and bindings of its charts (Kubernetes lets
 * a subject create them only if it holds every permission they grant, or holds `escalate` /
 * `bind` on them).
 * - `hold`: the operator holds every rule of those Roles itself (read from rendered charts, and
 *   helm-toolkit's dependency-check rules for charts with the default kinds). Nothing more than
 *   the charts grant; whoever can write ArmadaCharts can hand those permissions to any
 *   ServiceAccount of a release namespace.
 * - `escalate`: the operator holds `escalate` and `bind` on roles (the charts' own names where
 *   known) in the release namespaces, and on the charts' ClusterRoles: it need not hold their
 *   rules, but whoever can write ArmadaCharts can then grant anything within those namespaces.
 */
export type RoleEscalation = 'hold' | 'escalate';

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

/** What one release of the manifest needs from the operator. */
export interface ReleaseAccess {
  /** The chart document's name. */
  readonly chart: string;
  readonly namespace: string;
  /** What the chart creates. */
  readonly kinds: readonly ResourceKind[];
  /** airship: the `wait.resources[].type`s the operator waits on (defaults applied). */
  readonly waitTypes: readonly string[];
  /** airship: the `upgrade.pre.delete[].type`s deleted before upgrades. */
  readonly deleteTypes: readonly string[];
  /** airship: whether `helm test` runs. */
  readonly test: boolean;
  /** airship: whether Helm's own wait runs. */
  readonly nativeWait: boolean;
  /**
   * Whether the chart's kinds are the default guess, whose Roles are taken to be helm-toolkit's.
   * @default false
   */
  readonly helmToolkitRoles?: boolean;
  /**
   * The Roles and ClusterRoles the chart creates, read from it rendered.
   * @default - none known
   */
  readonly roles?: readonly ChartRole[];
  /**
   * The RoleBindings and ClusterRoleBindings the chart creates.
   * @default - none known
   */
  readonly bindings?: readonly ChartRoleBinding[];
}

/** Options of {@link leastPrivilege}. */
export interface LeastPrivilegeOptions {
  readonly leaderElection: boolean;
  readonly operatorNamespace: string;
  /**
   * How the charts' RBAC objects are allowed.
   * @default 'hold'
   */
  readonly roleEscalation?: RoleEscalation;
  /**
   * airship: grant what its GlobalNetworkPolicy download fallback uses (the `armada-gnp`
   * ConfigMap, Calico GlobalNetworkPolicies).
   * @default false
   */
  readonly globalNetworkPolicyFallback?: boolean;
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
/** What Helm does with the objects of a release: create, read back, watch hooks, upgrade, uninstall. */
const MANAGE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const READ = ['get', 'list', 'watch'];
/** Helm's secret storage driver. */
const HELM_STORAGE = ['get', 'list', 'create', 'update', 'delete'];
/** Controllers update their CRs (finalizers, spec changes by groups) and never create them. */
const OWN_CR = ['get', 'list', 'watch', 'update', 'patch'];
const STATUS = ['get', 'update', 'patch'];
const ARMADA_GROUP = 'armada.airshipit.org';
const RBAC_GROUP = 'rbac.authorization.k8s.io';
/** The ConfigMap of GlobalNetworkPolicy templates the airship operator reads in its namespace. */
export const AIRSHIP_GNP_CONFIGMAP = 'armada-gnp';

/**
 * The airship operator's `waitutil` clients, by wait type: the Armada types, which are the only
 * ones a definition may use (the operator also knows armadachart and the Tigera kinds).
 */
const AIRSHIP_WAIT_TYPES: Readonly<Record<string, ResourceKind>> = {
  job: { apiGroup: 'batch', resource: 'jobs' },
  pod: { apiGroup: '', resource: 'pods' },
  deployment: { apiGroup: 'apps', resource: 'deployments' },
  daemonset: { apiGroup: 'apps', resource: 'daemonsets' },
  statefulset: { apiGroup: 'apps', resource: 'statefulsets' },
};

/** The airship operator's pre-upgrade delete types ("" means job). */
const AIRSHIP_DELETE_TYPES: Readonly<Record<string, ResourceKind>> = {
  '': { apiGroup: 'batch', resource: 'jobs' },
  job: { apiGroup: 'batch', resource: 'jobs' },
  pod: { apiGroup: '', resource: 'pods' },
  cronjob: { apiGroup: 'batch', resource: 'cronjobs' },
  deployment: { apiGroup: 'apps', resource: 'deployments' },
};

/** The airship operator's leader-election Lease (`LeaderElectionID` in its main.go). */
export const AIRSHIP_LEADER_LEASE = 'cac83074.airshipit.org';
/** The keleustes operator's operator-sdk lock ConfigMap. */
export const KELEUSTES_LEADER_LOCK = 'armada-operator-lock';

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

/** The ArmadaCharts (and, for keleustes, groups and manifests) the operator reconciles. */
function ownCustomResources(api: OperatorApi, rules: Rules): void {
  if (api === OperatorApi.AIRSHIP_V1) {
    rules.add(ARMADA_GROUP, 'armadacharts', OWN_CR).add(ARMADA_GROUP, 'armadacharts/status', STATUS).add(ARMADA_GROUP, 'armadacharts/finalizers', ['update']);
    return;
  }
  // A group deletes the charts it lists, a manifest its groups.
  rules.add(ARMADA_GROUP, ['armadacharts', 'armadachartgroups'], [...OWN_CR, 'delete']).add(ARMADA_GROUP, 'armadamanifests', OWN_CR);
  rules.add(ARMADA_GROUP, ['armadacharts/status', 'armadachartgroups/status', 'armadamanifests/status'], STATUS);
  // Controller references with blockOwnerDeletion need update on the owner's finalizers.
  rules.add(ARMADA_GROUP, ['armadacharts/finalizers', 'armadachartgroups/finalizers', 'armadamanifests/finalizers'], ['update']);
}

function leaderElection(api: OperatorApi, enabled: boolean): RbacRule[] {
  const rules = new Rules();
  if (api === OperatorApi.AIRSHIP_V1) {
    if (!enabled) return [];
    // create cannot be limited to a name; get and update can.
    rules.add('coordination.k8s.io', 'leases', ['get', 'update'], [AIRSHIP_LEADER_LEASE]).add('coordination.k8s.io', 'leases', ['create']);
    rules.add('', 'events', ['create', 'patch']);
  } else {
    rules.add('', 'configmaps', ['get'], [KELEUSTES_LEADER_LOCK]).add('', 'configmaps', ['create']);
    // The lock is owned by the operator's own Pod, which it reads by name.
    rules.add('', 'pods', ['get']);
  }
  return rules.rules();
}

/** Least privilege: Roles in exactly the releases' namespaces, a ClusterRole for the rest. */
export function leastPrivilege(api: OperatorApi, releases: readonly ReleaseAccess[], options: LeastPrivilegeOptions): OperatorPermissions {
  const escalate = options.roleEscalation === 'escalate';
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
    if (api !== OperatorApi.AIRSHIP_V1) continue;
    ns(r.namespace).add('', 'secrets', HELM_STORAGE);
    for (const t of r.waitTypes) {
      const k = AIRSHIP_WAIT_TYPES[t];
      if (k) ns(r.namespace).add(k.apiGroup, k.resource, ['list', 'watch']);
    }
    for (const t of r.deleteTypes) {
      const k = AIRSHIP_DELETE_TYPES[t];
      if (!k) continue;
      ns(r.namespace).add(k.apiGroup, k.resource, ['deletecollection']);
      cluster.add(k.apiGroup, k.resource, ['list', 'watch']);
    }
    // Test hooks are pods Helm creates, watches and deletes.
    if (r.test) ns(r.namespace).add('', 'pods', MANAGE);
    // Helm's readiness checks read the pods and ReplicaSets behind the release's controllers.
    if (r.nativeWait) ns(r.namespace).add('', 'pods', READ).add('apps', 'replicasets', READ);
  }
  if (api === OperatorApi.AIRSHIP_V1) {
    // ArmadaCharts are watched in every namespace; Helm installs with CreateNamespace, which asks
    // for create even when the namespace exists.
    ownCustomResources(api, cluster);
    if (releases.length > 0) cluster.add('', 'namespaces', ['create']);
    if (options.globalNetworkPolicyFallback) {
      ns(options.operatorNamespace).add('', 'configmaps', ['get'], [AIRSHIP_GNP_CONFIGMAP]);
      // A stale policy of the same name is read, deleted, then created afresh.
      cluster.add('projectcalico.org', 'globalnetworkpolicies', ['get', 'create', 'delete']);
    }
  } else {
    // Everything of the keleustes operator happens in its one namespace.
    const own = ns(options.operatorNamespace);
    ownCustomResources(api, own);
    own.add('', 'events', ['create', 'patch']);
    // Helm 2's install GETs the release namespace first and aborts on Forbidden.
    own.add('', 'namespaces', ['get'], [options.operatorNamespace]);
  }
  return {
    namespaced: [...byNamespace.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([namespace, rules]) => ({ namespace, rules: rules.rules() })),
    cluster: cluster.rules(),
    leaderElection: leaderElection(api, options.leaderElection),
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
 * Broad but not wildcard, for an airship operator with no manifest: the default kinds and
 * everything the operator itself does, in every namespace (one ClusterRole).
 */
export function clusterWide(api: OperatorApi, kinds: readonly ResourceKind[], options: { readonly leaderElection: boolean }): OperatorPermissions {
  const cluster = new Rules();
  for (const k of kinds) cluster.add(k.apiGroup, k.resource, MANAGE);
  cluster.add('', 'secrets', HELM_STORAGE).add('', 'pods', MANAGE).add('apps', 'replicasets', READ).addRule(HELM_TOOLKIT_DEPENDENCY_RULE);
  for (const k of Object.values(AIRSHIP_WAIT_TYPES)) cluster.add(k.apiGroup, k.resource, ['list', 'watch']);
  for (const k of Object.values(AIRSHIP_DELETE_TYPES)) cluster.add(k.apiGroup, k.resource, ['list', 'watch', 'deletecollection']);
  ownCustomResources(api, cluster);
  cluster.add('', 'namespaces', ['create']);
  return { namespaced: [], cluster: cluster.rules(), leaderElection: leaderElection(api, options.leaderElection) };
}
