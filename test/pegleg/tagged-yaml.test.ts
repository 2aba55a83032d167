import * as fs from 'fs';
import * as path from 'path';
import { parseYamlStream } from '../../src/importer/load';
import { parseWithUnknownTagsAsNull } from '../../src/pegleg/tagged-yaml';
import { loadSiteFiles } from '../../src/pegleg/load-site';
import { renderSiteFiles } from '../../src/pegleg/render-site';
import { dumpAllLikePyYaml } from '../../src/pegleg/pyyaml-dump';
import { isFloatAt } from '../../src/deckhand/python';
import { canonical, havePyYaml } from '../importer/load/helpers';
import { pyyamlTypedLoadAll } from '../importer/load/pyyaml-typed';
import { LAYERING_POLICY, SITES, siteRepo } from './helpers';

const HEAD = 'schema: x/Y/v1\nmetadata:\n  name: a\ndata:\n';
/** A document whose `data.tagged` carries a local tag, so that the whole file is read the Pegleg way. */
const tagged = (body: string) => `${HEAD}  tagged: !local x\n${body}`;

/**
 * Values as `data.v: <text>` lines: every PyYAML 1.1 resolution (null, bool, int, float,
 * timestamp, merge and value), and explicit standard tags.
 */
const VALUES = [
  '1.0', '2e3', '1.0e+3', '1.5e3', '-0.0', '600.0', '1_000.5', '.5', '+.inf', '-.Inf', '.NaN', '190:20:30.15',
  'yes', 'No', 'ON', 'off', 'y', 'n', 'True', 'FALSE',
  '0755', '0o17', '0x1F', '-0b101', '1_000', '190:20:30', '12345678901234567890', '08',
  '2001-12-14', '2001-12-14t21:59:43.10-05:00', '2002-12-14 21:59:43', '2001-12-14 21:59:43.1 Z', '2001-1-1',
  '~', 'null', 'Null', 'NULL', '', '"1.0"', "'yes'", '! 0x10', '! "1.0"',
  '!!binary aGVsbG8=', '!!str 1.0', '!!float 1', '!!int "0x1f"', '!!bool Yes', '!!null x',
];

/** Whole files: keys, merges, aliases and block scalars. */
const FILES = [
  tagged('  1.0: float key\n  0x10: int key\n  ~: null key\n  =: value key\n  false: bool key\n  2001-12-14: date key\n'),
  tagged('  base: &b {a: 1, b: 2.0}\n  m:\n    <<: *b\n    a: 10\n  l:\n    <<: [*b, {c: 3}]\n'),
  tagged('  block: |\n    line\n    last'),
  tagged('  folded: >+\n    a\n    b'),
  tagged('  list:\n  - |-\n    x\n  - |\n    y\n'),
  `---\n${HEAD}  f: 1.0\n  t: !tag\n    k: v\n---\n${HEAD}  g: 2.50\n  h: .inf\n...\n`,
];

/** What only the Pegleg reading gives: every tag SafeLoader does not know, and `=` and `<<` as values, build None. */
const PEGLEG_ONLY = [
  `${HEAD}  local: !foo bar\n  python: !!python/tuple [1, 2]\n  mapping: !thing\n    k: v\n  empty: !e\n  value: =\n  merge: <<\n  merge_tag: !!merge x\n`,
  `${HEAD}  in: !foo [&x 5, &y {k: 1.0}]\n  out: *x\n  map: *y\n  t: &z !foo 1\n  alias: *z\n`,
  `${HEAD}  !foo k: tagged key\n  ? !!python/tuple [a, b]\n  : tuple key\n`,
  `${HEAD}  skipped: !foo [!!int x, 2001-02-30, {[1]: 2}, {a: 1, a: 2}]\n`,
  `${HEAD}  t: &m !foo {a: 1, b: 2}\n  m1: {<<: !bar {a: 3}, c: 4}\n  m2: {<<: *m}\n  m3: {<<: [!q {x: 1}, *m]}\n`,
];

const read = (text: string) => parseWithUnknownTagsAsNull('t.yaml', text);

