/**
 * Values Armada retypes, for a site defined with the constructs: the documents outputs hand the
 * values to Armada, which writes them for Helm with yaml.safe_dump (armada/handlers/helm.py,
 * _TempValuesFile), and Helm's go-yaml v2 reads `y`, `0o755`, `09` as a boolean or numbers
 * whatever the documents' quoting. Only those outputs warn (`values-retyped`): the operators and
 * Flux hand the values to Helm without PyYAML's dump.
 */
import { spawnSync } from 'child_process';
import * as cdk8s from 'cdk8s';
import { Construct } from 'constructs';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Diagnostic, SchemaVersion, Warnings } from '../../src';
import { ArmadaChartOutput, ArmadaDocuments, FluxOutput, OperatorApi } from '../../src/cdk8s';
import { toHelmfile } from '../../src/helmfile';
import { warningLines } from '../../src/cdk8s/warning-handler';
import { havePythonModule } from '../helpers/python';
import { base } from '../helpers/site';

/** A chart with retyped values and keys, one without, and a subchart (Armada writes no values for it). */
function retypedSite() {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
  const htk = new Chart(site, 'htk', { namespace: 'openstack', source: ChartSource.tar('https://charts.example.org/htk-0.1.0.tgz'), values: { only: 'n' } });
  const g = new ChartGroup(site, 'g');
  const a = new Chart(g, 'a', {
    ...base('a'),
    dependencies: [htk],
    values: { debug: 'y', mode: '0o755', list: ['ok', '09'], y: 'first', Y: 'second', quoted: '0755', flag: true },
  });
  const b = new Chart(g, 'b', { ...base('b'), values: { size: '1e3' } });
  const c = new Chart(g, 'c', { ...base('c'), values: { plain: 'yes', port: 8080 } });
  return { site, g, a, b, c };
}

type Output = (chart: cdk8s.Chart, site: ArmadaManifest, onWarning: (d: Diagnostic) => void) => Construct;

const documents =
  (version?: SchemaVersion): Output =>
  (chart, manifest, onWarning) =>
    new ArmadaDocuments(chart, 'docs', { manifest, version, onWarning });

/** The warnings an output reports at synth, with the output and its cdk8s Chart given to `setup`. */
function synthWarnings(site: ArmadaManifest, output: Output, setup?: (output: Construct, chart: cdk8s.Chart) => void): Diagnostic[] {
  const seen: Diagnostic[] = [];
  const chart = new cdk8s.Chart(new cdk8s.App(), 'out');
  const o = output(chart, site, (d) => seen.push(d));
  setup?.(o, chart);
  cdk8s.Testing.synth(chart);
  return seen;
}

const retyped = (ds: Diagnostic[]) => ds.filter((d) => d.code === 'values-retyped');
const why = (s: string) => `Armada writes values for Helm with PyYAML's yaml.safe_dump, which leaves ${JSON.stringify(s)} unquoted, and Helm's YAML reader (go-yaml v2) reads it so; Armada cannot pass the string ${JSON.stringify(s)} to Helm, however these documents quote it`;
const keyWhy = (k: string) => `Armada writes values with PyYAML's yaml.safe_dump, which leaves the key unquoted, Helm's YAML reader reads it as the boolean true and writes it back as "true"; Armada cannot pass the key ${JSON.stringify(k)} to Helm, however these documents quote it`;
const clash = (other: string) => `as the key ${JSON.stringify(other)} here does: go-yaml reads them as one key and keeps the value of the last one safe_dump writes, in sorted order: that of "y"`;

const EXPECTED: [string, string, string][] = [
  ['site/g/a', 'values.debug', `received the string "y"; under Armada, Helm receives the boolean true instead: ${why('y')}: write true where that is meant`],
  ['site/g/a', 'values.mode', `received the string "0o755"; under Armada, Helm receives the number 493 instead: ${why('0o755')}: write 493 where that is meant`],
  ['site/g/a', 'values.list[1]', `received the string "09"; under Armada, Helm receives the number 9 instead: ${why('09')}: write 9 where that is meant`],
  ['site/g/a', 'values.y', `the key "y" becomes the key "true" in Helm under Armada, ${clash('Y')}: ${keyWhy('y')}`],
  ['site/g/a', 'values.Y', `the key "Y" becomes the key "true" in Helm under Armada, ${clash('y')}: ${keyWhy('Y')}`],
  ['site/g/b', 'values.size', `received the string "1e3"; under Armada, Helm receives the number 1000 instead: ${why('1e3')}: write 1000 where that is meant`],
];

