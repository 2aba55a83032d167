import * as yaml from 'js-yaml';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, WaitResource } from '../../src';
import { KeleustesReleaseNaming, OperatorApi } from '../../src/cdk8s';
import { MAX_VALUE_FINDINGS_PER_CHART } from '../../src/model/wire/keleustes-v1alpha1';
import { crdErrors } from '../helpers/schemas';
import { readShared } from '../helpers/shared';
import { base } from '../helpers/site';
import { synthCrs } from '../helpers/synth';

/** The keleustes `examples/keystone/sequenced` set, rebuilt with constructs. */
function keystoneSequenced() {
  const site = new ArmadaManifest(undefined, 'armada-manifest', { releasePrefix: 'armada' });
  const htk = new Chart(site, 'helm-toolkit', { namespace: 'openstack', source: ChartSource.local('/opt/armada/helm-charts/helm-toolkit') });
  const infra = new ChartGroup(site, 'keystone-infra-services', { description: 'Keystone Infra Services', sequenced: true });
  const chart = (group: ChartGroup, name: string, timeout: number, extra: object = {}) =>
    new Chart(group, name, {
      chartName: name,
      namespace: 'openstack',
      wait: { timeout: Duration.seconds(timeout), labels: { release_group: `armada-${name}` } },
      upgrade: { noHooks: false },
      values: {},
      source: ChartSource.local(`/opt/armada/helm-charts/${name}`, { subpath: '.' }),
      dependencies: [htk],
      ...extra,
    });
  chart(infra, 'mariadb', 3600);
  chart(infra, 'memcached', 100);
  chart(infra, 'rabbitmq', 100, { test: { enabled: true } });
  const ks = new ChartGroup(site, 'openstack-keystone', { description: 'Deploying OpenStack Keystone', sequenced: true });
  chart(ks, 'keystone', 100, {
    test: { enabled: true },
    upgrade: { noHooks: false, pre: { delete: [{ name: 'keystone-bootstrap', type: 'job', labels: { application: 'keystone', component: 'bootstrap' } }] } },
  });
  return site;
}

