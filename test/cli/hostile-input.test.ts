import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Readable } from 'stream';
import { readInputs } from '../../src/importer/load';
import { MAX_DOCUMENTS, MAX_LOAD_FINDINGS } from '../../src/importer/load/limits';
import { cli, tmpdir, write } from '../helpers/cli';
import { readShared, sharedPath } from '../helpers/shared';
import { buildCliFirst, finished, spawnCli } from '../helpers/spawn-cli';

buildCliFirst();

const SIMPLE = readShared('corpus', 'armada__examples__simple.yaml');
const dir = tmpdir('armada-cdk-hostile-');

const errorLines = (out: string) => out.split('\n').filter((l) => /: (error|warning): /.test(l));

describe('size caps hold for every kind of input', () => {
  const device = /is a character device, not a regular file; only stdin \(-\) may be a stream or a device: redirect it to stdin and pass -$/;

  test('a device is refused at once, not read (st.size is 0 for /dev/zero)', async () => {
    const started = Date.now();
    const r = await cli(['validate', '/dev/zero']);
    expect(r.code).toBe(1);
    expect(errorLines(r.stdout + r.stderr)).toEqual([expect.stringMatching(new RegExp(`^/dev/zero: error: /dev/zero ${device.source}`))]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('also through a symbolic link, and as a -f values file', async () => {
    const link = path.join(dir, 'zero.yaml');
    fs.symlinkSync('/dev/zero', link);
    const main = write(dir, 'site.yaml', SIMPLE);
    const r = await cli(['validate', link]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(new RegExp(`${link}: error: ${link} ${device.source}`, 'm'));
    const f = await cli(['validate', main, '-f', '/dev/urandom']);
    expect(f.code).toBe(1);
    expect(f.stdout + f.stderr).toMatch(new RegExp(`/dev/urandom: error: /dev/urandom ${device.source}`, 'm'));
  });

  test('a FIFO is refused without blocking on it', async () => {
    const fifo = path.join(dir, 'pipe.yaml');
    execFileSync('mkfifo', [fifo]);
    const r = await cli(['validate', fifo]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(`${fifo}: error: ${fifo} is a named pipe (FIFO), not a regular file; only stdin (-) may be a stream or a device`);
  });

  test('a regular file over the limit, and stdin cut off at the limit: the stream is destroyed', async () => {
    const big = write(dir, 'big.yaml', 'a: 1\n'.repeat(100));
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 64;
        this.push(Buffer.alloc(64, 0x79));
      },
    });
    const r = await readInputs([big, '-'], endless, { maxBytes: 400 });
    expect(r.diagnostics.map((d) => d.message)).toEqual([`${big} is larger than 400 bytes (500 bytes)`, '<stdin> is larger than 400 bytes; reading stopped there']);
    expect(endless.destroyed).toBe(true);
    expect(produced).toBeLessThan(2000);
  });

  test('the limit holds on the bytes read, whatever st.size says (0 for /proc files, as for devices)', async () => {
    const proc = '/proc/self/status';
    expect(fs.statSync(proc).size).toBe(0);
    const r = await readInputs([proc], undefined, { maxBytes: 100 });
    expect(r.diagnostics.map((d) => d.message)).toEqual([`${proc} is larger than 100 bytes; reading stopped there`]);
    // Under the limit, such a file is read in full.
    const whole = await readInputs([proc], undefined, { maxBytes: 1 << 20 });
    expect(whole.inputs[0].text).toMatch(/^Name:\t/);
  });

  test('yes | armada-cdk validate - stops at the limit and exits 1', async () => {
    const child = spawnCli(['validate', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const line = Buffer.alloc(1 << 20, 'y\n');
    let stopped = false;
    const pump = () => {
      while (!stopped && child.stdin!.write(line));
    };
    child.stdin!.on('drain', pump).on('error', () => (stopped = true));
    child.on('exit', () => (stopped = true));
    pump();
    child.stdout!.setEncoding('utf8');
    let stdout = '';
    child.stdout!.on('data', (s: string) => (stdout += s));
    const r = await finished(child, 100_000);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(1);
    expect(stdout + r.stderr).toContain('<stdin>: error: <stdin> is larger than 64 MiB; reading stopped there');
    expect(r.stderr).not.toMatch(/internal error|at .*\.ts:\d+/);
  }, 120_000);
});

describe('inputs of many tiny documents or findings stop at a limit, with what was found so far', () => {
  // Before the limits, 10 MB of `---` lines (2.5 million empty documents) took 2.4 GB and 18 s.
  const lastLines = (out: string, n: number) => out.trimEnd().split('\n').slice(-n);

  test(`more than ${MAX_DOCUMENTS.toLocaleString('en-US')} documents: each one read is reported (one line, or one each with --all), then where reading stopped`, async () => {
    const f = write(dir, 'empties.yaml', '---\n'.repeat(MAX_DOCUMENTS + 50_000));
    const r = await cli(['validate', f]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `${f}:1:1: error: document 1 is empty (an extra '---', or only comments); Armada fails on it ("None is not a valid override statement"): remove it [empty-document: 100000 errors like this one, also in ${f}:2:1, ${f}:3:1, ${f}:4:1 and 99996 more]`,
      `${f}:100001:1: error: armada-cdk stopped reading here, and read nothing after it: the input holds more than 100,000 documents (a site of 8,000 charts has about 9,000); is it the rendered site you meant?`,
      'invalid: 100001 errors, 0 warnings',
    ]);
    const all = await cli(['validate', f, '--all']);
    expect(all.stderr.trimEnd().split('\n')).toHaveLength(100_002);
    expect(lastLines(all.stderr, 3)).toEqual([
      `${f}:100000:1: error: document 100000 is empty (an extra '---', or only comments); Armada fails on it ("None is not a valid override statement"): remove it`,
      `${f}:100001:1: error: armada-cdk stopped reading here, and read nothing after it: the input holds more than 100,000 documents (a site of 8,000 charts has about 9,000); is it the rendered site you meant?`,
      'invalid: 100001 errors, 0 warnings',
    ]);
  }, 60_000);

  test('the limit is on the run: the documents of every input count, and the inputs after the stop are not read', async () => {
    const a = write(dir, 'empties-a.yaml', '---\n'.repeat(MAX_DOCUMENTS - 1));
    const b = write(dir, 'empties-b.yaml', '---\n'.repeat(3));
    const c = write(dir, 'empties-c.yaml', '---\n');
    const r = await cli(['validate', a, b, c]);
    expect(lastLines(r.stderr, 2)).toEqual([
      `${b}:2:1: error: armada-cdk stopped reading here, and read nothing after it: the input holds more than 100,000 documents (a site of 8,000 charts has about 9,000); is it the rendered site you meant?`,
      'invalid: 100001 errors, 0 warnings',
    ]);
    expect(r.stderr).not.toContain(c);
  }, 60_000);

  test(`more than ${MAX_LOAD_FINDINGS.toLocaleString('en-US')} findings in one document: the first ones, then where reading stopped`, async () => {
    const head = 'schema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: c}\ndata:\n  values:\n';
    const f = write(dir, 'duplicates.yaml', head + '    a: 1\n'.repeat(MAX_LOAD_FINDINGS + 10_000) + '---\nb: 1\n');
    const r = await cli(['validate', f]);
    expect(r.code).toBe(1);
    // The first repeat is on line 6; the 100,001st, where reading stops, on line 100,006.
    expect(lastLines(r.stderr, 3)).toEqual([
      `${f}:6:5: warning: armada/Chart/v1 c: data.values.a: duplicate key 'a': this value replaces the one at line 5 (PyYAML keeps the last) [duplicate-key: 100000 warnings like this one]`,
      `${f}:100006:5: error: armada-cdk stopped reading here, and read nothing after it: 100,000 problems were found before this point; fix those first (they are most likely one mistake, repeated)`,
      'invalid: 1 error, 100000 warnings',
    ]);
  }, 60_000);

  test("schema violations count as well: Armada's check stops where the findings reach the limit", async () => {
    const head = 'schema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: c}\ndata:\n  chart_name: c\n  release: c\n  namespace: ns\n  source: {type: local, location: /c, subpath: .}\n';
    const keys = Array.from({ length: MAX_LOAD_FINDINGS + 10 }, (_, i) => `  k${i}: 1\n`).join('');
    const f = write(dir, 'unknown-keys.yaml', head + keys);
    const r = await cli(['validate', f]);
    // The file is one Chart alone, which is said first: one finding of the 100,000.
    const errors = errorLines(r.stderr);
    expect(errors.filter((l) => l.includes('Documents must include'))).toHaveLength(1);
    const schema = errors.filter((l) => !l.includes('Documents must include'));
    expect(schema).toHaveLength(MAX_LOAD_FINDINGS);
    expect(schema[0]).toBe(`${f}:8:3: error: armada/Chart/v1 c: data.k0: Additional properties are not allowed ('k0' was unexpected)`);
    // k0 to k99998 (lines 8 to 100006), then the stop at k99999.
    expect(schema[schema.length - 1]).toBe(
      `${f}:${8 + MAX_LOAD_FINDINGS - 1}:3: error: armada-cdk stopped checking here, and checked nothing after it: 100,000 problems were found before this point; fix those first (they are most likely one mistake, repeated)`,
    );
  }, 60_000);
});

describe('findings of the conversion are bounded per chart', () => {
  test('a chart of 200,000 values keys for keleustes: the first 1,000 dropped keys, then their count', async () => {
    const keys = Array.from({ length: 200_000 }, (_, i) => `    k${i}: ${i}\n`).join('');
    const site = SIMPLE.replace('  values: {}\n', `  values:\n${keys}`).replace('  values:\n    some: value\n', '');
    expect(site).toContain('    k199999: 199999\n');
    const f = write(dir, 'many-values.yaml', site);
    const r = await cli(['convert', f, '--to', 'keleustes-v1alpha1']);
    expect(r.code).toBe(0);
    const lines = errorLines(r.stderr);
    const counted = lines.filter((l) => l.includes('more fields of values'));
    expect(counted).toHaveLength(1);
    expect(counted[0]).toMatch(/: warning: armada\/Chart\/v1 \S+: data\.values: cannot be expressed for the keleustes operator \(armada\.airshipit\.org\/v1alpha1\): 199,000 more fields of values, besides those reported: the API server drops them as well .*$/);
    // The first 1,000 in one warning, at the first of them.
    const listed = lines.filter((l) => l.includes('fields of values are unknown'));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatch(new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:5: warning: armada/Chart/v1 \\S+: data\\.values: .*: 1,000 fields of values are unknown to the CRD schema, .*: values\\.k0, values\\.k1, .*, values\\.k998, values\\.k999$`));
    // With the two charts' warnings about their waits.
    expect(r.stderr.trimEnd().split('\n').pop()).toBe('0 errors, 4 warnings');
  }, 60_000);
});

describe('alias bombs and recursive aliases', () => {
  const bomb = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`)];
  const withValues = (lines: readonly string[]) => SIMPLE.replace('  values: {}\n', `  values:\n${lines.map((l) => `    ${l}\n`).join('')}`);

  test('a 1 KB billion-laughs document is refused at the alias that passes the budget, with its document', async () => {
    const text = withValues(bomb);
    expect(text.length).toBeLessThan(4000);
    const f = write(dir, 'bomb.yaml', text);
    const started = Date.now();
    const r = await cli(['convert', f, '--to', 'documents-v1']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lineOfA5 = text.split('\n').findIndex((l) => l.startsWith('    a5: ')) + 1;
    const [line] = errorLines(r.stderr);
    expect(line).toMatch(
      new RegExp(`^${f}:${lineOfA5}:\\d+: error: armada/Chart/v1 blog-1: the aliases of this document expand to more than 1,000,000 nodes \\(at \\*a4\\): an alias bomb\\? Refused before it is expanded$`),
    );
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test('merges of merges (each level merges the one below eight times): each mapping is read once by the key checks, which listed 8^10 pairs', async () => {
    // The built value is tiny (one key), so no alias budget stops it; a number key and a mapping
    // with two '<<' send it through both checks that follow merges.
    const levels = ['m0: &m0 {x: 1}', ...Array.from({ length: 10 }, (_, i) => `m${i + 1}: &m${i + 1} {<<: [${Array(8).fill(`*m${i}`).join(', ')}]}`)];
    const text = withValues([...levels, 'n: {1: y}', 'twice:', '  <<: *m10', '  <<: *m10']);
    const f = write(dir, 'merge-bomb.yaml', text);
    const started = Date.now();
    const r = await cli(['validate', f]);
    // At the second '<<' of `twice`.
    const second = text.split('\n').findIndex((l) => l.startsWith('    twice:')) + 3;
    expect(errorLines(r.stderr)).toEqual([
      `${f}:${second}:7: error: armada/Chart/v1 blog-1: several '<<' merge keys in one mapping supply 'x': PyYAML takes it from the last, this loader from the first; merge once with '<<: [*a, *b]' (the first listed wins)`,
    ]);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test('a 100 KB string named by a few thousand aliases is refused by its characters, in the file and in a -f file', async () => {
    // 11,111 nodes (under the node budget) that expand to a gigabyte: was "Invalid string length", exit 70.
    const lines = [`s0: &s0 ["${'x'.repeat(100_000)}"]`, ...Array.from({ length: 4 }, (_, i) => `s${i + 1}: &s${i + 1} [${Array(10).fill(`*s${i}`).join(', ')}]`)];
    const text = withValues(lines);
    const f = write(dir, 'string-bomb.yaml', text);
    const lineOfS3 = text.split('\n').findIndex((l) => l.startsWith('    s3: ')) + 1;
    const expected = (file: string, line: number) =>
      new RegExp(`^${file}:${line}:\\d+: error: armada/Chart/v1 blog-1: the aliases of this document expand to more than 16 MiB of text \\(at \\*s2\\), where one chart's values are at most 1 MiB in Helm's release Secret: an alias bomb\\? Refused before it is expanded$`);
    for (const command of [['convert', f, '--to', 'documents-v1'], ['import', f]]) {
      const r = await cli(command);
      expect([command[0], r.code, r.stdout]).toEqual([command[0], 1, '']);
      expect(errorLines(r.stderr)[0]).toMatch(expected(f, lineOfS3));
    }
    const main = write(dir, 'plain.yaml', SIMPLE);
    const r = await cli(['validate', main, '-f', f]);
    expect(r.code).toBe(1);
    expect(errorLines(r.stdout + r.stderr)[0]).toMatch(expected(f, lineOfS3));
  });

  test('a long string shared by a few aliases, as real values share one, is fine', async () => {
    const text = withValues([`cert: &c "${'x'.repeat(100_000)}"`, 'a: *c', 'b: *c', 'c: [*c, *c]']);
    const r = await cli(['convert', write(dir, 'shared-string.yaml', text), '--to', 'documents-v1']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('x'.repeat(100_000)).length - 1).toBe(5);
  });

  test('a recursive alias gets a diagnostic at the alias, not exit 70', async () => {
    const text = SIMPLE.replace('  values: {}\n', '  values: &v\n    self: *v\n');
    const f = write(dir, 'recursive.yaml', text);
    for (const command of [['validate', f], ['convert', f, '--to', 'airship-v1'], ['import', f]]) {
      const r = await cli(command);
      expect([command[0], r.code]).toEqual([command[0], 1]);
      const line = text.split('\n').findIndex((l) => l.includes('self: *v')) + 1;
      expect(errorLines(r.stdout + r.stderr)).toContain(
        `${f}:${line}:11: error: armada/Chart/v1 blog-1: recursive alias *v: the node it names contains it, so the document would be infinitely deep; Armada cannot use it`,
      );
    }
  });

  test('a recursive alias in a sequence, and one in a -f values file', async () => {
    const main = write(dir, 'main.yaml', SIMPLE);
    const ovr = write(dir, 'ovr.yaml', 'schema: armada/Chart/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: blog-1\ndata:\n  values: &l [1, *l]\n');
    const r = await cli(['validate', main, '-f', ovr]);
    expect(r.code).toBe(1);
    expect(errorLines(r.stdout + r.stderr)).toContain(`${ovr}:6:18: error: armada/Chart/v1 blog-1: recursive alias *l: the node it names contains it, so the document would be infinitely deep; Armada cannot use it`);
  });

  test('ordinary aliases and merges, shared many times, are fine', async () => {
    const text = SIMPLE.replace('  values: {}\n', '  values:\n    base: &b {a: 1, b: [1, 2, 3]}\n    one: *b\n    two: {<<: *b, c: 2}\n');
    const r = await cli(['convert', write(dir, 'aliases.yaml', text), '--to', 'documents-v1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('    one:\n      a: 1\n      b:\n        - 1\n        - 2\n        - 3\n');
  });
});

describe('nesting past what Armada handles', () => {
  const setPath = (n: number) => ['values', ...Array.from({ length: n - 1 }, (_, i) => `k${i}`)].join('.');
  const file = write(dir, 'simple.yaml', SIMPLE);

  test('a --set path of 20,000 segments is an error at --set[0], not a stack overflow', async () => {
    const r = await cli(['validate', file, '--set', `chart:blog-1:${setPath(20_000)}=x`]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('internal error');
    // The argument (128,904 characters) is quoted by its first 160.
    const arg = `chart:blog-1:${setPath(20_000)}=x`;
    expect(errorLines(r.stderr)).toEqual([
      `--set[0]: error: "${arg.slice(0, 160)}…" (${arg.length.toLocaleString('en-US')} characters): the path has 20000 segments, so the document would nest more than 490 levels deep: more than Armada handles (its merge and PyYAML recurse once or more per level and stop with a RecursionError)`,
    ]);
  });

  test('one that stops at the limit is kept', async () => {
    const r = await cli(['validate', file, '--set', `chart:blog-1:${setPath(489)}=x`]);
    expect([r.code, errorLines(r.stderr).filter((l) => l.includes('error'))]).toEqual([0, []]);
  });
});

describe('messages', () => {
  test('UTF-16 and UTF-32 input is named as such, with a mark or without', async () => {
    const text = 'schema: armada/Chart/v1\n';
    const be = Buffer.from(text, 'utf16le').swap16();
    const cases: [string, Buffer, string][] = [
      ['le-bom.yaml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'UTF-16 (little-endian) text (it starts with its byte order mark), not UTF-8, which is what Armada reads; convert it first: iconv -f UTF-16LE -t UTF-8'],
      ['be-bom.yaml', Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'UTF-16 (big-endian) text (it starts with its byte order mark), not UTF-8, which is what Armada reads; convert it first: iconv -f UTF-16BE -t UTF-8'],
      ['le.yaml', Buffer.from(text, 'utf16le'), 'UTF-16 (little-endian) text, not UTF-8, which is what Armada reads; convert it first: iconv -f UTF-16LE -t UTF-8'],
      ['be.yaml', be, 'UTF-16 (big-endian) text, not UTF-8, which is what Armada reads; convert it first: iconv -f UTF-16BE -t UTF-8'],
      ['utf32.yaml', Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), ...[...text].map((c) => Buffer.from([c.charCodeAt(0), 0, 0, 0]))]), 'UTF-32 (little-endian) text (it starts with its byte order mark), not UTF-8, which is what Armada reads; convert it first: iconv -f UTF-32LE -t UTF-8'],
    ];
    for (const [name, bytes, message] of cases) {
      const f = write(dir, name, bytes);
      const r = await cli(['validate', f]);
      expect([name, r.code, errorLines(r.stdout + r.stderr)]).toEqual([name, 1, [`${f}: error: ${f} is ${message}`]]);
    }
    // Binary data with NUL bytes is still binary data.
    const bin = write(dir, 'chart.tgz', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]));
    expect((await cli(['validate', bin])).stderr).toContain('NUL byte at line 1, column 4: binary data?');
  });

  test('CR-only line endings give the same positions as LF', async () => {
    const bad = SIMPLE.replace('sequenced: False', 'sequnced: False').replace('release: blog-1', 'release: 12');
    const lf = await cli(['validate', write(dir, 'lf.yaml', bad)]);
    const cr = await cli(['validate', write(dir, 'cr.yaml', bad.replace(/\n/g, '\r'))]);
    const crlf = await cli(['validate', write(dir, 'crlf.yaml', bad.replace(/\n/g, '\r\n'))]);
    const strip = (out: string, name: string) => errorLines(out).map((l) => l.replace(path.join(dir, name), 'F'));
    const lineOf = (needle: string) => bad.split('\n').findIndex((l) => l.includes(needle)) + 1;
    expect(strip(lf.stderr, 'lf.yaml')).toEqual([
      `F:${lineOf('release: 12')}:3: error: armada/Chart/v1 blog-1: data.release: 12 is not of type 'string'`,
      `F:${lineOf('sequnced')}:3: error: armada/ChartGroup/v1 blog-group: data.sequnced: Additional properties are not allowed ('sequnced' was unexpected): did you mean 'sequenced'?`,
    ]);
    expect(strip(cr.stderr, 'cr.yaml')).toEqual(strip(lf.stderr, 'lf.yaml'));
    expect(strip(crlf.stderr, 'crlf.yaml')).toEqual(strip(lf.stderr, 'lf.yaml'));
    // A syntax error in a CR-only file, and binary data after CR-only lines.
    const syntax = SIMPLE.replace('release: blog-1', 'release: [x');
    const synLf = await cli(['validate', write(dir, 'syn-lf.yaml', syntax)]);
    const synCr = await cli(['validate', write(dir, 'syn-cr.yaml', syntax.replace(/\n/g, '\r'))]);
    expect(strip(synCr.stderr, 'syn-cr.yaml')).toEqual(strip(synLf.stderr, 'syn-lf.yaml'));
    const nul = await cli(['validate', write(dir, 'nul-cr.yaml', 'a: 1\rb: 2\rc: \u0000\r')]);
    expect(nul.stderr).toContain('NUL byte at line 3, column 4');
  });

  test('keys named like Object.prototype members get real hints, never a function body', async () => {
    const text = SIMPLE.replace('  sequenced: False\n', '  sequenced: False\n  constructor: 1\n  toString: 2\n  hasOwnProperty: 3\n  descriptio: 4\n');
    const r = await cli(['validate', write(dir, 'members.yaml', text)]);
    expect(r.code).toBe(1);
    const lines = errorLines(r.stderr).map((l) => l.replace(/^.*?: error: /, ''));
    expect(lines).toEqual([
      "armada/ChartGroup/v1 blog-group: data.constructor: Additional properties are not allowed ('constructor' was unexpected)",
      "armada/ChartGroup/v1 blog-group: data.toString: Additional properties are not allowed ('toString' was unexpected)",
      "armada/ChartGroup/v1 blog-group: data.hasOwnProperty: Additional properties are not allowed ('hasOwnProperty' was unexpected)",
      "armada/ChartGroup/v1 blog-group: data.descriptio: Additional properties are not allowed ('descriptio' was unexpected): did you mean 'description'?",
    ]);
    const main = write(dir, 'site.yaml', SIMPLE);
    const set = await cli(['validate', main, '--set', 'constructor:blog-1:values.a=1']);
    expect(set.code).toBe(2);
    expect(set.stderr).toBe('armada-cdk validate: --set[0] "constructor:blog-1:values.a=1": unknown document type "constructor"; Armada knows chart, chart_group and manifest\nRun armada-cdk validate --help for usage.\n');
    const bool = await cli(['validate', write(dir, 'bool.yaml', SIMPLE.replace('sequenced: False', 'sequenced: !!bool constructor'))]);
    expect(bool.code).toBe(1);
    expect(bool.stderr).toContain('cannot construct a boolean from');
    const cmd = await cli(['constructor']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toContain('unknown command "constructor"');
  });
});

describe('broken pipes and full outputs', () => {
  test('convert > /dev/full: a user-facing error, exit 1, no stack trace', async () => {
    const f = write(dir, 'full.yaml', SIMPLE);
    const out = fs.openSync('/dev/full', 'w');
    try {
      const r = await finished(spawnCli(['convert', f, '--to', 'documents-v2'], { stdio: ['ignore', out, 'pipe'] }));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('armada-cdk: cannot write to standard output: no space left on device (ENOSPC)\n');
      expect(r.stderr).not.toMatch(/internal error|This is a bug|\n\s+at /);
    } finally {
      fs.closeSync(out);
    }
  }, 90_000);

  test.each([[['--help']], [['help', 'validate']], [['validate', '--help']], [['--version']]])('%j > /dev/full: the help or version was not written, exit 1', async (args) => {
    const out = fs.openSync('/dev/full', 'w');
    try {
      const r = await finished(spawnCli(args, { stdio: ['ignore', out, 'pipe'] }));
      expect([r.code, r.stderr]).toEqual([1, 'armada-cdk: cannot write to standard output: no space left on device (ENOSPC)\n']);
    } finally {
      fs.closeSync(out);
    }
  }, 30_000);

  test('convert | head: exits quietly when the reader goes away (EPIPE)', async () => {
    const f = write(dir, 'epipe.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '300'], { encoding: 'utf8', maxBuffer: 1 << 26 }));
    const child = spawnCli(['convert', f, '--to', 'documents-v1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.once('data', () => child.stdout!.destroy());
    const r = await finished(child);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/EPIPE|internal error|\n\s+at /);
  }, 90_000);
});
