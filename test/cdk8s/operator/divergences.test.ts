/**
 * Where an operator's code gives an Armada field another meaning: the output either makes the
 * operator behave as Armada does, or warns with the chart path and the field.
 */
import { ArmadaManifest, Chart, ChartGroup, ChartSource, SchemaVersion, WaitResource } from '../../../src';
import { OperatorApi } from '../../../src/cdk8s';
import { synthCrs } from '../../helpers/synth';

const TAR = ChartSource.tar('https://charts.example.org/c-0.1.0.tgz');

function oneChart(props: Partial<ConstructorParameters<typeof Chart>[2]>, schemaVersion?: SchemaVersion) {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship', ...(schemaVersion ? { schemaVersion } : {}) });
  new Chart(new ChartGroup(site, 'g'), 'c', { namespace: 'openstack', source: TAR, ...props });
  return site;
}
const differs = (warnings: { code?: string | undefined; location?: string | undefined; field?: string | undefined; message: string }[]): [string | undefined, string | undefined, string][] =>
  warnings.filter((w) => w.code === 'operator-differs').map((w) => [w.location, w.field, w.message]);

describe('airship operator: where it departs from Armada', () => {
  test('upgrade.pre.delete type job (v1): the CronJobs Armada also deletes are written as their own item', () => {
    const { objects } = synthCrs(oneChart({ upgrade: { pre: { delete: [{ type: 'job', labels: { release_group: 'airship-c' } }, { type: 'pod' }] } } }));
    expect(objects[0].data.upgrade.pre.delete).toEqual([
      { type: 'job', labels: { release_group: 'airship-c' } },
      { type: 'cronjob', labels: { release_group: 'airship-c' } },
      { type: 'pod' },
    ]);
    // Written once, when the definition already lists it.
    const both = synthCrs(oneChart({ upgrade: { pre: { delete: [{ type: 'job' }, { type: 'cronjob' }] } } }));
    expect(both.objects[0].data.upgrade.pre.delete).toEqual([{ type: 'job' }, { type: 'cronjob' }]);
    // v2: Armada deletes Jobs only for type job.
    const v2 = synthCrs(oneChart({ upgrade: { pre: { delete: [{ type: 'job' }] } } }, SchemaVersion.V2));
    expect(v2.objects[0].data.upgrade.pre.delete).toEqual([{ type: 'job' }]);
  });

  test('an item\'s labels win over wait.labels, as in Armada: merged into each item when they conflict', () => {
    const wait = { labels: { release_group: 'airship-c', component: 'any' }, resources: [WaitResource.deployment({ labels: { component: 'api' }, minReady: 1 }), WaitResource.job()] };
    const { objects } = synthCrs(oneChart({ wait }));
    expect(objects[0].data.wait.labels).toBeUndefined();
    expect(objects[0].data.wait.resources).toEqual([
      { type: 'deployment', labels: { component: 'api', release_group: 'airship-c' }, min_ready: '1' },
      { type: 'job', labels: { component: 'any', release_group: 'airship-c' } },
    ]);
    // No conflict: written as defined (the operator's merge gives the same selectors).
    const same = synthCrs(oneChart({ wait: { labels: { release_group: 'airship-c' }, resources: [WaitResource.job({ labels: { component: 'db-sync' } })] } }));
    expect(same.objects[0].data.wait.labels).toEqual({ release_group: 'airship-c' });
    expect(same.objects[0].data.wait.resources).toEqual([{ type: 'job', labels: { component: 'db-sync' } }]);
  });

  test('percentage min_ready, and the 100% default: a warning with the chart path and field', () => {
    const { warnings } = synthCrs(
      oneChart({
        wait: {
          resources: [
            WaitResource.deployment({ minReady: '50%' }),
            WaitResource.daemonSet({ minReady: '100%' }),
            WaitResource.statefulSet(),
            WaitResource.statefulSet({ minReady: 2 }),
            WaitResource.deployment({ minReady: '0%' }),
            WaitResource.pod(),
          ],
        },
      }),
    );
    expect(differs(warnings)).toEqual([
      [
        'site/g/c',
        'wait',
        'the airship operator departs from Armada here: Armada fails the chart when a required wait finds no deployment, daemonset, statefulset or pod by its timeout (a listed wait is required unless it says required: false); the operator skips a wait that finds nothing',
      ],
      [
        'site/g/c',
        'wait.resources[0].minReady',
        'the airship operator departs from Armada here: minReady "50%": the operator computes (50 / 100) * pods with integer division, which is 0: nothing is held back; write a count of pods instead',
      ],
      [
        'site/g/c',
        'wait.resources[1].minReady',
        'the airship operator departs from Armada here: minReady "100%": the operator computes (100 / 100) * pods with integer division, and stores the result in the percentage it reads again, so only the first object of the wait is checked with it and later checks require 0; write a count of pods instead',
      ],
      [
        'site/g/c',
        'wait.resources[2].minReady',
        'the airship operator departs from Armada here: a statefulset wait without minReady means 100% available in Armada; the operator checks no availability at all when min_ready is absent (and a written "100%" holds for the first object it checks only); write a count of pods, e.g. minReady: 1',
      ],
    ]);
  });

  test('v2 default wait list: its controller waits have no min_ready for the operator either', () => {
    const { warnings } = synthCrs(oneChart({}, SchemaVersion.V2));
    expect(differs(warnings).map(([, f]) => f)).toEqual(['wait.resources', 'wait.resources', 'wait.resources']);
    const types = differs(warnings).map(([, , m]) => /^the airship operator departs from Armada here: a (\w+) wait without minReady means 100% available in Armada; /.exec(m)?.[1]);
    expect(types.sort()).toEqual(['daemonset', 'deployment', 'statefulset']);
  });
});

