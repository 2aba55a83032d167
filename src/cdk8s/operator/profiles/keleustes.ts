/**
 * The keleustes armada-operator (`armada.airshipit.org/v1alpha1`), as read from its code: one
 * namespace (WATCH_NAMESPACE) for everything, Helm v2 Tiller with in-memory storage (no
 * secrets), watches on every kind of its releases, ArmadaChartGroups updating and deleting their
 * ArmadaCharts, ArmadaManifests their groups, an operator-sdk ConfigMap lock
 * `armada-operator-lock` owned by the operator's Pod.
 */
import { OperatorRbac } from '../props';
import { toKeleustesObjects } from '../../../model/wire/keleustes-v1alpha1';
import { OperatorApi } from '../../operator-api';
import keleustesArmadaChartGroups from '../crds/keleustes-v1alpha1-armadachartgroups.json';
import keleustesArmadaCharts from '../crds/keleustes-v1alpha1-armadacharts.json';
import keleustesArmadaManifests from '../crds/keleustes-v1alpha1-armadamanifests.json';
import { formatDiagnostic } from '../../../model/diagnostics';
import type { CustomResourceDefinitionJson, OperatorProfile } from '../operator-profile';
import { ARMADA_GROUP, OWN_CR, STATUS } from '../verbs';

/** The operator-sdk lock ConfigMap. */
export const KELEUSTES_LEADER_LOCK = 'armada-operator-lock';
/** Where it clones, unpacks and finds its bundled charts (its HELM_CHARTS). */
const CHARTS = '/opt/armada/helm-charts';

/** Its objects' namespace: the ArmadaManifest's, which it reads its groups and charts beside. */
function manifestNamespace(out: ReturnType<typeof toKeleustesObjects>): string | undefined {
  return out.objects.find((o) => o.kind === 'ArmadaManifest')?.metadata.namespace;
}

export const keleustes: OperatorProfile = {
  api: OperatorApi.KELEUSTES_V1ALPHA1,
  crds: [keleustesArmadaCharts, keleustesArmadaChartGroups, keleustesArmadaManifests] as CustomResourceDefinitionJson[],
  watch: 'own-namespace',
  rbacModes: [OperatorRbac.LEAST_PRIVILEGE],
  container: {
    image: 'keleustes/armada-operator-dev',
    tag: 'v2.14.1',
    name: 'armada-operator',
    // The image is FROM scratch: name the binary by its path (its Dockerfile's).
    command: ['/usr/local/bin/armada-operator'],
    env: [
      // The operator exits without it; one operator serves one namespace.
      { name: 'WATCH_NAMESPACE', fieldPath: 'metadata.namespace' },
      // Its leader lock is owned by this Pod, found by name.
      { name: 'POD_NAME', fieldPath: 'metadata.name' },
      { name: 'OPERATOR_NAME', value: 'armada-operator' },
    ],
    // It creates its git and tar caches directly in its charts directory and copies helm-toolkit
    // from there.
    seededDirectory: { name: 'helm-charts', path: CHARTS, sizeLimit: '2Gi' },
  },
  rbac: {
    // In-memory Tiller storage, and no waits, deletes or tests of its own.
    releaseNamespace: [],
    waitKinds: {},
    deleteKinds: {},
    test: [],
    nativeWait: [],
    customResources: [
      // A group deletes the charts it lists, a manifest its groups.
      { apiGroup: ARMADA_GROUP, resources: ['armadacharts', 'armadachartgroups'], verbs: [...OWN_CR, 'delete'] },
      { apiGroup: ARMADA_GROUP, resources: ['armadamanifests'], verbs: OWN_CR },
      { apiGroup: ARMADA_GROUP, resources: ['armadacharts/status', 'armadachartgroups/status', 'armadamanifests/status'], verbs: STATUS },
      // Controller references with blockOwnerDeletion need update on the owner's finalizers.
      { apiGroup: ARMADA_GROUP, resources: ['armadacharts/finalizers', 'armadachartgroups/finalizers', 'armadamanifests/finalizers'], verbs: ['update'] },
    ],
    operatorNamespace: (namespace) => [
      { apiGroup: '', resources: ['events'], verbs: ['create', 'patch'] },
      // Helm 2's install GETs the release namespace first and aborts on Forbidden.
      { apiGroup: '', resources: ['namespaces'], verbs: ['get'], resourceNames: [namespace] },
    ],
    withReleases: [],
    leaderElection: [
      { apiGroup: '', resources: ['configmaps'], verbs: ['get'], resourceNames: [KELEUSTES_LEADER_LOCK] },
      { apiGroup: '', resources: ['configmaps'], verbs: ['create'] },
      // The lock is owned by the operator's own Pod, which it reads by name.
      { apiGroup: '', resources: ['pods'], verbs: ['get'] },
    ],
  },
  allActions: { waitTypes: [], deleteTypes: [], test: false, nativeWait: false },
  // Every deployed chart, in the operator's namespace, with nothing it waits on or deletes.
  releasesOf: (_spec, plan, contents, operatorNamespace) =>
    [...new Set(plan.releases.map((r) => r.chart))].map((chart) => ({ chart, namespace: operatorNamespace, ...contents(chart), waitTypes: [], deleteTypes: [], test: false, nativeWait: false })),
  siteNamespace: (spec, plan) => manifestNamespace(toKeleustesObjects(spec, plan)),
  misplacedSite: (spec, plan, namespace, namespaceGiven) => {
    const out = toKeleustesObjects(spec, plan);
    const errors = out.diagnostics.errors.map((d) => formatDiagnostic(d, 'bare'));
    const ns = manifestNamespace(out);
    if (errors.length > 0 || ns === undefined || ns === namespace) return errors;
    return [
      namespaceGiven
        ? `namespace ${JSON.stringify(namespace)}: the keleustes operator watches only its own namespace, and the manifest's objects are in ${JSON.stringify(ns)}; leave namespace unset or set it to ${JSON.stringify(ns)}`
        : `the manifest's keleustes objects moved to namespace ${JSON.stringify(ns)} after the ArmadaOperator took ${JSON.stringify(namespace)} from it; create the operator once the site is complete, or set namespace`,
    ];
  },
  refuses: {
    noNamespace: 'the keleustes operator watches only its own namespace: give the manifest (its namespace is used) or namespace',
    rbac: 'the keleustes operator works in one namespace only, where least-privilege RBAC covers all it does',
    leaderElectionOff: 'the keleustes operator always takes its ConfigMap lock; the option applies to the airship operator only',
    globalNetworkPolicyFallback: 'only the airship operator has that fallback',
  },
};
