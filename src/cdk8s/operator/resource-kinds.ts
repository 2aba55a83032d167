/**
 * What a chart creates, as RBAC resources: declared by hand, the Helm-release default, or read
 * from a rendered chart (a `helm template` output file or a directory of rendered manifests).
 */
import * as fs from 'fs';
import * as yaml from 'js-yaml';
import * as path from 'path';
import type { PolicyRule } from './rbac-covers';

/** One kind of Kubernetes object, as RBAC names it. */
export interface ResourceKind {
  /** The API group: `''` for the core group, `apps`, `batch`, `networking.k8s.io`, ... */
  readonly apiGroup: string;
  /** The resource, plural and lowercase, as in RBAC rules: `deployments`. */
  readonly resource: string;
  /**
   * Whether the kind is cluster-scoped (a ClusterRole grants it; everything else goes into a
   * Role in the release's namespace).
   * @default false
   */
  readonly clusterScoped?: boolean | undefined;
}

/** A Role or ClusterRole a chart creates, with its rules (the operator must hold them to create it). */
export interface ChartRole {
  readonly kind: 'Role' | 'ClusterRole';
  readonly name: string;
  /**
   * The namespace written in the object.
   * @default - the release's namespace (Roles), none (ClusterRoles)
   */
  readonly namespace?: string | undefined;
  readonly rules: readonly PolicyRule[];
}

/** A RoleBinding or ClusterRoleBinding a chart creates (the operator must hold the bound rules, or `bind`). */
export interface ChartRoleBinding {
  readonly kind: 'RoleBinding' | 'ClusterRoleBinding';
  readonly name: string;
  /**
   * The namespace written in the object.
   * @default - the release's namespace (RoleBindings), none (ClusterRoleBindings)
   */
  readonly namespace?: string | undefined;
  readonly roleRef: { readonly kind: 'Role' | 'ClusterRole'; readonly name: string };
}

/** What a rendered chart creates: its kinds, and its RBAC objects in full. */
export interface RenderedChart {
  /** Where it was read from, for messages. */
  readonly source: string;
  readonly kinds: readonly ResourceKind[];
  readonly roles: readonly ChartRole[];
  readonly bindings: readonly ChartRoleBinding[];
}

/** Options of {@link ResourceKinds.fromRenderedChart}. */
export interface RenderedChartOptions {
  /**
   * The chart's own directory: its `crds/` (and its unpacked subcharts' `charts/NAME/crds/`) are
   * read too, since Helm installs them while `helm template` prints them only with
   * `--include-crds`.
   * @default - the rendered output only
   */
  readonly chartDirectory?: string | undefined;
}

const core = (resource: string): ResourceKind => ({ apiGroup: '', resource });
const inGroup = (apiGroup: string, resource: string): ResourceKind => ({ apiGroup, resource });

/** Plural and scope of well-known kinds (the group comes from the object's apiVersion). */
const KNOWN_KINDS: Readonly<Record<string, { readonly plural: string; readonly clusterScoped?: boolean | undefined }>> = {
  APIService: { plural: 'apiservices', clusterScoped: true },
  CSIDriver: { plural: 'csidrivers', clusterScoped: true },
  ClusterRole: { plural: 'clusterroles', clusterScoped: true },
  ClusterRoleBinding: { plural: 'clusterrolebindings', clusterScoped: true },
  ConfigMap: { plural: 'configmaps' },
  ControllerRevision: { plural: 'controllerrevisions' },
  CronJob: { plural: 'cronjobs' },
  CustomResourceDefinition: { plural: 'customresourcedefinitions', clusterScoped: true },
  DaemonSet: { plural: 'daemonsets' },
  Deployment: { plural: 'deployments' },
  EndpointSlice: { plural: 'endpointslices' },
  Endpoints: { plural: 'endpoints' },
  HorizontalPodAutoscaler: { plural: 'horizontalpodautoscalers' },
  Ingress: { plural: 'ingresses' },
  IngressClass: { plural: 'ingressclasses', clusterScoped: true },
  Job: { plural: 'jobs' },
  Lease: { plural: 'leases' },
  LimitRange: { plural: 'limitranges' },
  MutatingWebhookConfiguration: { plural: 'mutatingwebhookconfigurations', clusterScoped: true },
  Namespace: { plural: 'namespaces', clusterScoped: true },
  NetworkPolicy: { plural: 'networkpolicies' },
  PersistentVolume: { plural: 'persistentvolumes', clusterScoped: true },
  PersistentVolumeClaim: { plural: 'persistentvolumeclaims' },
  Pod: { plural: 'pods' },
  PodDisruptionBudget: { plural: 'poddisruptionbudgets' },
  PodSecurityPolicy: { plural: 'podsecuritypolicies', clusterScoped: true },
  PriorityClass: { plural: 'priorityclasses', clusterScoped: true },
  ReplicaSet: { plural: 'replicasets' },
  ReplicationController: { plural: 'replicationcontrollers' },
  ResourceQuota: { plural: 'resourcequotas' },
  Role: { plural: 'roles' },
  RoleBinding: { plural: 'rolebindings' },
  RuntimeClass: { plural: 'runtimeclasses', clusterScoped: true },
  Secret: { plural: 'secrets' },
  Service: { plural: 'services' },
  ServiceAccount: { plural: 'serviceaccounts' },
  StatefulSet: { plural: 'statefulsets' },
  StorageClass: { plural: 'storageclasses', clusterScoped: true },
  ValidatingWebhookConfiguration: { plural: 'validatingwebhookconfigurations', clusterScoped: true },
  VolumeAttachment: { plural: 'volumeattachments', clusterScoped: true },
};

