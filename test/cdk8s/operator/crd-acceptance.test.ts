import * as fs from 'fs';
import * as path from 'path';
import { defineSite } from '../../../examples/site';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, WaitResource } from '../../../src';
import { OperatorApi } from '../../../src/cdk8s';
import { buildPlan } from '../../../src/model/plan';
import { toAirshipCharts } from '../../../src/model/wire/airship-v1';
import { documentsToSpec } from '../../../src/model/wire/from-documents';
import { toKeleustesObjects } from '../../../src/model/wire/keleustes-v1alpha1';
import { parseDocuments } from '../../helpers/documents';
import { crdErrors } from '../../helpers/schemas';
import { corpusFiles, readShared } from '../../helpers/shared';
import { synthCrs } from '../../helpers/synth';
import { customResourceErrors } from './crd-checks';

const CRDS = path.resolve(__dirname, '..', '..', '..', 'src', 'cdk8s', 'operator', 'crds');
const load = (f: string) => JSON.parse(fs.readFileSync(path.join(CRDS, f), 'utf8'));
const AIRSHIP = load('airship-v1-armadacharts.json');
const KELEUSTES: Record<string, any> = {
  ArmadaChart: load('keleustes-v1alpha1-armadacharts.json'),
  ArmadaChartGroup: load('keleustes-v1alpha1-armadachartgroups.json'),
  ArmadaManifest: load('keleustes-v1alpha1-armadamanifests.json'),
};
const ours = (o: any) => customResourceErrors(o.apiVersion.endsWith('/v1') ? AIRSHIP : KELEUSTES[o.kind], o);
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));
/** An upstream keleustes finding inside `values` (its closed schema; ours is free-form). */
const isValuesFinding = (e: string) => /^(spec\.values\.\S+ (pruned|rejected)|\/spec\/values\/\S+ must)/.test(e);

/** A keleustes-expressible site: one namespace, values outside upstream's closed schema. */
function singleNamespaceSite() {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'armada' });
  const htk = new Chart(site, 'helm-toolkit', { namespace: 'openstack', source: ChartSource.local('/opt/armada/helm-charts/helm-toolkit') });
  const infra = new ChartGroup(site, 'infra', { sequenced: true, description: 'Infrastructure' });
  new Chart(infra, 'mariadb', {
    namespace: 'openstack',
    source: ChartSource.git('https://opendev.org/openstack/openstack-helm-infra', { subpath: 'mariadb', reference: 'master' }),
    dependencies: [htk],
    values: { replicaCount: 3, conf: { database: { config_override: '[mysqld]' }, anything: { x: 1 } }, pod: { replicas: { server: 3 } } },
    wait: { timeout: Duration.minutes(15), labels: { release_group: 'armada-mariadb' }, resources: [WaitResource.statefulSet({ minReady: 2 })] },
    upgrade: { noHooks: false, pre: { delete: [{ type: 'job', labels: { release_group: 'armada-mariadb' } }] } },
    test: { enabled: true, timeout: Duration.minutes(5) },
  });
  new Chart(infra, 'memcached', { namespace: 'openstack', source: ChartSource.tar('https://tarballs.opendev.org/openstack/openstack-helm-infra/memcached-2024.2.0.tgz', { subpath: 'memcached' }) });
  return site;
}

