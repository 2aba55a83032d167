/**
 * The bundles of both operators across their options, byte for byte: the other tests assert
 * what each object means; this one makes any change of the written YAML (a restructuring that
 * is meant to change nothing, a dependency update) visible. After a deliberate change, rewrite
 * the files with `UPDATE_GOLDEN=1 npx jest test/cdk8s/operator/bundle-golden.test.ts` and review
 * their diff.
 */
import * as cdk8s from 'cdk8s';
import * as fs from 'fs';
import * as path from 'path';
import { defineSite } from '../../../examples/site';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../../src';
import { ArmadaOperatorProps, OperatorApi, ResourceKinds } from '../../../src/cdk8s';
import { operatorCrds } from '../../../src/cdk8s/operator/crds';
import { keleustesSite, synthOperator } from './helpers';
import { OperatorRbac, PodSecurityLevel, ReleaseNamespaceOutput, RoleEscalation } from '../../../src/cdk8s';

const GOLDEN = path.join(__dirname, 'golden');
const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures', 'operator');
const KELEUSTES = OperatorApi.KELEUSTES_V1ALPHA1;

function renderedSite() {
  const s = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
  const g = new ChartGroup(s, 'g', { sequenced: true });
  new Chart(g, 'ingress', { namespace: 'ingress', source: ChartSource.tar('https://charts.example.org/ingress-0.2.0.tgz') });
  new Chart(g, 'mariadb', { namespace: 'openstack', source: ChartSource.tar('https://charts.example.org/mariadb-0.2.0.tgz') });
  return s;
}

const ingressKinds = [...ResourceKinds.HELM_RELEASE, { apiGroup: 'networking.k8s.io', resource: 'ingressclasses', clusterScoped: true }];

/** Each case: the props of one bundle (a function, so that every run builds a fresh manifest). */
const CASES: Readonly<Record<string, () => Omit<ArmadaOperatorProps, 'onWarning'>>> = {
  // The example app's operator.
  'airship-example': () => ({ manifest: defineSite(), resourceKinds: { 'ingress-kube-system': ingressKinds, 'ingress-openstack': ingressKinds }, podSecurity: { openstack: PodSecurityLevel.PRIVILEGED } }),
  'airship-defaults': () => ({ manifest: defineSite() }),
  'airship-rendered-charts': () => ({
    manifest: renderedSite(),
    resourceKinds: {
      ingress: ResourceKinds.fromRenderedChart(path.join(FIXTURES, 'ingress', 'rendered.yaml')),
      mariadb: ResourceKinds.fromRenderedChart(path.join(FIXTURES, 'mariadb', 'rendered.yaml')),
    },
    sensitiveNamespaces: ['ingress'],
  }),
  'airship-escalate': () => ({ manifest: defineSite(), roleEscalation: RoleEscalation.ESCALATE, globalNetworkPolicyFallback: true, releaseNamespaceOutput: ReleaseNamespaceOutput.NONE }),
  'airship-release-namespaces': () => ({
    releaseNamespaces: ['one', 'two', 'one'],
    createNamespaces: false,
    namespace: 'ops',
    name: 'armada',
    probeBindAddress: '[$(POD_IP)]:8081',
    tmpSizeLimit: cdk8s.Size.gibibytes(1),
    user: 1000,
    group: 2000,
    readOnlyRootFilesystem: false,
    resources: { requests: { cpu: '1' } },
    liveness: { tcpSocket: { port: 8081 } },
    readiness: { exec: { command: ['true'] } },
    denyIngress: false,
    defaultResourceKinds: [{ apiGroup: '', resource: 'configmaps' }],
  }),
  'airship-cluster-wide': () => ({ rbac: OperatorRbac.CLUSTER_WIDE, replicas: 2, tag: 'latest', image: 'registry.example.org/armada-operator' }),
  'airship-cluster-admin': () => ({ rbac: OperatorRbac.CLUSTER_ADMIN, leaderElection: false, tag: 'sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', imagePullPolicy: 'Always' }),
  'keleustes-site': () => ({ api: KELEUSTES, manifest: keleustesSite() }),
  'keleustes-seed-image': () => ({ api: KELEUSTES, manifest: keleustesSite('kube-system'), namespace: 'kube-system', chartsSeedImage: 'registry.example.org/charts-seed:1', name: 'keleustes', replicas: 3, podSecurity: { 'kube-system': PodSecurityLevel.PRIVILEGED } }),
  'keleustes-no-manifest': () => ({ api: KELEUSTES, namespace: 'ops', defaultResourceKinds: [{ apiGroup: 'apps', resource: 'deployments' }], roleEscalation: RoleEscalation.ESCALATE, releaseNamespaceOutput: ReleaseNamespaceOutput.NONE, tag: 'latest-dev' }),
};

/**
 * The bundle as written by `cdk8s synth`, its release namespaces, and its warnings. The CRDs
 * (their own file, alone) are the committed ones, checked apart: written out they would be most
 * of every file.
 */
function render(props: Omit<ArmadaOperatorProps, 'onWarning'>): string {
  const { operator, warnings } = synthOperator(props);
  const chart = cdk8s.Chart.of(operator);
  const crds = operator.crdChart.toJson();
  expect(JSON.stringify(crds)).toBe(JSON.stringify(operatorCrds(operator.api)));
  const parts = [
    `# warnings\n${warnings.map((w) => `${w.code}: ${w.message}\n`).join('')}`,
    `# ${operator.crdChart.node.id}.k8s.yaml: ${crds.map((c) => c.metadata.name).join(', ')}\n`,
    `# ${chart.node.id}.k8s.yaml\n${cdk8s.Yaml.stringify(...chart.toJson())}`,
  ];
  if (operator.releaseNamespaceChart) parts.push(`# ${operator.releaseNamespaceChart.node.id}.k8s.yaml\n${cdk8s.Yaml.stringify(...operator.releaseNamespaceChart.toJson())}`);
  return parts.join('');
}

describe('operator bundles, byte for byte', () => {
  test('the golden files are exactly the cases', () => {
    const files = fs.existsSync(GOLDEN) ? fs.readdirSync(GOLDEN).sort() : [];
    if (process.env.UPDATE_GOLDEN) {
      for (const f of files) if (!(f.replace(/\.txt$/, '') in CASES)) fs.rmSync(path.join(GOLDEN, f));
      return;
    }
    expect(files).toEqual(Object.keys(CASES).map((c) => `${c}.txt`).sort());
  });

  test.each(Object.keys(CASES))('%s', (name) => {
    const out = render(CASES[name]());
    const file = path.join(GOLDEN, `${name}.txt`);
    if (process.env.UPDATE_GOLDEN) {
      fs.mkdirSync(GOLDEN, { recursive: true });
      fs.writeFileSync(file, out);
    }
    expect(out).toBe(fs.readFileSync(file, 'utf8'));
  });
});
