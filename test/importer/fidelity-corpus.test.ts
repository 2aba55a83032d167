/**
 * Differential cases: each class of edge case applied as a mutation to every complete manifest of
 * the corpus, with Armada's verdict (established from its validator, Manifest builder, override
 * handler and deploy code) as the expected value, so that agreement cannot regress.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { resolveInputs } from '../../src/importer/resolve';
import { buildPlan } from '../../src/model/plan';
import { SchemaVersion } from '../../src/model/spec';
import { cli, tmpdir } from '../helpers/cli';
import { corpusFiles, readShared } from '../helpers/shared';

const complete = corpusFiles().filter((f) => f.complete).map((f) => f.file);
const dir = tmpdir('armada-cdk-fidelity-');

interface Doc {
  schema: string;
  metadata: { name: string };
  data: Record<string, unknown>;
}

/** The corpus file, its manifest's name and its first chart's name. */
function corpus(file: string) {
  // One corpus site still carries recreate_pods, which today's schemas (and Armada) reject: drop it.
  const text = readShared('corpus', file).replace(/^ +recreate_pods: .*\n/gm, '');
  const docs = (yaml.loadAll(text) as (Doc | null)[]).filter((d): d is Doc => d !== null && typeof d === 'object');
  const manifest = docs.find((d) => d.schema.startsWith('armada/Manifest/'))!.metadata.name;
  const chart = docs.find((d) => d.schema.startsWith('armada/Chart/'))!.metadata.name;
  return { text: text.endsWith('\n') ? text : `${text}\n`, manifest, chart };
}

function put(name: string, text: string): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, text);
  return f;
}

async function run(args: string[]) {
  const r = await cli(args);
  return { code: r.code, out: r.stdout + r.stderr };
}

const UNUSED_BROKEN = `---
schema: armada/Chart/v1
metadata:
  schema: metadata/Document/v1
  name: zz-unused
data:
  chart_name: zz-unused
  release: zz-unused
  namespace: Not_Valid
  source:
    type: svn
    location: svn://example.org/x
    subpath: .
  dependencies:
    - zz-unused
---
schema: armada/ChartGroup/v1
metadata:
  schema: metadata/Document/v1
  name: zz-unused-group
data:
  chart_group:
    - zz-unused
`;

const DECKHAND = `---
schema: deckhand/Passphrase/v1
metadata:
  schema: metadata/Document/v1
  name: zz-secret
  storagePolicy: cleartext
data: secret
`;

