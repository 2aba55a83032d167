import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Readable } from 'stream';
import { loadInputs, readInputs, validateArmadaDocuments } from '../../../src/importer/load';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-load-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, content: string | Buffer): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return p;
}

const CHART = 'schema: armada/Chart/v1\nmetadata:\n  name: a\ndata:\n  chart_name: a\n  release: a\n  namespace: a\n  source: {type: local, location: /c, subpath: .}\n';

describe('reading inputs', () => {
  it('reads files and stdin in the order given', async () => {
    const a = write('a.yaml', CHART);
    const r = await readInputs([a, '-'], Readable.from([Buffer.from('b: 1\n')]));
    expect(r.diagnostics).toEqual([]);
    expect(r.inputs).toEqual([
      { file: a, text: CHART },
      { file: '<stdin>', text: 'b: 1\n' },
    ]);
  });

  it('reads stdin once and warns about a second -', async () => {
    const r = await readInputs(['-', '-'], Readable.from(['x: 1\n']), { stdinName: 'STDIN' });
    expect(r.inputs).toEqual([{ file: 'STDIN', text: 'x: 1\n' }]);
    expect(r.diagnostics).toEqual([{ severity: 'warning', location: 'STDIN', code: 'read-error', message: 'STDIN is given more than once; it is read only the first time' }]);
  });

  it('gives diagnostics, never exceptions, for paths it cannot read', async () => {
    const missing = path.join(dir, 'nope.yaml');
    const r = await readInputs([missing, dir]);
    expect(r.inputs).toEqual([]);
    expect(r.diagnostics).toEqual([
      { severity: 'error', location: missing, code: 'read-error', message: `cannot read ${missing}: no such file or directory` },
      { severity: 'error', location: dir, code: 'read-error', message: `${dir} is a directory, not a file` },
    ]);
  });

  (process.getuid?.() === 0 ? it.skip : it)('reports a file it has no permission to read', async () => {
    const p = write('secret.yaml', CHART);
    fs.chmodSync(p, 0o000);
    const r = await readInputs([p]);
    expect(r.diagnostics).toEqual([{ severity: 'error', location: p, code: 'read-error', message: `cannot read ${p}: permission denied` }]);
  });

  it('says an empty file, or one with only comments, contains no YAML documents', async () => {
    const empty = write('empty.yaml', '');
    const comments = write('comments.yaml', '# nothing\n\n   # here\n');
    const r = await loadInputs([empty, comments]);
    expect(r.documents).toEqual([]);
    expect(r.diagnostics).toEqual([
      { severity: 'warning', location: empty, code: 'no-documents', message: `${empty} contains no YAML documents (it is empty)` },
      { severity: 'warning', location: comments, code: 'no-documents', message: `${comments} contains no YAML documents` },
    ]);
  });

  it('refuses binary data and bytes that are not UTF-8, saying where (UTF-16 as UTF-16)', async () => {
    const bin = write('chart.tgz', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00]));
    const latin1 = write('latin1.yaml', Buffer.concat([Buffer.from('a: 1\nname: caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    const utf16 = write('utf16.yaml', Buffer.from('\ufeffa: 1\n', 'utf16le'));
    const truncated = write('cut.yaml', Buffer.concat([Buffer.from('a: '), Buffer.from('€').subarray(0, 2)]));
    const r = await readInputs([bin, latin1, utf16, truncated]);
    expect(r.inputs).toEqual([]);
    expect(r.diagnostics).toEqual([
      { severity: 'error', location: `${bin}:1:4`, code: 'not-text', message: `${bin} is not a UTF-8 text file (NUL byte at line 1, column 4: binary data?)` },
      { severity: 'error', location: `${latin1}:2:10`, code: 'not-text', message: `${latin1} is not a UTF-8 text file (invalid byte 0xe9 at line 2, column 10)` },
      { severity: 'error', location: utf16, code: 'not-text', message: `${utf16} is UTF-16 (little-endian) text (it starts with its byte order mark), not UTF-8, which is what Armada reads; convert it first: iconv -f UTF-16LE -t UTF-8` },
      { severity: 'error', location: `${truncated}:1:4`, code: 'not-text', message: `${truncated} is not a UTF-8 text file (invalid byte 0xe2 at line 1, column 4)` },
    ]);
  });

  it('accepts UTF-8 with a byte order mark and non-ASCII text', async () => {
    const p = write('bom.yaml', '\ufeffname: café – 東京\n');
    const r = await loadInputs([p]);
    expect(r.documents.map((d) => d.raw)).toEqual([{ name: 'café – 東京' }]);
  });

  it('refuses inputs over the size limit', async () => {
    const p = write('big.yaml', 'a: 1\n'.repeat(100));
    const r = await readInputs([p, '-'], Readable.from([Buffer.alloc(600, 0x20)]), { maxBytes: 400 });
    expect(r.diagnostics.map((d) => d.message)).toEqual([`${p} is larger than 400 bytes (500 bytes)`, '<stdin> is larger than 400 bytes; reading stopped there']);
  });
});

describe('a 50 MB input', () => {
  const chart = (i: number) =>
    `---\nschema: armada/Chart/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: chart-${i}\ndata:\n  chart_name: chart-${i}\n  release: chart-${i}\n  namespace: ns\n` +
    `  source:\n    type: git\n    location: https://git.example.org/charts/c-${i}\n    subpath: .\n  wait:\n    timeout: 600\n    resources:\n      - type: deployment\n        min_ready: 1\n` +
    `  values:\n${Array.from({ length: 40 }, (_, k) => `    key_${k}: value-${i}-${k}\n`).join('')}`;

  it('loads a 50 MB stream of documents in reasonable time and memory, and still points at errors', async () => {
    const parts: string[] = [];
    let size = 0;
    let n = 0;
    while (size < 50 * 1024 * 1024) {
      const c = chart(n++);
      parts.push(c);
      size += c.length;
    }
    // one schema error and one duplicate key near the end
    parts[n - 2] = parts[n - 2].replace('    timeout: 600\n', "    timeout: '600'\n");
    parts[n - 1] = parts[n - 1].replace('  namespace: ns\n', '  namespace: ns\n  namespace: other\n');
    const p = write('site-50m.yaml', parts.join(''));
    parts.length = 0;
    const start = Date.now();
    const r = await loadInputs([p]);
    const errors = validateArmadaDocuments(r.armada);
    const ms = Date.now() - start;
    expect(r.armada).toHaveLength(n);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'duplicate-key', document: `armada/Chart/v1 chart-${n - 1}`, field: 'data.namespace' }),
    ]);
    expect(errors).toEqual([expect.objectContaining({ field: 'data.wait.timeout', message: "'600' is not of type 'integer'", document: `armada/Chart/v1 chart-${n - 2}` })]);
    const [, line] = /:(\d+):5$/.exec(errors[0].location)!;
    const text = fs.readFileSync(p, 'utf8').split('\n');
    expect(text[Number(line) - 1]).toBe("    timeout: '600'");
    // eslint-disable-next-line no-console
    console.log(`50 MB stream (${n} charts): loaded and validated in ${ms} ms, heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`);
  }, 180_000);

  it('loads a single 50 MB document and locates an error in it without building an AST', async () => {
    const lines = ['schema: armada/Chart/v1', 'metadata:', '  name: big', 'data:', '  chart_name: big', '  release: big', '  namespace: ns', '  source: {type: git, location: x, subpath: .}', '  values:'];
    let size = 0;
    for (let i = 0; size < 50 * 1024 * 1024; i++) {
      const l = `    key_${i}: value-number-${i}-with-some-padding-text`;
      lines.push(l);
      size += l.length + 1;
    }
    lines.push('  timeout: 1.0');
    const p = write('one-50m.yaml', `${lines.join('\n')}\n`);
    const start = Date.now();
    const r = await loadInputs([p]);
    const errors = validateArmadaDocuments(r.armada);
    const ms = Date.now() - start;
    expect(r.diagnostics).toEqual([]);
    expect(errors.map((e) => [e.location, e.message])).toEqual([[`${p}:${lines.length}:3`, "1.0 is not of type 'integer'"]]);
    // eslint-disable-next-line no-console
    console.log(`50 MB document: loaded and validated in ${ms} ms, heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`);
  }, 180_000);
});