describe('the generated CRDs accept every CR this library synthesizes', () => {
  test('the example site through the airship output', () => {
    const { objects } = synthCrs(defineSite(), { syncWaves: true });
    expect(objects).toHaveLength(11);
    for (const o of objects) expect([o.metadata.name, ours(o)]).toEqual([o.metadata.name, []]);
  });

  test('a single-namespace site through the keleustes output: kept as written, where upstream drops values', () => {
    const { objects } = synthCrs(singleNamespaceSite(), { api: OperatorApi.KELEUSTES_V1ALPHA1 });
    expect(objects.map((o) => o.kind)).toEqual(['ArmadaChart', 'ArmadaChart', 'ArmadaChartGroup', 'ArmadaManifest']);
    for (const o of objects) expect([o.kind, o.metadata.name, ours(o)]).toEqual([o.kind, o.metadata.name, []]);
    // The same mariadb ArmadaChart under the upstream CRD: three of its values never reach Helm.
    expect(crdErrors('keleustes-v1alpha1', objects[0]).map((e) => e.split(':')[0])).toEqual([
      'spec.values.conf.anything pruned',
      'spec.values.conf.database pruned',
      'spec.values.replicaCount pruned',
    ]);
  });

  const complete = corpusFiles().filter((f) => f.complete).map((f) => f.file);
  test.each(complete)('%s: the converted corpus site, airship and keleustes', (file) => {
    const { spec, diagnostics } = documentsToSpec(parseDocuments(readShared('corpus', file), file));
    expect(diagnostics.errors).toEqual([]);
    const plan = buildPlan(spec!);
    const airship = toAirshipCharts(spec!, plan).objects;
    const keleustes = toKeleustesObjects(spec!, plan).objects;
    expect(airship.length).toBeGreaterThan(0);
    for (const o of [...airship, ...keleustes]) expect([o.kind, o.metadata.name, ours(o)]).toEqual([o.kind, o.metadata.name, []]);
    // Upstream disagrees only where ours is deliberately looser: keleustes values, which its
    // closed schema prunes or even rejects (a string where its OSH-shaped types want an object).
    for (const o of airship) expect(crdErrors('airship-v1', o)).toEqual([]);
    for (const o of keleustes) {
      expect([o.kind, o.metadata.name, crdErrors('keleustes-v1alpha1', o).filter((e) => !isValuesFinding(e))]).toEqual([o.kind, o.metadata.name, []]);
    }
  });
});

describe('the generated CRDs reject what the upstream CRDs reject', () => {
  const airshipBase = () => synthCrs(defineSite()).objects.find((o) => o.metadata.name === 'airship-mariadb');
  const keleustesBase = () => synthCrs(singleNamespaceSite(), { api: OperatorApi.KELEUSTES_V1ALPHA1 }).objects;

  test.each<[string, (o: any) => void]>([
    ['wait.timeout as a string', (o) => (o.data.wait.timeout = '600')],
    ['min_ready as an integer (the airship CRD types it as a string)', (o) => (o.data.wait.resources[0].min_ready = 1)],
    ['a non-string label', (o) => (o.data.wait.labels.release_group = 1)],
    ['test.enabled as a string', (o) => (o.data.test = { enabled: 'yes' })],
    ['native.enabled as a number', (o) => (o.data.wait.native = { enabled: 1 })],
    ['source.location as an object', (o) => (o.data.source.location = { url: 'x' })],
    ['upgrade.pre.delete as an object', (o) => (o.data.upgrade.pre.delete = { type: 'job' })],
  ])('airship: %s', (_name, mutate) => {
    const o = clone(airshipBase());
    mutate(o);
    expect(crdErrors('airship-v1', o).length).toBeGreaterThan(0);
    expect(ours(o).length).toBeGreaterThan(0);
  });

  test.each<[string, number, (o: any) => void]>([
    ['missing chart_name', 0, (o) => delete o.spec.chart_name],
    ['missing release', 0, (o) => delete o.spec.release],
    ['missing source', 0, (o) => delete o.spec.source],
    ['missing source.location', 0, (o) => delete o.spec.source.location],
    ['missing source.subpath', 0, (o) => delete o.spec.source.subpath],
    ['missing source.type', 0, (o) => delete o.spec.source.type],
    ['missing dependencies', 0, (o) => delete o.spec.dependencies],
    ['missing target_state', 0, (o) => delete o.spec.target_state],
    ['upgrade without no_hooks', 0, (o) => delete o.spec.upgrade.no_hooks],
    ['a pre-upgrade action without a type', 0, (o) => delete o.spec.upgrade.pre.delete[0].type],
    ['a wait resource without a type', 0, (o) => delete o.spec.wait.resources[0].type],
    ['min_ready as a percentage', 0, (o) => (o.spec.wait.resources[0].min_ready = '80%')],
    ['wait.timeout as a string', 0, (o) => (o.spec.wait.timeout = '900')],
    ['dependencies as a string', 0, (o) => (o.spec.dependencies = 'helm-toolkit')],
    ['test.enabled as a string', 0, (o) => (o.spec.test.enabled = 'true')],
    ['a group without chart_group', 2, (o) => delete o.spec.chart_group],
    ['a group without target_state', 2, (o) => delete o.spec.target_state],
    ['sequenced as a string', 2, (o) => (o.spec.sequenced = 'True')],
    ['a manifest without chart_groups', 3, (o) => delete o.spec.chart_groups],
    ['a manifest without release_prefix', 3, (o) => delete o.spec.release_prefix],
    ['a manifest without target_state', 3, (o) => delete o.spec.target_state],
    ['chart_groups as a string', 3, (o) => (o.spec.chart_groups = 'infra')],
  ])('keleustes: %s', (_name, index, mutate) => {
    const o = clone(keleustesBase()[index]);
    expect(ours(o)).toEqual([]);
    mutate(o);
    expect(crdErrors('keleustes-v1alpha1', o).length).toBeGreaterThan(0);
    expect(ours(o).length).toBeGreaterThan(0);
  });
});