describe('ArmadaDocuments: a warning at each value and key Helm receives as something else under Armada', () => {
  test.each([
    ["each document's own", undefined],
    ['the v1', SchemaVersion.V1],
    ['the v2', SchemaVersion.V2],
  ])('%s schema version: located at the chart and its values field, with exact text, in the plan order', (_, version) => {
    const seen = retyped(synthWarnings(retypedSite().site, documents(version)));
    expect(seen.map((d) => [d.location, d.field, d.message])).toEqual(EXPECTED);
    expect(seen.map((d) => `${d.severity} ${d.document ?? ''}`)).toEqual(EXPECTED.map(() => 'warning '));
  });

  test('grouped as the other warnings: one id, values-retyped:values, and more than three as one line', () => {
    const lines = warningLines(retyped(synthWarnings(retypedSite().site, documents())));
    expect(lines).toEqual([
      `armada-cdk: warning: site/g/a: values.debug: ${EXPECTED[0][2]} [values-retyped:values: 6 warnings like this one, also in site/g/b]`,
    ]);
  });

  test('an acknowledged warning is silent: on the chart (by code, or code and field), its group, the manifest, the output or its cdk8s Chart', () => {
    const ack = (setup: (s: ReturnType<typeof retypedSite>) => void, on?: (output: Construct, chart: cdk8s.Chart) => void) => {
      const s = retypedSite();
      setup(s);
      return retyped(synthWarnings(s.site, documents(), on)).map((d) => `${d.location} ${d.field}`);
    };
    const onlyB = ['site/g/b values.size'];
    expect(ack(({ a }) => Warnings.of(a).acknowledge('values-retyped', 'the chart reads these as Armada gave them'))).toEqual(onlyB);
    expect(ack(({ a }) => Warnings.of(a).acknowledge('values-retyped:values', 'the chart reads these as Armada gave them'))).toEqual(onlyB);
    expect(ack(({ g }) => Warnings.of(g).acknowledge('values-retyped', 'accepted for the group'))).toEqual([]);
    expect(ack(({ site }) => Warnings.of(site).acknowledge('values-retyped:values', 'accepted for the site'))).toEqual([]);
    expect(ack(() => undefined, (output) => Warnings.of(output).acknowledge('values-retyped', 'this output only'))).toEqual([]);
    expect(ack(() => undefined, (_, chart) => Warnings.of(chart).acknowledge('values-retyped', 'this file only'))).toEqual([]);
    // Another field of the code acknowledges nothing here.
    expect(ack(({ a }) => Warnings.of(a).acknowledge('values-retyped:wait', 'no effect'))).toHaveLength(EXPECTED.length);
  });

  test('acknowledged on one output, another output of the same manifest still warns', () => {
    const { site } = retypedSite();
    const app = new cdk8s.App();
    const seen: string[] = [];
    const quiet = new ArmadaDocuments(new cdk8s.Chart(app, 'v1'), 'docs', { manifest: site, version: SchemaVersion.V1, onWarning: (d) => seen.push(`v1 ${d.code}`) });
    Warnings.of(quiet).acknowledge('values-retyped', 'this file is for a test bench');
    new ArmadaDocuments(new cdk8s.Chart(app, 'v2'), 'docs', { manifest: site, version: SchemaVersion.V2, onWarning: (d) => seen.push(`v2 ${d.code}`) });
    app.synthYaml();
    expect(seen.filter((s) => s.endsWith('values-retyped'))).toEqual(EXPECTED.map(() => 'v2 values-retyped'));
  });

  const python = havePythonModule('yaml', 1, 'yaml.safe_dump of the written values');
  (python ? test : test.skip)("cross-check: the documents keep the strings, and PyYAML's safe_dump of what Armada reads leaves them plain", () => {
    const chart = new cdk8s.Chart(new cdk8s.App(), 'out');
    new ArmadaDocuments(chart, 'docs', { manifest: retypedSite().site, onWarning: () => undefined });
    const yaml = cdk8s.Yaml.stringify(...cdk8s.Testing.synth(chart));
    // What Armada does with a chart document's values: safe_load, then safe_dump for Helm.
    const script = 'import sys, yaml\nfor d in yaml.safe_load_all(sys.stdin):\n    if d["metadata"]["name"] == "a":\n        print(yaml.safe_dump(d["data"]["values"]), end="")';
    const run = spawnSync('python3', ['-c', script], { input: yaml, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe("Y: second\ndebug: y\nflag: true\nlist:\n- ok\n- 09\nmode: 0o755\nquoted: '0755'\ny: first\n");
  });
});

describe('the operators, Flux and Helmfile give Helm the values without PyYAML: no values-retyped warning', () => {
  test.each<[string, Output]>([
    ['airship v1', (chart, manifest, onWarning) => new ArmadaChartOutput(chart, 'crs', { manifest, onWarning })],
    ['keleustes v1alpha1', (chart, manifest, onWarning) => new ArmadaChartOutput(chart, 'crs', { manifest, api: OperatorApi.KELEUSTES_V1ALPHA1, onWarning })],
    ['Flux', (chart, manifest, onWarning) => new FluxOutput(chart, 'flux', { manifest, onWarning })],
  ])('%s', (_, output) => {
    const seen = synthWarnings(retypedSite().site, output);
    expect(retyped(seen)).toEqual([]);
    // The same site does warn when written as documents.
    expect(retyped(synthWarnings(retypedSite().site, documents()))).toHaveLength(EXPECTED.length);
  });

  test('Helmfile', () => {
    expect(retyped([...toHelmfile(retypedSite().site).warnings])).toEqual([]);
  });
});