describe.each(complete)('%s', (file) => {
  const { text, manifest, chart } = corpus(file);
  const base = file.replace(/\.yaml$/, '');

  test('as is: valid (Armada applies it)', async () => {
    expect((await run(['validate', put(`${base}.yaml`, text)])).code).toBe(0);
  });

  test('a chart no group lists, with a bad namespace, an unknown source and a self-cycle: valid, "not deployed" (Armada never builds it)', async () => {
    // JSON lists every warning (the text form folds repeated ones into one line).
    const r = await cli(['validate', put(`${base}.unused.yaml`, text + UNUSED_BROKEN), '--format', 'json']);
    expect(r.code).toBe(0);
    const messages = (JSON.parse(r.stdout) as { diagnostics: { document: string; message: string }[] }).diagnostics.map((d) => `${d.document}: ${d.message}`);
    expect(messages).toContain('armada/Chart/v1 zz-unused: chart "zz-unused" is in no chart group of the manifest and no deployed chart uses it as a subchart; it is not deployed');
  });

  test('... switched in with --set manifest:NAME:chart_groups: invalid (Armada builds and deploys it now)', async () => {
    const f = put(`${base}.unused.yaml`, text + UNUSED_BROKEN);
    const groups = ((yaml.loadAll(text) as Doc[]).find((d) => d?.schema?.startsWith('armada/Manifest/'))!.data.chart_groups as string[]).join(',');
    const r = await run(['validate', f, '--set', `manifest:${manifest}:chart_groups=${groups},zz-unused-group`]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('data.source.type: received "svn"; Armada fetches only local, tar and git sources');
    expect(r.out).toContain('subchart dependencies form a cycle: zz-unused -> zz-unused');
  });

  test('a v2 Manifest over the v1 groups and charts: valid, and every chart keeps its v1 wait (Armada reads each document by its schema)', async () => {
    const v1 = await resolveInputs([put(`${base}.yaml`, text)], { skipChartSchemas: true });
    const v2 = await resolveInputs([put(`${base}.v2manifest.yaml`, text.replace(/^schema: armada\/Manifest\/v1$/m, 'schema: armada/Manifest/v2'))], { skipChartSchemas: true });
    expect(v2.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const p1 = buildPlan(v1.spec!);
    const p2 = buildPlan(v2.spec!);
    expect(p2.schemaVersion).toBe(SchemaVersion.V2);
    expect(p2.releases.map((r) => r.schemaVersion)).toEqual(p1.releases.map(() => SchemaVersion.V1));
    expect(p2.releases.map((r) => [r.name, r.nativeWait, r.waitResources, r.test])).toEqual(p1.releases.map((r) => [r.name, r.nativeWait, r.waitResources, r.test]));
  });

  test('another manifest in the stream that names a missing group: invalid (Armada builds every manifest)', async () => {
    const other = `---\nschema: armada/Manifest/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: zz-other\ndata:\n  release_prefix: other\n  chart_groups:\n    - zz-missing\n`;
    const r = await run(['validate', put(`${base}.other.yaml`, text + other), '--target-manifest', manifest]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`manifest "zz-other" lists chart group "zz-missing", which no document defines; Armada builds every manifest of the stream before it applies the target "${manifest}"`);
  });

  test('a trailing "---" (an empty document): invalid (Armada: "None is not a valid override statement")', async () => {
    const r = await run(['validate', put(`${base}.trailing.yaml`, `${text}---\n`)]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/:\d+:1: error: document \d+ is empty \(an extra '---', or only comments\); Armada fails on it/);
  });

  test('--set with a Deckhand document before the target: invalid; after it: valid', async () => {
    const set = ['--set', `chart:${chart}:values.zz=1`];
    const before = await run(['validate', put(`${base}.dh-first.yaml`, DECKHAND + text), ...set]);
    expect(before.code).toBe(1);
    expect(before.out).toContain("is not an Armada document and comes before the chart");
    expect((await run(['validate', put(`${base}.dh-last.yaml`, text + DECKHAND), ...set])).code).toBe(0);
  });

  test('Deckhand metadata and documents: convert --to documents-v2 keeps the metadata of every Armada document, and names each other document it leaves out', async () => {
    // A rendered Deckhand site: every document carries layering and storage metadata (added
    // where the document has none).
    const deckhand = text.replace(/^(metadata:\n {2}schema: metadata\/Document\/v1\n {2}name: .*\n)(?! {2}\S)/gm, '$1  storagePolicy: cleartext\n  layeringDefinition:\n    abstract: false\n    layer: site\n');
    const metadataOf = (docs: Doc[]) => new Map(docs.filter((d) => d?.schema?.startsWith('armada/')).map((d) => [`${d.schema.replace(/v\d$/, '')} ${d.metadata.name}`, d.metadata]));
    const input = metadataOf(yaml.loadAll(deckhand) as Doc[]);
    expect([...input.values()].filter((m) => (m as Record<string, unknown>).storagePolicy !== undefined).length).toBeGreaterThan(0);
    const r = await cli(['convert', put(`${base}.deckhand.yaml`, deckhand + DECKHAND), '--to', 'documents-v2']);
    expect(r.code).toBe(0);
    const out = yaml.loadAll(r.stdout) as Doc[];
    const output = metadataOf(out);
    // Every document written has the metadata it was read with, keys in their order.
    for (const [key, metadata] of output) {
      expect([key, Object.keys(metadata)]).toEqual([key, Object.keys(input.get(key)!)]);
      expect(metadata).toEqual(input.get(key));
    }
    const secretLine = (deckhand + DECKHAND).split('\n').indexOf('schema: deckhand/Passphrase/v1') + 1;
    // One note line for the documents of other tools, not a warning each.
    expect(r.stderr).toContain('note: 1 document of another tool (deckhand/Passphrase/v1 zz-secret, ');
    expect(r.stderr).toContain(`${base}.deckhand.yaml:${secretLine}:1) is not an Armada document: Armada ignores it, and convert --to documents-v2 leaves it out\n`);
    expect(out.some((d) => d.metadata.name === 'zz-secret')).toBe(false);
    const imported = await cli(['import', put(`${base}.deckhand.yaml`, deckhand + DECKHAND)]);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain(`${base}.deckhand.yaml:${secretLine}:1) is not an Armada document: Armada ignores it, and import leaves it out\n`);
  });

  test('--set with a tab in the value: invalid (Armada\'s JSON round trip raises)', async () => {
    const r = await run(['validate', put(`${base}.yaml`, text), '--set', `chart:${chart}:values.zz=a\tb`]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('the value contains a tab');
  });

  test('an anchor defined twice in one document: invalid (PyYAML: found duplicate anchor)', async () => {
    const mutated = text.replace(/^(schema: armada\/Manifest\/v1\nmetadata:\n)/m, '$1  labels:\n    a: &zz one\n    b: &zz two\n');
    expect(mutated).not.toBe(text);
    const r = await run(['validate', put(`${base}.anchor.yaml`, mutated)]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("found duplicate anchor 'zz'");
  });

  test('a release_prefix ending in "-": valid, each release gets a double hyphen', async () => {
    const mutated = text.replace(/^(\s+release_prefix: )(\S+)$/m, '$1$2-');
    const r = await resolveInputs([put(`${base}.prefix.yaml`, mutated)], { skipChartSchemas: true });
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(buildPlan(r.spec!).releases.every((x) => x.name.includes('--'))).toBe(true);
  });

  test('--values merging {} onto a string field: a no-op (valid); a non-empty mapping there: invalid (Armada calls .get() on the string)', async () => {
    const chartDoc = (yaml.loadAll(text) as Doc[]).find((d) => d?.metadata?.name === chart && d.schema.startsWith('armada/Chart/'))!;
    const ovr = (v: string) => `---\nschema: ${chartDoc.schema}\nmetadata:\n  schema: metadata/Document/v1\n  name: ${chart}\ndata:\n  release: ${v}\n`;
    const f = put(`${base}.yaml`, text);
    expect((await run(['validate', f, '-f', put(`${base}.empty-ovr.yaml`, ovr('{}'))])).code).toBe(0);
    const bad = await run(['validate', f, '-f', put(`${base}.bad-ovr.yaml`, ovr('{a: 1}'))]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('data.release: the override is a non-empty mapping but the document has a string there (Armada fails on this: it calls .get() on it)');
  });

  test('a second chart document of the same name: kept stricter (Armada silently takes the first), and the message says so', async () => {
    const docs = text.split(/^---\n/m);
    const first = docs.find((d) => new RegExp(`^schema: armada/Chart/v1\\nmetadata:\\n(?:  .*\\n)*?  name: ${chart}\\n`, 'm').test(d))!;
    const r = await run(['validate', put(`${base}.dup.yaml`, `${text}---\n${first}`)]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`another chart is already named "${chart}"`);
    expect(r.out).toContain('Armada would silently use the first one and ignore this one, so armada-cdk requires names unique per kind');
  });

  test('--values with a date, a timestamp and a 2^53+1 integer in the chart\'s values: valid, kept as PyYAML reads them', async () => {
    const chartDoc = (yaml.loadAll(text) as Doc[]).find((d) => d?.metadata?.name === chart && d.schema.startsWith('armada/Chart/'))!;
    const ovr = `---\nschema: ${chartDoc.schema}\nmetadata:\n  schema: metadata/Document/v1\n  name: ${chart}\ndata:\n  values:\n    zz_date: 2002-12-14\n    zz_time: 2001-12-14t21:59:43.10-05:00\n    zz_big: 9007199254740993\n`;
    const out = tmpdir();
    const r = await run(['convert', put(`${base}.yaml`, text), '-f', put(`${base}.ovr.yaml`, ovr), '--to', 'documents-v1', '-o', out]);
    expect([r.code, r.out]).toEqual([0, expect.any(String)]);
    const written = fs.readFileSync(path.join(out, fs.readdirSync(out)[0]), 'utf8');
    expect(written).toContain('    zz_big: 9007199254740993\n    zz_date: 2002-12-14\n    zz_time: 2001-12-14 21:59:43.100000-05:00\n');
  });
});
