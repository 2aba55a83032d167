import * as fs from 'fs';
import * as path from 'path';
import { cli, tmpdir, write } from '../helpers/cli';
import { readShared, sharedPath } from '../helpers/shared';

const SIMPLE = readShared('corpus', 'armada__examples__simple.yaml');

function lines(out: string): string[] {
  return out.split('\n').filter((l) => /: (error|warning): /.test(l));
}

describe('bad input: diagnostics and exit 1, never a crash, never partial output', () => {
  const dir = tmpdir();

  test('malformed YAML is located', async () => {
    const f = write(dir, 'broken.yaml', 'schema: armada/Chart/v1\nmetadata:\n  name: x\ndata:\n  release: [unclosed\n');
    const r = await cli(['validate', f]);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)[0]).toMatch(new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: error: `));
  });

  test('a document that is not a mapping', async () => {
    const f = write(dir, 'scalar.yaml', SIMPLE + '---\n- just\n- a list\n');
    const r = await cli(['validate', f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is a sequence');
  });

  test('wrong types, with Armada\'s wording and the field path', async () => {
    const f = write(dir, 'types.yaml', SIMPLE.replace('sequenced: False', 'sequenced: "no"').replace('release: blog-1', 'release: 12'));
    const r = await cli(['validate', f, '--format', 'json']);
    expect(r.code).toBe(1);
    const ds = JSON.parse(r.stdout).diagnostics.map((d: any) => [d.document, d.field, d.message]);
    expect(ds).toEqual(expect.arrayContaining([
      ['armada/Chart/v1 blog-1', 'data.release', "12 is not of type 'string'"],
      ['armada/ChartGroup/v1 blog-group', 'data.sequenced', "'no' is not of type 'boolean'"],
    ]));
  });

  test('unknown keys suggest the closest known key', async () => {
    const f = write(dir, 'typo.yaml', SIMPLE.replace('sequenced: False', 'sequnced: False'));
    const r = await cli(['validate', f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/data\.sequnced: Additional properties are not allowed \('sequnced' was unexpected\).*did you mean 'sequenced'\?/);
  });

  test('missing references, with a suggestion', async () => {
    const f = write(dir, 'ref.yaml', SIMPLE.replace('    - blog-2\n', '    - blog-3\n'));
    const r = await cli(['validate', f]);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(expect.arrayContaining([expect.stringMatching(/error: armada\/ChartGroup\/v1 blog-group: data\.chart_group\[1\]: chart "blog-3" is not in the manifest; did you mean "blog-2"\?$/)]));
  });

  test('duplicate names: the first wins in Armada, so the second is an error', async () => {
    const dup = SIMPLE.split('---\n')[2];
    const f = write(dir, 'dup.yaml', SIMPLE + '---\n' + dup.replace('release: blog-2', 'release: blog-2b'));
    const r = await cli(['validate', f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/data|metadata\.name: another chart is already named "blog-2"/);
  });

  test('dependency cycles print the whole loop', async () => {
    const f = write(dir, 'cycle.yaml', SIMPLE.replace('  release: blog-1\n', '  release: blog-1\n  dependencies: [blog-2]\n').replace('  release: blog-2\n', '  release: blog-2\n  dependencies: [blog-1]\n'));
    const r = await cli(['validate', f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('subchart dependencies form a cycle: blog-1 -> blog-2 -> blog-1');
  });

  test('empty files, binary garbage, invalid UTF-8 and missing files', async () => {
    const empty = write(dir, 'empty.yaml', '');
    const garbage = write(dir, 'garbage.bin', Buffer.from([0x00, 0xff, 0x13, 0x37, 0x00, 0x42]));
    const latin1 = write(dir, 'latin1.yaml', Buffer.from('schema: armada/Chart/v1\nname: caf\xe9\n', 'latin1'));
    for (const f of [empty, garbage, latin1, path.join(dir, 'missing.yaml'), dir]) {
      const r = await cli(['validate', f]);
      expect([f, r.code]).toEqual([f, 1]);
      expect(lines(r.stderr).length).toBeGreaterThan(0);
      expect(r.stderr).not.toContain('internal error');
    }
  });

  test('an empty input is named as given (<stdin> for -), and said to hold no Armada documents, not to be fragments', async () => {
    const empty = write(dir, 'empty.yaml', '');
    const fromStdin = await cli(['validate', '-'], { stdin: '' });
    const fromFile = await cli(['validate', empty]);
    const missing = (where: string) =>
      `${where}:1:1: error: Documents must include at least one of each of [Chart, ChartGroup] and only one Manifest (no Manifest, no ChartGroup, no Chart here): the input holds no documents of a site at all (none with a schema); pass the rendered site (armada/Manifest/v1, armada/ChartGroup/v1 and armada/Chart/v1 documents)`;
    expect([fromStdin.code, fromStdin.stderr]).toEqual([1, ['<stdin>: warning: <stdin> contains no YAML documents (it is empty)', missing('<stdin>'), 'invalid: 1 error, 1 warning', ''].join('\n')]);
    expect([fromFile.code, fromFile.stderr]).toEqual([1, [`${empty}: warning: ${empty} contains no YAML documents (it is empty)`, missing(empty), 'invalid: 1 error, 1 warning', ''].join('\n')]);
    // other documents of a site (Deckhand's), or some of Armada's but not all three kinds: fragments
    const other = await cli(['validate', '-'], { stdin: 'schema: deckhand/Passphrase/v1\nmetadata: {name: p, schema: metadata/Document/v1}\ndata: x\n' });
    expect(other.stderr).toContain('<stdin>:1:1: error: Documents must include at least one of each of [Chart, ChartGroup] and only one Manifest (no Manifest, no ChartGroup, no Chart here): these look like fragments of an unrendered site');
    const noSchema = await cli(['validate', '-'], { stdin: 'a: 1\n' });
    expect(noSchema.stderr).toContain('(no Manifest, no ChartGroup, no Chart here): the input holds no documents of a site at all (none with a schema)');
    const chartOnly = await cli(['validate', '-'], { stdin: SIMPLE.split('---').find((d) => d.includes('armada/Chart/v1'))! });
    expect(chartOnly.stderr).toContain('(no Manifest, no ChartGroup here): these look like fragments of an unrendered site');
  });

  test('stdin given twice (two -, or - and -f -) is read once, with a warning, by every command', async () => {
    const twice = '<stdin>: warning: <stdin> is given more than once; it is read only the first time';
    for (const args of [['validate', '-', '-'], ['validate', '-', '-f', '-'], ['plan', '-', '-'], ['convert', '-', '-', '--to', 'documents-v1'], ['import', '-', '-']]) {
      const r = await cli(args, { stdin: SIMPLE });
      expect([args.join(' '), r.code, r.stderr.split('\n').filter((l) => l.startsWith('<stdin>: '))]).toEqual([args.join(' '), 0, [twice]]);
      if (args[0] !== 'validate') expect(r.stdout.length).toBeGreaterThan(100);
    }
  });

  test('a 50 MB file gives diagnostics, not a crash', async () => {
    const big = path.join(dir, 'big.yaml');
    const fd = fs.openSync(big, 'w');
    const chunk = `---\nschema: deckhand/Passphrase/v1\nmetadata: {name: p, schema: metadata/Document/v1}\ndata: ${'x'.repeat(1000)}\n`;
    for (let written = 0; written < 50 * 1024 * 1024; written += chunk.length) fs.writeSync(fd, chunk);
    fs.closeSync(fd);
    const r = await cli(['validate', big]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no Manifest|no armada\/Manifest|fragments/);
  }, 120_000);

  test('convert writes nothing when the input is invalid', async () => {
    const out = tmpdir();
    const r = await cli(['convert', path.join(dir, 'typo.yaml'), '--to', 'documents-v1', '-o', out]);
    expect(r.code).toBe(1);
    expect(fs.readdirSync(out)).toEqual([]);
    const s = await cli(['convert', path.join(dir, 'typo.yaml'), '--to', 'documents-v1']);
    expect(s.stdout).toBe('');
  });

  test('several manifests need --target-manifest, as in Armada', async () => {
    const two = SIMPLE + SIMPLE.split('---\n').slice(-1)[0].replace('name: simple-armada', 'name: other').replace(/^/, '---\n');
    const f = write(dir, 'two.yaml', two);
    const r = await cli(['validate', f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('choose one with --target-manifest');
    expect((await cli(['validate', f, '--target-manifest', 'other'])).code).toBe(0);
  });

  test('stdin', async () => {
    const r = await cli(['plan', '-', '--format', 'json'], { stdin: SIMPLE });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).steps[0].releases.map((x: any) => x.name)).toEqual(['armada-blog-1', 'armada-blog-2']);
  });

  test('--values and --set, with Armada\'s string semantics', async () => {
    const ovr = write(dir, 'ovr.yaml', readShared('corpus', 'armada__examples__simple-ovr-values.yaml'));
    const ok = await cli(['convert', sharedPath('corpus', 'armada__examples__simple.yaml'), '-f', ovr, '--set', 'chart:blog-1:values.x=1', '--to', 'documents-v1']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('x: "1"');
    const bad = await cli(['validate', sharedPath('corpus', 'armada__examples__simple.yaml'), '--set', 'chart:blog-1:wait.timeout=600']);
    expect(bad.code).toBe(1);
    // The finding is the --set argument's, not a line of the input file.
    expect(bad.stderr).toContain(
      `--set[0]: error: armada/Chart/v1 blog-1: data.wait.timeout: "chart:blog-1:wait.timeout=600": '600' is not of type 'integer' (--set values are always strings; put typed values, such as numbers, booleans or mappings, in a --values file)`,
    );
  });
});

describe('usage errors: exit 2 with a hint, never a stack trace', () => {
  test.each([
    [['validate'], 'no input files'],
    [['validate', 'x.yaml', '--formt', 'json'], 'unknown option --formt (did you mean --format?)'],
    [['plan', 'x.yaml', '--format', 'svg'], '--format must be one of text, json, mermaid, dot; received "svg"'],
    [['convert', 'x.yaml'], '--to is required'],
    [['convert', 'x.yaml', '--to', 'airship'], '--to must be one of airship-v1, keleustes-v1alpha1, documents-v1, documents-v2, flux-v2, helmfile; received "airship"'],
    [['valdate', 'x.yaml'], 'unknown command "valdate" (did you mean validate?)'],
  ])('%j', async (args, message) => {
    const r = await cli(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test.each([
    [['bogus'], '--set[0] "bogus": expected TYPE:NAME:PATH=VALUE (no "=" found)'],
    [['chart:x'], '--set[0] "chart:x": expected TYPE:NAME:PATH=VALUE (no "=" found)'],
    [['chart:a=1'], '--set[0] "chart:a=1": expected TYPE:NAME:PATH=VALUE (TYPE is chart, chart_group or manifest)'],
    [['chart:x:a=1', 'pod:x:a=1', 'y'], '--set[1] "pod:x:a=1": unknown document type "pod"; Armada knows chart, chart_group and manifest; --set[2] "y": expected TYPE:NAME:PATH=VALUE (no "=" found)'],
  ])('a malformed --set %j is a usage error, before any input is read', async (sets, message) => {
    for (const command of ['validate', 'plan']) {
      const r = await cli([command, 'missing.yaml', ...sets.flatMap((x) => ['--set', x])]);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `armada-cdk ${command}: ${message}\nRun armada-cdk ${command} --help for usage.\n`]);
    }
  });

  test('--help on every command, with examples; --version', async () => {
    for (const c of ['validate', 'plan', 'convert', 'import', 'values-types', 'wait']) {
      const r = await cli([c, '--help']);
      expect([c, r.code]).toEqual([c, 0]);
      expect(r.stdout).toContain(`Usage: armada-cdk ${c}`);
      expect(r.stdout).toContain('Examples:');
    }
    expect((await cli(['--help'])).stdout).toContain('Commands:');
    expect((await cli(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

test('several files: documents are read across files, with progress on a terminal', async () => {
  const dir = tmpdir();
  const parts = readShared('corpus', 'armada__examples__simple.yaml').split(/^---\n/m).filter(Boolean);
  const files = parts.map((p, i) => write(dir, `part-${i}.yaml`, `---\n${p}`));
  const many = [...files, ...Array.from({ length: 10 }, (_, i) => write(dir, `extra-${i}.yaml`, '---\nschema: deckhand/Passphrase/v1\nmetadata: {name: x, schema: metadata/Document/v1}\ndata: secret\n'))];
  let stderr = '';
  const { main } = await import('../../src/cli/main');
  const { Readable } = await import('stream');
  const code = await main(['validate', ...many], {
    stdout: { write: () => true },
    stderr: { write: (s: string) => (stderr += s), isTTY: true },
    stdin: Readable.from(['']),
    cwd: dir,
  });
  expect(code).toBe(0);
  expect(stderr).toContain(`reading 14/14: ${many[13]}`);
  expect(stderr).toContain('checking manifest simple-armada (2 charts)');
});
