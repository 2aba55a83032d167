/**
 * The block index answers positions without the `yaml` AST: it must give exactly the AST's
 * answer for every path, on real manifests, on hand-written edge cases and on mutated manifests
 * (the bad input a user may pass), and refuse the documents it cannot read.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import { parseYamlStream } from '../../../src/importer/load';
import { BlockIndex } from '../../../src/importer/load/block-index';
import { LoadedDocument } from '../../../src/importer/load/document';
import { ChunkAst } from '../../../src/importer/load/positions';
import { splitDocuments } from '../../../src/importer/load/source';
import { corpusFiles, readShared, sharedPath } from '../../helpers/shared';
import { rng } from '../../helpers/random';

type Path = (string | number)[];

/** Every key and item of `v`, plus paths that stop short (a missing key, an index past the end, a key on a list). */
function pathsOf(v: unknown, prefix: Path = [], out: Path[] = [], depth = 0): Path[] {
  out.push(prefix);
  if (depth > 30 || v === null || typeof v !== 'object') {
    out.push([...prefix, 'no-such-key'], [...prefix, 0]);
    return out;
  }
  if (Array.isArray(v)) {
    v.forEach((x, i) => pathsOf(x, [...prefix, i], out, depth + 1));
    out.push([...prefix, v.length], [...prefix, -1], [...prefix, 'key']);
  } else {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) pathsOf(x, [...prefix, k], out, depth + 1);
    out.push([...prefix, 'no-such-key'], [...prefix, 0]);
  }
  return out;
}

/** Each document's position of every path, from the block index where it answers (`fast`) or from the AST alone. */
function positions(text: string, fast: boolean): string[] {
  return splitDocuments(text).flatMap((chunk) => {
    const piece = text.slice(chunk.start, chunk.end);
    const ast = new ChunkAst(piece, chunk.line);
    const { documents } = parseYamlStream({ file: 'f.yaml', text: piece });
    return documents.flatMap((d: LoadedDocument, i) => pathsOf(d.raw).map((p) => `${chunk.line} ${i} ${JSON.stringify(p)} ${JSON.stringify(fast ? ast.locate(i, p) : ast.locateInAst(i, p))}`));
  });
}

function expectSame(text: string): void {
  expect(positions(text, true)).toEqual(positions(text, false));
}

/** How many of the stream's documents the index reads itself (the others fall back to the AST). */
function indexed(text: string): number {
  return text
    .split(/^---$/m)
    .filter((t) => t.trim() !== '')
    .filter((t) => BlockIndex.build(t, 1) !== undefined).length;
}

// The same deterministic mutations as the CLI fuzz test.
const TOKENS = [': ', '- ', '{', '}', '[', ']', '&a ', '*a', '!!binary ', '<<: *a\n', '\t', '---\n', '...\n', '"', "'", '#', '|', '>', '%YAML 1.1\n', '? ', ',', '~', 'yes', '0755', '=', 'null', '\n  ', '\n      - ', 'chart_group: x\n', '"a\\tb": 1\n', "'it''s': 2\n", '- \n', '-\n  k: v\n', 'k: [a,\n  b]\n', 'k: "multi\n  line"\n'];
function mutate(text: string, r: () => number): string {
  let t = text;
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(r() * (t.length + 1));
    const op = Math.floor(r() * 5);
    if (op === 0) t = t.slice(0, at) + TOKENS[Math.floor(r() * TOKENS.length)] + t.slice(at);
    else if (op === 1) t = t.slice(0, at) + t.slice(at + 1 + Math.floor(r() * 40));
    else if (op === 2) {
      const lines = t.split('\n');
      const k = Math.floor(r() * lines.length);
      lines.splice(k, 0, lines[Math.floor(r() * lines.length)]);
      t = lines.join('\n');
    } else if (op === 3) {
      const lines = t.split('\n');
      const k = Math.floor(r() * lines.length);
      lines[k] = (r() < 0.5 ? '  ' : '') + lines[k].replace(/^ {2}/, r() < 0.5 ? '' : '    ');
      t = lines.join('\n');
    } else t = t.slice(0, at) + String.fromCharCode(Math.floor(r() * 0x3000)) + t.slice(at + 1);
  }
  return t;
}

