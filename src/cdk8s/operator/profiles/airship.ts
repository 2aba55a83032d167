/**
 * The airship armada-operator (`armada.airshipit.org/v1`), as read from its code: Helm 3 SDK with
 * the secret storage driver in the release namespace, `CreateNamespace` on install, readiness
 * waits by list+watch in the release namespace, pre-upgrade deletes by `DeleteAllOf`
 * (deletecollection) then a poll through controller-runtime's cache, which is cluster-wide
 * (hence cluster-wide list/watch for those kinds only); ArmadaCharts watched in every namespace;
 * a Lease lock named `cac83074.airshipit.org`.
 */
import { OperatorRbac } from '../props';
import { firstByName } from '../../../model/first-by-name';
import { toAirshipCharts } from '../../../model/wire/airship-v1';
import type { AirshipArmadaChartData } from '../../../model/wire/types';
import { OperatorApi } from '../../operator-api';
import airshipArmadaCharts from '../crds/airship-v1-armadacharts.json';
import type { CustomResourceDefinitionJson, OperatorProfile, ReleaseAccess, ReleasesOfSite } from '../operator-profile';
import type { ResourceKind } from '../resource-kinds';
import { ARMADA_GROUP, HELM_STORAGE, MANAGE, OWN_CR, READ, STATUS } from '../verbs';

/** The ConfigMap of GlobalNetworkPolicy templates the operator reads in its namespace. */
export const AIRSHIP_GNP_CONFIGMAP = 'armada-gnp';
/** The leader-election Lease (`LeaderElectionID` in its main.go). */
export const AIRSHIP_LEADER_LEASE = 'cac83074.airshipit.org';

/**
 * Its `waitutil` clients, by wait type: the Armada types, which are the only ones a definition
 * may use (the operator also knows armadachart and the Tigera kinds).
 */
const WAIT_KINDS: Readonly<Record<string, ResourceKind>> = {
  job: { apiGroup: 'batch', resource: 'jobs' },
  pod: { apiGroup: '', resource: 'pods' },
  deployment: { apiGroup: 'apps', resource: 'deployments' },
  daemonset: { apiGroup: 'apps', resource: 'daemonsets' },
  statefulset: { apiGroup: 'apps', resource: 'statefulsets' },
};

/** Its pre-upgrade delete types ("" means job). */
const DELETE_KINDS: Readonly<Record<string, ResourceKind>> = {
  '': { apiGroup: 'batch', resource: 'jobs' },
  job: { apiGroup: 'batch', resource: 'jobs' },
  pod: { apiGroup: '', resource: 'pods' },
  cronjob: { apiGroup: 'batch', resource: 'cronjobs' },
  deployment: { apiGroup: 'apps', resource: 'deployments' },
};

/** What it reads is the ArmadaChart it is given: derive from those, defaults included. */
const releasesOf: ReleasesOfSite = (spec, plan, contents) => {
  const charts = firstByName(spec.charts);
  const byRelease = new Map(toAirshipCharts(spec, plan).objects.map((o) => [o.metadata.name, o.data as AirshipArmadaChartData]));
  const releases: ReleaseAccess[] = [];
  const seen = new Set<string>();
  for (const r of plan.releases) {
    const data = byRelease.get(r.name);
    if (seen.has(r.chart) || !data || !charts.has(r.chart)) continue;
    seen.add(r.chart);
    const resources = data.wait?.resources;
    releases.push({
      chart: r.chart,
      namespace: data.namespace,
      ...contents(r.chart),
      // The operator's default when resources is absent.
      waitTypes: resources === undefined ? ['job', 'pod'] : resources.map((w) => w.type),
      deleteTypes: (data.upgrade?.pre?.delete ?? []).map((x) => x.type ?? ''),
      test: data.test?.enabled === true,
      nativeWait: data.wait?.native?.enabled === true && (data.wait?.timeout ?? 0) > 0,
    });
  }
  return releases;
};

const fieldRef = (name: string, fieldPath: string) => ({ name, fieldPath });

