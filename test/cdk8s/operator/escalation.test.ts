import * as fs from 'fs';
import * as path from 'path';
import { defineSite } from '../../../examples/site';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../../src';
import { OperatorApi, ResourceKinds } from '../../../src/cdk8s';
import { describeFinding, escalationFindings, heldByServiceAccount } from '../../../src/cdk8s/operator/escalation';
import { operatorProfile } from '../../../src/cdk8s/operator/profile';
import { HELM_TOOLKIT_DEPENDENCY_RULE, leastPrivilege } from '../../../src/cdk8s/operator/rbac';
import { releasesOf } from '../../../src/cdk8s/operator/releases';
import { RenderedChart } from '../../../src/cdk8s/operator/resource-kinds';
import { buildPlan } from '../../../src/model/plan';
import { documentsToSpec } from '../../../src/model/wire/from-documents';
import { toKeleustesObjects } from '../../../src/model/wire/keleustes-v1alpha1';
import { parseDocuments } from '../../helpers/documents';
import { corpusFiles, readShared } from '../../helpers/shared';
import { rbacOf, synthOperator } from './helpers';
import { RoleEscalation } from '../../../src/cdk8s';

const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures', 'operator');
const MARIADB = ResourceKinds.fromRenderedChart(path.join(FIXTURES, 'mariadb', 'rendered.yaml'));
const INGRESS = ResourceKinds.fromRenderedChart(path.join(FIXTURES, 'ingress', 'rendered.yaml'));
/** The ingress chart rendered into another namespace (what `helm template -n` would print). */
const ingressIn = (ns: string) => ResourceKinds.readManifests(fs.readFileSync(path.join(FIXTURES, 'ingress', 'rendered.yaml'), 'utf8').replace(/kube-system/g, ns), `ingress in ${ns}`);

function site(namespaces: { mariadb: string; ingress: string }) {
  const s = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
  const g = new ChartGroup(s, 'g', { sequenced: true });
  new Chart(g, 'ingress', { namespace: namespaces.ingress, source: ChartSource.tar('https://charts.example.org/ingress-0.2.0.tgz') });
  new Chart(g, 'mariadb', { namespace: namespaces.mariadb, source: ChartSource.tar('https://charts.example.org/mariadb-0.2.0.tgz') });
  return s;
}
const SA = (namespace: string) => ({ namespace, name: 'armada-operator' });