describe('block index positions are the AST positions', () => {
  test.each(corpusFiles().map((f) => f.file))('corpus %s', (file) => {
    expectSame(readShared('corpus', file));
  });

  test('most corpus documents are read by the index itself', () => {
    let total = 0;
    let read = 0;
    for (const { file } of corpusFiles()) {
      const text = readShared('corpus', file);
      total += text.split(/^---$/m).filter((t) => t.trim() !== '').length;
      read += indexed(text);
    }
    expect(read / total).toBeGreaterThan(0.8);
  });

  test('the generated site, every document read by the index', () => {
    const generator = sharedPath('tools', 'gen-manifest.mjs');
    const text = execFileSync(process.execPath, [generator, '40'], { encoding: 'utf8' });
    expectSame(text);
    expect(indexed(text)).toBe(text.split(/^---$/m).filter((t) => t.trim() !== '').length);
  });

  test.each([
    ['compact items and nested sequences', 'a:\n- x\n- k: v\n  m:\n  - - 1\n    - 2\n  n: 3\nb: {}\nc: []\n'],
    ['comments, quoted keys and values', "# head\na: 1 # c\n'q''k': 2\n\"dq\": \"x # y\"\nb:\n  # inside\n  c: 'it''s'\n"],
    ['block scalars', 'a: |\n  line\n\n  # not a comment\nb: >-\n    folded\n  # a comment\nc:\n  - |\n    text\n  - d\n'],
    ['multi-line quoted and flow values', 'a: "one\n  two"\nb: [1,\n  2]\nc: {x: 1}\nd:\n  - [a, b]\n  - {k: v}\n'],
    ['anchors, aliases and merges', 'base: &b\n  x: 1\n  y: 2\nuse:\n  <<: *b\n  y: 3\nalias: *b\nlist:\n  - *b\n'],
    ['duplicate keys (the last wins)', 'a: 1\nb:\n  c: 1\na: 2\nb:\n  d: 2\n'],
    ['keys the resolver renames', 'yes: 1\n1: 2\n0x10: 3\n~: 4\nnull: 5\n"1": 6\n'],
    ['markers, CRLF and indentation', '---\r\na:\r\n    b: 1\r\n    c:\r\n        - 1\r\n...\r\n'],
    ['a document that starts indented', '  a: 1\n  b:\n    c: 2\n'],
    ['a root sequence', '- a\n- b: 1\n  c: 2\n'],
    ['items with content on the next line', 'a:\n  -\n    k: v\n  -\n    - x\n'],
    ['explicit keys, tags and directives', '%YAML 1.1\n---\n? a\n: 1\nb: !!str 2\nc: !!binary aGk=\n'],
    ['plain multi-line scalars', 'a: one\n  two\nb:\n  - x\n    y\n'],
    ['tabs and odd spacing', 'a:\tb\nc  : d\ne:\n  f:   g\n'],
    // More than 32 entries below a collection: looked up through an index built on first use.
    [
      'large mappings and sequences, with repeated keys and a merge',
      `big:\n${Array.from({ length: 60 }, (_, i) => `  k${i % 50}:\n    v: ${i}\n`).join('')}list:\n${Array.from({ length: 60 }, (_, i) => `  - i: ${i}\n    j: [${i}]\n`).join('')}base: &b\n  x: 1\nmerged:\n  <<: *b\n${Array.from({ length: 40 }, (_, i) => `  m${i}: ${i}\n`).join('')}`,
    ],
  ])('%s', (_name, text) => {
    expectSame(text);
  });

  test('mutated corpus files (the bad-input cases)', () => {
    const files = corpusFiles().map((f) => f.file);
    const r = rng(Number(process.env.POSITION_SEED ?? 20261203));
    let readByIndex = 0;
    for (let i = 0; i < Number(process.env.POSITION_CASES ?? 400); i++) {
      const text = mutate(readShared('corpus', files[i % files.length]), r);
      const fast = positions(text, true);
      const slow = positions(text, false);
      if (JSON.stringify(fast) !== JSON.stringify(slow)) {
        const at = fast.findIndex((f, k) => f !== slow[k]);
        throw new Error(`case ${i} (${files[i % files.length]}): ${fast[at]} but the AST says ${slow[at]}`);
      }
      readByIndex += indexed(text);
    }
    expect(readByIndex).toBeGreaterThan(0);
  });

  test('the index does not read what it cannot answer for', () => {
    for (const text of ['? a\n: 1\n', 'a: !!str 1\n', '%YAML 1.1\n---\na: 1\n', '"a\\tb": 1\n', 'a: b\n  c\n', '-\n  a: 1\n', 'a:\n\tb: 1\n', 'a: 1\rb: 2\n', '{a: 1}\n', 'plain\n']) {
      expect([text, BlockIndex.build(text, 1)]).toEqual([text, undefined]);
    }
    expect(fs.existsSync(sharedPath('corpus'))).toBe(true);
  });
});