describe('a Pegleg site file with tags SafeLoader does not know', () => {
  test('reads every value as the loader reads it without the tag', () => {
    const texts = [...VALUES.map((v) => `${HEAD}  v: ${v}\n`), ...FILES.map((t) => t.replace('  tagged: !local x\n', ''))];
    for (const text of texts) {
      const plain = parseYamlStream({ file: 't.yaml', text });
      // A file with a tag of its own is refused without the Pegleg reading: nothing to compare.
      if (plain.diagnostics.some((d) => d.message.startsWith('could not determine a constructor'))) continue;
      const withTag = read(text.replace(HEAD, `${HEAD}  tagged: !local x\n`));
      // The same findings, one line further down (past the tagged line).
      const shifted = plain.diagnostics.map((d) => ({ ...d, location: d.location.replace(/:(\d+):(\d+)$/, (_, l: string, c: string) => `:${Number(l) > 4 ? Number(l) + 1 : l}:${c}`) }));
      expect({ text, diagnostics: withTag.diagnostics }).toEqual({ text, diagnostics: shifted });
      const strip = (d: unknown) => {
        const { tagged: _t, ...data } = (d as { data: Record<string, unknown> }).data;
        return { ...(d as object), data };
      };
      expect({ text, docs: withTag.documents.map((d) => strip(canonical(d))) }).toEqual({ text, docs: plain.documents.map((d) => canonical(d)) });
    }
  });

  test('whole-number floats stay floats, and the last block scalar has no line break the text lacks', () => {
    const r = read(tagged('  f: 1.0\n  e: 2e3\n  b: |\n    x'));
    expect(r.diagnostics).toEqual([]);
    expect(canonical(r.documents[0])).toEqual({ schema: 'x/Y/v1', metadata: { name: 'a' }, data: { tagged: null, f: { $float: '1.0' }, e: '2e3', b: 'x' } });
  });

  test('unknown tags, and = and << as values, are null; what is inside them is never constructed', () => {
    const docs = PEGLEG_ONLY.map((t) => read(t));
    expect(docs.map((r) => r.diagnostics)).toEqual(PEGLEG_ONLY.map(() => []));
    expect(docs.map((r) => r.documents.map((d) => (canonical(d) as { data: unknown }).data))).toEqual([
      [{ local: null, python: null, mapping: null, empty: null, value: null, merge: null, merge_tag: null }],
      [{ in: null, out: 5, map: { k: { $float: '1.0' } }, t: null, alias: null }],
      [{ null: 'tuple key' }],
      [{ skipped: null }],
      [{ t: null, m1: { a: 3, c: 4 }, m2: { a: 1, b: 2 }, m3: { x: 1, a: 1, b: 2 } }],
    ]);
  });

  test('an error outside a tagged node is reported where it is written, with the value and the document', () => {
    const r = read(tagged('  when: 2001-02-30\n  n: !!int 0x\n'));
    expect(r.diagnostics.map((d) => [d.location, d.document, d.field, d.code, d.message])).toEqual([
      ['t.yaml:6:3', 'x/Y/v1 a', 'data.when', 'yaml-construct', "cannot construct a timestamp from '2001-02-30': day is out of range for month"],
      ['t.yaml:7:3', 'x/Y/v1 a', 'data.n', 'yaml-construct', "invalid literal for int() with base 16: ''"],
    ]);
    expect(read(tagged('  a: 1\n  a: 2\n')).diagnostics.map((d) => [d.location, d.severity, d.code])).toEqual([['t.yaml:7:3', 'warning', 'duplicate-key']]);
    // PyYAML: "expected the node content, but found '<stream end>'", line 7, column 1.
    expect(read(`${HEAD}  t: !foo\n  bad: [\n`).diagnostics.map((d) => [d.location, d.code])).toEqual([['t.yaml:7:1', 'yaml-syntax']]);
  });

  test('places paths inside a tagged file where they are written', () => {
    const r = read(`---\n${HEAD}  t: !foo {a: 1}\n  list:\n    - x\n    - {k: 1.0}\n`);
    expect([r.documents[0].location(['data', 'list', 1, 'k']), r.documents[0].location(['data', 't'])]).toEqual(['t.yaml:9:8', 't.yaml:6:3']);
  });

  describe('cross-checked against PyYAML with Pegleg\'s catch-all constructor', () => {
    const run = havePyYaml(1) ? test : test.skip;
    run('gives PyYAML\'s value for every input of the tables', () => {
      const texts = [...VALUES.map((v) => tagged(`  v: ${v}\n`)), ...FILES, ...PEGLEG_ONLY];
      const py = pyyamlTypedLoadAll(texts, { unknownTagsAsNull: true });
      texts.forEach((text, i) => {
        const r = read(text);
        expect({ text, diagnostics: r.diagnostics }).toEqual({ text, diagnostics: [] });
        expect({ text, value: { docs: r.documents.map((d) => canonical(d)) } }).toEqual({ text, value: py[i] });
      });
    });
  });
});

describe('a site read and rendered with a tagged file', () => {
  test('keeps floats, timestamps and ints as Pegleg writes them', async () => {
    const doc = `---\nschema: x/Y/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: a\n  layeringDefinition: {abstract: false, layer: site}\n  storagePolicy: cleartext\ndata:\n  tagged: !local x\n  f: 1.0\n  i: 0x10\n  when: 2001-12-14\n  yes_key: yes\n  text: |\n    end`;
    const repo = siteRepo({ 'a.yaml': LAYERING_POLICY + doc });
    const loaded = await loadSiteFiles([path.join(repo, 'a.yaml')]);
    expect(loaded.diagnostics).toEqual([]);
    const data = (loaded.sources[1].raw as { data: Record<string, unknown> }).data;
    expect(isFloatAt(data, 'f')).toBe(true);
    const r = await renderSiteFiles([path.join(repo, 'a.yaml')]);
    expect(r.diagnostics).toEqual([]);
    const out = dumpAllLikePyYaml(r.rendered.filter((d) => (d.raw as { schema: string }).schema === 'x/Y/v1').map((d) => d.raw));
    expect(out.slice(out.indexOf('data:'), out.indexOf('metadata:'))).toBe("data:\n  f: 1.0\n  i: 16\n  tagged: null\n  text: end\n  when: 2001-12-14\n  yes_key: true\n");
  });

  test('no file of the shared sites needs this reading (none has a tag SafeLoader does not know)', async () => {
    const tagged: string[] = [];
    for (const site of fs.readdirSync(SITES).filter((s) => fs.existsSync(path.join(SITES, s, 'order.txt'))).sort()) {
      for (const rel of fs.readFileSync(path.join(SITES, site, 'order.txt'), 'utf8').split('\n').filter((l) => l.trim() !== '')) {
        const file = path.join(SITES, site, 'tree', rel);
        const text = fs.readFileSync(file, 'utf8');
        if (parseYamlStream({ file, text }).diagnostics.some((d) => /^could not determine a constructor for the tag /.test(d.message))) tagged.push(`${site}/${rel}`);
      }
    }
    expect(tagged).toEqual([]);
  });
});
