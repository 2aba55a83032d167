import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, SchemaVersion, Testing, WaitResource } from '../../src';
import { buildPlan } from '../../src/model/plan';
import { documentsToSpec } from '../../src/model/wire/from-documents';
import { parseDocuments } from '../helpers/documents';
import { readShared } from '../helpers/shared';
import { base, smallSite } from '../helpers/site';

function corpusPlan(file: string) {
  const { spec, diagnostics } = documentsToSpec(parseDocuments(readShared('corpus', file), file));
  expect(diagnostics.errors).toEqual([]);
  return buildPlan(spec!);
}

describe('plan: the steps armada apply runs', () => {
  test('sequenced groups give one step per chart, in list order; groups in manifest order', () => {
    const plan = corpusPlan('armada__examples__keystone-manifest.yaml');
    expect(plan.toJSON()).toEqual({
      manifest: 'armada-manifest',
      releasePrefix: 'armada',
      steps: [
        { index: 0, group: 'keystone-infra-services', sequenced: true, releases: [{ name: 'armada-mariadb', namespace: 'openstack', chart: 'mariadb', waitTimeout: 3600 }] },
        { index: 1, group: 'keystone-infra-services', sequenced: true, releases: [{ name: 'armada-memcached', namespace: 'openstack', chart: 'memcached', waitTimeout: 100 }] },
        { index: 2, group: 'keystone-infra-services', sequenced: true, releases: [{ name: 'armada-rabbitmq', namespace: 'openstack', chart: 'rabbitmq', waitTimeout: 100 }] },
        { index: 3, group: 'openstack-keystone', sequenced: true, releases: [{ name: 'armada-keystone', namespace: 'openstack', chart: 'keystone', waitTimeout: 100 }] },
      ],
    });
  });

  test('an unsequenced group is one step with all its charts at once', () => {
    const plan = corpusPlan('armada__examples__simple.yaml');
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0].sequenced).toBe(false);
    expect(plan.steps[0].releases.map((r) => [r.name, r.namespace, r.waitTimeout])).toEqual([
      ['armada-blog-1', 'default', 900],
      ['armada-blog-2', 'default', 900],
    ]);
  });

  test('the OSH gate manifest: 12 groups, the compute kit at once, helm-toolkit never deployed', () => {
    const plan = corpusPlan('openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml');
    expect(plan.steps.map((s) => `${s.group}:${s.releases.map((r) => r.chart).join('+')}`)).toEqual([
      'openstack-ingress-controller:openstack-ingress-controller',
      'openstack-ceph-config:openstack-ceph-config',
      'deploy-mariadb:mariadb',
      'deploy-memcached:memcached',
      'deploy-rabbitmq:rabbitmq',
      'openstack-keystone:keystone',
      'openstack-radosgw:radosgw-openstack',
      'openstack-glance:glance',
      'openstack-cinder:cinder',
      'openstack-compute-kit:libvirt+openvswitch+nova+neutron',
      'openstack-heat:heat',
      'prometheus-openstack-exporter:prometheus-openstack-exporter',
    ]);
    expect(plan.releases.every((r) => r.name.startsWith('osh-'))).toBe(true);
    expect(plan.releases.some((r) => r.chart === 'helm-toolkit')).toBe(false);
  });

  test('deprecated chart timeout is the wait budget when wait.timeout is absent; wait.timeout wins', () => {
    const plan = corpusPlan('armada__armada__tests__unit__resources__valid_armada_document.yaml');
    expect(Object.fromEntries(plan.releases.map((r) => [r.chart, r.waitTimeout]))).toEqual({ mariadb: 3600, memcached: 100, keystone: 100 });
    // keystone has the deprecated `test: true`
    expect(plan.releases.find((r) => r.chart === 'keystone')!.test).toEqual({ enabled: true, timeoutSeconds: 300 });
  });

  test('wait defaults: v1 waits on optional jobs then required pods, natively; v2 on every type, optional, not natively', () => {
    for (const [version, expected, native] of [
      [SchemaVersion.V1, [['job', false], ['pod', true]], true],
      [SchemaVersion.V2, [['job', false], ['daemonset', false], ['statefulset', false], ['deployment', false], ['pod', false]], false],
    ] as const) {
      const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p', schemaVersion: version });
      new Chart(new ChartGroup(site, 'g'), 'c', base('c'));
      const [r] = Testing.plan(site).releases;
      expect(r.waitResources.map((w) => [w.type, w.required])).toEqual(expected);
      expect(r.waitResources.every((w) => w.labels.release_group === 'airship-c' && w.minReady === '100%')).toBe(true);
      expect(r.nativeWait).toBe(native);
      expect(r.waitTimeout).toBe(900);
      expect(r.test).toEqual({ enabled: true, timeoutSeconds: 300 });
    }
  });

  test('omitted resources give the default list; [] waits on nothing', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'omitted', base('omitted'));
    new Chart(g, 'empty', { ...base('empty'), wait: { labels: { a: 'b' }, resources: [] } });
    const byChart = Object.fromEntries(Testing.plan(site).releases.map((r) => [r.chart, r.waitResources.length]));
    expect(byChart).toEqual({ omitted: 2, empty: 0 });
  });

  test('resource labels: wait.labels merged in, the item wins on a conflict', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(site, 'g'), 'c', {
      ...base('c'),
      wait: { labels: { release_group: 'p-c', component: 'all' }, resources: [WaitResource.statefulSet({ labels: { component: 'server' }, minReady: 2 })] },
    });
    expect(Testing.plan(site).releases[0].waitResources).toEqual([
      { type: 'statefulset', labels: { release_group: 'p-c', component: 'server' }, minReady: 2, required: true, allowAsyncUpdates: false },
    ]);
  });

  test('test precedence: group testCharts, then the chart', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g', { testCharts: false });
    new Chart(g, 'inherits', base('inherits'));
    new Chart(g, 'overrides', { ...base('overrides'), test: { enabled: true, timeout: Duration.minutes(10) } });
    new Chart(g, 'empty', { ...base('empty'), test: {} });
    expect(Testing.plan(site).releases.map((r) => [r.chart, r.test])).toEqual([
      ['inherits', { enabled: false, timeoutSeconds: 300 }],
      ['overrides', { enabled: true, timeoutSeconds: 600 }],
      ['empty', { enabled: false, timeoutSeconds: 300 }],
    ]);
  });

  test('a chart listed in two groups is deployed in both steps; addDependency edges are in the JSON', () => {
    const { site, mariadb, memcached } = smallSite();
    const again = new ChartGroup(site, 'again', { charts: [mariadb] });
    const k = new Chart(again, 'keystone', base('keystone'));
    k.addDependency(memcached);
    const json = Testing.plan(site).toJSON();
    expect(json.steps.map((s) => [s.index, s.group, s.releases.map((r) => r.name)])).toEqual([
      [0, 'infra', ['airship-mariadb']],
      [1, 'infra', ['airship-memcached']],
      [2, 'again', ['airship-mariadb', 'airship-keystone']],
    ]);
    expect(json.steps[2].releases[1].dependsOn).toEqual(['memcached']);
    expect(json.steps[2].releases[0]).not.toHaveProperty('dependsOn');
    expect(Testing.plan(site).steps[2].releases[0].firstStep).toBe(0);
  });

  test('release names are exactly prefix-release, with one hyphen', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'ucp' });
    new Chart(new ChartGroup(site, 'g'), 'keystone-chart', { ...base('k'), release: 'keystone' });
    expect(Testing.plan(site).releases.map((r) => r.name)).toEqual(['ucp-keystone']);
  });

  test('groups come in the order they are listed: props first, then children, then addChartGroup', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const a = new ChartGroup(site, 'a');
    new Chart(a, 'ca', base('ca'));
    const b = new ChartGroup(site, 'b');
    new Chart(b, 'cb', base('cb'));
    expect(Testing.plan(site).steps.map((s) => s.group)).toEqual(['a', 'b']);
    const second = new ArmadaManifest(undefined, 'second', { releasePrefix: 'p' });
    const x = new ChartGroup(second, 'x');
    new Chart(x, 'cx', { namespace: 'n', source: ChartSource.local('/c'), wait: { labels: { a: 'b' } } });
    const y = new ChartGroup(second, 'y', { sequenced: true });
    new Chart(y, 'cy', { namespace: 'n', source: ChartSource.local('/c'), wait: { labels: { a: 'b' } } });
    expect(Testing.plan(second).steps.map((s) => s.group)).toEqual(['x', 'y']);
  });
});
