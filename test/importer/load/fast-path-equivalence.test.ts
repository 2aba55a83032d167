/**
 * The loader with its block-style fast path must say exactly what it says without it: the same
 * documents (values, key order, types), the same diagnostics (text, position, order), and the
 * same CLI output, on real manifests, on the test fixtures, on a generated site and on mutated
 * manifests. The scans it skips for a fast-path document (aliases, collection keys, key
 * problems) must find nothing there, which the same comparison proves.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseYamlStream } from '../../../src/importer/load';
import { loadBlockDocument, useFastBlockLoader } from '../../../src/importer/load/fast-block';
import { splitDocuments } from '../../../src/importer/load/source';
import { cli, tmpdir, write } from '../../helpers/cli';
import { rng } from '../../helpers/random';
import { corpusFiles, readShared, sharedPath } from '../../helpers/shared';
import { strictDiff } from '../../helpers/strict-diff';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'fidelity');

/** What the loader makes of `text`: every document and every diagnostic. */
function load(text: string, fast: boolean): unknown {
  const was = useFastBlockLoader(fast);
  try {
    const r = parseYamlStream({ file: 'site.yaml', text });
    return {
      documents: r.documents.map((d) => ({ label: d.label, file: d.file, index: d.index, startLine: d.startLine, schema: d.schema, name: d.name, raw: d.raw, data: d.data, plainJson: d.plainJson, at: d.location() })),
      diagnostics: r.diagnostics,
    };
  } finally {
    useFastBlockLoader(was);
  }
}

/**
 * The same load, except that the fast path may vouch for a document's values (`plainJson`) where
 * the text scan alone could not: `a: x *y` looks like an alias to the scan, and is none.
 */
function expectSameLoad(text: string, what: string): void {
  const slow = load(text, false) as { documents: { plainJson?: boolean | undefined }[] };
  const fast = load(text, true) as { documents: { plainJson?: boolean | undefined }[] };
  const vouched = fast.documents.map((d, i) => d.plainJson === true || slow.documents[i]?.plainJson !== true);
  const same = (r: typeof slow) => ({ ...r, documents: r.documents.map(({ plainJson: _vouched, ...d }) => d) });
  const diff = strictDiff(same(fast), same(slow));
  if (diff !== undefined || vouched.includes(false)) throw new Error(`${what}: the loader differs with the fast path (${diff ?? 'plainJson'})\n${JSON.stringify(text).slice(0, 2000)}`);
}

/** How many of the stream's documents the fast path builds itself. */
function taken(text: string): number {
  return splitDocuments(text).filter((c) => loadBlockDocument(text.slice(c.start, c.end)) !== undefined).length;
}

const corpus = corpusFiles().map((c) => ({ name: c.file, text: readShared('corpus', c.file) }));
const fixtures = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.yaml')).map((f) => ({ name: f, text: fs.readFileSync(path.join(FIXTURES, f), 'utf8') }));
const site = execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '40'], { encoding: 'utf8' });

describe('the loader with and without the block-style fast path', () => {
  it.each(corpus.map((c) => [c.name, c.text]))('gives the same documents and diagnostics for corpus %s', (name, text) => {
    expectSameLoad(text, name);
  });

  it.each(fixtures.map((c) => [c.name, c.text]))('gives the same documents and diagnostics for fixture %s', (name, text) => {
    expectSameLoad(text, name);
  });

  // Real manifests use block scalars, flow collections and quoted keys, which js-yaml builds.
  it('takes most real documents and every generated one', () => {
    const all = corpus.reduce((n, c) => n + splitDocuments(c.text).length, 0);
    const fast = corpus.reduce((n, c) => n + taken(c.text), 0);
    expect(fast / all).toBeGreaterThan(0.6);
    expect(taken(site)).toBe(splitDocuments(site).length);
    expectSameLoad(site, 'generated site');
  });

  it('vouches for the values of a document whose text only looks as if it had an alias', () => {
    const text = 'schema: armada/Chart/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: c\ndata:\n  values:\n    glob: a *b\n    path: x-*y\n';
    expectSameLoad(text, 'star in a value');
    expect((load(text, true) as { documents: { plainJson: boolean }[] }).documents[0].plainJson).toBe(true);
    expect((load(text, false) as { documents: { plainJson: boolean }[] }).documents[0].plainJson).toBe(false);
  });

  it('gives the same documents and diagnostics for mutated manifests', () => {
    const r = rng(20261203);
    const edits = ['', ' ', '  ', '- ', ': ', '#', ' #', ' *x', '-*x', "'", '"', '[]', '{}', '&a ', '*a', '<<: ', '1: ', 'yes', '~', '\t', '\r', '---', '...', 'k: v', '- k: v'];
    const sources = [site, ...corpus.map((c) => c.text)];
    let mutants = 0;
    for (let i = 0; i < 400; i++) {
      const lines = sources[i % sources.length].split('\n').slice(0, 400);
      for (let e = 0; e < 1 + Math.floor(r() * 3); e++) {
        const k = Math.floor(r() * lines.length);
        const op = Math.floor(r() * 5);
        if (op === 0) lines[k] = ' '.repeat(1 + Math.floor(r() * 2)) + lines[k];
        else if (op === 1) lines[k] = lines[k].replace(/^ {1,2}/, '');
        else if (op === 2) lines.splice(k, 1);
        else if (op === 3) lines.splice(k, 0, lines[Math.floor(r() * lines.length)]);
        else {
          const at = Math.floor(r() * (lines[k].length + 1));
          lines[k] = lines[k].slice(0, at) + edits[Math.floor(r() * edits.length)] + lines[k].slice(at);
        }
      }
      expectSameLoad(lines.join('\n'), `mutant ${i}`);
      mutants++;
    }
    expect(mutants).toBe(400);
  });
});

describe('the CLI with and without the block-style fast path', () => {
  const dir = tmpdir();
  const siteFile = write(dir, 'site.yaml', site);
  const broken = write(dir, 'broken.yaml', site.replace('  namespace: ns-0\n', '  namespace: ns-0\n  namespace: again\n').replace('timeout: 300', 'timeout: yes'));

  async function both(args: string[]): Promise<void> {
    const was = useFastBlockLoader(false);
    let slow;
    try {
      slow = await cli(args);
    } finally {
      useFastBlockLoader(was);
    }
    const fast = await cli(args);
    expect(fast).toEqual(slow);
  }

  it.each(['validate', 'plan', 'convert --to airship-v1', 'convert --to flux-v2'])('prints the same for %s of a generated site', async (command) => {
    const [cmd, ...rest] = command.split(' ');
    await both([cmd, siteFile, ...rest]);
  });

  it('prints the same errors, at the same positions, for a broken site', async () => {
    await both(['validate', broken]);
    const { stderr } = await cli(['validate', broken]);
    expect(stderr).toMatch(/broken\.yaml:\d+:\d+/);
  });
});
