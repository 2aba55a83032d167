import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Testing } from '../../src';

const CHARTS = path.resolve(__dirname, '..', 'fixtures', 'charts');

function site(values: Record<string, unknown>, chart = 'mariadb') {
  const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  new Chart(new ChartGroup(m, 'g'), chart, {
    namespace: 'openstack',
    source: ChartSource.local(CHARTS, { subpath: chart }),
    wait: { labels: { release_group: `p-${chart}` } },
    values,
  });
  return m;
}

describe("values against a local chart's values.schema.json, at synth", () => {
  test('one diagnostic per violation, with the chart path and the JSON path of the value', () => {
    const found = Testing.validate(site({ pod: { replicas: { server: 'three' } }, images: { pull_policy: 'Sometimes' } })).filter((d) => d.code === 'values-schema');
    const schema = path.join(CHARTS, 'mariadb', 'values.schema.json');
    expect(found.map((d) => [d.location, d.field, d.message.replace(` (${schema})`, '')])).toEqual([
      ['site/g/mariadb', 'values.images.pull_policy', 'received "Sometimes"; must be one of "Always", "IfNotPresent", "Never"'],
      ['site/g/mariadb', 'values.pod.replicas.server', 'received "three"; must be integer'],
    ]);
    expect(found.every((d) => d.message.endsWith(`(${schema})`))).toBe(true);
  });

  test('valid values and charts without a schema are not errors', () => {
    expect(Testing.validate(site({}, 'ingress')).filter((d) => d.code === 'values-schema')).toEqual([]);
  });
});

describe("a chart's own values.yaml and schema that cannot be used", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-charts-'));
    fs.mkdirSync(path.join(dir, 'c'));
    fs.writeFileSync(path.join(dir, 'c', 'values.schema.json'), JSON.stringify({ type: 'object', properties: { a: { type: 'string' } } }));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const localSite = () => {
    const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(m, 'g'), 'c', { namespace: 'ns', source: ChartSource.local(dir, { subpath: 'c' }), wait: { labels: { a: 'b' } }, values: { a: 'x' } });
    return m;
  };
  const found = () => Testing.validate(localSite()).filter((d) => d.code === 'values-schema').map((d) => `${d.severity} ${d.location}: ${d.field}: ${d.message}`);
  const valuesYaml = () => path.join(dir, 'c', 'values.yaml');

  test('a YAML error in values.yaml is an error with its line and column, not a crash', () => {
    fs.writeFileSync(valuesYaml(), 'a: x\nb: [1, 2\n');
    expect(found()).toEqual([
      `error site/g/c: source: the chart's values.yaml cannot be used: ${valuesYaml()}:3:1: unexpected end of the stream within a flow collection; Helm cannot load the chart either`,
    ]);
  });

  test('an alias bomb or a recursive alias in values.yaml is refused before the check walks it', () => {
    const bomb = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`)];
    fs.writeFileSync(valuesYaml(), `${bomb.join('\n')}\n`);
    const started = Date.now();
    expect(found()).toEqual([
      `error site/g/c: source: the chart's values.yaml cannot be used: ${valuesYaml()}: its aliases expand to more than 1,000,000 nodes (an alias bomb?); Helm refuses such a file (excessive aliasing)`,
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
    fs.writeFileSync(valuesYaml(), 'a: &s\n  self: *s\n');
    expect(found()).toEqual([`error site/g/c: source: the chart's values.yaml cannot be used: ${valuesYaml()}: an alias contains the node it names, so the values are infinitely deep; Helm cannot load the chart either`]);
  });

  test('values.yaml is read as every input is: not a directory, not UTF-16', () => {
    fs.mkdirSync(valuesYaml());
    expect(found()).toEqual([expect.stringMatching(new RegExp(`^error site/g/c: source: the chart's values.yaml cannot be used: .*${path.basename(valuesYaml())}.*a directory, not a file`))]);
    fs.rmdirSync(valuesYaml());
    fs.writeFileSync(valuesYaml(), Buffer.from('\ufeffa: x\n', 'utf16le'));
    expect(found()[0]).toMatch(/^error site\/g\/c: source: the chart's values.yaml cannot be used: .*values\.yaml is UTF-16 \(little-endian\) text .*not UTF-8, which is what Helm reads/);
  });

  test('a schema too deeply chained for the validator: the values were not checked, a warning', () => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 2000; i++) defs[`d${i}`] = i < 1999 ? { type: 'object', properties: { x: { $ref: `#/definitions/d${i + 1}` } } } : { type: 'string' };
    fs.writeFileSync(path.join(dir, 'c', 'values.schema.json'), JSON.stringify({ type: 'object', properties: { a: { $ref: '#/definitions/d0' } }, definitions: defs }));
    const [line, ...rest] = found();
    expect(rest).toEqual([]);
    expect(line).toMatch(/^warning site\/g\/c: source: the values were not checked against the chart's values.schema.json: .*values\.schema\.json: too deeply chained for the validator to compile \(a chain of \$ref, each definition naming the next, a few hundred long\?\): Maximum call stack size exceeded; Helm checks them at install$/);
  });
});
