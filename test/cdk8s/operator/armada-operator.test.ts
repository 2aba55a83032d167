import * as cdk8s from 'cdk8s';
import * as fs from 'fs';
import * as yaml from 'js-yaml';
import * as os from 'os';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { defineSite } from '../../../examples/site';
import { ArmadaManifest, Chart, ChartGroup } from '../../../src';
import { ArmadaChartOutput, ArmadaOperator, OperatorApi } from '../../../src/cdk8s';
import { operatorCrds } from '../../../src/cdk8s/operator/crds';
import { base } from '../../helpers/site';
import { bundleErrors } from './bundle-checks';
import { crdDefinitionErrors } from './crd-checks';
import { ids, keleustesSite, rbacOf, synthOperator } from './helpers';
import { kubernetesSchemaErrors } from './k8s-schemas';
import { OperatorRbac, PodSecurityLevel, ReleaseNamespaceOutput } from '../../../src/cdk8s';

const CRDS = path.resolve(__dirname, '..', '..', '..', 'src', 'cdk8s', 'operator', 'crds');
const committed = (f: string) => JSON.parse(fs.readFileSync(path.join(CRDS, f), 'utf8'));
const deploymentOf = (objects: any[]) => objects.find((o) => o.kind === 'Deployment');
const containerOf = (objects: any[]) => deploymentOf(objects).spec.template.spec.containers[0];

/**
 * The acceptance checks of any bundle, its CRDs and release namespaces: Kubernetes 1.28 schemas,
 * CRD rules, cross-object rules. The bundle holds no CRD: deleting it must leave them.
 */
function expectAppliable(objects: any[], namespaces: any[] = [], version: '28' | '33' = '28', crds: any[] = []) {
  for (const o of [...crds, ...namespaces, ...objects]) expect([ids([o])[0], kubernetesSchemaErrors(o, version)]).toEqual([ids([o])[0], []]);
  for (const o of crds) expect(crdDefinitionErrors(o)).toEqual([]);
  expect(objects.filter((o) => o.kind === 'CustomResourceDefinition')).toEqual([]);
  expect(bundleErrors(crds)).toEqual([]);
  expect(bundleErrors(namespaces)).toEqual([]);
  expect(bundleErrors(objects, namespaces)).toEqual([]);
}

