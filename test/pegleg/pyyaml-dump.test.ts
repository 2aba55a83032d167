import * as fs from 'fs';
import * as path from 'path';
import { parseYamlStream } from '../../src/importer/load';
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
    // Keys are strings once loaded: an integer key (curator's `actions: {1: ...}`) comes back
    // quoted. That is the only difference allowed.
    const out = dumpAllLikePyYaml(docs).replace(/^( *)'(\d+)':/gm, '$1$2:');
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

  test('a long plain string is folded at a space past column 80', () => {
    const long = `${'word '.repeat(20)}end`;
    const out = dumpAllLikePyYaml([{ k: long }]);
    expect(out.split('\n')[1].length).toBeLessThanOrEqual(86);
    expect(out.split('\n')[2].startsWith('  ')).toBe(true);
  });
});
