import { capture, Captured, GATE, PRE_DELETE, registered, RELEASE, settled, valueOf } from './mocks';
import * as pulumi from '@pulumi/pulumi';
import * as k8s from '@pulumi/kubernetes';
import { defineSite } from '../../examples/site';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, SchemaVersion, WaitResource } from '../../src';
import { ManifestDeployment } from '../../src/pulumi';

// The deployments below log Armada's and the backend's warnings; tests that care spy on them.
beforeEach(() => {
  jest.spyOn(pulumi.log, 'warn').mockImplementation(async () => undefined);
});
afterEach(() => jest.restoreAllMocks());

const charts = async (c: { name: string }) => `/charts/${c.name}`;

/** Deploys a manifest under mocks and returns every resource created below the component. */
async function deploy(manifest: ArmadaManifest, extra: Partial<ConstructorParameters<typeof ManifestDeployment>[1]> = {}, opts: pulumi.ComponentResourceOptions = {}) {
  const seen: Captured[] = [];
  const deployment = new ManifestDeployment('site', { manifest, resolveChart: charts, ...extra }, { ...opts, transformations: [capture(seen)] });
  await settled(seen);
  await valueOf(deployment.releases);
  return { deployment, seen };
}

const byType = (seen: readonly Captured[], type: string) => seen.filter((c) => c.type === type);
const nameOf = (seen: readonly Captured[], r: unknown) => seen.find((c) => c.resource === r)?.name;
/** The Helm release a gate or test resource belongs to. */
const releaseOf = (seen: readonly Captured[], r: unknown) => seen.find((c) => c.resource === r)?.props.target.release as string;

