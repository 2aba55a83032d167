/**
 * The RBAC derivation as a pure function: a profile and what the site needs in, rules by
 * namespace and cluster out, with no construct, chart or manifest involved.
 */
import { OperatorApi } from '../../../src/cdk8s';
import { operatorProfile } from '../../../src/cdk8s/operator/profile';
import type { ReleaseAccess } from '../../../src/cdk8s/operator/operator-profile';
import { operatorPermissions, OperatorPermissions, RbacRule, SiteAccess } from '../../../src/cdk8s/operator/rbac';
import { MANAGE } from './helpers';
import { OperatorRbac } from '../../../src/cdk8s';

const AIRSHIP = operatorProfile(OperatorApi.AIRSHIP_V1);
const KELEUSTES = operatorProfile(OperatorApi.KELEUSTES_V1ALPHA1);
const widgets = { apiGroup: 'example.org', resource: 'widgets' };
const classes = { apiGroup: 'storage.k8s.io', resource: 'storageclasses', clusterScoped: true };

const release = (namespace: string, more: Partial<ReleaseAccess> = {}): ReleaseAccess => ({
  chart: 'c',
  namespace,
  kinds: [widgets],
  waitTypes: [],
  deleteTypes: [],
  test: false,
  nativeWait: false,
  ...more,
});
const site = (more: Partial<SiteAccess>): SiteAccess => ({ mode: OperatorRbac.LEAST_PRIVILEGE, releases: [], defaultKinds: [widgets], leaderElection: true, operatorNamespace: 'ops', ...more });

const line = (r: RbacRule) => `${r.apiGroups.map((g) => g || 'core').join(',')} ${r.resources.join(',')}${r.resourceNames ? `[${r.resourceNames.join(',')}]` : ''}: ${r.verbs.join(',')}`;
const lines = (p: OperatorPermissions) => ({
  namespaced: Object.fromEntries(p.namespaced.map((n) => [n.namespace, n.rules.map(line)])),
  cluster: p.cluster.map(line),
  leaderElection: p.leaderElection.map(line),
});

const AIRSHIP_CRS = [
  'armada.airshipit.org armadacharts: get,list,watch,update,patch',
  'armada.airshipit.org armadacharts/finalizers: update',
  'armada.airshipit.org armadacharts/status: get,update,patch',
];
const AIRSHIP_LEASE = ['core events: create,patch', 'coordination.k8s.io leases: create', 'coordination.k8s.io leases[cac83074.airshipit.org]: get,update'];

describe('operatorPermissions', () => {
  test('airship, least privilege: Helm storage, waits, deletes and tests in the release namespace; its CRs, namespace creation and delete caches cluster-wide', () => {
    const p = operatorPermissions(AIRSHIP, site({ releases: [release('a', { waitTypes: ['job', 'unknown'], deleteTypes: ['', 'cronjob'], test: true, nativeWait: true }), release('b', { kinds: [classes] })] }));
    expect(lines(p)).toEqual({
      namespaced: {
        a: [`core pods: ${MANAGE}`, 'core secrets: get,list,create,update,delete', 'apps replicasets: get,list,watch', 'batch cronjobs: deletecollection', 'batch jobs: list,watch,deletecollection', `example.org widgets: ${MANAGE}`],
        b: ['core secrets: get,list,create,update,delete'],
      },
      cluster: ['core namespaces: create', ...AIRSHIP_CRS, 'batch cronjobs,jobs: list,watch', `storage.k8s.io storageclasses: ${MANAGE}`],
      leaderElection: AIRSHIP_LEASE,
    });
  });

  test('airship: no releases, no namespace creation; the GlobalNetworkPolicy fallback only when asked; no lock without leader election', () => {
    expect(lines(operatorPermissions(AIRSHIP, site({ leaderElection: false })))).toEqual({ namespaced: {}, cluster: AIRSHIP_CRS, leaderElection: [] });
    expect(lines(operatorPermissions(AIRSHIP, site({ globalNetworkPolicyFallback: true })))).toEqual({
      namespaced: { ops: ['core configmaps[armada-gnp]: get'] },
      cluster: [...AIRSHIP_CRS, 'projectcalico.org globalnetworkpolicies: get,create,delete'],
      leaderElection: AIRSHIP_LEASE,
    });
  });

  test('keleustes: its CRs, events and its own namespace in its namespace; no Helm storage; waits and tests are not its', () => {
    const p = operatorPermissions(KELEUSTES, site({ releases: [release('ops', { waitTypes: ['job'], deleteTypes: ['pod'], test: true, nativeWait: true })], globalNetworkPolicyFallback: true }));
    expect(lines(p)).toEqual({
      namespaced: {
        ops: [
          'core events: create,patch',
          'core namespaces[ops]: get',
          'armada.airshipit.org armadachartgroups,armadacharts: get,list,watch,update,patch,delete',
          'armada.airshipit.org armadachartgroups/finalizers,armadacharts/finalizers,armadamanifests/finalizers: update',
          'armada.airshipit.org armadachartgroups/status,armadacharts/status,armadamanifests/status: get,update,patch',
          'armada.airshipit.org armadamanifests: get,list,watch,update,patch',
          `example.org widgets: ${MANAGE}`,
        ],
      },
      cluster: [],
      leaderElection: ['core configmaps: create', 'core configmaps[armada-operator-lock]: get', 'core pods: get'],
    });
  });

  test('cluster-wide: one ClusterRole with the default kinds and all the operator does; cluster-admin: nothing of its own', () => {
    const p = operatorPermissions(AIRSHIP, site({ mode: OperatorRbac.CLUSTER_WIDE, releases: [release('ignored')] }));
    expect(lines(p)).toEqual({
      namespaced: {},
      // Every wait, delete, test and helm-toolkit rule the operator supports, for any release anywhere.
      cluster: [
        'core daemonsets,endpoints,jobs,services: get,list',
        'core namespaces: create',
        `core pods: ${MANAGE},deletecollection`,
        'core secrets: get,list,create,update,delete',
        'apps daemonsets,replicasets: get,list,watch',
        'apps deployments: list,watch,deletecollection',
        'apps endpoints,jobs,pods,secrets,services: get,list',
        'apps statefulsets: list,watch',
        ...AIRSHIP_CRS,
        'batch cronjobs: list,watch,deletecollection',
        'batch daemonsets,endpoints,pods,secrets,services: get,list',
        'batch jobs: get,list,watch,deletecollection',
        `example.org widgets: ${MANAGE}`,
        'extensions daemonsets,endpoints,jobs,pods,secrets,services: get,list',
      ],
      leaderElection: AIRSHIP_LEASE,
    });
    expect(operatorPermissions(AIRSHIP, site({ mode: OperatorRbac.CLUSTER_ADMIN, releases: [release('a')] }))).toEqual({ namespaced: [], cluster: [], leaderElection: [] });
  });
});
