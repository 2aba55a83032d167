import { execFileSync } from 'child_process';
import * as cdk8s from 'cdk8s';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, WaitResource } from '../../src';
import { defineSite } from '../../examples/site';
import { havePythonModule } from '../helpers/python';
import { synthCrs, synthDocuments } from '../helpers/synth';

/** Strings that YAML 1.1 readers (PyYAML, go-yaml v2) would turn into booleans, numbers or null. */
const TRICKY = ['yes', 'no', 'on', 'off', 'y', 'n', 'True', 'NO', 'Off', '0755', '0x1F', '1:20', '1_000', '1e3', '.5', '+1', '.inf', '-.Inf', '.NaN', 'null', '~', '', '2001-12-14', '12', '3.0'];

function trickySite(order: 'forward' | 'reverse') {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  const g = new ChartGroup(site, 'g');
  const entries = TRICKY.map((s, i) => [`k${String(i).padStart(2, '0')}`, s] as const);
  const values = Object.fromEntries(order === 'forward' ? entries : [...entries].reverse());
  const wait = order === 'forward'
    ? { timeout: Duration.minutes(5), labels: { b: '2', a: '1' }, resources: [WaitResource.pod()] }
    : { resources: [WaitResource.pod()], labels: { a: '1', b: '2' }, timeout: Duration.seconds(300) };
  new Chart(g, 'c', order === 'forward'
    ? { namespace: 'n', source: ChartSource.tar('https://x/c.tgz'), values: { list: [...TRICKY], map: values }, wait }
    : { wait, values: { map: values, list: [...TRICKY] }, source: ChartSource.tar('https://x/c.tgz'), namespace: 'n' });
  return site;
}

describe('determinism and YAML safety', () => {
  test('the same definition gives byte-identical YAML, whatever order the props were written in', () => {
    const a = synthCrs(trickySite('forward')).yaml;
    const b = synthCrs(trickySite('reverse')).yaml;
    expect(a).toBe(b);
    expect(synthDocuments(trickySite('forward')).yaml).toBe(synthDocuments(trickySite('reverse')).yaml);
    expect(synthCrs(defineSite()).yaml).toBe(synthCrs(defineSite()).yaml);
  });

  test('strings that YAML 1.1 would read as booleans or numbers are quoted, and read back as strings', () => {
    const { yaml } = synthCrs(trickySite('forward'));
    for (const s of TRICKY.filter((x) => x !== '')) expect(yaml).toContain(`- ${JSON.stringify(s)}\n`);
    const back = YAML.parse(yaml, { version: '1.1' });
    expect(back.data.values.list).toEqual(TRICKY);
  });

  test('PyYAML (what armada apply uses) reads the documents back unchanged', () => {
    if (!havePythonModule('yaml', 1, 'PyYAML read-back')) return;
    const { yaml, objects } = synthDocuments(trickySite('forward'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-pyyaml-'));
    const file = path.join(dir, 'docs.yaml');
    fs.writeFileSync(file, yaml);
    const out = execFileSync('python3', ['-c', 'import json,sys,yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))', file], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(objects);
  });

  test('an app synthesizes the same files twice', () => {
    const outdirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-det-')));
    for (const outdir of outdirs) {
      const app = new cdk8s.App({ outdir });
      const site = defineSite();
      const { ArmadaChartOutput } = require('../../src/cdk8s');
      new ArmadaChartOutput(new cdk8s.Chart(app, 'site'), 'crs', { manifest: site, onWarning: () => undefined });
      app.synth();
    }
    const read = (d: string) => fs.readFileSync(path.join(d, 'site.k8s.yaml'), 'utf8');
    expect(read(outdirs[0])).toBe(read(outdirs[1]));
  });
});

test('documents with "=" or "<<" scalars (unreadable by PyYAML when unquoted) are refused with the path', () => {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  new Chart(new ChartGroup(site, 'g'), 'c', { namespace: 'n', source: ChartSource.tar('https://x/c.tgz'), wait: { labels: { a: 'b' } }, values: { op: '=', nested: { '<<': 1 } } });
  expect(() => synthDocuments(site)).toThrow(/site\/g\/c: data\.values\.op: the string "=" is written unquoted by cdk8s's YAML writer, and PyYAML \(armada apply\) cannot read it back/);
  expect(() => synthDocuments(site)).toThrow(/site\/g\/c: data\.values\.nested\.<<: the key "<<" is written unquoted by cdk8s's YAML writer, and PyYAML \(armada apply\) reads it as a YAML 1.1 merge key; write these documents with `armada-cdk convert` instead/);
});
