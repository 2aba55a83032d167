import { Construct } from 'constructs';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, SchemaVersion, Testing } from '../../src';
import { base } from '../helpers/site';

describe('constructs: names, defaults and membership', () => {
  test('the chart name defaults from the construct id, the release from the name, chart_name from the name', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    const a = new Chart(g, 'mariadb', base('x'));
    const b = new Chart(g, 'db2', { ...base('y'), name: 'memcached', release: 'cache' });
    expect([a.name, a.release, b.name, b.release]).toEqual(['mariadb', 'mariadb', 'memcached', 'cache']);
    const docs = Testing.documents(site);
    expect(docs.find((d) => d.metadata.name === 'memcached')!.data).toMatchObject({ chart_name: 'memcached', release: 'cache' });
    expect(docs.find((d) => d.schema === 'armada/Manifest/v1')!).toEqual({
      schema: 'armada/Manifest/v1',
      metadata: { schema: 'metadata/Document/v1', name: 'site' },
      data: { release_prefix: 'p', chart_groups: ['g'] },
    });
  });

  test('a chart joins the nearest enclosing group, through user constructs; groups join the nearest manifest', () => {
    class Database extends Construct {
      constructor(scope: Construct, id: string) {
        super(scope, id);
        new Chart(this, `${id}-server`, base(`${id}-server`));
      }
    }
    class Layer extends Construct {
      public readonly group: ChartGroup;
      constructor(scope: Construct, id: string) {
        super(scope, id);
        this.group = new ChartGroup(this, id, { sequenced: true });
        new Database(this.group, 'pg');
        new Database(this.group, 'mysql');
      }
    }
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const layer = new Layer(site, 'data');
    expect(site.chartGroups).toEqual([layer.group]);
    expect(layer.group.charts.map((c) => c.node.path)).toEqual(['site/data/data/pg/pg-server', 'site/data/data/mysql/mysql-server']);
    expect(Testing.plan(site).steps.map((s) => s.releases[0].name)).toEqual(['p-pg-server', 'p-mysql-server']);
  });

  test('charts and groups defined elsewhere are added with addChart / addChartGroup / props, in order', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const shared = new Construct(site, 'shared');
    const htk = new Chart(shared, 'helm-toolkit', base('htk'));
    const x = new Chart(shared, 'x', base('x'));
    const y = new Chart(shared, 'y', base('y'));
    const late = new ChartGroup(shared, 'late');
    new Chart(late, 'z', base('z'));
    const g = new ChartGroup(site, 'g', { charts: [y] });
    new Chart(g, 'inside', { ...base('inside'), dependencies: [htk] });
    g.addChart(x);
    site.addChartGroup(late);
    expect(Testing.plan(site).steps.map((s) => [s.group, s.releases.map((r) => r.chart)])).toEqual([
      ['g', ['y', 'inside', 'x']],
      ['late', ['z']],
    ]);
  });

  test('a manifest without a scope is the root of its own tree; ArmadaManifest.of finds it', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p', schemaVersion: SchemaVersion.V2 });
    const c = new Chart(new ChartGroup(site, 'g'), 'c', base('c'));
    expect(site.node.root).toBe(site);
    expect(ArmadaManifest.of(c)).toBe(site);
    expect(() => ArmadaManifest.of(new Construct(undefined as never, 'x'))).toThrow('x is not inside an ArmadaManifest');
    expect(Testing.documents(site).map((d) => d.schema)).toEqual(['armada/Chart/v2', 'armada/ChartGroup/v2', 'armada/Manifest/v2']);
  });

  test('misuse throws at once, naming the operation and the value', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    expect(() => g.addChart({} as never)).toThrow('ChartGroup site/g: addChart expects Chart constructs; received object');
    expect(() => site.addChartGroup('g' as never)).toThrow('ArmadaManifest site: addChartGroup expects ChartGroup constructs; received string');
    expect(() => new Chart(g, 'c', undefined as never)).toThrow('Chart site/g/c: props are required (at least namespace and source)');
  });

  test('values are checked the moment they change: definitions are re-resolved after every change', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'a', { namespace: 'n', source: ChartSource.local('/c'), wait: { labels: { x: 'y' } } });
    expect(Testing.plan(site).releases).toHaveLength(1);
    new Chart(g, 'b', { namespace: 'n', source: ChartSource.local('/c'), wait: { labels: { x: 'y' } } });
    expect(Testing.plan(site).releases).toHaveLength(2);
  });
});

test('adding a group (or chart) moves it last: adding it again, or one created inside, never deploys it twice', () => {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  const a = new ChartGroup(site, 'a');
  new Chart(a, 'ca', base('ca'));
  const b = new ChartGroup(site, 'b');
  const cb = new Chart(b, 'cb', base('cb'));
  new Chart(b, 'cb2', base('cb2'));
  site.addChartGroup(a);
  b.addChart(cb);
  expect(Testing.plan(site).steps.map((s) => [s.group, s.releases.map((r) => r.chart)])).toEqual([['b', ['cb2', 'cb']], ['a', ['ca']]]);
  // The second call of each is what used to list them twice.
  site.addChartGroup(a);
  b.addChart(cb);
  b.addChart(cb, cb);
  expect(site.chartGroups.map((g) => g.name)).toEqual(['b', 'a']);
  expect(b.charts.map((c) => c.name)).toEqual(['cb2', 'cb']);
  expect(Testing.plan(site).releases.map((r) => r.chart)).toEqual(['cb2', 'cb', 'ca']);
  expect(Testing.validate(site).filter((d) => d.code === 'chart-listed-twice' || d.code === 'group-listed-twice')).toEqual([]);
  // Moving is what a later add is for: the order follows the last call.
  b.addChart(b.charts[0]);
  expect(b.charts.map((c) => c.name)).toEqual(['cb', 'cb2']);
});
