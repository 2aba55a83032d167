// The Pulumi mocks first: they must be installed before any resource is created.
import { capture, Captured, registered, RELEASE, settled, valueOf } from '../pulumi/mocks';
import * as fs from 'fs';
import * as jsyaml from 'js-yaml';
import * as pulumi from '@pulumi/pulumi';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import { ManifestDeployment } from '../../src/pulumi';
import { applySets, applyValuesFiles, armadaUpdate, OverridableDocument } from '../../src/importer/overrides';
import { mergeValues } from '../../src/model/values';
import { cli, tmpdir, write } from '../helpers/cli';
import { readShared } from '../helpers/shared';
import { synthCrs, synthDocuments } from '../helpers/synth';

/**
 * `__proto__`, `constructor` and `prototype` are ordinary keys in YAML and in Helm values: they
 * must never reach Object.prototype, and never be dropped, on any path from input to output.
 */
const SIMPLE = readShared('corpus', 'armada__examples__simple.yaml');
const dir = tmpdir('armada-cdk-keys-');

/** Values with the three keys as own data properties (JSON.parse makes `__proto__` an own key). */
const hostile = () => JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted2": "yes"}}, "prototype": 1}') as Record<string, unknown>;

function expectNoPollution(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).polluted2).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
}

/** The own keys of `o`, recursively, as plain JSON (`__proto__` included). */
function ownTree(o: unknown): unknown {
  if (Array.isArray(o)) return o.map(ownTree);
  if (o === null || typeof o !== 'object') return o;
  return Object.keys(o).map((k) => [k, ownTree((o as Record<string, unknown>)[k])]);
}

const HOSTILE_TREE = [['__proto__', [['polluted', 'yes']]], ['constructor', [['prototype', [['polluted2', 'yes']]]]], ['prototype', 1]];

afterEach(() => {
  expectNoPollution();
});

describe('overrides keep the keys as data', () => {
  const doc = (): OverridableDocument => ({ schema: 'armada/Chart/v1', name: 'c', data: { values: {} } });

  test('--set through __proto__ and constructor.prototype sets data, not Object.prototype', () => {
    const d = doc();
    expect(applySets([d], ['chart:c:values.__proto__.polluted=1', 'chart:c:values.constructor.prototype.polluted2=1', 'chart:c:values.prototype=x'])).toEqual([]);
    expect(ownTree(d.data.values)).toEqual([['__proto__', [['polluted', '1']]], ['constructor', [['prototype', [['polluted2', '1']]]]], ['prototype', 'x']]);
  });

  test('armadaUpdate and --values documents with the keys', () => {
    const d = doc();
    expect(armadaUpdate(d.data, { values: hostile() })).toEqual([]);
    expect(ownTree(d.data.values)).toEqual(HOSTILE_TREE);
    const e = doc();
    expect(applyValuesFiles([e], [{ schema: 'armada/Chart/v1', name: 'c', data: { values: hostile() }, location: 'f.yaml:1:1' }])).toEqual([]);
    expect(ownTree(e.data.values)).toEqual(HOSTILE_TREE);
  });

  test('values merging (Chart values over defaults) keeps them', () => {
    expect(ownTree(mergeValues({ a: 1 }, hostile(), JSON.parse('{"__proto__": {"more": true}}')))).toEqual([
      ['a', 1],
      ['__proto__', [['polluted', 'yes'], ['more', true]]],
      ['constructor', [['prototype', [['polluted2', 'yes']]]]],
      ['prototype', 1],
    ]);
  });
});

describe('the CLI, from YAML and --set to every output', () => {
  const text = SIMPLE.replace('  values: {}\n', '  values:\n    __proto__:\n      polluted: yes\n    constructor:\n      prototype:\n        polluted2: yes\n    prototype: 1\n');
  const file = write(dir, 'keys.yaml', text);

  test.each(['documents-v1', 'documents-v2', 'airship-v1'])('convert --to %s writes the keys', async (to) => {
    const r = await cli(['convert', file, '--to', to]);
    expect([r.code, r.stderr.match(/error: .*/g)]).toEqual([0, null]);
    const docs = jsyaml.loadAll(r.stdout) as Record<string, any>[];
    const values = to === 'airship-v1' ? docs.find((d) => d.metadata.name === 'armada-blog-1')!.data.values : docs.find((d) => d.metadata.name === 'blog-1')!.data.values;
    expect(ownTree(values)).toEqual([['__proto__', [['polluted', true]]], ['constructor', [['prototype', [['polluted2', true]]]]], ['prototype', 1]]);
    expect(r.stdout).toContain('    __proto__:\n      polluted: true\n');
  });

  test('convert --to keleustes-v1alpha1: the keys reach the output (the closed CRD schema warns about them, as about any key)', async () => {
    const r = await cli(['convert', file, '--to', 'keleustes-v1alpha1']);
    expect(r.code).toBe(0);
    const chart = (jsyaml.loadAll(r.stdout) as Record<string, any>[]).find((d) => d.kind === 'ArmadaChart' && d.metadata.name === 'blog-1')!;
    expect(Object.keys(chart.spec.values)).toEqual(['__proto__', 'constructor', 'prototype']);
    // Each key is told apart from the schema's own members: `constructor` is unknown, not a property.
    // One warning per chart lists every key the schema drops: blog-1's three keys and blog-2's
    // `some`; a `constructor` taken for a schema member would be missing from the list.
    const pruned = r.stderr.split('\n').filter((l) => l.includes('unknown to the CRD schema'));
    expect(pruned).toHaveLength(2);
    expect(pruned[0]).toMatch(/blog-1: data\.values: .*: 3 fields of values are unknown to the CRD schema, .*: values\.__proto__, values\.constructor, values\.prototype$/);
    expect(pruned[1]).toContain('blog-2: data.values.some: ');
  });

  test('--set and -f with the keys: exit 0, the keys in the output, Object.prototype untouched', async () => {
    const main = write(dir, 'site.yaml', SIMPLE);
    const ovr = write(dir, 'ovr.yaml', 'schema: armada/Chart/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: blog-1\ndata:\n  values:\n    __proto__:\n      fromFile: 1\n    constructor:\n      prototype:\n        fromFile: 2\n');
    const r = await cli(['convert', main, '--to', 'documents-v1', '-f', ovr, '--set', 'chart:blog-1:values.__proto__.polluted=1', '--set', 'chart:blog-1:values.constructor.prototype.polluted2=1']);
    expect([r.code, r.stderr.match(/(: error: |internal error).*/g)]).toEqual([0, null]);
    const values = (jsyaml.loadAll(r.stdout) as Record<string, any>[]).find((d) => d.metadata.name === 'blog-1')!.data.values;
    expect(ownTree(values)).toEqual([['__proto__', [['fromFile', 1], ['polluted', '1']]], ['constructor', [['prototype', [['fromFile', 2], ['polluted2', '1']]]]]]);
  });

  test('import writes a computed key, so that the object literal keeps its meaning', async () => {
    const out = `${dir}/site.ts`;
    const r = await cli(['import', file, '-o', out]);
    expect(r.code).toBe(0);
    const code = fs.readFileSync(out, 'utf8');
    expect(code).toContain("    ['__proto__']: { polluted: true },\n    constructor: { prototype: { polluted2: true } },\n    prototype: 1,\n");
    expect(code).not.toMatch(/^\s*'?__proto__'?:/m);
    // What the literal means, evaluated as JavaScript.
    const literal = /values: (\{\n[\s\S]*?\n {2}\}),\n/.exec(code)![1];
    expect(ownTree(new Function(`return (${literal});`)())).toEqual([['__proto__', [['polluted', true]]], ['constructor', [['prototype', [['polluted2', true]]]]], ['prototype', 1]]);
  });
});

