/**
 * Issue 45, class 8: values Armada itself re-types on the way to Helm. Armada writes a chart's
 * values file with yaml.safe_dump (armada/handlers/helm.py, _TempValuesFile.__init__), which
 * quotes only what PyYAML's YAML 1.1 resolvers would misread; Helm reads the file with go-yaml v2
 * (resolve.go: `y`/`n` booleans, ParseInt with base 0, yamlStyleFloat), so some strings reached
 * Helm as booleans or numbers. armada-cdk passes the strings: an imported site gets a warning
 * naming the value and what Helm received under Armada.
 */
import { spawnSync } from 'child_process';
import { helmReadingUnderArmada } from '../../src/model/armada-retyped';
import { cli, tmpdir, write } from '../helpers/cli';
import { havePythonModule } from '../helpers/python';

const RETYPED: [string, string][] = [
  ['y', 'the boolean true'],
  ['Y', 'the boolean true'],
  ['n', 'the boolean false'],
  ['N', 'the boolean false'],
  ['1e3', 'the number 1000'],
  ['1E3', 'the number 1000'],
  ['-1e3', 'the number -1000'],
  ['1.5e3', 'the number 1500'],
  ['1_0e3', 'the number 10000'],
  ['.5e3', 'the number 500'],
  ['+.5', 'the number 0.5'],
  ['0o755', 'the number 493'],
  ['0O17', 'the number 15'],
  ['0X1F', 'the number 31'],
  ['0B11', 'the number 3'],
  ['09', 'the number 9'],
  ['-09', 'the number -9'],
  ['08', 'the number 8'],
  ['0o1777777777777777777777', 'the number 18446744073709551615'],
];
// PyYAML quotes these (its own resolvers read them), or go-yaml reads them as strings too.
const KEPT = ['yes', 'true', 'on', '0755', '0x1F', '1.5e+3', '1000', '+1', '0b11', '.5', 'ok', 'yy', '1e400', '0o', '0o8', '-', '1:30', '0:30', '2001-1-2', '~', ''];

