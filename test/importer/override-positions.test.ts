/**
 * A finding about a value an override wrote is placed where the override wrote it: at its line in
 * the --values file, or at the --set argument; every other finding keeps its place in the input.
 */
import * as path from 'path';
import { parseDocument, isMap, isNode, LineCounter } from 'yaml';
import { cli, tmpdir, write } from '../helpers/cli';
import { readShared } from '../helpers/shared';

/** Armada's simple example, with wait labels so that it validates without a warning. */
const SITE = ['blog-1', 'blog-2'].reduce(
  (s, n) => s.replace(`  release: ${n}\n`, `  release: ${n}\n  wait:\n    labels:\n      release_group: armada-${n}\n`),
  readShared('corpus', 'armada__examples__simple.yaml'),
);

const dir = tmpdir('armada-cdk-override-positions-');
write(dir, 'site.yaml', SITE);
// blog-1 with a mistake of its own (data.release, line 8), which overrides leave in place.
write(dir, 'bad.yaml', SITE.replace('release: blog-1', 'release: 12'));

/** The diagnostic lines of `validate ARGS`, files named relative to the fixtures. */
async function validate(...args: string[]): Promise<string[]> {
  const r = await cli(['validate', ...args.map((a) => (a.endsWith('.yaml') ? path.join(dir, a) : a))]);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return (r.stdout + r.stderr).split(`${dir}${path.sep}`).join('').split('\n').filter((l) => /: (error|warning): /.test(l));
}

/** A --values file of Chart override documents. */
function values(file: string, ...charts: [name: string, data: string][]): void {
  write(dir, file, charts.map(([name, data]) => `---\nschema: armada/Chart/v1\nmetadata:\n  name: ${name}\ndata:\n${data}`).join(''));
}

const OWN = "bad.yaml:8:3: error: armada/Chart/v1 blog-1: data.release: 12 is not of type 'string'";

describe('findings about values from --values files are placed in the file', () => {
  test('a scalar and a list are at their keys in the --values file; the input\'s own mistake stays where the YAML AST has it', async () => {
    values('scalar.yaml', ['blog-1', '  namespace: [a, b]\n  wait:\n    timeout: notanumber\n']);
    expect(await validate('bad.yaml')).toEqual([OWN]);
    expect(await validate('bad.yaml', '-f', 'scalar.yaml')).toEqual([
      OWN,
      "scalar.yaml:6:3: error: armada/Chart/v1 blog-1: data.namespace: ['a', 'b'] is not of type 'string'",
      "scalar.yaml:8:5: error: armada/Chart/v1 blog-1: data.wait.timeout: 'notanumber' is not of type 'integer'",
    ]);
    // The unaffected field's place, from the `yaml` package's AST of the input.
    const lines = new LineCounter();
    const doc = parseDocument(SITE.replace('release: blog-1', 'release: 12').replace(/^---\n/, ''), { lineCounter: lines });
    const data = doc.get('data', true);
    const pair = isMap(data) ? data.items.find((p) => isNode(p.key) && p.key.toJSON() === 'release') : undefined;
    const at = lines.linePos((pair!.key as { range: [number, number, number] }).range[0]);
    expect(OWN.startsWith(`bad.yaml:${at.line + 1}:${at.col}:`)).toBe(true);
  });

  test('a subtree the --values file put there whole: its items and the rules\' findings inside it are placed in the file', async () => {
    values('subtree.yaml', ['blog-2', '  wait:\n    resources:\n      - type: pod\n        min_ready: "200%"\n      - type: job\n        labels: {app: x}\n']);
    expect(await validate('site.yaml', '-f', 'subtree.yaml')).toEqual([
      'subtree.yaml:9:9: error: armada/Chart/v1 blog-2: data.wait.resources[0].min_ready: received "200%"; minReady must be a whole number of pods (0 or more) or a percentage "N%" with N from 0 to 100; Armada reads it as 200% and waits for ceil(pods × 2) ready pods, more than a controller has: the wait is never met while the controller has pods (it passes only with none), and the chart fails at its timeout',
    ]);
    values('subtree-bad.yaml', ['blog-2', '  wait:\n    resources:\n      - type: pod\n      - typ: job\n']);
    expect(await validate('site.yaml', '-f', 'subtree-bad.yaml')).toEqual([
      "subtree-bad.yaml:9:9: error: armada/Chart/v1 blog-2: data.wait.resources[1].type: 'type' is a required property",
      "subtree-bad.yaml:9:9: error: armada/Chart/v1 blog-2: data.wait.resources[1].typ: Additional properties are not allowed ('typ' was unexpected): did you mean 'type'?",
    ]);
  });

  test('each override document of a file is placed at its own lines', async () => {
    values('two.yaml', ['blog-1', '  namespace: fine\n'], ['blog-2', '  release: Bad_Name\n']);
    expect(await validate('site.yaml', '-f', 'two.yaml')).toEqual([
      'two.yaml:12:3: error: armada/Chart/v1 blog-2: data.release: Helm release "armada-Bad_Name" (releasePrefix + "-" + release) is not a valid Helm release name: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit',
    ]);
  });
});