export const airship: OperatorProfile = {
  api: OperatorApi.AIRSHIP_V1,
  crds: [airshipArmadaCharts as CustomResourceDefinitionJson],
  watch: 'cluster',
  defaultNamespace: 'armada-operator-system',
  rbacModes: [OperatorRbac.LEAST_PRIVILEGE, OperatorRbac.CLUSTER_WIDE, OperatorRbac.CLUSTER_ADMIN],
  container: {
    image: 'quay.io/airshipit/armada-operator',
    tag: '3305eeda772b96142c6844b70e44c9db83f4e265-ubuntu_noble',
    name: 'manager',
    command: ['/manager'],
    args: ({ probeBindAddress, leaderElection }) => [
      `--health-probe-bind-address=${probeBindAddress ?? '$(POD_IP):8081'}`,
      // Metrics stay on loopback: nothing in the bundle scrapes them.
      '--metrics-bind-address=127.0.0.1:8080',
      ...(leaderElection ? ['--leader-elect'] : []),
    ],
    env: [
      // The operator reads its armada-gnp ConfigMap from this namespace.
      fieldRef('NAMESPACE', 'metadata.namespace'),
      // The health probes listen on the pod's own address only.
      fieldRef('POD_IP', 'status.podIP'),
    ],
    liveness: { httpGet: { path: '/healthz', port: 8081 }, initialDelaySeconds: 15, periodSeconds: 20 },
    readiness: { httpGet: { path: '/readyz', port: 8081 }, initialDelaySeconds: 5, periodSeconds: 10 },
  },
  rbac: {
    releaseNamespace: [{ apiGroup: '', resources: ['secrets'], verbs: HELM_STORAGE }],
    waitKinds: WAIT_KINDS,
    deleteKinds: DELETE_KINDS,
    // Test hooks are pods Helm creates, watches and deletes.
    test: [{ apiGroup: '', resources: ['pods'], verbs: MANAGE }],
    // Helm's readiness checks read the pods and ReplicaSets behind the release's controllers.
    nativeWait: [
      { apiGroup: '', resources: ['pods'], verbs: READ },
      { apiGroup: 'apps', resources: ['replicasets'], verbs: READ },
    ],
    customResources: [
      { apiGroup: ARMADA_GROUP, resources: ['armadacharts'], verbs: OWN_CR },
      { apiGroup: ARMADA_GROUP, resources: ['armadacharts/status'], verbs: STATUS },
      { apiGroup: ARMADA_GROUP, resources: ['armadacharts/finalizers'], verbs: ['update'] },
    ],
    operatorNamespace: () => [],
    // Helm installs with CreateNamespace, which asks for create even when the namespace exists.
    withReleases: [{ apiGroup: '', resources: ['namespaces'], verbs: ['create'] }],
    leaderElection: [
      // create cannot be limited to a name; get and update can.
      { apiGroup: 'coordination.k8s.io', resources: ['leases'], verbs: ['get', 'update'], resourceNames: [AIRSHIP_LEADER_LEASE] },
      { apiGroup: 'coordination.k8s.io', resources: ['leases'], verbs: ['create'] },
      { apiGroup: '', resources: ['events'], verbs: ['create', 'patch'] },
    ],
    globalNetworkPolicyFallback: {
      operatorNamespace: [{ apiGroup: '', resources: ['configmaps'], verbs: ['get'], resourceNames: [AIRSHIP_GNP_CONFIGMAP] }],
      // A stale policy of the same name is read, deleted, then created afresh.
      cluster: [{ apiGroup: 'projectcalico.org', resources: ['globalnetworkpolicies'], verbs: ['get', 'create', 'delete'] }],
    },
  },
  allActions: { waitTypes: Object.keys(WAIT_KINDS), deleteTypes: ['job', 'pod', 'cronjob', 'deployment'], test: true, nativeWait: true },
  releasesOf,
  refuses: {
    chartsSeedImage: 'only the keleustes operator writes under /opt/armada/helm-charts',
  },
};