describe('keleustes v1alpha1 output', () => {
  test('reproduces the operator example examples/keystone/sequenced: same meaning, same ordering fields', () => {
    const expected = ['infra', 'keystone', 'armadamanifest']
      .flatMap((f) => yaml.loadAll(readShared('operator-examples', 'keleustes', `examples_keystone_sequenced_${f}.yaml`)) as any[])
      .filter(Boolean);
    const { objects } = synthCrs(keystoneSequenced(), { api: OperatorApi.KELEUSTES_V1ALPHA1, releaseNaming: KeleustesReleaseNaming.AS_WRITTEN });
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(expected.map((o) => `${o.kind}/${o.metadata.name}`).sort());
    for (const want of expected) {
      const got = objects.find((o) => o.kind === want.kind && o.metadata.name === want.metadata.name);
      const wantSpec = { ...want.spec };
      // The example writes `reference: master` on local sources, which no operator reads.
      if (wantSpec.source?.type === 'local') wantSpec.source = { ...wantSpec.source, reference: undefined };
      expect(JSON.parse(JSON.stringify(got.spec))).toEqual(JSON.parse(JSON.stringify(wantSpec)));
    }
    // The gating: charts and groups wait, only the manifest is deployed.
    expect(objects.map((o) => [o.kind, o.spec.target_state])).toEqual([
      ['ArmadaChart', 'uninitialized'],
      ['ArmadaChart', 'uninitialized'],
      ['ArmadaChart', 'uninitialized'],
      ['ArmadaChart', 'uninitialized'],
      ['ArmadaChartGroup', 'uninitialized'],
      ['ArmadaChartGroup', 'uninitialized'],
      ['ArmadaManifest', 'deployed'],
    ]);
  });

  test('every object validates against the apiextensions v1 keleustes CRDs; namespaces follow the charts', () => {
    const { objects } = synthCrs(keystoneSequenced(), { api: OperatorApi.KELEUSTES_V1ALPHA1 });
    for (const o of objects) {
      expect([o.kind, o.metadata.name, crdErrors('keleustes-v1alpha1', o)]).toEqual([o.kind, o.metadata.name, []]);
      expect(o.metadata.namespace).toBe('openstack');
    }
  });

  test('spec.release is the prefixed Helm release by default', () => {
    const { objects } = synthCrs(keystoneSequenced(), { api: OperatorApi.KELEUSTES_V1ALPHA1 });
    expect(objects.filter((o) => o.kind === 'ArmadaChart').map((o) => o.spec.release)).toEqual(['armada-mariadb', 'armada-memcached', 'armada-rabbitmq', 'armada-keystone']);
  });

  test('warns once per chart with every values key the closed values schema would drop, in order, and on percentages', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(site, 'g'), 'c', {
      ...base('c'),
      values: { replicaCount: 3, conf: { anything: { x: 1 } }, images: { tags: { api: 'img:1' } }, pod: { replicas: { api: 2 } } },
      wait: { labels: { a: 'b' }, resources: [WaitResource.deployment({ minReady: '80%' }), WaitResource.deployment({ minReady: 2 })] },
    });
    const { warnings, objects } = synthCrs(site, { api: OperatorApi.KELEUSTES_V1ALPHA1 });
    expect(warnings.filter((w) => w.code === 'not-expressible').map((w) => [w.field, w.message])).toEqual([
      ['values', "cannot be expressed for the keleustes operator (armada.airshipit.org/v1alpha1): 2 fields of values are unknown to the CRD schema, so the API server drops them silently and Helm never sees them (this operator's values schema is closed): values.replicaCount, values.conf.anything"],
      ['wait.resources[0].minReady', 'cannot be expressed for the keleustes operator (armada.airshipit.org/v1alpha1): minReady "80%"; the CRD types min_ready as an integer, so a percentage is left out'],
    ]);
    expect(objects[0].spec.wait.resources).toEqual([{ type: 'deployment' }, { type: 'deployment', min_ready: 2 }]);
  });

  test('a value of the wrong type for the closed schema is an error', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(site, 'g'), 'c', { ...base('c'), values: { images: { tags: { api: 3 } } } });
    expect(() => synthCrs(site, { api: OperatorApi.KELEUSTES_V1ALPHA1 })).toThrow(
      'site/g/c: values.images.tags.api: the keleustes ArmadaChart CRD rejects values.images.tags.api: received integer; the CRD requires string',
    );
  });

  test(`past ${MAX_VALUE_FINDINGS_PER_CHART} values findings in a chart, the rest are counted in one warning`, () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const values: Record<string, number> = {};
    for (let i = 0; i < 1_200; i++) values[`k${i}`] = i;
    new Chart(new ChartGroup(site, 'g'), 'c', { ...base('c'), values });
    new Chart(new ChartGroup(site, 'h'), 'd', { ...base('d'), values: { k0: 0, k1: 1 } });
    const { warnings } = synthCrs(site, { api: OperatorApi.KELEUSTES_V1ALPHA1 });
    const listed = warnings.filter((w) => w.code === 'not-expressible');
    expect(listed.map((w) => [w.location, w.field])).toEqual([
      ['site/g/c', 'values'],
      ['site/h/d', 'values'],
    ]);
    expect(listed[0].message).toContain(': 1,000 fields of values are unknown to the CRD schema, ');
    expect(listed[0].message).toMatch(/: values\.k0, values\.k1, values\.k2, .*, values\.k998, values\.k999$/);
    expect(listed[1].message).toMatch(/: values\.k0, values\.k1$/);
    expect(warnings.filter((w) => w.code === 'finding-limit').map((w) => [w.location, w.field, w.message])).toEqual([
      [
        'site/g/c',
        'values',
        "cannot be expressed for the keleustes operator (armada.airshipit.org/v1alpha1): 200 more fields of values, besides those reported: the API server drops them as well (this operator's values schema is closed; past the first 1,000 of a chart, they are counted, not listed one by one)",
      ],
    ]);
  });

  test('values of the wrong type past the limit are one more error, with their count', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const sysctl: Record<string, number> = {};
    for (let i = 0; i < 3; i++) sysctl[`s${i}`] = i;
    const values: Record<string, unknown> = {};
    for (let i = 0; i < 999; i++) values[`k${i}`] = i;
    values.conf = { sysctl };
    values.last = 1;
    new Chart(new ChartGroup(site, 'g'), 'c', { ...base('c'), values });
    let message = '';
    try {
      synthCrs(site, { api: OperatorApi.KELEUSTES_V1ALPHA1 });
    } catch (e) {
      message = (e as Error).message;
    }
    // The 1,000th finding is the first rejected value; two more are rejected, one more pruned.
    expect(message).toContain('site/g/c: values.conf.sysctl.s0: the keleustes ArmadaChart CRD rejects values.conf.sysctl.s0: received integer; the CRD requires string');
    expect(message).not.toContain('values.conf.sysctl.s1:');
    expect(message).toContain(
      'site/g/c: values: the keleustes ArmadaChart CRD rejects 2 more values of this chart (of the wrong type for its closed values schema), besides those reported (past the first 1,000 of a chart, they are counted, not listed one by one)',
    );
    expect(message.split('\n').filter((l) => l.includes('[out/crs]'))).toHaveLength(2);
  });

  test('groups and manifests spanning namespaces cannot be expressed: errors name them and the namespaces', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'mixed');
    new Chart(g, 'a', base('a', 'openstack'));
    new Chart(g, 'b', base('b', 'ceph'));
    const h = new ChartGroup(site, 'other');
    new Chart(h, 'c', base('c', 'kube-system'));
    let message = '';
    try {
      synthCrs(site, { api: OperatorApi.KELEUSTES_V1ALPHA1 });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('site/mixed: charts: cannot be expressed for the keleustes operator: chart group "mixed" has charts in namespaces "openstack", "ceph"');
    expect(message).toContain('site: chartGroups: cannot be expressed for the keleustes operator: the manifest\'s groups are in namespaces "openstack", "kube-system"');
  });

  test('a chart in two groups cannot be expressed (groups take controller ownership)', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    const c = new Chart(g, 'c', base('c'));
    new ChartGroup(site, 'h', { charts: [c] });
    expect(() => synthCrs(site, { api: OperatorApi.KELEUSTES_V1ALPHA1 })).toThrow(/the chart is in groups "g" and "h", but each ArmadaChartGroup takes controller ownership/);
  });

  test("an option of the other operator throws at once with the construct path, where ignoring it would change what was asked", () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(site, 'g'), 'c', base('c'));
    expect(() => synthCrs(site, { api: OperatorApi.KELEUSTES_V1ALPHA1, syncWaves: true })).toThrow(
      'out/crs: syncWaves: received true with api armada.airshipit.org/v1alpha1; it applies to OperatorApi.AIRSHIP_V1 only (the keleustes operator orders the charts itself)',
    );
    expect(() => synthCrs(site, { releaseNaming: KeleustesReleaseNaming.AS_WRITTEN })).toThrow(/^out\/crs: releaseNaming: received "as-written" with api armada.airshipit.org\/v1; it applies to OperatorApi.KELEUSTES_V1ALPHA1 only/);
    // What the operator does anyway is no mistake.
    expect(() => synthCrs(site, { api: OperatorApi.KELEUSTES_V1ALPHA1, syncWaves: false })).not.toThrow();
    expect(() => synthCrs(site, { releaseNaming: KeleustesReleaseNaming.PREFIXED })).not.toThrow();
  });
});
