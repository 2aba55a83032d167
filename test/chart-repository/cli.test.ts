/** `convert --to flux-v2 --package-charts URL` and `--check-subcharts`: the flags, and what is written. */
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { cli, tmpdir, write } from '../helpers/cli';
import { fluxCrdErrors } from '../helpers/flux-crds';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'subcharts');
const URL = 'https://charts.example.com/demo';

/** toolkit (a subchart only) and `same`, which Armada deploys with toolkit injected. */
function site(dir: string, subpath = 'same'): string {
  return write(dir, 'site.yaml', `---
schema: armada/Chart/v1
metadata: {schema: metadata/Document/v1, name: toolkit}
data:
  chart_name: toolkit
  release: toolkit
  namespace: demo
  source: {type: local, location: ${FIXTURES}, subpath: toolkit-a}
---
schema: armada/Chart/v1
metadata: {schema: metadata/Document/v1, name: same}
data:
  chart_name: same
  release: same
  namespace: demo
  wait: {timeout: 60, labels: {app: demo-same}, native: {enabled: false}}
  source: {type: local, location: ${FIXTURES}, subpath: ${subpath}}
  dependencies: [toolkit]
---
schema: armada/ChartGroup/v1
metadata: {schema: metadata/Document/v1, name: apps}
data:
  chart_group: [same]
---
schema: armada/Manifest/v1
metadata: {schema: metadata/Document/v1, name: demo}
data:
  release_prefix: demo
  chart_groups: [apps]
`);
}

