import { spawnSync } from 'child_process';
import { classifyDocuments, validateArmadaDocuments } from '../../../src/importer/load';
import { compiledSchema } from '../../../src/importer/load/schemas';
import { havePythonModule } from '../../helpers/python';
import { havePyYaml, parseText, REPO_ROOT } from './helpers';

function validate(schema: string, data: string, file = 'v.yaml') {
  const r = parseText(`schema: ${schema}\nmetadata:\n  name: x\ndata:\n${data}`, file);
  expect(r.diagnostics).toEqual([]);
  return validateArmadaDocuments(r.documents);
}

const CHART = 'chart_name: a\n  release: a\n  namespace: a\n  source: {type: git, location: x, subpath: .}\n';

describe("validation with Armada's schemas", () => {
  it('accepts a valid chart and says nothing about non-Armada documents', () => {
    expect(validate('armada/Chart/v1', `  ${CHART}`)).toEqual([]);
    expect(validate('deckhand/Passphrase/v1', '  whatever: 1\n')).toEqual([]);
  });

  it("words type errors as jsonschema does, with Python's repr of the value, at the offending key", () => {
    const errors = validate('armada/Chart/v1', `  ${CHART}  wait:\n    timeout: '600'\n    resources:\n      - type: job\n        min_ready: 1.0\n`);
    expect(errors).toEqual([
      { severity: 'error', location: 'v.yaml:10:5', document: 'armada/Chart/v1 x', field: 'data.wait.timeout', code: 'ARM100', message: "'600' is not of type 'integer'" },
      {
        severity: 'error',
        location: 'v.yaml:13:9',
        document: 'armada/Chart/v1 x',
        field: 'data.wait.resources[0].min_ready',
        code: 'ARM100',
        message: '1.0 is not valid under any of the given schemas',
      },
    ]);
  });

  it('tells a float from an integer and a timestamp from a string, as Armada does', () => {
    const errors = validate('armada/Chart/v1', `  ${CHART.replace('subpath: .}', 'subpath: ., reference: 2019-01-01}')}  timeout: 600.0\n  values: 2019-01-01\n  delete: {timeout: .inf}\n`);
    expect(errors.map((e) => [e.field, e.message])).toEqual([
      ['data.source.reference', "datetime.date(2019, 1, 1) is not of type 'string'"],
      ['data.timeout', "600.0 is not of type 'integer'"],
      ['data.values', "datetime.date(2019, 1, 1) is not of type 'object'"],
      ['data.delete.timeout', "inf is not of type 'integer'"],
    ]);
    // the loaded values themselves are plain JavaScript numbers
    const doc = parseText(`schema: armada/Chart/v1\nmetadata: {name: x}\ndata:\n  timeout: 600.0\n`).documents[0];
    expect((doc.data as { timeout: unknown }).timeout).toBe(600);
  });

  it('reports a failed anyOf once, not once per branch', () => {
    const errors = validate('armada/Chart/v1', `  ${CHART}  test: 'yes'\n`);
    expect(errors.map((e) => [e.location, e.field, e.message])).toEqual([['v.yaml:9:3', 'data.test', "'yes' is not valid under any of the given schemas"]]);
    expect(validate('armada/Chart/v1', `  ${CHART}  test: yes\n`)).toEqual([]);
  });

  it('reports each unexpected key at its own position, with the closest known key', () => {
    const errors = validate('armada/ChartGroup/v1', '  sequnced: true\n  chart_group: [a, 1]\n  descripton: x\n  zzz: 1\n');
    expect(errors.map((e) => [e.location, e.field, e.message])).toEqual([
      ['v.yaml:5:3', 'data.sequnced', "Additional properties are not allowed ('sequnced' was unexpected): did you mean 'sequenced'?"],
      ['v.yaml:6:20', 'data.chart_group[1]', "1 is not of type 'string'"],
      ['v.yaml:7:3', 'data.descripton', "Additional properties are not allowed ('descripton' was unexpected): did you mean 'description'?"],
      ['v.yaml:8:3', 'data.zzz', "Additional properties are not allowed ('zzz' was unexpected)"],
    ]);
  });

  it('points a missing property at the object that lacks it and names the missing field', () => {
    expect(validate('armada/Manifest/v1', '  {}\n').map((e) => [e.location, e.field, e.message])).toEqual([
      ['v.yaml:4:1', 'data.chart_groups', "'chart_groups' is a required property"],
      ['v.yaml:4:1', 'data.release_prefix', "'release_prefix' is a required property"],
    ]);
    expect(validate('armada/Chart/v1', `  ${CHART.replace(', subpath: .', '')}`).map((e) => [e.location, e.field, e.message])).toEqual([
      ['v.yaml:8:3', 'data.source.subpath', "'subpath' is a required property"],
    ]);
  });

  it('follows Draft 4: a ChartGroup schema has no type, so a list passes; a null Chart does not', () => {
    expect(validate('armada/ChartGroup/v1', '  [a]\n')).toEqual([]);
    expect(validate('armada/Chart/v1', '  ~\n').map((e) => e.message)).toEqual(["None is not of type 'object'"]);
  });

  it('applies the v2 rules (test must be an object; wait.resources may be a dict)', () => {
    const errors = validate('armada/Chart/v2', '  release: a\n  namespace: a\n  source: {type: git, location: x}\n  test: true\n  wait:\n    resources: {job: false, pod: [{labels: {a: b}}]}\n');
    expect(errors.map((e) => [e.field, e.message])).toEqual([['data.test', "True is not of type 'object'"]]);
    const v1 = validate('armada/Chart/v2', '  chart_name: a\n  release: a\n  namespace: a\n  source: {type: git, location: x}\n');
    expect(v1.map((e) => e.message)).toEqual(["Additional properties are not allowed ('chart_name' was unexpected)"]);
  });

  it('quotes strings the way Python does', () => {
    const errors = validate('armada/Chart/v1', `  ${CHART}  timeout: "it's"\n  delete: {timeout: 'a "b" c'}\n  wait: {timeout: "tab\\there"}\n`);
    expect(errors.map((e) => e.message)).toEqual([`"it's" is not of type 'integer'`, `'a "b" c' is not of type 'integer'`, `'tab\\there' is not of type 'integer'`]);
  });

  it('cuts long values short in messages', () => {
    const big = Array.from({ length: 100 }, (_, i) => `k${i}: v${i}`).join(', ');
    const [e] = validate('armada/Chart/v1', `  ${CHART}  timeout: {${big}}\n`);
    expect(e.message).toMatch(/^\{'k0': 'v0', 'k1': 'v1', .*\.\.\. is not of type 'integer'$/);
    expect(e.message.length).toBeLessThan(200);
  });

  it('compiles each schema once', () => {
    const a = compiledSchema('armada/Chart/v1');
    validate('armada/Chart/v1', `  ${CHART}`);
    expect(compiledSchema('armada/Chart/v1')).toBe(a);
  });

  it('validates documents that classify() left out only if they have a data key', () => {
    const docs = parseText('schema: armada/Chart/v1\nmetadata: {}\ndata: {}\n---\nschema: armada/Chart/v1\nmetadata: {name: y}\n').documents;
    expect(classifyDocuments(docs).armada).toEqual([]);
    expect(validateArmadaDocuments(docs).map((e) => [e.document, e.message])).toEqual([
      ['armada/Chart/v1', "'namespace' is a required property"],
      ['armada/Chart/v1', "'chart_name' is a required property"],
      ['armada/Chart/v1', "'release' is a required property"],
      ['armada/Chart/v1', "'source' is a required property"],
    ]);
  });

  describe("cross-checked against Python's jsonschema Draft4Validator", () => {
    const haveJsonschema = havePyYaml() && havePythonModule('jsonschema', 1, 'jsonschema Draft4Validator');
    const run = haveJsonschema ? it : it.skip;
    const cases: [string, string][] = [
      ['armada/Chart/v1', `  ${CHART}  wait: {timeout: '600', labels: {a: 1}, resources: [{type: job, min_ready: 1.0}, {min_ready: x}]}\n  test: 'yes'\n  values: 2019-01-01\n  timeout: 600.0\n`],
      ['armada/Chart/v1', `  ${CHART}  upgrade: {no_hooks: false, options: {force: 1, recreate_pods: true}, pre: {delete: [{type: job, labels: [{a: b}]}]}}\n  protected: {}\n  test: {enabled: yes, timeout: 1.5, options: {cleanup: x}}\n`],
      ['armada/Chart/v1', '  ~\n'],
      ['armada/Chart/v1', '  {}\n'],
      ['armada/Chart/v2', '  release: a\n  namespace: 1\n  source: {location: x}\n  test: true\n  wait: {resources: [{labels: {a: 1}}], native: {enabled: 1}}\n'],
      ['armada/ChartGroup/v1', '  sequnced: true\n  chart_group: [a, 1]\n'],
      ['armada/ChartGroup/v2', '  test_charts: true\n  chart_group: a\n'],
      ['armada/Manifest/v2', '  release_prefix: [x]\n  chart_groups: [a, ~]\n'],
    ];
    run('gives the same messages at the same paths', () => {
      const script = `
import sys, json, yaml, glob, jsonschema
S = {}
for f in glob.glob(sys.argv[1] + '/schemas/armada/*.yaml'):
    for d in yaml.safe_load_all(open(f)):
        S[d['metadata']['name']] = d['data']
out = []
for schema, text in json.load(sys.stdin):
    doc = yaml.safe_load(text)
    errs = jsonschema.Draft4Validator(S[schema]).iter_errors(doc['data'])
    out.append(sorted(['.'.join(str(p) for p in e.path) + ': ' + e.message for e in errs]))
json.dump(out, sys.stdout)
`;
      const texts = cases.map(([schema, data]) => [schema, `schema: ${schema}\nmetadata:\n  name: x\ndata:\n${data}`]);
      const r = spawnSync('python3', ['-c', script, REPO_ROOT], { input: JSON.stringify(texts), encoding: 'utf8' });
      expect(r.stderr).toBe('');
      const expected: string[][] = JSON.parse(r.stdout);
      cases.forEach(([schema, data], i) => {
        const ours = validate(schema, data)
          .map((e) => {
            // jsonschema's path of a missing or unexpected property is the object holding it
            const field = e.field!.replace(/^data\.?/, '').replace(/\[(\d+)\]/g, '.$1');
            const holder = /is a required property|(was|were) unexpected/.test(e.message) ? field.replace(/\.?[^.]+$/, '') : field;
            return `${holder}: ${e.message.replace(/(unexpected\)): .*$/, '$1')}`;
          })
          .sort();
        expect({ schema, data, errors: ours }).toEqual({ schema, data, errors: expected[i] });
      });
    });
  });
});
