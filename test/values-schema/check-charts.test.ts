import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Testing } from '../../src';
import { PresentDirectories } from '../../src/values-schema/check-charts';

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

describe('source directories looked up once', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-charts-'));
    fs.mkdirSync(path.join(dir, 'real', 'c'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'real', 'c', 'values.schema.json'), JSON.stringify({ type: 'object', properties: { a: { type: 'string' } } }));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Charts `c0`..`c{n-1}` with values the schema rejects, each at `location` / `subpath(i)`. */
  const manyCharts = (n: number, location: string, subpath: (i: number) => string) => {
    const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(m, 'g');
    for (let i = 0; i < n; i++) new Chart(g, `c${i}`, { namespace: 'ns', source: ChartSource.local(location, { subpath: subpath(i) }), wait: { labels: { a: 'b' } }, values: { a: 1 } });
    return m;
  };
  const rejected = (m: ArmadaManifest) => Testing.validate(m).filter((d) => d.code === 'values-schema').map((d) => `${d.location}: ${d.field}`);

  test('charts under a missing directory: nothing is checked, and the directory is looked up once', () => {
    const missing = path.join(dir, 'missing');
    expect(rejected(manyCharts(20, missing, (i) => `c${i}`))).toEqual([]);
    const present = new PresentDirectories();
    expect(present.mayHold(missing, path.join(missing, 'c0'))).toBe(false);
    // Made after the first look: the answer is the one looked up (one run, one look).
    fs.mkdirSync(missing);
    expect(present.mayHold(missing, path.join(missing, 'c1'))).toBe(false);
    expect(new PresentDirectories().mayHold(missing, path.join(missing, 'c1'))).toBe(true);
    // Outside the location, the location says nothing.
    expect(new PresentDirectories().mayHold(path.join(dir, 'gone'), path.join(dir, 'real', 'c'))).toBe(true);
  });

  test('a chart whose directory exists is still checked, each against its schema', () => {
    expect(rejected(manyCharts(2, path.join(dir, 'real'), () => 'c'))).toEqual(['site/g/c0: values.a', 'site/g/c1: values.a']);
  });

  test('a subpath that leaves a missing directory for one that exists is still checked', () => {
    expect(rejected(manyCharts(1, path.join(dir, 'missing'), () => '../real/c'))).toEqual(['site/g/c0: values.a']);
  });
});