describe('ManifestDeployment on the example site', () => {
  let seen: Captured[];
  let deployment: ManifestDeployment;
  let registeredBefore: number;
  beforeAll(async () => {
    registeredBefore = registered.length;
    ({ seen, deployment } = await deploy(defineSite()));
  });

  test('resource tree: Manifest > ChartGroup > Chart > resources, named after the construct paths', () => {
    const parentOf = (c: Captured) => (c.opts.parent === deployment ? 'site' : nameOf(seen, c.opts.parent));
    const tree = seen.map((c) => [c.type, c.name, parentOf(c)]);
    expect(tree.filter(([t]) => t === 'armada:index:ChartGroup')).toEqual([
      ['armada:index:ChartGroup', 'site/ingress', 'site'],
      ['armada:index:ChartGroup', 'site/openstack-infra', 'site'],
      ['armada:index:ChartGroup', 'site/openstack-keystone', 'site'],
      ['armada:index:ChartGroup', 'site/openstack-compute', 'site'],
    ]);
    expect(tree.filter(([t]) => t === 'armada:index:Chart').map(([, n, p]) => [n, p])).toEqual([
      ['site/ingress/ingress-kube-system', 'site/ingress'],
      ['site/ingress/ingress-openstack', 'site/ingress'],
      ['site/openstack-infra/mariadb', 'site/openstack-infra'],
      ['site/openstack-infra/memcached', 'site/openstack-infra'],
      ['site/openstack-infra/rabbitmq', 'site/openstack-infra'],
      ['site/openstack-keystone/keystone', 'site/openstack-keystone'],
      ['site/openstack-compute/glance', 'site/openstack-compute'],
      ['site/openstack-compute/nova', 'site/openstack-compute'],
      ['site/openstack-compute/neutron', 'site/openstack-compute'],
      ['site/openstack-compute/openvswitch', 'site/openstack-compute'],
      ['site/openstack-compute/libvirt', 'site/openstack-compute'],
    ]);
    // Each chart's resources are its children and share its name.
    for (const type of [RELEASE, GATE, PRE_DELETE]) {
      for (const c of byType(seen, type)) expect([type, parentOf(c)]).toEqual([type, c.name]);
    }
    const kinds = (chart: string) => seen.filter((c) => c.name === `site/${chart}` && c.type !== 'armada:index:Chart').map((c) => c.type).sort();
    expect(kinds('ingress/ingress-kube-system')).toEqual([GATE, RELEASE].sort());
    expect(kinds('openstack-infra/mariadb')).toEqual([GATE, PRE_DELETE, RELEASE].sort());
    expect(kinds('openstack-infra/memcached')).toEqual([GATE, RELEASE].sort());
    expect(byType(seen, RELEASE)).toHaveLength(11);
    expect(byType(seen, GATE)).toHaveLength(11);
    // The gates of the charts with tests enabled run them.
    expect(byType(seen, GATE).filter((c) => c.props.test !== undefined).map((c) => c.props.target.release)).toEqual(
      defineSite().plan().releases.filter((r) => r.test.enabled).map((r) => r.name),
    );
    expect(byType(seen, GATE).filter((c) => c.props.test !== undefined)).toHaveLength(9);
    expect(byType(seen, PRE_DELETE)).toHaveLength(6);
    // Per chart: the component, the Release, the gate, and the pre-upgrade delete where it has one.
    expect(seen).toHaveLength(1 + 4 + 11 * 3 + 6);
  });

  test('every Release input', () => {
    const inputs = Object.fromEntries(byType(seen, RELEASE).map((c) => [c.props.name, c.props]));
    const common = { compat: 'true', createNamespace: true, disableOpenapiValidation: true, forceUpdate: false, disableCRDHooks: false, maxHistory: 10 };
    const ingressValues = { labels: { server: { node_selector_key: 'openstack-control-plane', node_selector_value: 'enabled' } } };
    const expected: Record<string, object> = {
      'airship-ingress-kube-system': { namespace: 'kube-system', chart: '/charts/ingress-kube-system', values: ingressValues, timeout: 300, skipAwait: false, waitForJobs: false },
      'airship-ingress-openstack': { namespace: 'openstack', chart: '/charts/ingress-openstack', values: ingressValues, timeout: 300, skipAwait: false, waitForJobs: false },
      'airship-mariadb': {
        namespace: 'openstack',
        chart: '/charts/mariadb',
        values: { pod: { replicas: { server: 3, ingress: 1 } }, volume: { size: '10Gi', class_name: 'general' } },
        timeout: 900,
        skipAwait: false,
        waitForJobs: true,
      },
      'airship-memcached': { namespace: 'openstack', chart: '/charts/memcached', values: {}, timeout: 300, skipAwait: false, waitForJobs: true },
      // Native wait off: Helm does not wait, the gate does.
      'airship-rabbitmq': { namespace: 'openstack', chart: '/charts/rabbitmq', values: { pod: { replicas: { server: 2 } } }, timeout: 600, skipAwait: true, waitForJobs: false },
      'airship-keystone': { namespace: 'openstack', chart: '/charts/keystone', values: { bootstrap: { enabled: true }, pod: { replicas: { api: 2 } } }, timeout: 1200, skipAwait: false, waitForJobs: true },
      'airship-glance': { namespace: 'openstack', chart: '/charts/glance', values: {}, timeout: 1800, skipAwait: false, waitForJobs: true },
      'airship-nova': { namespace: 'openstack', chart: '/charts/nova', values: {}, timeout: 1800, skipAwait: false, waitForJobs: true },
      'airship-neutron': { namespace: 'openstack', chart: '/charts/neutron', values: {}, timeout: 1800, skipAwait: false, waitForJobs: true },
      'airship-openvswitch': { namespace: 'openstack', chart: '/charts/openvswitch', values: {}, timeout: 900, skipAwait: false, waitForJobs: false },
      'airship-libvirt': { namespace: 'openstack', chart: '/charts/libvirt', values: {}, timeout: 900, skipAwait: false, waitForJobs: false },
    };
    expect(Object.keys(inputs)).toEqual(Object.keys(expected));
    // What the mocks received, i.e. what the provider would get.
    const received = Object.fromEntries(registered.slice(registeredBefore).filter((r) => r.type === RELEASE).map((r) => [r.inputs.name, r.inputs]));
    for (const [name, e] of Object.entries(expected)) expect(received[name]).toEqual({ name, ...common, ...e });
  });

  test('dependsOn edges equal the plan: each release waits for the gates (and so the tests) of the whole previous step', () => {
    const plan = defineSite().plan();
    for (const step of plan.steps) {
      const previous = step.index === 0 ? [] : plan.steps[step.index - 1].releases.map((r) => r.name);
      for (const r of step.releases) {
        const release = byType(seen, RELEASE).find((c) => c.props.name === r.name)!;
        const deps = (release.opts.dependsOn as pulumi.Resource[]).map((d) => seen.find((c) => c.resource === d)!);
        const gates = deps.filter((d) => d.type === GATE).map((d) => d.props.target.release).sort();
        expect([r.name, gates]).toEqual([r.name, [...previous].sort()]);
        // Besides those, only its own pre-upgrade delete.
        expect(deps.filter((d) => d.type !== GATE).map((d) => [d.type, d.name])).toEqual(
          r.chart === 'mariadb' || r.chart === 'rabbitmq' || r.chart === 'keystone' || ['glance', 'nova', 'neutron'].includes(r.chart) ? [[PRE_DELETE, release.name]] : [],
        );
      }
    }
  });

  test('gates follow their release, wait on the planned resources, then run the tests where enabled', () => {
    const gate = byType(seen, GATE).find((c) => c.props.target.release === 'airship-mariadb')!;
    expect(gate.props.target).toEqual({
      release: 'airship-mariadb',
      namespace: 'openstack',
      resources: [
        { type: 'statefulset', labels: { release_group: 'airship-mariadb' }, minReady: '50%', required: true, allowAsyncUpdates: false },
        { type: 'job', labels: { release_group: 'airship-mariadb' }, minReady: '100%', required: false, allowAsyncUpdates: false },
      ],
      schemaVersion: SchemaVersion.V1,
      timeoutSeconds: 900,
      sharesDeadline: true,
    });
    const release = byType(seen, RELEASE).find((c) => c.props.name === 'airship-mariadb')!.resource as k8s.helm.v3.Release;
    // The revision is the release's output, so the gate re-checks when the release changes.
    expect(gate.props.release).toBe(release.status);
    expect(gate.props.runToken).toBeUndefined();
    expect(gate.props.cluster).toBeUndefined();
    expect(gate.opts.dependsOn).toBeUndefined();

    const testOf = (release: string) => byType(seen, GATE).find((c) => c.props.target.release === release)!.props.test;
    expect(testOf('airship-rabbitmq')).toEqual({ release: 'airship-rabbitmq', namespace: 'openstack', timeoutSeconds: 600, waitLabels: { release_group: 'airship-rabbitmq' }, helmCommand: 'helm' });
    expect(testOf('airship-keystone').timeoutSeconds).toBe(600);
    expect(testOf('airship-glance').timeoutSeconds).toBe(300);
    expect(testOf('airship-ingress-kube-system')).toBeUndefined();
  });

  test('pre-upgrade deletes: the chart actions, before the release, with a fingerprint of its inputs', async () => {
    const pre = byType(seen, PRE_DELETE).find((c) => c.props.target.release === 'airship-keystone')!;
    expect(pre.props.target).toEqual({
      release: 'airship-keystone',
      namespace: 'openstack',
      actions: [
        { type: 'job', labels: { release_group: 'airship-keystone' } },
        { type: 'cronjob', labels: { release_group: 'airship-keystone', component: 'fernet-rotate' } },
      ],
      schemaVersion: SchemaVersion.V1,
      timeoutSeconds: 1200,
    });
    expect(await valueOf(pre.props.fingerprint)).toMatch(/^[0-9a-f]{64}$/);
    // It runs after the previous step, like the release.
    expect((pre.opts.dependsOn as unknown[]).map((d) => [nameOf(seen, d), seen.find((c) => c.resource === d)!.type])).toEqual([['site/openstack-infra/rabbitmq', GATE]]);
  });

  test('URNs are those of earlier versions, so existing stacks keep their resources (only the HelmTest resources are gone)', async () => {
    const urns = await Promise.all(seen.filter((c) => c.name === 'site/openstack-infra/mariadb').map((c) => valueOf(c.resource.urn)));
    // The mocks qualify a type with its parent's type only; the engine chains every ancestor's,
    // which the tree test above pins down.
    expect(urns.sort()).toEqual(
      [
        'urn:pulumi:test::armada-cdk::armada:index:ChartGroup$armada:index:Chart::site/openstack-infra/mariadb',
        `urn:pulumi:test::armada-cdk::armada:index:Chart$${RELEASE}::site/openstack-infra/mariadb`,
        `urn:pulumi:test::armada-cdk::armada:index:Chart$${GATE}::site/openstack-infra/mariadb`,
        `urn:pulumi:test::armada-cdk::armada:index:Chart$${PRE_DELETE}::site/openstack-infra/mariadb`,
      ].sort(),
    );
  });

  test('outputs: releases maps every Helm release name; the resources are exposed by name', async () => {
    expect(Object.keys(await valueOf(deployment.releases))).toEqual(defineSite().plan().releases.map((r) => r.name));
    expect(Object.keys(deployment.helmReleases)).toHaveLength(11);
    expect(nameOf(seen, deployment.readinessGates['airship-nova'])).toBe('site/openstack-compute/nova');
  });
});

