/**
 * Values defined in TypeScript nested deeper than Armada reads: refused at synth with the chart's
 * construct path, whatever the output, instead of a "Maximum call stack size exceeded" from one of
 * the walks over values (or, for classic documents, YAML that Armada cannot load).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import * as yaml from 'js-yaml';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, mergeValues, SchemaVersion, Testing } from '../../src';
import { ArmadaChartOutput, ArmadaDocuments, FluxOutput, OperatorApi } from '../../src/cdk8s';
import { MAX_VALUES_DEPTH, PYYAML_MAX_DEPTH } from '../../src/model/armada-depth';
import { findValueProblems } from '../../src/model/values';
import { firstTooDeep } from '../../src/importer/load/depth';
import { havePyYaml } from '../importer/load/helpers';

/** Mappings nested `depth` deep, the outermost one included: `{k: {k: ... {leaf: 1}}}`. */
function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < depth; i++) v = { k: v };
  return v;
}

function site(values: Record<string, unknown>, source = ChartSource.tar('https://charts.example/c-1.0.0.tgz')) {
  const manifest = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  const g = new ChartGroup(manifest, 'g');
  const chart = new Chart(g, 'c', { namespace: 'ns', source, wait: { labels: { release_group: 'p-c' } }, values });
  return { manifest, chart };
}

const TOO_DEEP = `site/g/c: values: nested more than ${MAX_VALUES_DEPTH} levels deep (at values.k.k.k ... .k.k): Armada reads a chart document with PyYAML, which stops past ${PYYAML_MAX_DEPTH} levels with a RecursionError, and values start two levels down (data.values); flatten the values`;

type Output = (chart: cdk8s.Chart, manifest: ArmadaManifest) => void;
const OUTPUTS: [string, Output][] = [
  ['airship-v1 ArmadaCharts', (c, manifest) => new ArmadaChartOutput(c, 'o', { manifest })],
  ['keleustes ArmadaCharts', (c, manifest) => new ArmadaChartOutput(c, 'o', { manifest, api: OperatorApi.KELEUSTES_V1ALPHA1 })],
  ['classic documents', (c, manifest) => new ArmadaDocuments(c, 'o', { manifest, version: SchemaVersion.V1 })],
  ['Flux HelmReleases', (c, manifest) => new FluxOutput(c, 'o', { manifest })],
];

