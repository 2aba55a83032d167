/**
 * Issue 45, class 6: documents at the edges of what Armada reads.
 * - manifest.py find_chart_document / find_chart_group_document look documents up with
 *   `.get('metadata', {}).get('name')`, and validate.py validate_armada_document checks only
 *   `data`: a Chart or ChartGroup without metadata is never found, and deploys nothing.
 * - `!!binary` values: PyYAML gives bytes, helm.py _TempValuesFile writes them back with
 *   yaml.safe_dump as !!binary, and Helm's go-yaml v2 (decode.go scalar) decodes them to a string.
 * - validate.py validate_armada_manifests builds every Manifest of the stream: manifest.py
 *   build_armada_manifest calls `.get()` on its data, so a list there fails the apply.
 * - PyYAML's SafeConstructor.construct_mapping refuses a sequence as a key ("found unhashable key").
 */
import { spawnSync } from 'child_process';
import { cli, tmpdir, write } from '../helpers/cli';
import { ONE_CHART_SITE } from '../helpers/one-chart-site';
import { havePythonModule } from '../helpers/python';

const dir = tmpdir('armada-cdk-edges-');

const SITE = ONE_CHART_SITE;

const findings = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).split('\n').filter((l) => / (error|warning): /.test(l));

describe('a Chart or ChartGroup document without metadata (manifest.py find_chart_document: .get("metadata", {}).get("name"))', () => {
  test('is never found by Armada: a warning, not an error, and its data is still checked against the schema as Armada does', async () => {
    const file = write(
      dir,
      'nameless.yaml',
      `${SITE}---\nschema: armada/Chart/v1\ndata:\n  chart_name: x\n  release: 5\n  namespace: ns\n  source: {type: local, location: /charts, subpath: x}\n  dependencies: []\n---\nschema: armada/ChartGroup/v1\nmetadata: {schema: metadata/Document/v1}\ndata: {chart_group: [c]}\n`,
    );
    const r = await cli(['validate', file]);
    expect(findings(r)).toEqual([
      `${file}:20:1: warning: armada/Chart/v1: metadata.name: armada/Chart/v1 document has no metadata, so no chart group or chart can list it: Armada finds charts by name and never deploys this one (it only checks its data against its schema)`,
      `${file}:23:3: error: armada/Chart/v1: data.release: 5 is not of type 'string'`,
      `${file}:29:1: warning: armada/ChartGroup/v1: metadata.name: armada/ChartGroup/v1 document has no metadata.name, so no manifest can list it: Armada finds chart groups by name and never deploys this one (it only checks its data against its schema)`,
    ]);
    expect(r.code).toBe(1);
    const valid = write(dir, 'nameless-valid.yaml', `${SITE}---\nschema: armada/Chart/v1\ndata: {chart_name: x, release: x, namespace: ns, source: {type: local, location: /charts, subpath: x}, dependencies: []}\n`);
    const v = await cli(['validate', valid]);
    expect(v.code).toBe(0);
  });

  test("with --values, one before the override's match makes Armada fail (override.py Override.update_document: doc['metadata']['name'])", async () => {
    const nameless = `---\nschema: armada/Chart/v1\ndata: {chart_name: x, release: x, namespace: ns, source: {type: local, location: /charts, subpath: x}, dependencies: []}\n`;
    const values = write(dir, 'override.yaml', '---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: c}\ndata: {release: d}\n');
    const before = write(dir, 'nameless-first.yaml', nameless + SITE);
    const r = await cli(['validate', before, '--values', values]);
    expect(findings(r)).toEqual([
      `${before}:2:1: warning: armada/Chart/v1: metadata.name: armada/Chart/v1 document has no metadata, so no chart group or chart can list it: Armada finds charts by name and never deploys this one (it only checks its data against its schema)`,
      `${values}:2:1: error: armada/Chart/v1 c: Armada looks for this override's document through every armada/Chart/v1 document in stream order and reads doc['metadata']['name'] of each (Override.update_document); armada/Chart/v1 (${before}:2:1) has no metadata and comes first, so Armada fails on it (KeyError: 'metadata'): give it a name, or leave it out`,
    ]);
    // After the match, Armada never reaches it.
    const after = write(dir, 'nameless-last.yaml', SITE + nameless);
    const a = await cli(['validate', after, '--values', values]);
    expect(a.code).toBe(0);
  });

  test('a Manifest without a name stays an error (validate_armada_manifests reads its name)', async () => {
    const file = write(dir, 'manifest-nameless.yaml', SITE.replace('metadata: {schema: metadata/Document/v1, name: site}', 'metadata: {schema: metadata/Document/v1}'));
    const r = await cli(['validate', file]);
    expect(r.code).toBe(1);
    expect(findings(r)[0]).toContain('armada/Manifest/v1 document has no metadata.name: documents refer to each other by name');
  });
});