describe('where the generated CRDs deliberately differ from upstream, on real objects', () => {
  test('stricter: rejected by ours, accepted by upstream', () => {
    const a = synthCrs(defineSite()).objects.find((o) => o.metadata.name === 'airship-mariadb');
    const k = synthCrs(singleNamespaceSite(), { api: OperatorApi.KELEUSTES_V1ALPHA1 }).objects[0];
    const cases: [string, any, (o: any) => void, string][] = [
      ['airship-v1', a, (o) => delete o.data, '/ must have required property \'data\''],
      ['airship-v1', a, (o) => delete o.data.release, '/data must have required property \'release\''],
      ['airship-v1', a, (o) => delete o.data.namespace, '/data must have required property \'namespace\''],
      ['airship-v1', a, (o) => delete o.data.source.location, '/data/source must have required property \'location\''],
      ['airship-v1', a, (o) => (o.data.source.type = 'svn'), '/data/source/type must be equal to one of the allowed values'],
      ['airship-v1', a, (o) => delete o.data.wait.resources[0].type, '/data/wait/resources/0 must have required property \'type\''],
      ['airship-v1', a, (o) => (o.data.wait.resources[0].min_ready = 'half'), '/data/wait/resources/0/min_ready must match pattern "^[0-9]+%?$"'],
      ['airship-v1', a, (o) => (o.data.values = ['a']), '/data/values must be object'],
      ['keleustes-v1alpha1', k, (o) => delete o.spec, '/ must have required property \'spec\''],
      ['keleustes-v1alpha1', k, (o) => (o.spec.source.type = 'svn'), '/spec/source/type must be equal to one of the allowed values'],
    ];
    for (const [dir, base, mutate, message] of cases) {
      const o = clone(base);
      mutate(o);
      expect([message, crdErrors(dir as 'airship-v1', o).filter((e) => !isValuesFinding(e))]).toEqual([message, []]);
      expect(ours(o)).toContain(message);
    }
  });

  test('kept by ours too: operator fields this library never writes (CRs from other tools keep them)', () => {
    const a = clone(synthCrs(defineSite()).objects.find((o) => o.metadata.name === 'airship-mariadb'));
    Object.assign(a.data.wait.resources[0], { namespace: 'other', condition: 'Ready', delay: 5 });
    Object.assign(a.data.upgrade.pre, { cleanup: true, update_crd: true });
    expect(crdErrors('airship-v1', a)).toEqual([]);
    expect(ours(a)).toEqual([]);
    // keleustes: fields the API server used to prune from ours, and upstream keeps.
    const k = synthCrs(singleNamespaceSite(), { api: OperatorApi.KELEUSTES_V1ALPHA1 }).objects.map(clone);
    Object.assign(k[0].spec, { revisionHistoryLimit: 5 });
    Object.assign(k[0].spec.upgrade, { options: { force: false, recreate_pods: true } });
    for (const o of k.slice(2)) Object.assign(o.spec, { revisionHistoryLimit: 3 });
    for (const o of k) expect([o.kind, ours(o)]).toEqual([o.kind, []]);
    expect(KELEUSTES.ArmadaChart.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.values.description).toBe(
      'Helm values for the release. Stored as written, but the operator decodes them into its typed OpenStack-Helm values struct, which drops every key it does not know (about 33 top-level keys reach Helm).',
    );
  });
});
