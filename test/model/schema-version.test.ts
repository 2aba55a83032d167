/**
 * Each chart and group is judged by its own document's schema version (Armada reads
 * `chart['schema']` in its wait, pre-upgrade actions and chart build), in the constructs as in
 * the importer; and the rules that Armada applies only when it builds a chart run only on charts
 * the manifest builds.
 */
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, SchemaVersion, Testing, WaitResource } from '../../src';
import { base, findings } from '../helpers/site';

function v2Site() {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship', schemaVersion: SchemaVersion.V2 });
  const group = new ChartGroup(site, 'legacy', { schemaVersion: SchemaVersion.V1, testCharts: false });
  const old = new Chart(group, 'old', { ...base('old'), schemaVersion: SchemaVersion.V1, chartName: 'old-chart', timeout: Duration.seconds(120) });
  const next = new Chart(group, 'next', base('next'));
  return { site, group, old, next };
}

describe('per-document schema version', () => {
  test('a v1 chart and group in a v2 manifest keep their v1 fields without v2-field errors', () => {
    const { site } = v2Site();
    expect(findings(site, 'v2-field')).toEqual([]);
    expect(Testing.validate(site).filter((d) => d.severity === 'error')).toEqual([]);
  });

  test('without its own version a chart is judged by the manifest, and the message says how to keep it v1', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship', schemaVersion: SchemaVersion.V2 });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'x', { ...base('x'), chartName: 'x' });
    expect(findings(site, 'v2-field')).toEqual([
      ['error', 'site/g/x', 'chartName', 'chartName is not part of armada/Chart/v2 (the manifest uses schemaVersion 2; set schemaVersion: SchemaVersion.V1 on this definition to keep it a v1 document)'],
    ]);
  });

  test('a v2 chart in a v1 manifest: its v1-only fields are errors, without the manifest hint', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'x', { ...base('x'), schemaVersion: SchemaVersion.V2, timeout: Duration.seconds(5) });
    expect(findings(site, 'v2-field')).toEqual([['error', 'site/g/x', 'timeout', 'the deprecated chart timeout is not part of armada/Chart/v2']]);
  });

  test('the plan takes wait defaults, native wait and the version the gate applies from the chart document', () => {
    const { site } = v2Site();
    const [old, next] = Testing.plan(site).steps[0].releases;
    expect([old.chart, old.schemaVersion, old.nativeWait, old.waitTimeout, old.test.enabled]).toEqual(['old', SchemaVersion.V1, true, 120, false]);
    expect(old.waitResources.map((r) => [r.type, r.required])).toEqual([['job', false], ['pod', true]]);
    expect([next.chart, next.schemaVersion, next.nativeWait]).toEqual(['next', SchemaVersion.V2, false]);
    expect(next.waitResources.map((r) => r.type)).toEqual(['job', 'daemonset', 'statefulset', 'deployment', 'pod']);
  });

  test('documents keep each chart at its own version unless one version is asked for', () => {
    const { site } = v2Site();
    const own = Testing.documents(site);
    expect(own.map((d) => d.schema)).toEqual(['armada/Chart/v1', 'armada/Chart/v2', 'armada/ChartGroup/v1', 'armada/Manifest/v2']);
    expect(own[0].data).toMatchObject({ chart_name: 'old-chart', timeout: 120 });
  });
});

describe('rules run only on what Armada builds', () => {
  test('a subchart cycle among charts no group deploys is not an error (Armada never follows it); a subchart\'s namespace is never read', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'app', base('app'));
    const a = new Chart(site, 'a', { namespace: 'Bad_NS', source: ChartSource.local('') });
    const b = new Chart(site, 'b', { ...base('b'), dependencies: [a] });
    a.addSubchart(b);
    expect(Testing.validate(site).filter((d) => d.severity === 'error')).toEqual([]);
    g.addChart(b);
    expect(findings(site).filter(([s]) => s === 'error').map(([, , f, m]) => `${f}: ${m}`)).toEqual([
      'source.location: received ""; source location must be a non-empty path or URL',
      'dependencies: subchart dependencies form a cycle: a -> b -> a',
    ]);
  });

  test('a releasePrefix ending in "-" is valid: the release is "armada--blog"', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'armada-' });
    new Chart(new ChartGroup(site, 'g'), 'blog', base('blog'));
    expect(findings(site, 'release-prefix')).toEqual([]);
    expect(Testing.plan(site).releases.map((r) => r.name)).toEqual(['armada--blog']);
    const bad = new ArmadaManifest(undefined, 'bad', { releasePrefix: 'armada.' });
    new Chart(new ChartGroup(bad, 'g'), 'blog', base('blog'));
    expect(findings(bad, 'release-prefix')).toEqual([
      ['error', 'bad', 'releasePrefix', 'received "armada."; it starts every Helm release name ("<releasePrefix>-<release>"), so it must start with a lower-case letter or digit and contain only lower-case letters, digits, "-" and "." (not "." before the joining "-")'],
    ]);
  });

  test('a duplicate release in one parallel step says Armada installs both at once', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'a', { ...base('a'), release: 'same' });
    new Chart(g, 'b', { ...base('b'), release: 'same' });
    expect(findings(site, 'duplicate-release')).toEqual([
      ['error', 'site/g/b', 'release', 'Helm release "airship-same" in namespace "openstack" is already installed by chart "a"; Armada would install both into that one release at the same time; give one of them another release'],
    ]);
  });

  test('min_ready forms Python\'s int() reads: what Armada would do is in the message', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'x', { ...base('x'), wait: { labels: { a: 'b' }, resources: [' 50%', '1_0%', '-5%', 'x%'].map((v) => WaitResource.deployment({ minReady: v as never })) } });
    expect(findings(site, 'min-ready').map(([, , , m]) => m.replace(/^.*to 100; /, ''))).toEqual([
      'Armada reads it with Python\'s int() as 50%, the same as "50%"; armada-cdk takes only that plain form, which every target reads alike: write "50%"',
      'Armada reads it with Python\'s int() as 10%, the same as "10%"; armada-cdk takes only that plain form, which every target reads alike: write "10%"',
      'Armada reads it as -5% and counts the wait as met at once; armada-cdk refuses it: write "0%" for that',
      'Armada fails on it when it deploys the chart, before it installs it (Python\'s int() cannot read "x": ValueError)',
    ]);
  });
});
