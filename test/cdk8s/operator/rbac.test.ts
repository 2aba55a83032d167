import { defineSite } from '../../../examples/site';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, WaitResource } from '../../../src';
import { OperatorApi, ResourceKinds } from '../../../src/cdk8s';
import { base } from '../../helpers/site';
import { bundleErrors } from './bundle-checks';
import { keleustesSite, MANAGE, rbacOf, synthOperator } from './helpers';
import { OperatorRbac } from '../../../src/cdk8s';

const LEADER_AIRSHIP = ['core events: create,patch', 'coordination.k8s.io leases: create', 'coordination.k8s.io leases[cac83074.airshipit.org]: get,update'];
const AIRSHIP_CRS = ['armada.airshipit.org armadacharts: get,list,watch,update,patch', 'armada.airshipit.org armadacharts/finalizers: update', 'armada.airshipit.org armadacharts/status: get,update,patch'];
/** The default Helm-release kinds, as rule lines, when nothing else merges into them. */
const DEFAULT_KINDS = [
  `core configmaps,persistentvolumeclaims,pods,secrets,serviceaccounts,services: ${MANAGE}`,
  `apps daemonsets,deployments,statefulsets: ${MANAGE}`,
  `autoscaling horizontalpodautoscalers: ${MANAGE}`,
  `batch cronjobs,jobs: ${MANAGE}`,
  `networking.k8s.io ingresses,networkpolicies: ${MANAGE}`,
  `policy poddisruptionbudgets: ${MANAGE}`,
  `rbac.authorization.k8s.io rolebindings,roles: ${MANAGE}`,
];