describe('airship operator: required waits', () => {
  const required = (w: ReturnType<typeof synthCrs>['warnings']) => differs(w).filter(([, f]) => f === 'wait').map(([, , m]) => m);

  test("v1's default pod wait and listed waits are required in Armada, and none is for the operator: one warning per chart", () => {
    expect(required(synthCrs(oneChart({})).warnings)).toEqual([
      "the airship operator departs from Armada here: Armada fails the chart when a required wait finds no pod by its timeout (armada/Chart/v1's default pod wait is required); the operator skips a wait that finds nothing",
    ]);
    expect(required(synthCrs(oneChart({ wait: { labels: { a: 'b' }, resources: [WaitResource.job(), WaitResource.job({ labels: { x: 'y' } }), WaitResource.pod({ required: false })] } })).warnings)).toEqual([
      'the airship operator departs from Armada here: Armada fails the chart when a required wait finds no job by its timeout (a listed wait is required unless it says required: false); the operator skips a wait that finds nothing',
    ]);
  });

  test('no warning where nothing is required by default: v2 defaults, required: false, an empty list; required: true is its own warning', () => {
    expect(required(synthCrs(oneChart({}, SchemaVersion.V2)).warnings)).toEqual([]);
    expect(required(synthCrs(oneChart({ wait: { labels: { a: 'b' }, resources: [WaitResource.pod({ required: false })] } })).warnings)).toEqual([]);
    expect(required(synthCrs(oneChart({ wait: { labels: { a: 'b' }, resources: [] } })).warnings)).toEqual([]);
    const explicit = synthCrs(oneChart({ wait: { labels: { a: 'b' }, resources: [WaitResource.pod({ required: true })] } })).warnings;
    expect(required(explicit)).toEqual([]);
    expect(explicit.map((w) => w.field)).toContain('wait.resources[0].required');
  });
});

describe('keleustes operator: where it departs from Armada', () => {
  test('dependencies: its own bundled helm-toolkit 0.1.0 replaces the manifest\'s helm-toolkit chart', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'armada' });
    const htk = new Chart(site, 'helm-toolkit', { namespace: 'openstack', source: ChartSource.git('https://opendev.org/openstack/openstack-helm-infra', { subpath: 'helm-toolkit' }) });
    new Chart(new ChartGroup(site, 'g'), 'mariadb', { namespace: 'openstack', source: TAR, dependencies: [htk] });
    const { warnings } = synthCrs(site, { api: OperatorApi.KELEUSTES_V1ALPHA1 });
    expect(differs(warnings)).toEqual([
      [
        'site/g/mariadb',
        'dependencies',
        'the keleustes operator departs from Armada here: with dependencies ["helm-toolkit"] it copies the helm-toolkit 0.1.0 bundled in its image (dependency-cache/helm-toolkit-0.1.0.tgz) into the chart\'s charts/, whatever the list names; the manifest\'s own chart is never fetched',
      ],
    ]);
  });
});