describe('findings about values from --set are placed at the argument', () => {
  test('a key the --set created on the way to its value names the argument, without the note on strings', async () => {
    expect(await validate('site.yaml', '--set', 'chart:blog-1:metadata.name=x')).toEqual([
      `--set[0]: error: armada/Chart/v1 blog-1: data.metadata: "chart:blog-1:metadata.name=x": Additional properties are not allowed ('metadata' was unexpected)`,
    ]);
  });

  test('the value itself: the argument, and the note that --set values are strings', async () => {
    expect(await validate('bad.yaml', '--set', 'chart:blog-1:values.x=1', '--set', 'chart:blog-1:wait.timeout=600')).toEqual([
      OWN,
      `--set[1]: error: armada/Chart/v1 blog-1: data.wait.timeout: "chart:blog-1:wait.timeout=600": '600' is not of type 'integer' (--set values are always strings; put typed values, such as numbers, booleans or mappings, in a --values file)`,
    ]);
  });
});

describe('one field overridden twice: the last override applied decides where it is', () => {
  test('two --values files: the second file\'s value and line; what only the first wrote stays at the first', async () => {
    values('first.yaml', ['blog-2', '  wait:\n    timeout: first\n    resources:\n      - type: pod\n        min_ready: 1.5\n']);
    values('second.yaml', ['blog-2', '  wait:\n    timeout: second\n']);
    expect(await validate('site.yaml', '-f', 'first.yaml', '-f', 'second.yaml')).toEqual([
      "first.yaml:10:9: error: armada/Chart/v1 blog-2: data.wait.resources[0].min_ready: 1.5 is not valid under any of the given schemas",
      "second.yaml:7:5: error: armada/Chart/v1 blog-2: data.wait.timeout: 'second' is not of type 'integer'",
    ]);
  });

  test('a --values file, then a --set of the same field: the --set (applied after every file)', async () => {
    values('timeout.yaml', ['blog-1', '  wait:\n    timeout: notanumber\n']);
    const set = `--set[0]: error: armada/Chart/v1 blog-1: data.wait.timeout: "chart:blog-1:wait.timeout=600": '600' is not of type 'integer' (--set values are always strings; put typed values, such as numbers, booleans or mappings, in a --values file)`;
    expect(await validate('site.yaml', '-f', 'timeout.yaml', '--set', 'chart:blog-1:wait.timeout=600')).toEqual([set]);
    // --set is applied after every --values file, whatever the order of the arguments.
    values('wait.yaml', ['blog-1', '  wait: {timeout: notanumber, labels: {app: blog}}\n']);
    expect(await validate('site.yaml', '--set', 'chart:blog-1:wait.timeout=600', '-f', 'wait.yaml')).toEqual([set]);
  });
});

describe('values typed beyond JSON follow the override that wrote them', () => {
  // PyYAML reads 1.0 as a float, which jsonschema's integer refuses; JavaScript has one number.
  const floatSite = SITE.replace('  wait:\n    labels:\n      release_group: armada-blog-1\n', '  wait:\n    timeout: 1.0\n    labels:\n      release_group: armada-blog-1\n');
  write(dir, 'float.yaml', floatSite);

  test('a whole-number float of the input, replaced by an integer: no finding (the float was the input\'s); left in place: still a float', async () => {
    expect(await validate('float.yaml')).toEqual(["float.yaml:10:5: error: armada/Chart/v1 blog-1: data.wait.timeout: 1.0 is not of type 'integer'"]);
    values('integer.yaml', ['blog-1', '  wait:\n    timeout: 600\n']);
    expect(await validate('float.yaml', '-f', 'integer.yaml')).toEqual([]);
    values('other.yaml', ['blog-1', '  namespace: other\n']);
    expect(await validate('float.yaml', '-f', 'other.yaml')).toEqual(["float.yaml:10:5: error: armada/Chart/v1 blog-1: data.wait.timeout: 1.0 is not of type 'integer'"]);
    expect(await validate('float.yaml', '--set', 'chart:blog-1:wait.timeout=600')).toEqual([
      `--set[0]: error: armada/Chart/v1 blog-1: data.wait.timeout: "chart:blog-1:wait.timeout=600": '600' is not of type 'integer' (--set values are always strings; put typed values, such as numbers, booleans or mappings, in a --values file)`,
    ]);
  });

  test('a whole-number float of a --values file is a float where it lands', async () => {
    values('float-values.yaml', ['blog-1', '  wait: {timeout: 5.0}\n']);
    expect(await validate('site.yaml', '-f', 'float-values.yaml')).toEqual(["float-values.yaml:6:10: error: armada/Chart/v1 blog-1: data.wait.timeout: 5.0 is not of type 'integer'"]);
  });
});