/** helm-toolkit's dependency-check rules, as they merge into rule lines: the ones not already held. */
const HTK: Record<string, string> = {
  core: 'core daemonsets,endpoints,jobs: get,list',
  apps: 'apps endpoints,jobs,pods,secrets,services: get,list',
  batch: 'batch daemonsets,endpoints,pods,secrets,services: get,list',
  extensions: 'extensions daemonsets,endpoints,jobs,pods,secrets,services: get,list',
};
/** Rule lines in the bundle's order: by group, then first resource. */
function sortLines(lines: string[]): string[] {
  const key = (l: string) => {
    const [group, resources] = l.split(' ');
    return [group === 'core' ? '' : group, resources.split(',')[0].replace(/\[.*$/, '')] as const;
  };
  return [...lines].sort((a, b) => key(a)[0].localeCompare(key(b)[0]) || key(a)[1].localeCompare(key(b)[1]));
}
const withHtk = (lines: string[], groups = Object.keys(HTK)) => sortLines([...lines, ...groups.map((g) => HTK[g])]);

describe('least-privilege RBAC derived from the manifest', () => {
  test('airship, example site: Roles in exactly kube-system and openstack; cluster rules for CRs, namespaces and pre-upgrade deletes', () => {
    const { objects } = synthOperator({ manifest: defineSite() });
    const withReplicaSets = (lines: string[]) => [...lines.slice(0, 2), 'apps replicasets: get,list,watch', ...lines.slice(2)];
    expect(rbacOf(objects)).toEqual({
      'Role armada-operator-system/armada-operator-leader-election': LEADER_AIRSHIP,
      // ingress-kube-system: defaults; Helm's own wait reads ReplicaSets.
      'Role kube-system/armada-operator': withHtk(withReplicaSets(DEFAULT_KINDS)),
      // Nine releases; pre-upgrade deletes of jobs (mariadb, rabbitmq, keystone, compute kit) and
      // cronjobs (keystone) add deletecollection.
      'Role openstack/armada-operator': withHtk(withReplicaSets(DEFAULT_KINDS).map((l) => (l.startsWith('batch ') ? `${l},deletecollection` : l))),
      'ClusterRole armada-operator-armada-operator-system': [
        'core namespaces: create',
        ...AIRSHIP_CRS,
        // DeleteAllOf is followed by a List through controller-runtime's cluster-wide cache.
        'batch cronjobs,jobs: list,watch',
      ],
    });
    const binding = objects.find((o) => o.kind === 'ClusterRoleBinding');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'armada-operator-armada-operator-system' });
  });

  test('airship: declared kinds replace the default for their chart; cluster-scoped ones go to the ClusterRole', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'calico', { ...base('calico', 'kube-system'), wait: { timeout: Duration.minutes(10), resources: [], native: { enabled: false } }, test: { enabled: false } });
    new Chart(g, 'web', { ...base('web', 'web'), wait: { resources: [WaitResource.deployment()], native: { enabled: false } }, test: { enabled: false } });
    const { objects } = synthOperator({
      manifest: site,
      resourceKinds: {
        calico: [
          { apiGroup: 'operator.tigera.io', resource: 'installations', clusterScoped: true },
          { apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', clusterScoped: true },
          { apiGroup: '', resource: 'serviceaccounts' },
        ],
        web: [{ apiGroup: 'apps', resource: 'deployments' }, { apiGroup: '', resource: 'services' }],
      },
    });
    expect(rbacOf(objects)).toEqual({
      'Role armada-operator-system/armada-operator-leader-election': LEADER_AIRSHIP,
      'Role kube-system/armada-operator': [
        // Helm's secret storage; the declared kind.
        'core secrets: get,list,create,update,delete',
        `core serviceaccounts: ${MANAGE}`,
      ],
      // The deployment wait's list+watch is within the declared kind's verbs.
      'Role web/armada-operator': ['core secrets: get,list,create,update,delete', `core services: ${MANAGE}`, `apps deployments: ${MANAGE}`],
      'ClusterRole armada-operator-armada-operator-system': [
        'core namespaces: create',
        `apiextensions.k8s.io customresourcedefinitions: ${MANAGE}`,
        ...AIRSHIP_CRS,
        `operator.tigera.io installations: ${MANAGE}`,
      ],
    });
  });

  test('airship: what the operator does decides the verbs (waits list+watch, tests manage pods, pre-upgrade deletes)', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'quiet', { ...base('quiet', 'a'), wait: { resources: [], native: { enabled: false } }, test: { enabled: false } });
    new Chart(g, 'busy', {
      ...base('busy', 'b'),
      wait: { timeout: Duration.minutes(5), resources: [WaitResource.statefulSet(), WaitResource.daemonSet()], native: { enabled: false } },
      test: { enabled: true },
      upgrade: { pre: { delete: [{ type: 'pod', labels: { a: 'b' } }, { type: 'deployment' }] } },
    });
    const nothing = { apiGroup: 'example.org', resource: 'widgets' };
    const { objects } = synthOperator({ manifest: site, resourceKinds: { quiet: [nothing], busy: [nothing] } });
    const rbac = rbacOf(objects);
    expect(rbac['Role a/armada-operator']).toEqual(['core secrets: get,list,create,update,delete', `example.org widgets: ${MANAGE}`]);
    expect(rbac['Role b/armada-operator']).toEqual([
      `core pods: ${MANAGE},deletecollection`,
      'core secrets: get,list,create,update,delete',
      'apps daemonsets,statefulsets: list,watch',
      'apps deployments: deletecollection',
      `example.org widgets: ${MANAGE}`,
    ]);
    expect(rbac['ClusterRole armada-operator-armada-operator-system']).toEqual([
      'core namespaces: create',
      'core pods: list,watch',
      'apps deployments: list,watch',
      ...AIRSHIP_CRS,
    ]);
  });

  test('airship: with no wait resources written the operator waits on jobs and pods', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(site, 'g'), 'c', { namespace: 'n', source: ChartSource.tar('https://x/c.tgz'), wait: { native: { enabled: false } }, test: { enabled: false } });
    const { objects } = synthOperator({ manifest: site, resourceKinds: { c: [] } });
    expect(rbacOf(objects)['Role n/armada-operator']).toEqual(['core pods: list,watch', 'core secrets: get,list,create,update,delete', 'batch jobs: list,watch']);
  });

  test('keleustes: everything in its one namespace, no secrets (in-memory Tiller), lock ConfigMap and own Pod', () => {
    const { objects } = synthOperator({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite(), readOnlyRootFilesystem: false });
    expect(rbacOf(objects)).toEqual({
      'Role openstack/armada-operator-leader-election': ['core configmaps: create', 'core configmaps[armada-operator-lock]: get', 'core pods: get'],
      'Role openstack/armada-operator': withHtk([
        `core configmaps,persistentvolumeclaims,pods,secrets,serviceaccounts,services: ${MANAGE}`,
        'core events: create,patch',
        // Helm 2's install reads the release namespace first.
        'core namespaces[openstack]: get',
        `apps daemonsets,deployments,statefulsets: ${MANAGE}`,
        'armada.airshipit.org armadachartgroups,armadacharts: get,list,watch,update,patch,delete',
        'armada.airshipit.org armadachartgroups/finalizers,armadacharts/finalizers,armadamanifests/finalizers: update',
        'armada.airshipit.org armadachartgroups/status,armadacharts/status,armadamanifests/status: get,update,patch',
        'armada.airshipit.org armadamanifests: get,list,watch,update,patch',
        `autoscaling horizontalpodautoscalers: ${MANAGE}`,
        `batch cronjobs,jobs: ${MANAGE}`,
        `networking.k8s.io ingresses,networkpolicies: ${MANAGE}`,
        `policy poddisruptionbudgets: ${MANAGE}`,
        `rbac.authorization.k8s.io rolebindings,roles: ${MANAGE}`,
      ]),
    });
  });

  test('keleustes: a declared cluster-scoped kind is the only reason for a ClusterRole', () => {
    const { objects, namespaces } = synthOperator({
      api: OperatorApi.KELEUSTES_V1ALPHA1,
      manifest: keleustesSite('ceph'),
      readOnlyRootFilesystem: false,
      resourceKinds: { mariadb: [{ apiGroup: 'storage.k8s.io', resource: 'storageclasses', clusterScoped: true }], memcached: [] },
    });
    const rbac = rbacOf(objects);
    expect(rbac['ClusterRole armada-operator-ceph']).toEqual([`storage.k8s.io storageclasses: ${MANAGE}`]);
    expect(rbac['Role ceph/armada-operator'].filter((l) => !l.startsWith('armada.airshipit.org'))).toEqual(['core events: create,patch', 'core namespaces[ceph]: get']);
    expect(bundleErrors(objects, namespaces)).toEqual([]);
  });

  test('without a manifest: releaseNamespaces (least privilege over every supported action) or cluster-wide (no wildcard)', () => {
    const ns = synthOperator({ releaseNamespaces: ['openstack', 'ceph'] });
    const rbac = rbacOf(ns.objects);
    expect(Object.keys(rbac)).toEqual([
      'Role armada-operator-system/armada-operator-leader-election',
      'Role ceph/armada-operator',
      'Role openstack/armada-operator',
      'ClusterRole armada-operator-armada-operator-system',
    ]);
    expect(rbac['Role ceph/armada-operator']).toEqual(withHtk([
      `core configmaps,persistentvolumeclaims,secrets,serviceaccounts,services: ${MANAGE}`,
      `core pods: ${MANAGE},deletecollection`,
      `apps daemonsets,statefulsets: ${MANAGE}`,
      `apps deployments: ${MANAGE},deletecollection`,
      'apps replicasets: get,list,watch',
      `autoscaling horizontalpodautoscalers: ${MANAGE}`,
      `batch cronjobs,jobs: ${MANAGE},deletecollection`,
      `networking.k8s.io ingresses,networkpolicies: ${MANAGE}`,
      `policy poddisruptionbudgets: ${MANAGE}`,
      `rbac.authorization.k8s.io rolebindings,roles: ${MANAGE}`,
    ]));
    expect(rbac['ClusterRole armada-operator-armada-operator-system']).toEqual(['core namespaces: create', 'core pods: list,watch', 'apps deployments: list,watch', ...AIRSHIP_CRS, 'batch cronjobs,jobs: list,watch']);
    expect(ns.namespaces.map((o) => o.metadata.name)).toEqual(['openstack', 'ceph']);
    expect(bundleErrors(ns.objects, ns.namespaces)).toEqual([]);

    const wide = synthOperator({ rbac: OperatorRbac.CLUSTER_WIDE });
    expect(wide.warnings.map((w) => w.code)).toEqual(['cluster-wide']);
    expect(wide.warnings[0].message).toBe(
      'rbac "cluster-wide" grants Secrets, ServiceAccounts, Roles and workloads in every namespace, kube-system included: anyone who can create an ArmadaChart can read every Secret and act as any ServiceAccount of the cluster, close to cluster-admin; prefer the least-privilege default (give the manifest, or releaseNamespaces)',
    );
    expect(rbacOf(wide.objects)).toEqual({
      'Role armada-operator-system/armada-operator-leader-election': LEADER_AIRSHIP,
      'ClusterRole armada-operator-armada-operator-system': withHtk([
        `core configmaps,persistentvolumeclaims,secrets,serviceaccounts,services: ${MANAGE}`,
        'core namespaces: create',
        `core pods: ${MANAGE},deletecollection`,
        `apps daemonsets,statefulsets: ${MANAGE}`,
        `apps deployments: ${MANAGE},deletecollection`,
        'apps replicasets: get,list,watch',
        ...AIRSHIP_CRS,
        `autoscaling horizontalpodautoscalers: ${MANAGE}`,
        `batch cronjobs,jobs: ${MANAGE},deletecollection`,
        `networking.k8s.io ingresses,networkpolicies: ${MANAGE}`,
        `policy poddisruptionbudgets: ${MANAGE}`,
        `rbac.authorization.k8s.io rolebindings,roles: ${MANAGE}`,
      ]),
    });
    expect(wide.objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name)).toEqual(['armada-operator-system']);
    expect(bundleErrors(wide.objects)).toEqual([]);
  });

  test('permissions() returns the same rules the bundle contains', () => {
    const { objects, operator } = synthOperator({ manifest: defineSite() });
    const p = operator.permissions();
    expect(p.namespaced.map((n) => n.namespace)).toEqual(['kube-system', 'openstack']);
    const role = objects.find((o) => o.kind === 'Role' && o.metadata.namespace === 'openstack' && o.metadata.name === 'armada-operator');
    expect(role.rules).toEqual(p.namespaced[1].rules);
    expect(objects.find((o) => o.kind === 'ClusterRole').rules).toEqual(p.cluster);
  });

  test('the default Helm-release kinds', () => {
    expect(ResourceKinds.HELM_RELEASE.map((k) => `${k.apiGroup || 'core'}/${k.resource}`)).toEqual([
      'core/configmaps',
      'core/persistentvolumeclaims',
      'core/pods',
      'core/secrets',
      'core/serviceaccounts',
      'core/services',
      'apps/daemonsets',
      'apps/deployments',
      'apps/statefulsets',
      'autoscaling/horizontalpodautoscalers',
      'batch/cronjobs',
      'batch/jobs',
      'networking.k8s.io/ingresses',
      'networking.k8s.io/networkpolicies',
      'policy/poddisruptionbudgets',
      'rbac.authorization.k8s.io/rolebindings',
      'rbac.authorization.k8s.io/roles',
    ]);
  });
});