describe('ArmadaOperator bundle', () => {
  test('airship, example site: everything kubectl apply needs, in a safe order, valid against Kubernetes 1.28; release namespaces apart', () => {
    const { objects, warnings, namespaces, crds } = synthOperator({ manifest: defineSite() });
    // Deleting the bundle must never delete a site: release namespaces and CRDs are in files of their own.
    expect(ids(namespaces)).toEqual(['Namespace openstack']);
    expect(ids(crds)).toEqual(['CustomResourceDefinition armadacharts.armada.airshipit.org']);
    expect(namespaces[0].metadata.labels).toEqual({ 'pod-security.kubernetes.io/audit': 'restricted', 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' });
    expect(objects[0].metadata.labels).toEqual({ 'pod-security.kubernetes.io/audit': 'restricted', 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'restricted' });
    expect(ids(objects)).toEqual([
      'Namespace armada-operator-system',
      'ServiceAccount armada-operator-system/armada-operator',
      'Role armada-operator-system/armada-operator-leader-election',
      'RoleBinding armada-operator-system/armada-operator-leader-election',
      'Role kube-system/armada-operator',
      'RoleBinding kube-system/armada-operator',
      'Role openstack/armada-operator',
      'RoleBinding openstack/armada-operator',
      'ClusterRole armada-operator-armada-operator-system',
      'ClusterRoleBinding armada-operator-armada-operator-system',
      'NetworkPolicy armada-operator-system/armada-operator-deny-ingress',
      'Deployment armada-operator-system/armada-operator',
    ]);
    expect(warnings.map((w) => w.code)).toEqual(['sensitive-namespace', 'default-kinds']);
    expect(warnings[0].message).toBe(
      'charts "ingress-kube-system" install into namespace "kube-system": the operator gets Secrets, ServiceAccounts and Roles there, which in kube-system (the tokens of the cluster\'s own controllers) is close to cluster-admin for anyone who can create an ArmadaChart; move those releases to a namespace of their own',
    );
    expect(warnings[1].message).toMatch(/^charts "ingress-kube-system", "ingress-openstack", "mariadb", .* use the default kind list, a guess of what an OpenStack-Helm chart creates: configmaps, .* and helm-toolkit's dependency-check Roles \(get, list on daemonsets, endpoints, jobs, pods, secrets, services\); anything else they create .* fails to install with Forbidden; read each chart rendered with resourceKinds/);
    expect(objects.find((o) => o.kind === 'NetworkPolicy').spec).toEqual({ podSelector: { matchLabels: { 'app.kubernetes.io/component': 'operator', 'app.kubernetes.io/name': 'armada-operator' } }, policyTypes: ['Ingress'] });
    expectAppliable(objects, namespaces, '28', crds);
    // The CRD is the generated one, byte for byte.
    expect(crds[0]).toEqual(committed('airship-v1-armadacharts.json'));
    for (const b of objects.filter((o) => o.kind.endsWith('Binding'))) {
      expect(b.subjects).toEqual([{ apiGroup: '', kind: 'ServiceAccount', name: 'armada-operator', namespace: 'armada-operator-system' }]);
    }
  });

  test('airship Deployment: pinned noble image, probes on the pod IP only, Helm-sized resources, a bounded /tmp, a hardened pod', () => {
    const { objects } = synthOperator({ manifest: defineSite() });
    const d = deploymentOf(objects);
    expect(d.spec.replicas).toBe(1);
    expect(d.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/component': 'operator', 'app.kubernetes.io/name': 'armada-operator' } });
    const pod = d.spec.template.spec;
    expect([pod.serviceAccountName, pod.automountServiceAccountToken, pod.terminationGracePeriodSeconds]).toEqual(['armada-operator', true, 10]);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532 });
    expect(pod.volumes).toEqual([{ emptyDir: { sizeLimit: '512Mi' }, name: 'tmp' }]);
    const c = containerOf(objects);
    expect(c).toMatchObject({
      name: 'manager',
      image: 'quay.io/airshipit/armada-operator:3305eeda772b96142c6844b70e44c9db83f4e265-ubuntu_noble',
      imagePullPolicy: 'IfNotPresent',
      command: ['/manager'],
      args: ['--health-probe-bind-address=$(POD_IP):8081', '--metrics-bind-address=127.0.0.1:8080', '--leader-elect'],
      env: [
        { name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      ],
      resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m', memory: '256Mi' } },
      volumeMounts: [{ mountPath: '/tmp', name: 'tmp' }],
    });
    expect(c.livenessProbe).toMatchObject({ httpGet: { path: '/healthz', port: 8081 }, initialDelaySeconds: 15, periodSeconds: 20 });
    expect(c.readinessProbe).toMatchObject({ httpGet: { path: '/readyz', port: 8081 }, initialDelaySeconds: 5, periodSeconds: 10 });
    expect(c.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      privileged: false,
      readOnlyRootFilesystem: true,
      runAsGroup: 65532,
      runAsNonRoot: true,
      runAsUser: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
    });
  });

  test('keleustes: three apiextensions v1 CRDs, the manifest\'s namespace, WATCH_NAMESPACE, no cluster permissions', () => {
    const { objects, namespaces, crds } = synthOperator({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite(), readOnlyRootFilesystem: false });
    // Its namespace is its releases': a release namespace, not the bundle's.
    expect(ids(namespaces)).toEqual(['Namespace openstack']);
    expect(ids(crds)).toEqual([
      'CustomResourceDefinition armadacharts.armada.airshipit.org',
      'CustomResourceDefinition armadachartgroups.armada.airshipit.org',
      'CustomResourceDefinition armadamanifests.armada.airshipit.org',
    ]);
    expect(ids(objects)).toEqual([
      'ServiceAccount openstack/armada-operator',
      'Role openstack/armada-operator-leader-election',
      'RoleBinding openstack/armada-operator-leader-election',
      'Role openstack/armada-operator',
      'RoleBinding openstack/armada-operator',
      'NetworkPolicy openstack/armada-operator-deny-ingress',
      'Deployment openstack/armada-operator',
    ]);
    // The image volume that seeds the charts directory needs Kubernetes 1.33's schema.
    expectAppliable(objects, namespaces, '33', crds);
    expect(crds).toEqual(['armadacharts', 'armadachartgroups', 'armadamanifests'].map((p) => committed(`keleustes-v1alpha1-${p}.json`)));
    const c = containerOf(objects);
    expect(c).toMatchObject({ name: 'armada-operator', image: 'keleustes/armada-operator-dev:v2.14.1', imagePullPolicy: 'IfNotPresent', command: ['/usr/local/bin/armada-operator'] });
    expect(c.args).toBeUndefined();
    expect(c.env).toEqual([
      { name: 'WATCH_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'OPERATOR_NAME', value: 'armada-operator' },
    ]);
    expect([c.livenessProbe, c.readinessProbe, c.securityContext.readOnlyRootFilesystem]).toEqual([undefined, undefined, false]);
  });

  test('keleustes: /opt/armada/helm-charts is a writable emptyDir seeded with the image\'s own content, root filesystem read-only', () => {
    const { objects } = synthOperator({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite() });
    const pod = deploymentOf(objects).spec.template.spec;
    expect(pod.volumes).toEqual([
      { name: 'tmp', emptyDir: { sizeLimit: '512Mi' } },
      { name: 'helm-charts', emptyDir: { sizeLimit: '2Gi' } },
      { name: 'operator-image', image: { reference: 'keleustes/armada-operator-dev:v2.14.1', pullPolicy: 'IfNotPresent' } },
    ]);
    expect(pod.initContainers).toHaveLength(1);
    const init = pod.initContainers[0];
    expect([init.name, init.image, init.command, init.volumeMounts]).toEqual([
      'seed-helm-charts',
      'docker.io/library/busybox:1.37.0',
      ['cp', '-R', '/image/.', '/opt/armada/helm-charts/'],
      [{ name: 'operator-image', mountPath: '/image', readOnly: true, subPath: 'opt/armada/helm-charts' }, { name: 'helm-charts', mountPath: '/opt/armada/helm-charts' }],
    ]);
    const c = containerOf(objects);
    expect(c.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }, { name: 'helm-charts', mountPath: '/opt/armada/helm-charts' }]);
    expect(c.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(init.securityContext).toEqual(c.securityContext);

    // What the operator does there: git and tar caches are temp dirs created directly in the
    // directory (ioutil.TempDir(HELM_CHARTS, "git-cache")), helm-toolkit is copied from
    // dependency-cache/helm-toolkit-0.1.0.tgz into charts with dependencies. Run the seed command
    // over a stand-in of the image and check both, as the operator's user.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-seed-'));
    const image = path.join(root, 'image');
    fs.mkdirSync(path.join(image, 'dependency-cache'), { recursive: true });
    fs.writeFileSync(path.join(image, 'dependency-cache', 'helm-toolkit-0.1.0.tgz'), 'tgz');
    fs.mkdirSync(path.join(image, 'testchart'));
    fs.writeFileSync(path.join(image, 'testchart', 'Chart.yaml'), 'name: testchart\n');
    fs.chmodSync(path.join(image, 'testchart'), 0o555);
    const charts = path.join(root, 'helm-charts');
    fs.mkdirSync(charts);
    const mapped = init.command.map((a: string) => a.replace('/image/', `${image}/`).replace('/opt/armada/helm-charts/', `${charts}/`));
    execFileSync(mapped[0], mapped.slice(1));
    const git = fs.mkdtempSync(path.join(charts, 'git-cache'));
    const tar = fs.mkdtempSync(path.join(charts, 'tar-cache'));
    fs.mkdirSync(path.join(git, 'mariadb', 'charts'), { recursive: true });
    fs.copyFileSync(path.join(charts, 'dependency-cache', 'helm-toolkit-0.1.0.tgz'), path.join(git, 'mariadb', 'charts', 'helm-toolkit-0.1.0.tgz'));
    expect([fs.existsSync(path.join(tar)), fs.readFileSync(path.join(git, 'mariadb', 'charts', 'helm-toolkit-0.1.0.tgz'), 'utf8'), fs.existsSync(path.join(charts, 'testchart', 'Chart.yaml'))]).toEqual([true, 'tgz', true]);
    fs.chmodSync(path.join(image, 'testchart'), 0o755);
    fs.rmSync(root, { recursive: true, force: true });

    // A seed image of one's own (the image's charts plus cp): no image volume.
    const own = synthOperator({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite(), chartsSeedImage: 'registry.example.org/keleustes-charts:v2.14.1' });
    const ownPod = deploymentOf(own.objects).spec.template.spec;
    expect(ownPod.volumes.map((v: any) => v.name)).toEqual(['tmp', 'helm-charts']);
    expect(ownPod.initContainers[0]).toMatchObject({ image: 'registry.example.org/keleustes-charts:v2.14.1', command: ['cp', '-R', '/opt/armada/helm-charts/.', '/seed/'], volumeMounts: [{ name: 'helm-charts', mountPath: '/seed' }] });
    expectAppliable(own.objects, own.namespaces);
  });

  test('image, tag, digest, pull policy, replicas, leader election, probes, user and namespace are props', () => {
    const probe = { tcpSocket: { port: 9000 } };
    const { objects, namespaces } = synthOperator({
      manifest: defineSite(),
      image: 'registry.example.org/armada-operator',
      tag: 'sha256:' + 'a'.repeat(64),
      replicas: 2,
      namespace: 'ucp',
      name: 'armada',
      liveness: probe,
      user: 1000,
      group: 2000,
    });
    const c = containerOf(objects);
    expect([c.image, c.imagePullPolicy]).toEqual([`registry.example.org/armada-operator@sha256:${'a'.repeat(64)}`, 'IfNotPresent']);
    expect(c.livenessProbe.tcpSocket).toEqual({ port: 9000 });
    expect([c.securityContext.runAsUser, c.securityContext.runAsGroup]).toEqual([1000, 2000]);
    expect(deploymentOf(objects).spec.replicas).toBe(2);
    expect(ids(objects).filter((i) => /^(ServiceAccount|Deployment|ClusterRole) /.test(i))).toEqual(['ServiceAccount ucp/armada', 'ClusterRole armada-ucp', 'Deployment ucp/armada']);
    expectAppliable(objects, namespaces);

    const noLeader = synthOperator({ manifest: defineSite(), leaderElection: false, tag: 'v1.2.3', probeBindAddress: '[$(POD_IP)]:8081' });
    expect(containerOf(noLeader.objects).args).toEqual(['--health-probe-bind-address=[$(POD_IP)]:8081', '--metrics-bind-address=127.0.0.1:8080']);
    expect(containerOf(noLeader.objects).imagePullPolicy).toBe('IfNotPresent');
    expect(ids(noLeader.objects).some((i) => i.includes('leader-election'))).toBe(false);
  });

  test('createNamespaces false leaves the operator\'s Namespace out; releaseNamespaceOutput none writes no release namespace', () => {
    const { objects, namespaces, operator } = synthOperator({ manifest: defineSite(), createNamespaces: false, releaseNamespaceOutput: ReleaseNamespaceOutput.NONE, podSecurity: { openstack: PodSecurityLevel.PRIVILEGED } });
    expect([objects.filter((o) => o.kind === 'Namespace'), namespaces, operator.releaseNamespaceChart]).toEqual([[], [], undefined]);
    expect(objects).toHaveLength(11);
    const privileged = synthOperator({ manifest: defineSite(), podSecurity: { openstack: PodSecurityLevel.PRIVILEGED } });
    expect(privileged.namespaces[0].metadata.labels['pod-security.kubernetes.io/enforce']).toBe('privileged');
  });

  test('cluster-admin: one binding to the built-in role, and a warning that says why it is unsafe', () => {
    const { objects, warnings } = synthOperator({ manifest: defineSite(), rbac: OperatorRbac.CLUSTER_ADMIN });
    expect(ids(objects)).toEqual([
      'Namespace armada-operator-system',
      'ServiceAccount armada-operator-system/armada-operator',
      'ClusterRoleBinding armada-operator-armada-operator-system-cluster-admin',
      'NetworkPolicy armada-operator-system/armada-operator-deny-ingress',
      'Deployment armada-operator-system/armada-operator',
    ]);
    expect(objects[2].roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' });
    expect(warnings.filter((w) => w.code !== 'sensitive-namespace').map((w) => [w.severity, w.code, w.message])).toEqual([
      [
        'warning',
        'cluster-admin',
        'rbac "cluster-admin" binds the operator to cluster-admin: anyone who can create an ArmadaChart, or reach the operator\'s pod or token, controls the whole cluster; prefer the least-privilege default (give the manifest)',
      ],
    ]);
    expectAppliable(objects);
  });

  test('misuse throws at once, naming the fix', () => {
    const app = new cdk8s.App();
    const chart = new cdk8s.Chart(app, 'c');
    const make = (props: object, scope: any = chart) => () => new ArmadaOperator(scope, `op-${Math.random()}`.replace('.', ''), props);
    expect(make({})).toThrow(/no manifest, so least-privilege RBAC cannot be derived: give the manifest, or releaseNamespaces, or choose rbac OperatorRbac.CLUSTER_WIDE \(broad, no wildcard\) or OperatorRbac.CLUSTER_ADMIN \(unsafe\)/);
    expect(make({ rbac: OperatorRbac.LEAST_PRIVILEGE })).toThrow(/least-privilege RBAC needs the manifest \(or releaseNamespaces\)/);
    expect(make({ api: OperatorApi.KELEUSTES_V1ALPHA1 })).toThrow(/the keleustes operator watches only its own namespace: give the manifest \(its namespace is used\) or namespace/);
    expect(make({ api: OperatorApi.KELEUSTES_V1ALPHA1, namespace: 'x', leaderElection: false })).toThrow(/leaderElection false: the keleustes operator always takes its ConfigMap lock/);
    expect(make({ api: OperatorApi.KELEUSTES_V1ALPHA1, namespace: 'x', rbac: OperatorRbac.CLUSTER_ADMIN })).toThrow(/rbac "cluster-admin": the keleustes operator works in one namespace only/);
    expect(make({ manifest: defineSite(), replicas: 2, leaderElection: false })).toThrow(/replicas 2 with leaderElection false: several operators would reconcile the same releases at once/);
    expect(make({ manifest: defineSite(), replicas: 1.5 })).toThrow(/replicas 1.5: must be a whole number/);
    expect(make({ rbac: OperatorRbac.CLUSTER_WIDE, resourceKinds: {} })).toThrow(/resourceKinds apply to least-privilege RBAC derived from a manifest/);
    expect(make({ rbac: OperatorRbac.CLUSTER_WIDE, releaseNamespaces: ['a'] })).toThrow(/releaseNamespaces apply to least-privilege RBAC only/);
    expect(make({ manifest: defineSite(), name: 'Armada' })).toThrow(/name "Armada": must be a DNS-1123 label/);
    // Kubernetes' label limit: the name is also the pods' app.kubernetes.io/name label value.
    const long = 'a'.repeat(64);
    expect(make({ manifest: defineSite(), name: long })).toThrow(new RegExp(`^ArmadaOperator c/op-[^:]+: name "${long}": is 64 characters long; at most 63 are allowed$`));
    expect(make({ manifest: defineSite(), namespace: long })).toThrow(new RegExp(`^ArmadaOperator c/op-[^:]+: namespace "${long}": is 64 characters long; at most 63 are allowed$`));
    expect(make({ manifest: defineSite(), name: 'a'.repeat(63), namespace: 'b'.repeat(63) })).not.toThrow();
    expect(make({ manifest: {} })).toThrow(/props.manifest must be an ArmadaManifest/);
    expect(make({ manifest: defineSite() }, new cdk8s.App())).toThrow(/must be created inside a cdk8s Chart/);
    expect(make({ api: OperatorApi.KELEUSTES_V1ALPHA1, namespace: 'x', globalNetworkPolicyFallback: true })).toThrow(/globalNetworkPolicyFallback: only the airship operator has that fallback/);
    expect(make({ manifest: defineSite(), chartsSeedImage: 'x' })).toThrow(/chartsSeedImage: only the keleustes operator writes under \/opt\/armada\/helm-charts/);
    expect(make({ manifest: defineSite(), podSecurity: { openstack: 'strict' } })).toThrow(/podSecurity\["openstack"\] "strict": use PodSecurityLevel.PRIVILEGED, BASELINE or RESTRICTED/);
  });

  test('synthesis errors: an unknown chart in resourceKinds, keleustes namespaces, an invalid manifest', () => {
    const synthError = (props: object) => {
      try {
        synthOperator(props);
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    };
    expect(synthError({ manifest: defineSite(), resourceKinds: { 'mariadbb': [] } })).toContain(
      'resourceKinds names "mariadbb", which the manifest does not deploy; its deployed charts are "ingress-kube-system", "ingress-openstack", "mariadb"',
    );
    expect(synthError({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: defineSite() })).toMatch(/chart group "ingress" has charts in namespaces "kube-system", "openstack"/);
    expect(synthError({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite(), namespace: 'ucp' })).toContain(
      'namespace "ucp": the keleustes operator watches only its own namespace, and the manifest\'s objects are in "openstack"; leave namespace unset or set it to "openstack"',
    );
    const broken = new ArmadaManifest(undefined, 'broken', { releasePrefix: 'p' });
    new Chart(new ChartGroup(broken, 'g'), 'c', { ...base('c'), namespace: 'Not_A_Namespace' });
    expect(synthError({ manifest: broken })).toMatch(/broken\/g\/c: namespace/);
  });

  test('the manifest is read when the app is synthesized, not when the operator is created', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'a', base('a', 'one'));
    const app = new cdk8s.App();
    const chart = new cdk8s.Chart(app, 'operator');
    new ArmadaOperator(chart, 'op', { manifest: site, onWarning: () => undefined });
    new Chart(g, 'b', base('b', 'two'));
    expect(ids(cdk8s.Testing.synth(chart)).filter((i) => i.startsWith('Role '))).toEqual(['Role armada-operator-system/armada-operator-leader-election', 'Role one/armada-operator', 'Role two/armada-operator']);
  });

  test('both operators define armadacharts.armada.airshipit.org: mixing them in one app is reported at synth', () => {
    const synthErrors = (build: (app: cdk8s.App) => void) => {
      const app = new cdk8s.App();
      build(app);
      try {
        app.synth();
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    };
    const quiet = { onWarning: () => undefined };
    const twoOperators = synthErrors((app) => {
      new ArmadaOperator(new cdk8s.Chart(app, 'airship'), 'op', { manifest: defineSite(), ...quiet });
      new ArmadaOperator(new cdk8s.Chart(app, 'keleustes'), 'op', { api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite(), ...quiet });
    });
    expect(twoOperators).toContain(
      'api "armada.airshipit.org/v1": the ArmadaOperator keleustes/op uses "armada.airshipit.org/v1alpha1", and both operators define the CRD armadacharts.armada.airshipit.org (versions v1 and v1alpha1): applying one replaces the other\'s, and the API server refuses it once CRs are stored; use one operator per cluster',
    );
    const otherOutput = synthErrors((app) => {
      new ArmadaOperator(new cdk8s.Chart(app, 'operator'), 'op', { manifest: defineSite(), ...quiet });
      new ArmadaChartOutput(new cdk8s.Chart(app, 'crs'), 'crs', { manifest: keleustesSite(), api: OperatorApi.KELEUSTES_V1ALPHA1, ...quiet });
    });
    expect(otherOutput).toContain('the ArmadaChartOutput crs/crs uses "armada.airshipit.org/v1alpha1"');
    // The same API on both sides is fine.
    expect(synthErrors((app) => {
      new ArmadaOperator(new cdk8s.Chart(app, 'operator'), 'op', { manifest: defineSite(), ...quiet });
      new ArmadaChartOutput(new cdk8s.Chart(app, 'crs'), 'crs', { manifest: defineSite(), ...quiet });
    })).toBe('');
  });

  test('airship GlobalNetworkPolicy fallback: granted only when asked', () => {
    const without = synthOperator({ manifest: defineSite() });
    expect(JSON.stringify(Object.values(rbacOf(without.objects)))).not.toMatch(/armada-gnp|globalnetworkpolicies/);
    const { objects } = synthOperator({ manifest: defineSite(), globalNetworkPolicyFallback: true });
    const rbac = rbacOf(objects);
    expect(rbac['Role armada-operator-system/armada-operator']).toEqual(['core configmaps[armada-gnp]: get']);
    expect(rbac['ClusterRole armada-operator-armada-operator-system']).toContain('projectcalico.org globalnetworkpolicies: get,create,delete');
  });

  test('namespaces marked sensitive warn like kube-system', () => {
    const { warnings } = synthOperator({ manifest: defineSite(), sensitiveNamespaces: ['openstack'] });
    expect(warnings.filter((w) => w.code === 'sensitive-namespace').map((w) => w.message.split(':')[0])).toEqual(['charts "ingress-kube-system" install into namespace "kube-system"', expect.stringMatching(/^charts "ingress-openstack", "mariadb", .* install into namespace "openstack"$/)]);
    expect(warnings.find((w) => w.message.includes('"openstack": '))!.message).toContain('which in a namespace marked sensitive is close to cluster-admin');
  });

  test('operatorCrds gives copies: a caller cannot change the bundle\'s CRDs', () => {
    const [crd] = operatorCrds(OperatorApi.AIRSHIP_V1);
    (crd.metadata as { name: string }).name = 'changed';
    expect(operatorCrds(OperatorApi.AIRSHIP_V1)[0].metadata.name).toBe('armadacharts.armada.airshipit.org');
    expect(operatorCrds(OperatorApi.KELEUSTES_V1ALPHA1).map((c) => c.metadata.name)).toEqual([
      'armadacharts.armada.airshipit.org',
      'armadachartgroups.armada.airshipit.org',
      'armadamanifests.armada.airshipit.org',
    ]);
  });
});

describe('the release-namespace chart', () => {
  /** `cdk8s synth` of an app with the operator: the files written, and the operator. */
  function synthFiles(props: ConstructorParameters<typeof ArmadaOperator>[2], fill?: (operator: ArmadaOperator) => void) {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-ns-chart-'));
    try {
      const app = new cdk8s.App({ outdir });
      const operator = new ArmadaOperator(new cdk8s.Chart(app, 'operator'), 'armada-operator', { ...props, onWarning: () => undefined });
      fill?.(operator);
      app.synth();
      return { files: fs.readdirSync(outdir).sort(), operator, text: (f: string) => fs.readFileSync(path.join(outdir, f), 'utf8') };
    } finally {
      setImmediate(() => fs.rmSync(outdir, { recursive: true, force: true }));
    }
  }

  test('every release in a system namespace: no empty file (kubectl apply refuses one), and no chart', () => {
    const { files, operator } = synthFiles({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite('kube-system') });
    expect(files).toEqual(['operator-crds.k8s.yaml', 'operator.k8s.yaml']);
    expect(operator.releaseNamespaceChart).toBeUndefined();
  });

  test('releases in other namespaces: their Namespaces, in the file of their own', () => {
    const { files, operator, text } = synthFiles({ manifest: defineSite() });
    expect(files).toEqual(['operator-crds.k8s.yaml', 'operator-release-namespaces.k8s.yaml', 'operator.k8s.yaml']);
    expect(operator.releaseNamespaceChart).toBeDefined();
    const written = ids(yaml.loadAll(text('operator-release-namespaces.k8s.yaml')) as any[]);
    expect(written.length).toBeGreaterThan(0);
    expect(written.every((i) => i.startsWith('Namespace ') && i !== `Namespace ${operator.namespace}`)).toBe(true);
  });

  test('a construct of the user already named <chart>-crds or <chart>-release-namespaces: an error that says the operator needs the name', () => {
    for (const [taken, what] of [['operator-crds', 'CRDs'], ['operator-release-namespaces', 'release namespaces']] as const) {
      const app = new cdk8s.App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-taken-')) });
      new cdk8s.Chart(app, taken);
      expect(() => new ArmadaOperator(new cdk8s.Chart(app, 'operator'), 'armada-operator', { manifest: defineSite(), onWarning: () => undefined })).toThrow(
        `ArmadaOperator operator/armada-operator: the construct ${taken} has the id "${taken}", which the operator needs for its chart of ${what} (written to ${taken}.k8s.yaml beside the chart operator); rename that construct, or create the ArmadaOperator in a chart of another name`,
      );
      fs.rmSync(app.outdir, { recursive: true, force: true });
    }
  });

  test('a chart the user added to is kept, with what they added', () => {
    const { files, text } = synthFiles({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite('kube-system') }, (operator) => {
      new cdk8s.ApiObject(operator.releaseNamespaceChart!, 'quota', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'site', namespace: 'kube-system' } });
    });
    expect(files).toEqual(['operator-crds.k8s.yaml', 'operator-release-namespaces.k8s.yaml', 'operator.k8s.yaml']);
    expect(ids(yaml.loadAll(text('operator-release-namespaces.k8s.yaml')) as any[])).toEqual(['ResourceQuota kube-system/site']);
  });
});

/**
 * Two operators of one API in one app: they would reconcile the same custom resources (airship:
 * every namespace; keleustes: its own), and their bundles write the same objects.
 */
describe('two ArmadaOperators of one API', () => {
  const quiet = { onWarning: () => undefined };
  const KELEUSTES = OperatorApi.KELEUSTES_V1ALPHA1;
  /** The lines of the synth error (none when it succeeds), and the files written. */
  function synth(build: (app: cdk8s.App) => void) {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-two-operators-'));
    try {
      const app = new cdk8s.App({ outdir });
      build(app);
      let errors: string[] = [];
      try {
        app.synth();
      } catch (e) {
        errors = (e as Error).message.split('\n').slice(1).map((l) => l.trim());
      }
      const files = fs.readdirSync(outdir).sort();
      const texts = new Map(files.map((f) => [f, fs.readFileSync(path.join(outdir, f), 'utf8')]));
      return { errors, files, text: (f: string) => texts.get(f) ?? '' };
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  }

  test('airship, the same bundle twice: both paths and the API, and the objects both write; no file written', () => {
    const { errors, files } = synth((app) => {
      new ArmadaOperator(new cdk8s.Chart(app, 'one'), 'op', { manifest: defineSite(), ...quiet });
      new ArmadaOperator(new cdk8s.Chart(app, 'two'), 'op', { manifest: defineSite(), ...quiet });
    });
    expect(errors).toEqual([
      "[] the ArmadaOperator two/op (api armada.airshipit.org/v1) writes ServiceAccount armada-operator-system/armada-operator, NetworkPolicy armada-operator-system/armada-operator-deny-ingress, Deployment armada-operator-system/armada-operator, which the ArmadaOperator one/op (api armada.airshipit.org/v1) writes as well, into two's file and one's: applied, one would replace the other, and kubectl delete -f of either file would delete the other's; give them different names or namespaces, or write them once",
      '[two/op] api "armada.airshipit.org/v1": the ArmadaOperator one/op installs the same operator, and both would reconcile every ArmadaChart of the cluster (it watches every namespace), each installing and upgrading every release against the other; create one airship ArmadaOperator per cluster',
    ]);
    expect(files).toEqual([]);
  });

  test('airship, other names and namespaces: still one too many, since each watches every namespace', () => {
    const { errors } = synth((app) => {
      new ArmadaOperator(new cdk8s.Chart(app, 'one'), 'op', { manifest: defineSite(), ...quiet });
      new ArmadaOperator(new cdk8s.Chart(app, 'two'), 'op', { manifest: defineSite(), name: 'other', namespace: 'ops', ...quiet });
    });
    expect(errors).toEqual([expect.stringMatching(/^\[two\/op\] api "armada.airshipit.org\/v1": the ArmadaOperator one\/op installs the same operator/)]);
  });

  test('keleustes in two namespaces are distinct: one CRD file, shared; in one namespace they clash', () => {
    const apart = synth((app) => {
      new ArmadaOperator(new cdk8s.Chart(app, 'tenant-a'), 'op', { api: KELEUSTES, manifest: keleustesSite('a'), ...quiet });
      new ArmadaOperator(new cdk8s.Chart(app, 'tenant-b'), 'op', { api: KELEUSTES, manifest: keleustesSite('b'), ...quiet });
    });
    expect(apart.errors).toEqual([]);
    expect(apart.files).toEqual(['tenant-a-crds.k8s.yaml', 'tenant-a-release-namespaces.k8s.yaml', 'tenant-a.k8s.yaml', 'tenant-b-release-namespaces.k8s.yaml', 'tenant-b.k8s.yaml']);
    expect(ids(yaml.loadAll(apart.text('tenant-a-crds.k8s.yaml')) as any[])).toEqual(operatorCrds(KELEUSTES).map((c) => `CustomResourceDefinition ${c.metadata.name}`));

    const together = synth((app) => {
      new ArmadaOperator(new cdk8s.Chart(app, 'tenant-a'), 'op', { api: KELEUSTES, manifest: keleustesSite('a'), ...quiet });
      new ArmadaOperator(new cdk8s.Chart(app, 'tenant-b'), 'op', { api: KELEUSTES, manifest: keleustesSite('a'), name: 'other', ...quiet });
    });
    expect(together.errors).toEqual([
      '[tenant-b/op] api "armada.airshipit.org/v1alpha1": the ArmadaOperator tenant-a/op installs the same operator, and both would reconcile every custom resource of namespace "a", which both watch, each installing and upgrading every release against the other; give each operator (and its manifest) a namespace of its own',
    ]);
  });

  test('an object of the bundle that another file writes too: both paths, whatever wrote the other', () => {
    const { errors } = synth((app) => {
      new ArmadaOperator(new cdk8s.Chart(app, 'operator'), 'op', { api: KELEUSTES, manifest: keleustesSite('a'), ...quiet });
      new cdk8s.ApiObject(new cdk8s.Chart(app, 'mine'), 'sa', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'armada-operator', namespace: 'a' } });
      new cdk8s.ApiObject(new cdk8s.Chart(app, 'crds'), 'crd', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'armadacharts.armada.airshipit.org' } });
    });
    expect(errors).toEqual([
      "[] mine/sa writes ServiceAccount a/armada-operator, which the ArmadaOperator operator/op (api armada.airshipit.org/v1alpha1) writes as well, into mine's file and operator's: applied, one would replace the other, and kubectl delete -f of either file would delete the other's; give them different names or namespaces, or write them once",
      "[] crds/crd writes CustomResourceDefinition armadacharts.armada.airshipit.org, which the ArmadaOperator operator/op (api armada.airshipit.org/v1alpha1) writes as well, into crds's file and operator-crds's: applied, one would replace the other, and kubectl delete -f of either file would delete the other's; give them different names or namespaces, or write them once",
    ]);
  });

  test('two in one chart are refused at once, naming both', () => {
    const chart = new cdk8s.Chart(new cdk8s.App(), 'operator');
    new ArmadaOperator(chart, 'first', { manifest: defineSite(), ...quiet });
    expect(() => new ArmadaOperator(chart, 'second', { api: KELEUSTES, manifest: keleustesSite(), ...quiet })).toThrow(
      'ArmadaOperator operator/second: the chart operator already holds the ArmadaOperator operator/first; create each ArmadaOperator in a cdk8s.Chart of its own (the files of its CRDs and release namespaces are named after that chart)',
    );
  });
});

