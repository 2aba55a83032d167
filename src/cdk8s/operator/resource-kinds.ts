/**
 * What a chart creates, as RBAC resources: declared by hand, the Helm-release default, or read
 * from a rendered chart (a `helm template` output file or a directory of rendered manifests).
 */
import * as fs from 'fs';
import * as yaml from 'js-yaml';
import * as path from 'path';

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
  readonly clusterScoped?: boolean;
}

const core = (resource: string): ResourceKind => ({ apiGroup: '', resource });
const inGroup = (apiGroup: string, resource: string): ResourceKind => ({ apiGroup, resource });

/** Plural and scope of well-known kinds (the group comes from the object's apiVersion). */
const KNOWN_KINDS: Readonly<Record<string, { readonly plural: string; readonly clusterScoped?: boolean }>> = {
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
    return normalize(kinds);
  }

  /**
   * The kinds a rendered chart creates: a file (`helm template ... > rendered.yaml`) or a
   * directory of rendered manifests (`helm template --output-dir`), read now, recursively for a
   * directory (`.yaml`, `.yml` and `.json` files).
   */
  public static fromRenderedChart(fileOrDirectory: string): ResourceKind[] {
    if (!fs.existsSync(fileOrDirectory)) {
      throw new Error(`ResourceKinds.fromRenderedChart: ${fileOrDirectory} does not exist; pass the output of "helm template" (a file, or a directory written with --output-dir)`);
    }
    const files: string[] = [];
    const walk = (p: string) => {
      if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p).sort()) walk(path.join(p, e));
      else if (/\.(ya?ml|json)$/.test(p) || p === fileOrDirectory) files.push(p);
    };
    walk(fileOrDirectory);
    // One text: a CRD in one file names the custom resources of another.
    return ResourceKinds.fromManifests(files.map((f) => fs.readFileSync(f, 'utf8')).join('\n---\n'), fileOrDirectory);
  }

  /* istanbul ignore next */
  private constructor() {}
}