describe('!!binary in values (helm.py _TempValuesFile: yaml.safe_dump; go-yaml v2 decodes !!binary to a string)', () => {
  test('refused, naming the string Helm received under Armada', async () => {
    const file = write(dir, 'binary.yaml', SITE.replace('  dependencies: []\n', '  dependencies: []\n  values:\n    blob: !!binary aGVsbG8=\n    raw: !!binary /w==\n'));
    const r = await cli(['validate', file]);
    expect(findings(r)).toEqual([
      `${file}:12:5: error: armada/Chart/v1 c: data.values.blob: received binary data (5 bytes, as YAML's !!binary gives); Armada deploys it: yaml.safe_dump writes it for Helm as !!binary and Helm's YAML reader decodes it into the string "hello"; armada-cdk's targets carry no binary values: write that string instead`,
      `${file}:13:5: error: armada/Chart/v1 c: data.values.raw: received binary data (1 byte, as YAML's !!binary gives); Armada deploys it: yaml.safe_dump writes it for Helm as !!binary and Helm's YAML reader decodes it into the string "\uFFFD" (bytes that are not UTF-8 text become U+FFFD); armada-cdk's targets carry no binary values: write that string instead`,
    ]);
  });
});

describe('a Manifest whose data is a list (validate.py validate_armada_manifests builds every manifest)', () => {
  test('a non-target one fails Armada\'s apply: refused with that reason', async () => {
    const file = write(dir, 'list-manifest.yaml', `${SITE}---\nschema: armada/Manifest/v1\nmetadata: {schema: metadata/Document/v1, name: other}\ndata: [a, b]\n`);
    const r = await cli(['validate', file, '--target-manifest', 'site']);
    expect(findings(r)).toEqual([
      `${file}:22:1: error: armada/Manifest/v1 other: data: the manifest's data is a list, not a mapping; Armada builds every manifest of the stream when it validates the documents (validate_armada_manifests), and build_armada_manifest fails on this one ('list' object has no attribute 'get'), so \`armada apply\` fails whichever manifest is the target`,
    ]);
    expect(r.code).toBe(1);
  });

  test('an unused ChartGroup whose data is a list is never built by Armada (its schema has no type): accepted', async () => {
    const file = write(dir, 'list-group.yaml', `${SITE}---\nschema: armada/ChartGroup/v1\nmetadata: {schema: metadata/Document/v1, name: unused}\ndata: [a]\n`);
    const r = await cli(['validate', file]);
    expect(r.code).toBe(0);
  });
});

describe('a sequence as a mapping key (PyYAML construct_mapping: "found unhashable key")', () => {
  // The last: a tagged key inside a key; PyYAML constructs the outer key first, and refuses it.
  const forms = ['    [a, b]: v', '    {[a]: v}: w', '    ? - a\n    : v', '    s: &s [a]\n    t: {*s : v}', '    {!!python/tuple [a]: v}: w'];
  test.each(forms.map((f) => [f]))('%j is refused', async (form) => {
    const file = write(dir, 'seq-key.yaml', SITE.replace('  dependencies: []\n', `  dependencies: []\n  values:\n${form}\n`));
    const r = await cli(['validate', file]);
    expect(r.code).toBe(1);
    expect(findings(r).join('\n')).toContain('found unhashable key');
  });

  const python = havePythonModule('yaml', 1, 'PyYAML unhashable-key');
  (python ? test : test.skip)('cross-check: PyYAML refuses each form the same way', () => {
    for (const form of forms) {
      const text = SITE.replace('  dependencies: []\n', `  dependencies: []\n  values:\n${form}\n`);
      const run = spawnSync('python3', ['-c', 'import sys, yaml\ntry:\n    list(yaml.safe_load_all(sys.stdin.read()))\n    print("ok")\nexcept yaml.YAMLError as e:\n    print(e.problem)'], { input: text, encoding: 'utf8' });
      expect([form, run.stdout.trim()]).toEqual([form, 'found unhashable key']);
    }
  });

  // PyYAML constructs a key before it hashes it: a tag SafeLoader does not know fails first, where the node starts.
  const tagged: [string, string, string][] = [
    ['    ? !!python/tuple [a, b]\n    : v', 'tag:yaml.org,2002:python/tuple', '12:7'],
    ['    ? &t !local {a: 1}\n    : v', '!local', '12:7'],
  ];
  test.each(tagged)('%j: the unknown tag is refused where the node starts', async (form, tag, at) => {
    const file = write(dir, 'tagged-key.yaml', SITE.replace('  dependencies: []\n', `  dependencies: []\n  values:\n${form}\n`));
    const r = await cli(['validate', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`tagged-key.yaml:${at}: error: armada/Chart/v1 `);
    expect(r.stderr).toContain(`could not determine a constructor for the tag '${tag}' (PyYAML's SafeLoader knows no such tag)`);
    expect(r.stderr).not.toContain('unhashable');
  });

  (python ? test : test.skip)('cross-check: PyYAML fails on the tag, at that line and column', () => {
    for (const [form, tag, at] of tagged) {
      const text = SITE.replace('  dependencies: []\n', `  dependencies: []\n  values:\n${form}\n`);
      const run = spawnSync('python3', ['-c', 'import sys, yaml\ntry:\n    list(yaml.safe_load_all(sys.stdin.read()))\n    print("ok")\nexcept yaml.YAMLError as e:\n    print(e.problem, "%d:%d" % (e.problem_mark.line + 1, e.problem_mark.column + 1))'], { input: text, encoding: 'utf8' });
      expect([form, run.stdout.trim()]).toEqual([form, `could not determine a constructor for the tag '${tag}' ${at}`]);
    }
  });
});