describe('the constructs, through cdk8s and Pulumi', () => {
  const site = () => {
    const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(m, 'g');
    new Chart(g, 'c', { namespace: 'ns', source: ChartSource.local('/charts/c'), wait: { labels: { app: 'c' } }, test: { enabled: false }, values: hostile() });
    return m;
  };

  test('cdk8s: ArmadaChart CRs and Armada documents keep the keys', () => {
    const crs = synthCrs(site());
    expect(ownTree(crs.objects.find((o) => o.kind === 'ArmadaChart').data.values)).toEqual(HOSTILE_TREE);
    expect(crs.yaml).toContain('    __proto__:\n      polluted: "yes"\n');
    const docs = synthDocuments(site());
    const chart = docs.objects.find((o) => o.schema === 'armada/Chart/v1');
    expect(ownTree(chart.data.values)).toEqual(HOSTILE_TREE);
    expect(ownTree((jsyaml.loadAll(docs.yaml) as any[]).find((o) => o.schema === 'armada/Chart/v1').data.values)).toEqual(HOSTILE_TREE);
  });

  /** Deploys `manifest` under mocks; the captured Release and its registered inputs. */
  async function deployRelease(manifest: ArmadaManifest) {
    jest.spyOn(pulumi.log, 'warn').mockImplementation(async () => undefined);
    const seen: Captured[] = [];
    const before = registered.length;
    const d = new ManifestDeployment('keys', { manifest, resolveChart: async () => '/charts/c' }, { transformations: [capture(seen)] });
    await settled(seen);
    await valueOf(d.releases);
    jest.restoreAllMocks();
    return { props: seen.find((c) => c.type === RELEASE)!.props, inputs: registered.slice(before).find((r) => r.type === RELEASE)!.inputs };
  }

  test('Pulumi: values with a __proto__ key reach Helm as a values file, which the SDK cannot drop keys from', async () => {
    const { props, inputs } = await deployRelease(site());
    expect(props.values).toEqual({});
    const [file] = props.valueYamlFiles as pulumi.asset.StringAsset[];
    expect(ownTree(JSON.parse(await file.text))).toEqual(HOSTILE_TREE);
    // As registered (after Pulumi's own serialization): the file's text still has the keys.
    expect(inputs.values).toEqual({});
    expect(ownTree(JSON.parse(await inputs.valueYamlFiles[0].text))).toEqual(HOSTILE_TREE);
  });

  test('Pulumi: secrets among such values are resolved into the file, which stays secret', async () => {
    const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const values = hostile();
    values.password = pulumi.secret('s3cret');
    new Chart(new ChartGroup(m, 'g'), 'c', { namespace: 'ns', source: ChartSource.local('/charts/c'), wait: { labels: { app: 'c' } }, test: { enabled: false }, values });
    const { props } = await deployRelease(m);
    const files = pulumi.output(props.valueYamlFiles as pulumi.Output<pulumi.asset.StringAsset>[]);
    expect(await pulumi.isSecret(files)).toBe(true);
    const [file] = await valueOf(files);
    expect(ownTree(JSON.parse(await file.text))).toEqual([...HOSTILE_TREE, ['password', 's3cret']]);
  });

  test('Pulumi: values without such a key go as values, as before', async () => {
    const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(m, 'g'), 'c', { namespace: 'ns', source: ChartSource.local('/charts/c'), wait: { labels: { app: 'c' } }, test: { enabled: false }, values: { constructor: { prototype: 1 }, a: 1 } });
    const { props, inputs } = await deployRelease(m);
    expect(props.valueYamlFiles).toBeUndefined();
    expect(ownTree(inputs.values)).toEqual([['a', 1], ['constructor', [['prototype', 1]]]]);
  });
});
