import { ArmadaManifest, Chart, ChartGroup, ChartProps, ChartSource, Duration, SchemaVersion, WaitResource } from '../../src';
import { crdErrors } from '../helpers/schemas';
import { base } from '../helpers/site';
import { synthCrs } from '../helpers/synth';

function one(props: Partial<ChartProps> = {}, version = SchemaVersion.V1) {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship', schemaVersion: version });
  new Chart(new ChartGroup(site, 'g'), 'mariadb', { ...base('mariadb'), ...props });
  return synthCrs(site);
}

describe('airship v1 ArmadaChart output', () => {
  test('metadata as armada-go builds it: name = Helm release, namespace = data.namespace, release-name label', () => {
    const { objects } = one();
    expect(objects[0].metadata).toEqual({
      name: 'airship-mariadb',
      namespace: 'openstack',
      labels: { 'armada.airshipit.org/release-name': 'airship-mariadb' },
      annotations: { 'armada-cdk.io/chart-group': 'g', 'armada-cdk.io/manifest': 'site', 'armada-cdk.io/step': '0' },
    });
    expect(objects[0].apiVersion).toBe('armada.airshipit.org/v1');
    expect(objects[0]).not.toHaveProperty('spec');
  });

  test("Armada's defaults are written where the operator's differ: tests on, native wait on (v1), a timeout", () => {
    const { objects } = one();
    expect(objects[0].data.test).toEqual({ enabled: true });
    expect(objects[0].data.wait).toEqual({ timeout: 900, labels: { release_group: 'airship-mariadb' }, native: { enabled: true } });
  });

  test('v2 definitions: native wait off, and the v2 default resource list written out', () => {
    const { objects } = one({}, SchemaVersion.V2);
    expect(objects[0].data.wait.native).toEqual({ enabled: false });
    expect(objects[0].data.wait.resources).toEqual([{ type: 'job' }, { type: 'daemonset' }, { type: 'statefulset' }, { type: 'deployment' }, { type: 'pod' }]);
  });

  test('min_ready is always a string; [] stays [] (wait on nothing)', () => {
    const a = one({ wait: { labels: { a: 'b' }, resources: [WaitResource.deployment({ minReady: 2 }), WaitResource.statefulSet({ minReady: '50%' })] } });
    expect(a.objects[0].data.wait.resources).toEqual([{ type: 'deployment', min_ready: '2' }, { type: 'statefulset', min_ready: '50%' }]);
    const b = one({ wait: { labels: { a: 'b' }, resources: [] } });
    expect(b.objects[0].data.wait.resources).toEqual([]);
    for (const o of [...a.objects, ...b.objects]) expect(crdErrors('airship-v1', o)).toEqual([]);
  });

  test('warns, with the field, on everything the operator cannot carry', () => {
    const { warnings, objects } = one({
      source: ChartSource.git('https://opendev.org/openstack/openstack-helm', { reference: 'master', subpath: 'mariadb' }),
      upgrade: { noHooks: true, options: { force: true }, pre: { delete: [{ type: 'job', labels: { a: 'b' } }] } },
      protected: { continueProcessing: true },
      test: { timeout: Duration.minutes(10) },
      delete: { timeout: Duration.seconds(600) },
      wait: { labels: { a: 'b' }, resources: [WaitResource.daemonSet({ required: true, allowAsyncUpdates: true })] },
    });
    expect(warnings.map((w) => w.field)).toEqual([
      'upgrade.noHooks',
      'upgrade.options.force',
      'protected',
      'delete.timeout',
      'test.timeout',
      'source.type',
      'wait.resources[0].required',
      'wait.resources[0].allowAsyncUpdates',
      // Not a loss but a different meaning: the operator's daemonset wait ignores a percentage.
      'wait.resources[0].minReady',
    ]);
    expect(warnings.find((w) => w.field === 'source.type')!.message).toBe(
      'cannot be expressed for the airship operator (armada.airshipit.org/v1): a git source ("https://opendev.org/openstack/openstack-helm"); the operator only downloads HTTP(S) chart tarballs (.tgz), so publish the chart as a tarball and use ChartSource.tar',
    );
    // v1 `type: job` deletes CronJobs too in Armada: written as the operator's own item.
    expect(objects[0].data.upgrade).toEqual({ pre: { delete: [{ type: 'job', labels: { a: 'b' } }, { type: 'cronjob', labels: { a: 'b' } }] } });
    expect(crdErrors('airship-v1', objects[0])).toEqual([]);
  });

  test('sync waves are opt-in', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g', { sequenced: true });
    new Chart(g, 'a', base('a'));
    new Chart(g, 'b', base('b'));
    expect(synthCrs(site).objects.map((o) => o.metadata.annotations['argocd.argoproj.io/sync-wave'])).toEqual([undefined, undefined]);
    expect(synthCrs(site, { syncWaves: true }).objects.map((o) => o.metadata.annotations['argocd.argoproj.io/sync-wave'])).toEqual(['0', '1']);
  });

  test('null in values survives (Helm: remove the chart default)', () => {
    const { yaml, objects } = one({ values: { conf: { legacy: null } } });
    expect(objects[0].data.values).toEqual({ conf: { legacy: null } });
    expect(yaml).toContain('legacy: null');
  });
});