describe('convert --to flux-v2 --package-charts', () => {
  test('writes DIR/<manifest>.charts/ and HelmReleases that read it; the same bytes on a second run', async () => {
    const dir = tmpdir();
    const input = site(dir);
    const cache = path.join(dir, 'cache');
    const r = await cli(['convert', input, '--to', 'flux-v2', '-o', 'out', '--package-charts', URL, '--chart-cache', cache], { cwd: dir });
    expect([r.code, r.stderr.split('\n').filter((l) => /error|wrote/.test(l))]).toEqual([0, ['0 errors, 1 warning', 'wrote out/demo/ (6 files, 4 objects)', `wrote out/demo.charts/ (index.yaml, 1 chart archive): publish its files at ${URL}, where the HelmRepository reads them`]]);
    const charts = fs.readdirSync(path.join(dir, 'out', 'demo.charts')).sort();
    expect(charts).toHaveLength(2);
    expect(charts[1]).toMatch(/^same-0\.1\.0\+[0-9a-f]{12}\.tgz$/);
    const version = /^same-(.*)\.tgz$/.exec(charts[0] === 'index.yaml' ? charts[1] : charts[0])![1];
    const objects = [...fs.readFileSync(path.join(dir, 'out', 'demo', 'sources', 'sources.yaml'), 'utf8').split(/^---\n/m), ...fs.readFileSync(path.join(dir, 'out', 'demo', 'steps', '0-apps', 'helmreleases.yaml'), 'utf8').split(/^---\n/m)].filter((t) => t.trim() !== '').map((t) => YAML.parse(t));
    expect(objects.map((o) => [o.kind, o.metadata.name, fluxCrdErrors(o)])).toEqual([['HelmRepository', 'demo.demo', []], ['HelmRelease', 'demo.demo-same', []]]);
    expect(objects[0].spec.url).toBe(URL);
    expect(objects[1].spec.chart).toEqual({ spec: { chart: 'same', version, sourceRef: { kind: 'HelmRepository', name: 'demo.demo' } } });
    // No warning about the local source or the subcharts: both are in the package.
    expect(r.stderr).not.toMatch(/data\.(source\.type|dependencies):/);

    const before = charts.map((f) => fs.readFileSync(path.join(dir, 'out', 'demo.charts', f)).toString('base64'));
    const again = await cli(['convert', input, '--to', 'flux-v2', '-o', 'out', '--package-charts', URL, '--chart-cache', path.join(dir, 'cache2'), '--force'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(charts.map((f) => fs.readFileSync(path.join(dir, 'out', 'demo.charts', f)).toString('base64'))).toEqual(before);
  });

  test('a chart that cannot be packaged: an error at its document, nothing written', async () => {
    const dir = tmpdir();
    const input = site(dir, 'no-such-chart');
    const r = await cli(['convert', input, '--to', 'flux-v2', '-o', 'out', '--package-charts', URL, '--chart-cache', path.join(dir, 'cache')], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/site\.yaml:\d+:\d+: error: armada\/Chart\/v1 same: data\.source: --package-charts: chart "same" cannot be packaged: local source .*no-such-chart/);
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
  });

  test('what packaging finds is printed as the library reports it: every line, byte for byte', async () => {
    const dir = tmpdir();
    const charts = path.join(dir, 'charts');
    fs.mkdirSync(path.join(charts, 'ver', 'templates'), { recursive: true });
    write(charts, 'ver/Chart.yaml', 'apiVersion: v2\nname: ver\nversion: 1.0.0\n');
    write(charts, 'ver/templates/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: v\ndata:\n  version: {{ .Chart.Version | quote }}\n');
    const doc = (name: string, subpath: string) => `---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: ${name}}\ndata:\n  chart_name: ${name}\n  release: ${name}\n  namespace: demo\n  wait: {timeout: 60, labels: {app: ${name}}, native: {enabled: false}}\n  source: {type: local, location: ${charts}, subpath: ${subpath}}\n`;
    const manifest = (group: string) => `---\nschema: armada/ChartGroup/v1\nmetadata: {schema: metadata/Document/v1, name: apps}\ndata:\n  chart_group: [${group}]\n---\nschema: armada/Manifest/v1\nmetadata: {schema: metadata/Document/v1, name: demo}\ndata:\n  release_prefix: demo\n  chart_groups: [apps]\n`;
    const warned = write(dir, 'warned.yaml', doc('ver', 'ver') + manifest('ver'));
    const r = await cli(['convert', warned, '--to', 'flux-v2', '-o', 'out', '--package-charts', URL, '--chart-cache', path.join(dir, 'cache')], { cwd: dir });
    const version = /^ver-(.*)\.tgz$/.exec(fs.readdirSync(path.join(dir, 'out', 'demo.charts')).find((f) => f !== 'index.yaml')!)![1];
    expect([r.code, r.stderr.split('\n').filter((l) => /packaged chart/.test(l))]).toEqual([0, [`${warned}:9:3: warning: armada/Chart/v1 ver: data.source: packaged chart: templates/cm.yaml reads .Chart.Version, which is ${JSON.stringify(version)} in the packaged chart, where Armada's Helm read "1.0.0": the objects that print it differ (the digest in the version makes every change of the chart's files a new version, which Flux installs)`]]);
    const failed = write(dir, 'failed.yaml', doc('one', 'gone-1') + doc('two', 'gone-2') + manifest('one, two'));
    const f = await cli(['convert', failed, '--to', 'flux-v2', '-o', 'out2', '--package-charts', URL, '--chart-cache', path.join(dir, 'cache')], { cwd: dir });
    expect([f.code, f.stderr.split('\n').filter((l) => /cannot be packaged/.test(l)).map((l) => l.replace(/: local source .*/, ': local source ...'))]).toEqual([
      1,
      [
        `${failed}:9:3: error: armada/Chart/v1 one: data.source: --package-charts: chart "one" cannot be packaged: local source ...`,
        `${failed}:18:3: error: armada/Chart/v1 two: data.source: --package-charts: chart "two" cannot be packaged: local source ...`,
      ],
    ]);
  });

  test.each([
    [['--package-charts', URL], '--package-charts writes a chart repository beside the output, in DIR/<manifest>.charts/: give -o DIR'],
    [['-o', 'out', '--package-charts', 'oci://r/x'], '--package-charts: received "oci://r/x"; it must be an http:// or https:// URL without a query or fragment, where the repository\'s index.yaml will be served'],
    [['-o', 'out', '--package-charts', URL, '--check-subcharts'], '--check-subcharts says what Flux makes of the charts as their sources have them; with --package-charts the charts are packaged as Armada assembles them, and there is nothing to check: give one or the other'],
    [['-o', 'out', '--package-charts', URL, '--check-helm', 'helm'], '--check-helm applies with --check-subcharts (the renders it compares); --package-charts does not run helm'],
    [['--chart-cache', 'c'], '--chart-cache applies with --package-charts or --check-subcharts; received it without either'],
  ])('usage error: %j', async (args, message) => {
    const dir = tmpdir();
    const r = await cli(['convert', site(dir), '--to', 'flux-v2', ...args], { cwd: dir });
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, `armada-cdk convert: ${message}`]);
  });

  test('the options belong to flux-v2', async () => {
    const dir = tmpdir();
    const r = await cli(['convert', site(dir), '--to', 'airship-v1', '--check-subcharts'], { cwd: dir });
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, 'armada-cdk convert: --check-subcharts applies to --to flux-v2 only; received --to airship-v1']);
  });
});
