/**
 * Strings cdk8s's YAML writer would write in a form PyYAML (Armada documents) or go-yaml (the
 * operators' custom resources, Flux) cannot read back as they were: refused at synth, with the
 * construct path and the field; everything else synthesizes into a file the reader loads as written.
 */
import { execFileSync } from 'child_process';
import * as cdk8s from 'cdk8s';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import { FluxOutput, OperatorApi } from '../../src/cdk8s';
import { havePythonModule } from '../helpers/python';
import { synthCrs, synthDocuments } from '../helpers/synth';

const TAR = ChartSource.tar('https://e.org/charts/c-1.0.0.tgz');

function site(values: Record<string, unknown>, description?: string) {
  const s = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  new Chart(new ChartGroup(s, 'g', { description }), 'c', { namespace: 'n', source: TAR, wait: { labels: { a: 'b' } }, values });
  return s;
}

function errorsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (e) {
    return (e as Error).message.split('\n').filter((l) => l.includes(': the '));
  }
  return [];
}

describe('Armada documents (read by PyYAML)', () => {
  test('a control character, a YAML 1.1 line break or a tab in a plain scalar is an error with the chart and the field', () => {
    const errors = errorsOf(() => synthDocuments(site({ del: 'a\u007fb', csi: 'a\u009bb', nel: 'a\u0085b', ls: 'x\u2028y', nonchar: 'a\uffffb', tab: 'a\tb', ['k\tey']: 1 })));
    expect(errors.map((e) => e.replace(/^.*?site\/g\/c: /, '').replace(/, which.*$/, ''))).toEqual([
      // in the order the keys are written (sorted)
      'data.values.csi: the string holds U+009B',
      'data.values.del: the string holds U+007F',
      'data.values.k\\tey: the key holds a tab',
      'data.values.ls: the string holds a line separator (U+2028)',
      'data.values.nel: the string holds NEL (next line) (U+0085)',
      'data.values.nonchar: the string holds U+FFFF',
      'data.values.tab: the string holds a tab',
    ]);
    expect(errors[1]).toContain(
      'site/g/c: data.values.del: the string holds U+007F, which cdk8s\'s YAML writer writes as it is, and PyYAML (armada apply) refuses a file with it ("special characters are not allowed"); write these documents with `armada-cdk convert` instead, which quotes and escapes it, or leave it out',
    );
  });

  test('a group description is located at the group', () => {
    expect(errorsOf(() => synthDocuments(site({}, 'db\u2029tier')))).toEqual([
      expect.stringMatching(/site\/g: data\.description: the string holds a paragraph separator \(U\+2029\)/),
    ]);
  });

  test('tabs cdk8s quotes or writes in a block, and other characters, synthesize and read back as written', () => {
    const values = { end: 'ab\t', lead: '\tx', block: 'a\n\tb\n', quoted: 'a\tb: c', astral: 'a😀b', nbsp: 'a\u00a0b', bom: 'a\ufeffb', c0: 'a\u0001b' };
    const { objects, yaml } = synthDocuments(site(values));
    expect(objects.find((o) => o.schema === 'armada/Chart/v1').data.values).toEqual(values);
    if (!havePythonModule('yaml', 1, 'PyYAML reading cdk8s documents')) return;
    const py = execFileSync('python3', ['-c', 'import json,sys,yaml; print(json.dumps(list(yaml.safe_load_all(sys.stdin.read()))))'], { input: yaml, encoding: 'utf8' });
    expect(JSON.parse(py).find((d: { schema: string }) => d.schema === 'armada/Chart/v1').data.values).toEqual(values);
  });
});

describe('custom resources (read by go-yaml)', () => {
  test.each([
    [OperatorApi.AIRSHIP_V1, 'airship-v1'],
    [OperatorApi.KELEUSTES_V1ALPHA1, 'keleustes-v1alpha1'],
  ])('%s: values with a control character, a line break or a merge key are errors with the chart and the field', (api, target) => {
    const errors = errorsOf(() => synthCrs(site({ a: { csi: 'a\u009bb', ls: ['x\u2028y'], '<<': 1 }, tab: 'a\tb' }), { api }));
    expect(errors.map((e) => e.replace(/^.*?site\/g\/c: /, '').replace(/, which.*$/, '').replace(/ is written.*$/, ''))).toEqual([
      'values.a.<<: the key "<<"',
      'values.a.csi: the string holds U+009B',
      'values.a.ls[0]: the string holds a line separator (U+2028)',
    ]);
    expect(errors[1]).toContain(`go-yaml (kubectl, the Kubernetes API) refuses a file with it ("special characters are not allowed"); write these objects with \`armada-cdk convert --to ${target}\` instead`);
  });

  test('Flux: a NEL in values is an error', () => {
    const s = site({ nel: 'a\u0085b' });
    const app = new cdk8s.App();
    new FluxOutput(new cdk8s.Chart(app, 'flux'), 'flux', { manifest: s, onWarning: () => undefined });
    expect(errorsOf(() => app.synthYaml())).toEqual([
      expect.stringContaining('site/g/c: values.nel: the string holds NEL (next line) (U+0085), which cdk8s\'s YAML writer writes as it is, and go-yaml (kubectl, the Kubernetes API) reads it as a line break'),
    ]);
  });
});