/** Kubernetes' own guess of a resource name from a kind (kubectl's UnsafeGuessKindToResource). */
function guessPlural(kind: string): string {
  const k = kind.toLowerCase();
  if (k.endsWith('s')) return `${k}es`;
  if (k.endsWith('y') && !/[aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

/** Sorted by group, then resource; duplicates removed. */
function normalize(kinds: readonly ResourceKind[]): ResourceKind[] {
  const byKey = new Map<string, ResourceKind>();
  for (const k of kinds) {
    const out: ResourceKind = k.clusterScoped ? { apiGroup: k.apiGroup, resource: k.resource, clusterScoped: true } : { apiGroup: k.apiGroup, resource: k.resource };
    byKey.set(`${k.apiGroup}/${k.resource}/${k.clusterScoped === true}`, out);
  }
  return [...byKey.values()].sort((a, b) => a.apiGroup.localeCompare(b.apiGroup) || a.resource.localeCompare(b.resource) || Number(a.clusterScoped ?? false) - Number(b.clusterScoped ?? false));
}

/** Where the kinds a chart creates come from. */
export class ResourceKinds {
  /**
   * What a typical Helm release of an OpenStack-Helm style chart creates, all namespaced:
   * ConfigMaps, Secrets, Services, ServiceAccounts, Pods, PersistentVolumeClaims, Deployments,
   * DaemonSets, StatefulSets, Jobs, CronJobs, Ingresses, NetworkPolicies, PodDisruptionBudgets,
   * HorizontalPodAutoscalers, Roles and RoleBindings.
   *
   * Kubernetes only lets the operator create a Role granting permissions it holds itself (no
   * `escalate` or `bind` verb is given), so the Roles a chart creates must stay within what the
   * operator's Role in that namespace allows.
   */
  public static readonly HELM_RELEASE: readonly ResourceKind[] = normalize([
    core('configmaps'),
    core('secrets'),
    core('services'),
    core('serviceaccounts'),
    core('pods'),
    core('persistentvolumeclaims'),
    inGroup('apps', 'deployments'),
    inGroup('apps', 'daemonsets'),
    inGroup('apps', 'statefulsets'),
    inGroup('batch', 'jobs'),
    inGroup('batch', 'cronjobs'),
    inGroup('networking.k8s.io', 'ingresses'),
    inGroup('networking.k8s.io', 'networkpolicies'),
    inGroup('policy', 'poddisruptionbudgets'),
    inGroup('autoscaling', 'horizontalpodautoscalers'),
    inGroup('rbac.authorization.k8s.io', 'roles'),
    inGroup('rbac.authorization.k8s.io', 'rolebindings'),
  ]);

  /**
   * The kinds of the objects in rendered manifests (YAML or JSON, several documents, `List`
   * objects expanded). Custom resources take their resource name and scope from a
   * CustomResourceDefinition in the same text; other unknown kinds are taken as namespaced, with
   * Kubernetes' guess of the plural (declare them by hand when that is wrong).
   * @param text the manifests, e.g. the output of `helm template`
   * @param source where the text comes from, for error messages
   */
  public static fromManifests(text: string, source = '<manifests>'): ResourceKind[] {
    return [...ResourceKinds.readManifests(text, source).kinds];
  }

  /**
   * Everything the operator needs to know about rendered manifests: their kinds (as
   * {@link fromManifests}) and their Roles, ClusterRoles and bindings in full, whose rules the
   * operator must hold to create them.
   */
  public static readManifests(text: string, source = '<manifests>'): RenderedChart {
    let docs: unknown[];
    try {
      docs = yaml.loadAll(text);
    } catch (e) {
      throw new Error(`ResourceKinds.fromManifests: ${source} is not YAML: ${(e as Error).message}`);
    }
    const objects: Record<string, any>[] = [];
    const collect = (o: unknown) => {
      if (o === null || typeof o !== 'object' || Array.isArray(o)) return;
      const obj = o as Record<string, any>;
      if (typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj.items)) obj.items.forEach(collect);
      else if (typeof obj.kind === 'string' && typeof obj.apiVersion === 'string') objects.push(obj);
    };
    docs.forEach(collect);
    // Custom resources of CRDs rendered alongside them.
    const custom = new Map<string, ResourceKind>();
    for (const o of objects) {
      if (o.kind !== 'CustomResourceDefinition' || typeof o.spec?.group !== 'string' || typeof o.spec?.names?.kind !== 'string') continue;
      custom.set(`${o.spec.group}/${o.spec.names.kind}`, { apiGroup: o.spec.group, resource: String(o.spec.names.plural ?? guessPlural(o.spec.names.kind)), clusterScoped: o.spec.scope === 'Cluster' });
    }
    const kinds = objects.map((o): ResourceKind => {
      const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
      const crd = custom.get(`${group}/${o.kind}`);
      if (crd) return crd;
      const known = KNOWN_KINDS[o.kind];
      return { apiGroup: group, resource: known?.plural ?? guessPlural(o.kind), clusterScoped: known?.clusterScoped ?? false };
    });
    const rbac = objects.filter((o) => o.apiVersion.startsWith('rbac.authorization.k8s.io/') && typeof o.metadata?.name === 'string');
    const where = (o: Record<string, any>) => (typeof o.metadata.namespace === 'string' ? { namespace: o.metadata.namespace as string } : {});
    const list = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);
    const roles = rbac
      .filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole')
      .map((o): ChartRole => ({
        kind: o.kind,
        name: o.metadata.name,
        ...where(o),
        rules: (Array.isArray(o.rules) ? o.rules : []).map((r: Record<string, unknown>): PolicyRule => {
          const rule: Record<string, string[]> = { verbs: list(r.verbs) ?? [] };
          for (const k of ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs']) if (list(r[k]) !== undefined) rule[k] = list(r[k])!;
          return rule as unknown as PolicyRule;
        }),
      }));
    const bindings = rbac
      .filter((o) => (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') && typeof o.roleRef?.name === 'string')
      .map((o): ChartRoleBinding => ({ kind: o.kind, name: o.metadata.name, ...where(o), roleRef: { kind: o.roleRef.kind === 'Role' ? 'Role' : 'ClusterRole', name: o.roleRef.name } }));
    return { source, kinds: normalize(kinds), roles, bindings };
  }

  /**
   * What a rendered chart creates: a file (`helm template ... > rendered.yaml`) or a directory
   * of rendered manifests (`helm template --output-dir`), read now, recursively for a directory
   * (`.yaml`, `.yml` and `.json` files), plus the chart's `crds/` when `chartDirectory` is given.
   * Give the result to `ArmadaOperator`'s `resourceKinds`: its kinds and the rules of its Roles
   * and ClusterRoles become the operator's.
   */
  public static fromRenderedChart(fileOrDirectory: string, options: RenderedChartOptions = {}): RenderedChart {
    if (!fs.existsSync(fileOrDirectory)) {
      throw new Error(`ResourceKinds.fromRenderedChart: ${fileOrDirectory} does not exist; pass the output of "helm template" (a file, or a directory written with --output-dir)`);
    }
    const files: string[] = [];
    const walk = (p: string, top: string) => {
      if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p).sort()) walk(path.join(p, e), top);
      else if (/\.(ya?ml|json)$/.test(p) || p === top) files.push(p);
    };
    walk(fileOrDirectory, fileOrDirectory);
    const chart = options.chartDirectory;
    if (chart !== undefined) {
      if (!fs.existsSync(path.join(chart, 'Chart.yaml'))) throw new Error(`ResourceKinds.fromRenderedChart: chartDirectory ${chart} has no Chart.yaml; pass the chart's own directory`);
      const crdDirs = [path.join(chart, 'crds')];
      const sub = path.join(chart, 'charts');
      if (fs.existsSync(sub)) for (const e of fs.readdirSync(sub).sort()) crdDirs.push(path.join(sub, e, 'crds'));
      for (const d of crdDirs) if (fs.existsSync(d) && fs.statSync(d).isDirectory()) walk(d, d);
    }
    // One text: a CRD in one file names the custom resources of another.
    return ResourceKinds.readManifests(files.map((f) => fs.readFileSync(f, 'utf8')).join('\n---\n'), fileOrDirectory);
  }

  /* istanbul ignore next */
  private constructor() {}
}

/** What a chart creates: kinds only, or a rendered chart (kinds and RBAC objects). */
export type ChartContents = readonly ResourceKind[] | RenderedChart;
