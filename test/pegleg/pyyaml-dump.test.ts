import * as fs from 'fs';
import * as path from 'path';
import { parseYamlStream } from '../../src/importer/load';
import { markIntKeys, yaml11IntText } from '../../src/pegleg/int-keys';
import { dumpAllLikePyYaml } from '../../src/pegleg/pyyaml-dump';

const SITES = path.resolve(__dirname, '..', '..', '..', 'shared', 'sites');

describe('documents written as pegleg site render writes them (PyYAML dump_all)', () => {
  const rendered = fs.existsSync(SITES) ? fs.readdirSync(SITES).filter((s) => fs.existsSync(path.join(SITES, s, 'rendered.yaml'))) : [];

  test('the shared sites are there', () => {
    expect(rendered.length).toBeGreaterThanOrEqual(3);
  });

  test.each(rendered)('%s: Deckhand\'s rendered.yaml, read and written again, is the same bytes', (site) => {
    const file = path.join(SITES, site, 'rendered.yaml');
    const text = fs.readFileSync(file, 'utf8');
    const docs = parseYamlStream({ file, text }).documents.map((d) => d.raw);
    // Integer keys (curator's `actions: {1: ...}`) are strings once loaded: recorded as ints.
    markIntKeys(text, docs);
    const out = dumpAllLikePyYaml(docs);
    if (out !== text) {
      const a = out.split('\n');
      const b = text.split('\n');
      const i = a.findIndex((l, k) => l !== b[k]);
      expect(a.slice(Math.max(0, i - 3), i + 3).join('\n')).toBe(b.slice(Math.max(0, i - 3), i + 3).join('\n'));
    }
    expect(out).toBe(text);
  });

  test('scalars: plain, single-quoted when the resolver would read another type, double-quoted with escapes', () => {
    expect(dumpAllLikePyYaml([{ b: 'yes', a: '1', c: 'plain text', d: '', e: 'a\nb', f: 'tab\there', g: 'é', h: null, i: 3, j: true, k: 0.5, l: [], m: {} }])).toBe(
      [
        '---',
        "a: '1'",
        "b: 'yes'",
        'c: plain text',
        "d: ''",
        "e: 'a",
        '',
        "  b'",
        'f: "tab\\there"',
        'g: "\\xE9"',
        'h: null',
        'i: 3',
        'j: true',
        'k: 0.5',
        'l: []',
        'm: {}',
        '...',
        '',
      ].join('\n'),
    );
  });

  test('lists in mappings are indentless, mappings in lists start on the dash line, a collection met twice is anchored', () => {
    const shared = { x: 1 };
    expect(dumpAllLikePyYaml([{ l: [{ a: 1, b: [1, [2, 3]] }], s: shared, t: shared }])).toBe(
      ['---', 'l:', '- a: 1', '  b:', '  - 1', '  - - 2', '    - 3', 's: &id001', '  x: 1', 't: *id001', '...', ''].join('\n'),
    );
  });

  test('integer keys, as PyYAML read them, are written as integers and sorted by value; quoted ones stay strings', () => {
    const text = "---\nactions:\n  10: ten\n  2: two\n  0x1f: hex\n  -1: minus\nlist:\n- {1_0: a, 010: b}\nquoted: {'3': x, '20': y}\n";
    const docs = parseYamlStream({ file: 'x.yaml', text }).documents.map((d) => d.raw);
    markIntKeys(text, docs);
    expect(dumpAllLikePyYaml(docs)).toBe(
      ['---', 'actions:', '  -1: minus', '  2: two', '  10: ten', '  31: hex', 'list:', '- 8: b', '  10: a', 'quoted:', "  '20': y", "  '3': x", '...', ''].join('\n'),
    );
  });

  test("YAML 1.1 ints as PyYAML constructs them", () => {
    expect(['1_000', '0x1f', '010', '0b101', '-0x10', '1:30', '+7', '0', '123456789012345678901234567890'].map(yaml11IntText)).toEqual([
      '1000', '31', '8', '5', '-16', '90', '7', '0', '123456789012345678901234567890',
    ]);
  });

  test('a long plain string is folded at a space past column 80', () => {
    const long = `${'word '.repeat(20)}end`;
    const out = dumpAllLikePyYaml([{ k: long }]);
    expect(out.split('\n')[1].length).toBeLessThanOrEqual(86);
    expect(out.split('\n')[2].startsWith('  ')).toBe(true);
  });
});