/**
 * An operator whose namespace holds releases: `kubectl delete -f` of the bundle prunes every
 * object in it, a Namespace with all its contents, and Pod Security admission refuses the pods
 * the namespace's `enforce` level forbids. So that Namespace belongs with the release namespaces.
 */
describe('an operator namespace that holds releases', () => {
  const PSA = (enforce: string) => ({ 'pod-security.kubernetes.io/audit': 'restricted', 'pod-security.kubernetes.io/enforce': enforce, 'pod-security.kubernetes.io/warn': 'restricted' });
  /** Each file `cdk8s synth` writes: its objects as `kind namespace/name`, and the Namespaces' labels. */
  function outputs(props: ConstructorParameters<typeof ArmadaOperator>[2]) {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-shared-ns-'));
    try {
      const app = new cdk8s.App({ outdir });
      new ArmadaOperator(new cdk8s.Chart(app, 'operator'), 'armada-operator', { ...props, onWarning: () => undefined });
      app.synth();
      const files: Record<string, { ids: string[]; namespaces: Record<string, Record<string, string>>; objects: any[] }> = {};
      for (const f of fs.readdirSync(outdir).sort()) {
        const objects = (yaml.loadAll(fs.readFileSync(path.join(outdir, f), 'utf8')) as any[]).filter((o) => o.kind !== 'CustomResourceDefinition');
        files[f] = { ids: ids(objects), namespaces: Object.fromEntries(objects.filter((o) => o.kind === 'Namespace').map((o) => [o.metadata.name, o.metadata.labels])), objects };
      }
      return files;
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  }

  test('keleustes, namespace from the manifest: the bundle holds no Namespace; openstack is a release namespace (baseline), in its own file', () => {
    const files = outputs({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite() });
    expect(Object.keys(files)).toEqual(['operator-crds.k8s.yaml', 'operator-release-namespaces.k8s.yaml', 'operator.k8s.yaml']);
    expect(files['operator-release-namespaces.k8s.yaml'].ids).toEqual(['Namespace openstack']);
    expect(files['operator-release-namespaces.k8s.yaml'].namespaces).toEqual({ openstack: PSA('baseline') });
    expect(files['operator.k8s.yaml'].ids).toEqual([
      'ServiceAccount openstack/armada-operator',
      'Role openstack/armada-operator-leader-election',
      'RoleBinding openstack/armada-operator-leader-election',
      'Role openstack/armada-operator',
      'RoleBinding openstack/armada-operator',
      'NetworkPolicy openstack/armada-operator-deny-ingress',
      'Deployment openstack/armada-operator',
    ]);
    expect(bundleErrors(files['operator.k8s.yaml'].objects, files['operator-release-namespaces.k8s.yaml'].objects)).toEqual([]);
  });

  test('airship, namespace set to a release namespace: the bundle holds no Namespace; openstack is written with the release namespaces (baseline)', () => {
    const files = outputs({ manifest: defineSite(), namespace: 'openstack' });
    expect(Object.keys(files)).toEqual(['operator-crds.k8s.yaml', 'operator-release-namespaces.k8s.yaml', 'operator.k8s.yaml']);
    // kube-system, the site's other namespace, is never created.
    expect(files['operator-release-namespaces.k8s.yaml'].ids).toEqual(['Namespace openstack']);
    expect(files['operator-release-namespaces.k8s.yaml'].namespaces).toEqual({ openstack: PSA('baseline') });
    const bundle = files['operator.k8s.yaml'];
    expect(bundle.ids.filter((i) => i.startsWith('Namespace '))).toEqual([]);
    expect(bundle.ids.filter((i) => /^(ServiceAccount|Deployment|NetworkPolicy) /.test(i))).toEqual(['ServiceAccount openstack/armada-operator', 'NetworkPolicy openstack/armada-operator-deny-ingress', 'Deployment openstack/armada-operator']);
    expect(bundleErrors(bundle.objects, files['operator-release-namespaces.k8s.yaml'].objects)).toEqual([]);
    // Unchanged for an operator namespace of its own: in the bundle, restricted.
    const own = outputs({ manifest: defineSite(), namespace: 'ucp' });
    expect([own['operator.k8s.yaml'].namespaces, own['operator-release-namespaces.k8s.yaml'].namespaces]).toEqual([{ ucp: PSA('restricted') }, { openstack: PSA('baseline') }]);
  });

  test('podSecurity sets the shared namespace\'s level, in the release file; the bundle still holds no Namespace', () => {
    const kel = outputs({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite(), podSecurity: { openstack: PodSecurityLevel.PRIVILEGED } });
    expect(kel['operator-release-namespaces.k8s.yaml'].namespaces).toEqual({ openstack: PSA('privileged') });
    expect(kel['operator.k8s.yaml'].ids.filter((i) => i.startsWith('Namespace '))).toEqual([]);
    const air = outputs({ manifest: defineSite(), namespace: 'openstack', podSecurity: { openstack: PodSecurityLevel.RESTRICTED } });
    expect(air['operator-release-namespaces.k8s.yaml'].namespaces).toEqual({ openstack: PSA('restricted') });
    expect(air['operator.k8s.yaml'].ids.filter((i) => i.startsWith('Namespace '))).toEqual([]);
  });

  test('a release namespace follows releaseNamespaceOutput, not createNamespaces', () => {
    // none: written nowhere (whoever deploys creates it, before the bundle).
    const none = outputs({ api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite(), releaseNamespaceOutput: ReleaseNamespaceOutput.NONE });
    expect(Object.keys(none)).toEqual(['operator-crds.k8s.yaml', 'operator.k8s.yaml']);
    expect(none['operator.k8s.yaml'].ids.filter((i) => i.startsWith('Namespace '))).toEqual([]);
    const kelNoManifest = outputs({ api: OperatorApi.KELEUSTES_V1ALPHA1, namespace: 'ops' });
    expect([kelNoManifest['operator.k8s.yaml'].namespaces, kelNoManifest['operator-release-namespaces.k8s.yaml'].namespaces]).toEqual([{}, { ops: PSA('baseline') }]);
    const noCreate = outputs({ manifest: defineSite(), namespace: 'openstack', createNamespaces: false });
    expect(noCreate['operator-release-namespaces.k8s.yaml'].ids).toEqual(['Namespace openstack']);
  });

  test('cluster-wide or cluster-admin RBAC with a manifest: the operator\'s namespace, when it holds releases, is the only one written apart; without a manifest nothing says it does', () => {
    for (const rbac of [OperatorRbac.CLUSTER_WIDE, OperatorRbac.CLUSTER_ADMIN]) {
      const shared = outputs({ manifest: defineSite(), namespace: 'openstack', rbac });
      expect([shared['operator.k8s.yaml'].namespaces, shared['operator-release-namespaces.k8s.yaml'].ids]).toEqual([{}, ['Namespace openstack']]);
      const own = outputs({ manifest: defineSite(), rbac });
      expect([Object.keys(own), own['operator.k8s.yaml'].namespaces]).toEqual([['operator-crds.k8s.yaml', 'operator.k8s.yaml'], { 'armada-operator-system': PSA('restricted') }]);
      const unknown = outputs({ namespace: 'openstack', rbac });
      expect([Object.keys(unknown), unknown['operator.k8s.yaml'].namespaces]).toEqual([['operator-crds.k8s.yaml', 'operator.k8s.yaml'], { openstack: PSA('restricted') }]);
    }
  });
});

describe('the example app', () => {
  test('writes the operator bundle to its own file, operator.k8s.yaml, which applies cleanly', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-example-'));
    const previous = process.env.CDK8S_OUTDIR;
    process.env.CDK8S_OUTDIR = outdir;
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      jest.isolateModules(() => require('../../../examples/cdk8s/main'));
    } finally {
      stderr.mockRestore();
      if (previous === undefined) delete process.env.CDK8S_OUTDIR;
      else process.env.CDK8S_OUTDIR = previous;
    }
    // The Flux chart's file is empty: its output is the GitOps directory site/ (test/flux/output-directory.test.ts).
    expect(fs.readdirSync(outdir).sort()).toEqual(['armada-documents.k8s.yaml', 'flux.k8s.yaml', 'operator-crds.k8s.yaml', 'operator-release-namespaces.k8s.yaml', 'operator.k8s.yaml', 'site', 'site.k8s.yaml']);
    expect(fs.readFileSync(path.join(outdir, 'flux.k8s.yaml'), 'utf8')).toBe('');
    expect(fs.readdirSync(path.join(outdir, 'site')).sort()).toEqual(['flux-kustomizations.yaml', 'kustomization.yaml', 'sources', 'steps']);
    const read = (f: string) => yaml.loadAll(fs.readFileSync(path.join(outdir, f), 'utf8')) as any[];
    const [crds, namespaces, objects] = ['operator-crds.k8s.yaml', 'operator-release-namespaces.k8s.yaml', 'operator.k8s.yaml'].map(read);
    expect(ids(objects).filter((i) => i.startsWith('Namespace '))).toEqual(['Namespace armada-operator-system']);
    expect(ids(crds)).toEqual(['CustomResourceDefinition armadacharts.armada.airshipit.org']);
    expect(deploymentOf(objects).metadata).toMatchObject({ name: 'armada-operator', namespace: 'armada-operator-system' });
    expectAppliable(objects, namespaces, '28', crds);
    // The ingress charts declare a cluster-scoped kind: the only chart kind in the ClusterRole.
    expect(objects.find((o) => o.kind === 'ClusterRole').rules).toContainEqual({ apiGroups: ['networking.k8s.io'], resources: ['ingressclasses'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] });
  });
});