describe('ManifestDeployment options and edge cases', () => {
  test('the provider is passed down to every Release; children get only { parent } and their own options', async () => {
    const provider = new k8s.Provider('cluster', { kubeconfig: 'apiVersion: v1\nkind: Config\n' });
    const before = registered.length;
    const { seen } = await deploy(defineSite(), {}, { provider });
    const providerUrn = await valueOf(provider.urn);
    const releases = registered.slice(before).filter((x) => x.type === RELEASE);
    expect(releases).toHaveLength(11);
    for (const r of releases) expect(r.provider).toMatch(new RegExp(`^${providerUrn.replace(/[$]/g, '\\$')}::`));
    expect(seen[0].type).toBe('armada:index:Manifest');
    for (const c of seen.slice(1).filter((x) => x.type.startsWith('armada:index:'))) {
      expect([c.name, Object.keys(c.opts).filter((k) => (c.opts as Record<string, unknown>)[k] !== undefined)]).toEqual([c.name, ['parent']]);
    }
  });

  test('a pulumi.secret in values stays secret: Release values, and the pre-upgrade fingerprint', async () => {
    const site = defineSite();
    const mariadb = site.node.findChild('openstack-infra').node.findChild('mariadb') as Chart<any>;
    mariadb.overrideValues({ conf: { database: { password: pulumi.secret('s3cr3t') } } });
    const { seen } = await deploy(site);
    const release = byType(seen, RELEASE).find((c) => c.props.name === 'airship-mariadb')!;
    expect(await pulumi.isSecret(pulumi.output(release.props.values))).toBe(true);
    expect(await pulumi.isSecret((release.resource as k8s.helm.v3.Release).values)).toBe(true);
    expect(await valueOf(release.props.values)).toMatchObject({ conf: { database: { password: 's3cr3t' } } });
    const pre = byType(seen, PRE_DELETE).find((c) => c.props.target.release === 'airship-mariadb')!;
    expect(await pulumi.isSecret(pre.props.fingerprint)).toBe(true);
    const other = byType(seen, RELEASE).find((c) => c.props.name === 'airship-memcached')!;
    expect(await pulumi.isSecret(pulumi.output(other.props.values))).toBe(false);
  });

  test('kubeconfig and context reach the dynamic resources as one secret; recheckReadiness always sets a run token', async () => {
    const { seen } = await deploy(defineSite(), { kubeconfig: 'apiVersion: v1\nkind: Config\n', context: 'admin@site', recheckReadiness: 'always', helmCommand: '/usr/local/bin/helm3' });
    for (const c of [...byType(seen, GATE), ...byType(seen, PRE_DELETE)]) {
      expect(await pulumi.isSecret(c.props.cluster)).toBe(true);
      expect(await valueOf(c.props.cluster)).toEqual({ kubeconfig: 'apiVersion: v1\nkind: Config\n', context: 'admin@site' });
    }
    const tokens = new Set(byType(seen, GATE).map((c) => c.props.runToken));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toMatch(/^\d{4}-\d\d-\d\dT/);
    const tested = byType(seen, GATE).filter((c) => c.props.test !== undefined);
    expect(tested).toHaveLength(9);
    expect(tested.every((c) => c.props.test.helmCommand === '/usr/local/bin/helm3')).toBe(true);
  });

  test('takeover: each Release gets the import option with the ID <namespace>/<name> and the same inputs; no resource is added or imported besides', async () => {
    const before = registered.length;
    const plain = await deploy(defineSite());
    const plainRegistered = registered.slice(before);
    const middle = registered.length;
    const taken = await deploy(defineSite(), { takeover: true });
    const takenRegistered = registered.slice(middle);
    // The same resources, in the same order.
    expect(taken.seen.map((c) => [c.type, c.name])).toEqual(plain.seen.map((c) => [c.type, c.name]));
    // Every Release, and only the Releases, imported: the ID is the provider's `<namespace>/<name>`.
    // (Registration order is the engine's; compare sorted.)
    const imports = takenRegistered
      .filter((r) => r.id)
      .map((r) => [r.type, r.name, r.id])
      .sort();
    expect(imports).toEqual(
      defineSite()
        .plan()
        .releases.map((r) => [RELEASE, byType(taken.seen, RELEASE).find((c) => c.props.name === r.name)!.name, `${r.namespace}/${r.name}`])
        .sort(),
    );
    expect(imports.map(([, , id]) => id).sort()).toEqual([
      'kube-system/airship-ingress-kube-system',
      'openstack/airship-glance',
      'openstack/airship-ingress-openstack',
      'openstack/airship-keystone',
      'openstack/airship-libvirt',
      'openstack/airship-mariadb',
      'openstack/airship-memcached',
      'openstack/airship-neutron',
      'openstack/airship-nova',
      'openstack/airship-openvswitch',
      'openstack/airship-rabbitmq',
    ]);
    for (const c of byType(taken.seen, RELEASE)) expect([c.props.name, c.opts.import]).toEqual([c.props.name, `${c.props.namespace}/${c.props.name}`]);
    // The Release inputs are armada-cdk's own, as without the takeover: the import reads the
    // release, and the engine upgrades it to these.
    const inputsOf = (rs: typeof registered) =>
      rs
        .filter((r) => r.type === RELEASE)
        .map((r) => r.inputs)
        .sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(inputsOf(takenRegistered)).toEqual(inputsOf(plainRegistered));
    // Without it nothing is imported.
    expect(plainRegistered.filter((r) => r.id)).toEqual([]);
    expect(byType(plain.seen, RELEASE).map((c) => c.opts.import)).toEqual(Array(11).fill(undefined));
    // The pre-upgrade deletes know, so that they delete before the takeover's upgrade; the gates do not need to.
    expect(byType(taken.seen, PRE_DELETE).map((c) => c.props.takeover)).toEqual(Array(6).fill(true));
    expect(byType(plain.seen, PRE_DELETE).map((c) => c.props.takeover)).toEqual(Array(6).fill(undefined));
    const gateInputs = (seen: readonly Captured[]) => byType(seen, GATE).map((c) => ({ ...c.props, release: undefined, __provider: undefined }));
    expect(gateInputs(taken.seen)).toEqual(gateInputs(plain.seen));
  });

  test("helmDriver reaches the gates that run helm test: the option, else PULUMI_K8S_HELM_DRIVER, else the provider's default, secret", async () => {
    const driversOf = (seen: readonly Captured[]) => [...new Set(byType(seen, GATE).map((c) => (c.props.test === undefined ? `untested:${c.props.helmDriver}` : c.props.helmDriver)))];
    const saved = process.env.PULUMI_K8S_HELM_DRIVER;
    try {
      delete process.env.PULUMI_K8S_HELM_DRIVER;
      expect(driversOf((await deploy(defineSite())).seen)).toEqual(['untested:undefined', 'secret']);
      process.env.PULUMI_K8S_HELM_DRIVER = 'configmap';
      expect(driversOf((await deploy(defineSite())).seen)).toEqual(['untested:undefined', 'configmap']);
      expect(driversOf((await deploy(defineSite(), { helmDriver: 'secrets' })).seen)).toEqual(['untested:undefined', 'secrets']);
    } finally {
      if (saved === undefined) delete process.env.PULUMI_K8S_HELM_DRIVER;
      else process.env.PULUMI_K8S_HELM_DRIVER = saved;
    }
  });

  test('releases are retained on delete unless chartCleanup, as Armada leaves releases that leave the manifest', async () => {
    const retained = await deploy(defineSite());
    expect(byType(retained.seen, RELEASE).every((c) => c.opts.retainOnDelete === true)).toBe(true);
    const cleaned = await deploy(defineSite(), { chartCleanup: true });
    expect(byType(cleaned.seen, RELEASE).every((c) => c.opts.retainOnDelete === false)).toBe(true);
  });

  test('aliases keep URNs across renames: a renamed group and a renamed chart get their old names as aliases', async () => {
    const { seen } = await deploy(defineSite(), { aliases: { 'openstack-compute': 'compute', 'openstack-infra/mariadb': 'openstack-infra/db' } });
    const aliasesOf = (type: string, name: string) => (seen.find((c) => c.type === type && c.name === name)!.opts.aliases ?? []).map((a: any) => a.name);
    expect(aliasesOf('armada:index:ChartGroup', 'site/openstack-compute')).toEqual(['site/compute']);
    expect(aliasesOf('armada:index:Chart', 'site/openstack-compute/nova')).toEqual(['site/compute/nova']);
    expect(aliasesOf('armada:index:Chart', 'site/openstack-infra/mariadb')).toEqual(['site/openstack-infra/db']);
    expect(aliasesOf('armada:index:Chart', 'site/openstack-infra/memcached')).toEqual([]);
    expect(aliasesOf('armada:index:ChartGroup', 'site/openstack-infra')).toEqual([]);
  });

  test('explicit addDependency edges and a chart in two groups: installed once, waited for again', async () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const src = ChartSource.local('/charts');
    const wait = (n: string) => ({ labels: { app: n } });
    const a = new ChartGroup(site, 'a');
    const db = new Chart(a, 'db', { namespace: 'ns', source: src, wait: wait('db'), test: { enabled: false } });
    const cache = new Chart(a, 'cache', { namespace: 'ns', source: src, wait: wait('cache'), test: { enabled: false } });
    const api = new Chart(a, 'api', { namespace: 'ns', source: src, wait: wait('api') });
    api.addDependency(db, cache);
    const b = new ChartGroup(site, 'b', { sequenced: true });
    b.addChart(db);
    new Chart(b, 'web', { namespace: 'ns', source: src, wait: wait('web'), test: { enabled: false } });
    const warn = pulumi.log.warn as jest.Mock;
    const { seen } = await deploy(site);
    const deps = (name: string) => {
      const r = byType(seen, RELEASE).find((c) => c.props.name === name)!;
      return (r.opts.dependsOn as unknown[]).map((d) => `${seen.find((c) => c.resource === d)!.type.split(':').pop()} ${releaseOf(seen, d)}`).sort();
    };
    expect(deps('p-db')).toEqual([]);
    expect(deps('p-api')).toEqual(['ReadinessGate p-cache', 'ReadinessGate p-db']);
    // db is one Release; step 1 (group b, db again) is a second gate on it.
    expect(byType(seen, RELEASE).map((c) => c.props.name)).toEqual(['p-db', 'p-cache', 'p-api', 'p-web']);
    const dbGates = byType(seen, GATE).filter((c) => c.props.target.release === 'p-db');
    expect(dbGates.map((c) => [c.name, c.props.target.sharesDeadline])).toEqual([
      ['site/a/db', true],
      ['site/a/db@b', false],
    ]);
    const again = dbGates[1];
    expect((again.opts.dependsOn as unknown[]).map((d) => `${seen.find((c) => c.resource === d)!.type.split(':').pop()} ${releaseOf(seen, d)}`).sort()).toEqual([
      'ReadinessGate p-api',
      'ReadinessGate p-cache',
      'ReadinessGate p-db',
    ]);
    expect(again.props.release).toBe((byType(seen, RELEASE)[0].resource as k8s.helm.v3.Release).status);
    // web (step 2) waits for the second db gate (step 1).
    expect(deps('p-web').filter((d) => d.startsWith('ReadinessGate'))).toEqual(['ReadinessGate p-db']);
    expect((byType(seen, RELEASE).find((c) => c.props.name === 'p-web')!.opts.dependsOn as unknown[])).toContain(again.resource);
    expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('deployed again'))).toEqual([
      'site/a/db: chart "db" is deployed again in step 1 (group "b"); Pulumi holds one Release per name, so Helm release "p-db" is installed or upgraded in step 0 (group "a") and step 1 only waits for its readiness again',
    ]);
  });

  test('v2 manifests: native wait off by default, so Helm does not wait; noHooks and force map to the upgrade flags', async () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p', schemaVersion: SchemaVersion.V2 });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'x', {
      namespace: 'ns',
      source: ChartSource.local('/charts'),
      wait: { labels: { app: 'x' }, timeout: Duration.minutes(2), resources: [WaitResource.job()] },
      upgrade: { noHooks: true, options: { force: true }, pre: { delete: [{ type: 'job' }] } },
    });
    const { seen } = await deploy(site);
    expect(byType(seen, RELEASE)[0].props).toMatchObject({ skipAwait: true, waitForJobs: false, timeout: 120, disableCRDHooks: true, forceUpdate: true });
    expect(byType(seen, PRE_DELETE)[0].props.target).toMatchObject({ schemaVersion: SchemaVersion.V2, actions: [{ type: 'job' }] });
  });
});