describe('the RBAC escalation check over what real charts create', () => {
  test('rendered charts are read whole: kinds, Roles with their rules, bindings, and crds/ of the chart directory', () => {
    expect(MARIADB.roles.map((r) => `${r.kind} ${r.namespace}/${r.name}`)).toEqual([
      'Role openstack/airship-mariadb-openstack-mariadb',
      'Role openstack/airship-mariadb-openstack-mariadb-ingress',
      'Role openstack/airship-mariadb-openstack-mariadb-mariadb-backup',
    ]);
    expect(MARIADB.roles[0].rules).toEqual([{ apiGroups: ['', 'extensions', 'batch', 'apps'], resources: ['services', 'endpoints', 'jobs', 'pods'], verbs: ['get', 'list'] }]);
    expect(INGRESS.roles.map((r) => r.kind)).toEqual(['ClusterRole', 'Role', 'Role']);
    expect(INGRESS.roles[1].rules[1]).toEqual({ apiGroups: [''], resources: ['configmaps'], resourceNames: ['airship-ingress-kube-system'], verbs: ['get', 'update'] });
    expect(INGRESS.bindings.map((b) => `${b.kind} ${b.name} -> ${b.roleRef.kind} ${b.roleRef.name}`)).toEqual([
      'ClusterRoleBinding airship-ingress-kube-system-ingress -> ClusterRole airship-ingress-kube-system-ingress',
      'RoleBinding airship-ingress-kube-system-ingress -> Role airship-ingress-kube-system-ingress',
      'RoleBinding airship-ingress-kube-system-ingress-error-pages -> Role airship-ingress-kube-system-kube-system-ingress-error-pages',
    ]);
    // helm template leaves crds/ out; the chart directory brings them in.
    const chart = fs.mkdtempSync(path.join(require('os').tmpdir(), 'armada-cdk-chart-'));
    fs.writeFileSync(path.join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: ingress\nversion: 0.2.0\n');
    fs.cpSync(path.join(FIXTURES, 'ingress', 'crds'), path.join(chart, 'crds'), { recursive: true });
    const withCrds = ResourceKinds.fromRenderedChart(path.join(FIXTURES, 'ingress', 'rendered.yaml'), { chartDirectory: chart });
    expect(withCrds.kinds.filter((k) => !INGRESS.kinds.some((i) => i.resource === k.resource))).toEqual([{ apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', clusterScoped: true }]);
    expect(() => ResourceKinds.fromRenderedChart(path.join(FIXTURES, 'ingress', 'rendered.yaml'), { chartDirectory: FIXTURES })).toThrow(`ResourceKinds.fromRenderedChart: chartDirectory ${FIXTURES} has no Chart.yaml; pass the chart's own directory`);
  });

  test('airship: the bundle lets the operator create everything both charts contain, with no escalate or bind', () => {
    const { objects, warnings } = synthOperator({ manifest: site({ mariadb: 'openstack', ingress: 'kube-system' }), resourceKinds: { mariadb: MARIADB, ingress: INGRESS } });
    const held = heldByServiceAccount(objects, SA('armada-operator-system'));
    expect(escalationFindings(held, [{ chart: 'mariadb', namespace: 'openstack', contents: MARIADB }, { chart: 'ingress', namespace: 'kube-system', contents: INGRESS }])).toEqual([]);
    const rbac = rbacOf(objects);
    // The ingress ClusterRole's rules are held cluster-wide: a ClusterRoleBinding needs them there.
    expect(rbac['ClusterRole armada-operator-armada-operator-system']).toEqual(expect.arrayContaining([
        'core configmaps,endpoints,pods,secrets: list,watch',
        'core nodes,services: get,list,watch',
        'extensions ingressclasses/status,ingresses/status: update',
        'networking.k8s.io ingressclasses/status,ingresses/status: update',
        'discovery.k8s.io endpointslices: get,list,watch',
      ]));
    expect(Object.values(rbac).flat().filter((l) => l.split(': ')[1].split(',').some((v) => v === 'bind' || v === 'escalate'))).toEqual([]);
    // No guess left: both charts were read.
    expect(warnings.map((w) => w.code)).toEqual(['sensitive-namespace']);
  });

  test('keleustes: the same, in its one namespace', () => {
    const ingress = ingressIn('openstack');
    const { objects } = synthOperator({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: site({ mariadb: 'openstack', ingress: 'openstack' }), resourceKinds: { mariadb: MARIADB, ingress } });
    const held = heldByServiceAccount(objects, SA('openstack'));
    expect(escalationFindings(held, [{ chart: 'mariadb', namespace: 'openstack', contents: MARIADB }, { chart: 'ingress', namespace: 'openstack', contents: ingress }])).toEqual([]);
    expect(Object.keys(rbacOf(objects))).toEqual(['Role openstack/armada-operator-leader-election', 'Role openstack/armada-operator', 'ClusterRole armada-operator-openstack']);
  });

  test('a missing permission: what the bundle without helm-toolkit\'s rules would report', () => {
    // The default kinds alone, as the bundle had them: the Roles helm-toolkit renders grant more
    // than the operator holds, and the ingress ClusterRole is granted by nothing.
    const kinds = [...ResourceKinds.HELM_RELEASE, { apiGroup: 'networking.k8s.io', resource: 'ingressclasses', clusterScoped: true }];
    const { objects } = synthOperator({ manifest: site({ mariadb: 'openstack', ingress: 'kube-system' }), resourceKinds: { mariadb: kinds, ingress: kinds } });
    const findings = escalationFindings(heldByServiceAccount(objects, SA('armada-operator-system')), [{ chart: 'mariadb', namespace: 'openstack', contents: MARIADB }, { chart: 'ingress', namespace: 'kube-system', contents: INGRESS }]);
    expect(findings.map((f) => [f.chart, f.object, f.missing.length])).toEqual([
      // 4 resources x 4 groups x get, list; held: get, list on core services and pods, batch jobs.
      ['mariadb', 'Role openstack/airship-mariadb-openstack-mariadb', 26],
      ['mariadb', 'Role openstack/airship-mariadb-openstack-mariadb-ingress', 14],
      // Kubernetes breaks a rule down as written: pods listed twice counts twice.
      ['mariadb', 'Role openstack/airship-mariadb-openstack-mariadb-mariadb-backup', 24],
      ['mariadb', 'RoleBinding openstack/airship-mariadb-mariadb', 26],
      ['mariadb', 'RoleBinding openstack/airship-mariadb-mariadb-ingress', 14],
      ['mariadb', 'RoleBinding openstack/airship-mariadb-mariadb-mariadb-backup', 24],
      // Helm cannot even create the cluster-scoped RBAC kinds.
      ['ingress', 'kind rbac.authorization.k8s.io/clusterrolebindings', 7],
      ['ingress', 'kind rbac.authorization.k8s.io/clusterroles', 7],
      ['ingress', 'ClusterRole airship-ingress-kube-system-ingress', 32],
      // namespaces get, endpoints get/create/update, leases get/create/update.
      ['ingress', 'Role kube-system/airship-ingress-kube-system-ingress', 7],
      ['ingress', 'Role kube-system/airship-ingress-kube-system-kube-system-ingress-error-pages', 14],
      ['ingress', 'ClusterRoleBinding airship-ingress-kube-system-ingress', 32],
      ['ingress', 'RoleBinding kube-system/airship-ingress-kube-system-ingress', 7],
      ['ingress', 'RoleBinding kube-system/airship-ingress-kube-system-ingress-error-pages', 14],
    ]);
    expect(findings[9].missing).toEqual(['get namespaces', 'get endpoints', 'create endpoints', 'update endpoints', 'get coordination.k8s.io/leases', 'create coordination.k8s.io/leases', 'update coordination.k8s.io/leases']);
    expect(describeFinding(findings[1])).toBe(
      'chart "mariadb": Role openstack/airship-mariadb-openstack-mariadb-ingress: the operator lacks get endpoints, list endpoints, get extensions/services, list extensions/services, get extensions/endpoints, list extensions/endpoints, get batch/services, list batch/services, get batch/endpoints, list batch/endpoints, get apps/services, list apps/services, get apps/endpoints, list apps/endpoints; Kubernetes refuses to let it create an object granting more than it holds, so the install fails with Forbidden',
    );
  });

  test('roleEscalation "escalate": escalate and bind on the charts\' own roles instead of their rules, and a warning', () => {
    const { objects, warnings } = synthOperator({ manifest: site({ mariadb: 'openstack', ingress: 'kube-system' }), resourceKinds: { mariadb: MARIADB, ingress: INGRESS }, roleEscalation: RoleEscalation.ESCALATE });
    const held = heldByServiceAccount(objects, SA('armada-operator-system'));
    expect(escalationFindings(held, [{ chart: 'mariadb', namespace: 'openstack', contents: MARIADB }, { chart: 'ingress', namespace: 'kube-system', contents: INGRESS }])).toEqual([]);
    const rbac = rbacOf(objects);
    expect(rbac['Role openstack/armada-operator'].filter((l) => l.startsWith('rbac.'))).toEqual([
      `rbac.authorization.k8s.io rolebindings,roles: get,list,watch,create,update,patch,delete`,
      'rbac.authorization.k8s.io roles[airship-mariadb-openstack-mariadb]: bind,escalate',
      'rbac.authorization.k8s.io roles[airship-mariadb-openstack-mariadb-ingress]: bind,escalate',
      'rbac.authorization.k8s.io roles[airship-mariadb-openstack-mariadb-mariadb-backup]: bind,escalate',
    ]);
    expect(rbac['ClusterRole armada-operator-armada-operator-system'].filter((l) => l.includes('clusterroles['))).toEqual(['rbac.authorization.k8s.io clusterroles[airship-ingress-kube-system-ingress]: bind,escalate']);
    expect(warnings.find((w) => w.code === 'role-escalation')?.message).toBe(
      'roleEscalation "escalate" grants escalate and bind on roles in "kube-system", "openstack": anyone who can create an ArmadaChart can grant any permission within those namespaces; the default ("hold") grants only the rules the charts\' Roles contain',
    );
  });

  test('a binding to a role the chart does not contain gets bind on exactly that role, and says so', () => {
    const chart: RenderedChart = ResourceKinds.readManifests(
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: view-all, namespace: openstack}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\nsubjects: [{kind: ServiceAccount, name: x, namespace: openstack}]\n',
      'view.yaml',
    );
    const { objects, warnings } = synthOperator({ manifest: site({ mariadb: 'openstack', ingress: 'kube-system' }), resourceKinds: { mariadb: chart, ingress: INGRESS } });
    expect(rbacOf(objects)['Role openstack/armada-operator']).toContain('rbac.authorization.k8s.io clusterroles[view]: bind');
    expect(escalationFindings(heldByServiceAccount(objects, SA('armada-operator-system')), [{ chart: 'mariadb', namespace: 'openstack', contents: chart }])).toEqual([]);
    expect(warnings.find((w) => w.code === 'bind')?.message).toBe(
      'bindings to roles their chart does not contain get bind on exactly those roles (their rules are unknown here, and the operator would otherwise have to hold them): mariadb: RoleBinding view-all -> ClusterRole view',
    );
  });
});

/** What every helm-toolkit chart renders in its namespace, the most it can: one dependency Role and its binding. */
const HTK_CHART = {
  kinds: ResourceKinds.HELM_RELEASE,
  roles: [{ kind: 'Role' as const, name: 'release-ns-pod', rules: [HELM_TOOLKIT_DEPENDENCY_RULE] }],
  bindings: [{ kind: 'RoleBinding' as const, name: 'release-pod', roleRef: { kind: 'Role' as const, name: 'release-ns-pod' } }],
};

describe('the escalation check on whole sites, with the default kinds', () => {
  const check = (api: OperatorApi, spec: Parameters<typeof releasesOf>[1], namespace: string) => {
    const plan = buildPlan(spec);
    const releases = releasesOf(operatorProfile(api), spec, plan, {}, ResourceKinds.HELM_RELEASE, namespace);
    const perms = leastPrivilege(operatorProfile(api), releases, { leaderElection: true, operatorNamespace: namespace });
    const byNs = new Map(perms.namespaced.map((n) => [n.namespace, n.rules]));
    return escalationFindings({ namespaced: (ns) => byNs.get(ns) ?? [], cluster: perms.cluster }, releases.map((r) => ({ chart: r.chart, namespace: r.namespace, contents: HTK_CHART })));
  };

  test('the example site, airship', () => {
    const { spec } = defineSite().resolve();
    expect(check(OperatorApi.AIRSHIP_V1, spec, 'armada-operator-system')).toEqual([]);
  });

  const complete = corpusFiles().filter((f) => f.complete).map((f) => f.file);
  test.each(complete)('%s: airship, and keleustes where one namespace holds the site', (file) => {
    const { spec } = documentsToSpec(parseDocuments(readShared('corpus', file), file));
    expect(check(OperatorApi.AIRSHIP_V1, spec!, 'armada-operator-system')).toEqual([]);
    const keleustes = toKeleustesObjects(spec!, buildPlan(spec!));
    const ns = keleustes.objects.find((o) => o.kind === 'ArmadaManifest')?.metadata.namespace;
    if (keleustes.diagnostics.errors.length === 0 && ns !== undefined) expect(check(OperatorApi.KELEUSTES_V1ALPHA1, spec!, ns)).toEqual([]);
  });
});