/** Synthesizes into a fresh directory; returns what was written, or the error synth threw. */
function synth(output: Output, manifest: ArmadaManifest): { files: string[]; error?: Error | undefined } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-deep-'));
  try {
    const app = new cdk8s.App({ outdir });
    output(new cdk8s.Chart(app, 'site'), manifest);
    let error: Error | undefined;
    try {
      app.synth();
    } catch (e) {
      error = e as Error;
    }
    return { files: fs.readdirSync(outdir), error };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

describe('values nested deeper than Armada reads', () => {
  test(`the limit: ${MAX_VALUES_DEPTH} levels of values (the values mapping is 1) pass; one more is one problem, at the first place, with the walk stopped there`, () => {
    expect(MAX_VALUES_DEPTH).toBe(PYYAML_MAX_DEPTH - 2);
    expect(findValueProblems(nested(MAX_VALUES_DEPTH))).toEqual([]);
    const deeper = nested(MAX_VALUES_DEPTH + 1);
    expect(findValueProblems(deeper)).toEqual([{ path: [], message: TOO_DEEP.slice('site/g/c: values: '.length), unbounded: true }]);
    // Two branches too deep, and a real problem beside them: the depth once, the other as ever.
    const problems = findValueProblems({ a: nested(MAX_VALUES_DEPTH), b: nested(MAX_VALUES_DEPTH), c: undefined });
    expect(problems.map((p) => [p.path, p.unbounded ?? false])).toEqual([
      [[], true],
      [['c'], false],
    ]);
    expect(problems[0].message).toContain('(at values.a.k.k ... .k.k)');
    // Lists count as levels too.
    let list: unknown = [1];
    for (let i = 1; i < MAX_VALUES_DEPTH; i++) list = [list];
    expect(findValueProblems({ l: list })[0].message).toContain('(at values.l[0][0] ... [0][0])');
    expect(findValueProblems({ l: (list as unknown[])[0] })).toEqual([]);
  });

  test('200,000 levels: a problem, not a stack overflow', () => {
    expect(findValueProblems(nested(200_000)).map((p) => p.unbounded)).toEqual([true]);
  });

  test.each(OUTPUTS)('%s: synth fails with the chart, the field and why, and writes nothing', (_name, output) => {
    for (const depth of [MAX_VALUES_DEPTH + 1, 20_000]) {
      const { files, error } = synth(output, site(nested(depth)).manifest);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(RangeError);
      expect(error!.message).toContain(TOO_DEEP);
      expect(files).toEqual([]);
    }
  });

  test.each(OUTPUTS)('%s: values at the limit are written whole', (_name, output) => {
    const { files, error } = synth(output, site(nested(MAX_VALUES_DEPTH)).manifest);
    expect(error).toBeUndefined();
    expect(files).toEqual(['site.k8s.yaml']);
  });

  test('a per-site override or mergeValues past the limit neither throws nor loses the error', () => {
    const deep = nested(20_000);
    expect(() => mergeValues({ k: nested(20_000) }, { k: deep })).not.toThrow();
    const { manifest, chart } = site({ a: 1 });
    chart.overrideValues({ k: deep } as never);
    expect(Testing.validate(manifest).map((d) => `${d.location}: ${d.field}: ${d.message}`)).toContain(TOO_DEEP);
    const both = site(nested(20_000));
    both.chart.overrideValues(nested(20_000) as never);
    expect(Testing.validate(both.manifest).map((d) => `${d.location}: ${d.field}: ${d.message}`)).toContain(TOO_DEEP);
  });

  test("a local chart's values.schema.json is not checked against values too deep to walk: one error, no crash", () => {
    const chartDir = path.resolve(__dirname, '..', 'fixtures', 'charts', 'mariadb');
    const { manifest } = site(nested(20_000), ChartSource.local(chartDir));
    for (const opaqueValues of [undefined, () => false]) {
      const errors = manifest.resolve({ opaqueValues }).diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => d.code)).toEqual(['values']);
    }
  });

  test(`the classic Chart document of values at the limit nests exactly ${PYYAML_MAX_DEPTH} levels: as deep as Armada reads`, () => {
    const doc = Testing.documents(site(nested(MAX_VALUES_DEPTH)).manifest).find((d) => d.schema === 'armada/Chart/v1')!;
    expect(firstTooDeep(doc, PYYAML_MAX_DEPTH)).toBeUndefined();
    expect(firstTooDeep(doc, PYYAML_MAX_DEPTH - 1)).toHaveLength(PYYAML_MAX_DEPTH - 1);
  });

  const python = havePyYaml(1);
  (python ? test : test.skip)('PyYAML loads the classic documents of values at the limit', () => {
    const { files, text } = (() => {
      const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-deep-'));
      try {
        const app = new cdk8s.App({ outdir });
        new ArmadaDocuments(new cdk8s.Chart(app, 'site'), 'o', { manifest: site(nested(MAX_VALUES_DEPTH)).manifest });
        app.synth();
        return { files: fs.readdirSync(outdir), text: fs.readFileSync(path.join(outdir, 'site.k8s.yaml'), 'utf8') };
      } finally {
        fs.rmSync(outdir, { recursive: true, force: true });
      }
    })();
    expect(files).toEqual(['site.k8s.yaml']);
    expect(yaml.loadAll(text).map((d) => (d as { schema: string }).schema)).toEqual(['armada/Chart/v1', 'armada/ChartGroup/v1', 'armada/Manifest/v1']);
    const py = spawnSync('python3', ['-c', 'import sys, yaml\ndef main():\n    print(len(list(yaml.safe_load_all(sys.stdin))))\nmain()'], { input: text, encoding: 'utf8' });
    expect([py.status, py.stdout.trim()]).toEqual([0, '3']);
  });
});