/** What `f` throws (undefined when it returns). */
function thrownBy(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('ManifestDeployment diagnostics', () => {
  test('errors stop the program with one ResourceError listing all of them, without a stack', () => {
    const site = new ArmadaManifest(undefined, 'broken', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'Bad_Name', { namespace: 'ns', source: ChartSource.local('/c'), wait: { labels: { a: 'b' } } });
    new Chart(g, 'ok', { namespace: 'NS!', source: ChartSource.local('/c'), wait: { labels: { a: 'b' }, timeout: Duration.seconds(-1) } });
    const error = thrownBy(() => new ManifestDeployment('broken', { manifest: site, resolveChart: charts }));
    expect(pulumi.ResourceError.isInstance(error)).toBe(true);
    const e = error as pulumi.ResourceError;
    expect(e.hideStack).toBe(true);
    const lines = e.message.split('\n');
    expect(lines[0]).toMatch(/^ManifestDeployment broken \(manifest broken\) has [3-9] errors:$/);
    expect(lines.slice(1).every((l) => l.startsWith('  error: broken/g/'))).toBe(true);
    // Armada uses the chart name only to find the document; the release named after it is checked.
    expect(e.message).toContain('broken/g/Bad_Name: release: Helm release "p-Bad_Name"');
    expect(e.message).toContain('broken/g/ok: namespace: namespace "NS!"');
    expect(e.message).toContain('broken/g/ok: wait.timeout:');
  });

  test('props of the wrong runtime type (JavaScript callers) stop the program with one ResourceError naming each, not a TypeError', () => {
    const site = new ArmadaManifest(undefined, 'typed', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g', { sequenced: 'yes' as never });
    new Chart(g, 'a', { namespace: 'ns', source: ChartSource.local('/c'), wait: { labels: { a: 'b' }, timeout: 600 as never } });
    new Chart(g, 'b', { namespace: 'ns', source: ChartSource.local('/c'), wait: { labels: { a: 'b' } }, dependencies: ['x' as never], upgrade: { pre: { delete: 'job' as never } } });
    const error = thrownBy(() => new ManifestDeployment('typed', { manifest: site, resolveChart: charts }));
    expect(pulumi.ResourceError.isInstance(error)).toBe(true);
    expect((error as Error).message.split('\n')).toEqual([
      'ManifestDeployment typed (manifest typed) has 4 errors:',
      '  error: typed/g/b: dependencies[0]: received "x"; dependencies[0] must be a Chart construct',
      '  error: typed/g: sequenced: received "yes"; sequenced must be true or false',
      '  error: typed/g/a: wait.timeout: received 600; wait.timeout must be a Duration: use Duration.seconds(n) or Duration.minutes(n)',
      '  error: typed/g/b: upgrade.pre.delete: received "job"; upgrade.pre.delete must be a list, each item a hook action ({ type: "job" | "cronjob" | "pod", labels?, name? })',
    ]);
  });

  test('values nested past what Armada reads stop the program with that error, not a stack overflow', () => {
    const site = new ArmadaManifest(undefined, 'deep', { releasePrefix: 'p' });
    let values: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 20_000; i++) values = { k: values };
    new Chart(new ChartGroup(site, 'g'), 'c', { namespace: 'ns', source: ChartSource.local('/c'), wait: { labels: { a: 'b' } }, values });
    const error = thrownBy(() => new ManifestDeployment('deep', { manifest: site, resolveChart: charts }));
    expect(pulumi.ResourceError.isInstance(error)).toBe(true);
    expect((error as Error).message.split('\n')).toEqual([
      'ManifestDeployment deep (manifest deep) has 1 error:',
      '  error: deep/g/c: values: nested more than 488 levels deep (at values.k.k.k ... .k.k): Armada reads a chart document with PyYAML, which stops past 490 levels with a RecursionError, and values start two levels down (data.values); flatten the values',
    ]);
  });

  test('warnings go to pulumi.log.warn, with the field path, and do not stop the program', async () => {
    const warn = pulumi.log.warn as jest.Mock;
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'x', { namespace: 'ns', source: ChartSource.local('/c'), delete: { timeout: Duration.seconds(60) }, protected: { continueProcessing: true } });
    const { seen } = await deploy(site);
    const messages = warn.mock.calls.map((c) => String(c[0]));
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^site\/g\/x: wait\.labels: no wait labels select the job, pod waited on/),
        expect.stringMatching(/^site\/g\/x: protected\.continueProcessing: Pulumi cannot skip a failed release/),
        expect.stringMatching(/^site\/g\/x: delete\.timeout: has no effect/),
      ]),
    );
    expect(byType(seen, RELEASE)).toHaveLength(1);
  });

  /** A site with groups `databases` (charts `db`, `cache`) and `web` (chart `frontend`). */
  function aliasSite(): ArmadaManifest {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const props = (n: string) => ({ namespace: 'ns', source: ChartSource.local('/charts'), wait: { labels: { app: n } } });
    const databases = new ChartGroup(site, 'databases');
    new Chart(databases, 'db', props('db'));
    new Chart(databases, 'cache', props('cache'));
    new Chart(new ChartGroup(site, 'web'), 'frontend', props('frontend'));
    return site;
  }

  test('an aliases key that matches no group or chart stops the program, naming the key, its old path and the key meant', () => {
    const error = thrownBy(() => new ManifestDeployment('site', { manifest: aliasSite(), resolveChart: charts, aliases: { databse: 'infra' } }));
    expect(pulumi.ResourceError.isInstance(error)).toBe(true);
    expect((error as pulumi.ResourceError).hideStack).toBe(true);
    expect((error as Error).message.split('\n')).toEqual([
      'ManifestDeployment site (manifest site) has 1 error:',
      '  error: ManifestDeployment site: aliases["databse"]: key "databse" (old path "infra") is not the path of a chart group or chart the deployment creates, so it would keep no URN; did you mean "databases"?',
    ]);
  });

  test('every bad aliases entry is reported in the one error: unknown keys, and old paths that are not non-empty strings', () => {
    const aliases = { 'databases/bd': 'databases/db', 'nope/x': 'y', web: '', 'web/frontend': 3, 'databases/cache': pulumi.secret('infra/cache') } as unknown as Record<string, string>;
    const error = thrownBy(() => new ManifestDeployment('site', { manifest: aliasSite(), resolveChart: charts, aliases }));
    expect(pulumi.ResourceError.isInstance(error)).toBe(true);
    expect((error as Error).message.split('\n')).toEqual([
      'ManifestDeployment site (manifest site) has 5 errors:',
      '  error: ManifestDeployment site: aliases["databases/bd"]: key "databases/bd" (old path "databases/db") is not the path of a chart group or chart the deployment creates, so it would keep no URN; did you mean "databases/db"?',
      '  error: ManifestDeployment site: aliases["nope/x"]: key "nope/x" (old path "y") is not the path of a chart group or chart the deployment creates, so it would keep no URN; valid keys, closest first: "web", "databases", "databases/db", "web/frontend", "databases/cache"',
      '  error: ManifestDeployment site: aliases["web"]: must be the old construct path; received ""',
      '  error: ManifestDeployment site: aliases["web/frontend"]: must be the old construct path, a string; received 3',
      '  error: ManifestDeployment site: aliases["databases/cache"]: must be the old construct path, a string; received a Pulumi output',
    ]);
  });

  test('alias errors come with the manifest\'s own errors, and aliases must be an object', () => {
    const site = aliasSite();
    new Chart(new ChartGroup(site, 'more'), 'Bad_Name', { namespace: 'ns', source: ChartSource.local('/c'), wait: { labels: { a: 'b' } } });
    const lines = (thrownBy(() => new ManifestDeployment('site', { manifest: site, resolveChart: charts, aliases: { web: '' } })) as Error).message.split('\n');
    expect(lines[0]).toMatch(/^ManifestDeployment site \(manifest site\) has [2-9] errors:$/);
    expect(lines).toContain('  error: ManifestDeployment site: aliases["web"]: must be the old construct path; received ""');
    expect(lines.some((l) => l.startsWith('  error: site/more/Bad_Name: release:'))).toBe(true);
    const notObject = thrownBy(() => new ManifestDeployment('site', { manifest: aliasSite(), resolveChart: charts, aliases: ['web'] as unknown as Record<string, string> }));
    expect((notObject as Error).message.split('\n')[1]).toBe(
      '  error: ManifestDeployment site: aliases: must be an object of new construct path -> old one, for example { "databases": "infra" }; received an array',
    );
  });

  test('aliases keys that name a group, a chart, or a group above its charts alias those resources, and the same keys with a typo among them fail', async () => {
    const aliases = { databases: 'infra', 'web/frontend': 'web/ui' };
    const { seen } = await deploy(aliasSite(), { aliases });
    const aliasesOf = (type: string, name: string) => (seen.find((c) => c.type === type && c.name === name)!.opts.aliases ?? []).map((a: any) => a.name);
    expect(aliasesOf('armada:index:ChartGroup', 'site/databases')).toEqual(['site/infra']);
    expect(aliasesOf('armada:index:Chart', 'site/databases/db')).toEqual(['site/infra/db']);
    expect(aliasesOf('armada:index:Chart', 'site/databases/cache')).toEqual(['site/infra/cache']);
    expect(aliasesOf('armada:index:Chart', 'site/web/frontend')).toEqual(['site/web/ui']);
    expect(aliasesOf('armada:index:ChartGroup', 'site/web')).toEqual([]);
    // The alias URNs: the old name under the same parent (the engine derives its children's from them).
    const aliasUrns = (type: string, name: string) => {
      const r = seen.find((c) => c.type === type && c.name === name)!.resource as unknown as { __aliases: pulumi.Output<string>[] };
      return Promise.all(r.__aliases.map((a) => valueOf(a)));
    };
    const urn = 'urn:pulumi:test::armada-cdk::armada:index:Manifest$armada:index:ChartGroup';
    expect(await aliasUrns('armada:index:ChartGroup', 'site/databases')).toEqual([`${urn}::site/infra`]);
    expect(await aliasUrns('armada:index:Chart', 'site/databases/db')).toEqual([`${urn}$armada:index:Chart::site/infra/db`]);
    expect(await aliasUrns('armada:index:Chart', 'site/web/frontend')).toEqual([`${urn}$armada:index:Chart::site/web/ui`]);
    const typo = thrownBy(() => new ManifestDeployment('typo', { manifest: aliasSite(), resolveChart: charts, aliases: { ...aliases, 'web/fronted': 'web/ui' } }));
    expect((typo as Error).message).toContain('aliases["web/fronted"]: key "web/fronted" (old path "web/ui") is not the path of a chart group or chart the deployment creates, so it would keep no URN; did you mean "web/frontend"?');
  });

  test('takeover and helmDriver of the wrong type or value are reported together, with the manifest\'s errors', () => {
    const error = thrownBy(() => new ManifestDeployment('site', { manifest: aliasSite(), resolveChart: charts, takeover: 'yes' as unknown as boolean, helmDriver: 'etcd' }));
    expect(pulumi.ResourceError.isInstance(error)).toBe(true);
    expect((error as Error).message.split('\n')).toEqual([
      'ManifestDeployment site (manifest site) has 2 errors:',
      '  error: ManifestDeployment site: takeover: must be true or false; received "yes"',
      "  error: ManifestDeployment site: helmDriver: must be one of Helm's storage drivers (secret, secrets, configmap, configmaps, memory, sql), as the Kubernetes provider is given it; received \"etcd\"",
    ]);
    const output = thrownBy(() => new ManifestDeployment('site', { manifest: aliasSite(), resolveChart: charts, helmDriver: pulumi.output('secret') as unknown as string }));
    expect((output as Error).message.split('\n')[1]).toBe(
      "  error: ManifestDeployment site: helmDriver: must be one of Helm's storage drivers (secret, secrets, configmap, configmaps, memory, sql), as the Kubernetes provider is given it; received a Pulumi output",
    );
  });

  test('args.manifest must be an ArmadaManifest', () => {
    expect(() => new ManifestDeployment('x', { manifest: {} as ArmadaManifest })).toThrow('ManifestDeployment x: args.manifest must be an ArmadaManifest; received object');
  });
});