describe('which strings Helm received as something else (go-yaml v2 resolve of what PyYAML safe_dump leaves plain)', () => {
  test.each(RETYPED)('%j: %s', (s, what) => {
    expect(helmReadingUnderArmada(s)?.what).toBe(what);
  });

  test.each(KEPT.map((s) => [s]))('%j stays a string', (s) => {
    expect(helmReadingUnderArmada(s)).toBeUndefined();
  });

  const python = havePythonModule('yaml', 1, 'yaml.safe_dump plain-scalar');
  (python ? test : test.skip)('cross-check: PyYAML safe_dump leaves every retyped string unquoted and quotes the ones it reads itself', () => {
    const all = [...RETYPED.map(([s]) => s), ...KEPT];
    const run = spawnSync('python3', ['-c', 'import json, sys, yaml\nprint(json.dumps([yaml.safe_dump({"k": s}) for s in json.loads(sys.stdin.read())]))'], { input: JSON.stringify(all), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const dumped = JSON.parse(run.stdout) as string[];
    const plain = all.filter((s, i) => dumped[i] === `k: ${s}\n`);
    // Every retyped one is plain; the kept ones that are plain are strings to go-yaml too.
    expect(RETYPED.map(([s]) => s).filter((s) => !plain.includes(s))).toEqual([]);
    expect(plain.filter((s) => KEPT.includes(s))).toEqual(['ok', 'yy', '1e400', '0o', '0o8', '0:30', '2001-1-2']);
  });
});

describe('an imported site: a warning at each such value and key (helm.py _TempValuesFile: yaml.safe_dump)', () => {
  const dir = tmpdir('armada-cdk-retyped-');
  const site = write(
    dir,
    'retyped.yaml',
    `---
schema: armada/Chart/v1
metadata: {schema: metadata/Document/v1, name: c}
data:
  chart_name: c
  release: c
  namespace: ns
  wait: {labels: {a: b}}
  source: {type: local, location: /charts, subpath: c}
  dependencies: []
  values:
    debug: y
    mode: 0o755
    list: [ok, "09"]
    y: first
    Y: second
    quoted: "0755"
---
schema: armada/ChartGroup/v1
metadata: {schema: metadata/Document/v1, name: g}
data: {chart_group: [c]}
---
schema: armada/Manifest/v1
metadata: {schema: metadata/Document/v1, name: site}
data: {release_prefix: a, chart_groups: [g]}
`,
  );

  test('values and keys, with what Helm received, and the y/Y collision with the value go-yaml kept', async () => {
    const r = await cli(['validate', site, '--all']);
    expect(r.code).toBe(0);
    const why = (s: string) => `Armada writes values for Helm with PyYAML's yaml.safe_dump, which leaves ${JSON.stringify(s)} unquoted, and Helm's YAML reader (go-yaml v2) reads it so; armada-cdk passes the string as written`;
    const keyWhy = (k: string) => `Armada writes values with PyYAML's yaml.safe_dump, which leaves the key unquoted, Helm's YAML reader reads it as the boolean true and writes it back as "true"; armada-cdk passes the key ${JSON.stringify(k)} as written`;
    expect((r.stdout + r.stderr).split('\n').filter((l) => l.includes(' warning: '))).toEqual([
      `${site}:12:5: warning: armada/Chart/v1 c: data.values.debug: received the string "y"; under Armada, Helm received the boolean true instead: ${why('y')}: write true where the chart relied on Armada's reading`,
      `${site}:13:5: warning: armada/Chart/v1 c: data.values.mode: received the string "0o755"; under Armada, Helm received the number 493 instead: ${why('0o755')}: write 493 where the chart relied on Armada's reading`,
      `${site}:14:16: warning: armada/Chart/v1 c: data.values.list[1]: received the string "09"; under Armada, Helm received the number 9 instead: ${why('09')}: write 9 where the chart relied on Armada's reading`,
      `${site}:15:5: warning: armada/Chart/v1 c: data.values.y: the key "y" became the key "true" in Helm under Armada, as the key "Y" here does: go-yaml read them as one key and kept the value of the last one safe_dump wrote, in sorted order: that of "y": ${keyWhy('y')}`,
      `${site}:16:5: warning: armada/Chart/v1 c: data.values.Y: the key "Y" became the key "true" in Helm under Armada, as the key "y" here does: go-yaml read them as one key and kept the value of the last one safe_dump wrote, in sorted order: that of "y": ${keyWhy('Y')}`,
    ]);
  });

  test('convert to documents: once per value, saying what Helm will receive when Armada deploys them (it retypes them again); another target: what Helm received', async () => {
    for (const to of ['documents-v1', 'documents-v2']) {
      const r = await cli(['convert', site, '--to', to, '--all']);
      expect(r.code).toBe(0);
      const warnings = r.stderr.split('\n').filter((l) => l.includes(' warning: ') && l.includes(': data.values'));
      expect(warnings.map((l) => l.replace(/: (received|the key).*$/, ''))).toEqual([
        `${site}:12:5: warning: armada/Chart/v1 c: data.values.debug`,
        `${site}:13:5: warning: armada/Chart/v1 c: data.values.mode`,
        `${site}:14:16: warning: armada/Chart/v1 c: data.values.list[1]`,
        `${site}:15:5: warning: armada/Chart/v1 c: data.values.y`,
        `${site}:16:5: warning: armada/Chart/v1 c: data.values.Y`,
      ]);
      expect(warnings[0]).toBe(
        `${site}:12:5: warning: armada/Chart/v1 c: data.values.debug: received the string "y"; under Armada, Helm receives the boolean true instead: Armada writes values for Helm with PyYAML's yaml.safe_dump, which leaves "y" unquoted, and Helm's YAML reader (go-yaml v2) reads it so; Armada cannot pass the string "y" to Helm, however these documents quote it: write true where that is meant`,
      );
      expect(warnings[3]).toContain(': the key "y" becomes the key "true" in Helm under Armada, ');
      expect(warnings[3]).toMatch(/; Armada cannot pass the key "y" to Helm, however these documents quote it$/);
    }
    const flux = await cli(['convert', site, '--to', 'flux-v2', '--all']);
    const moved = flux.stderr.split('\n').filter((l) => l.includes(' warning: ') && l.includes(': data.values.debug: received'));
    expect(moved).toEqual([expect.stringContaining('Helm received the boolean true instead: ')]);
    expect(moved[0]).toMatch(/armada-cdk passes the string as written: write true where the chart relied on Armada's reading$/);
  });
});
