/**
 * The collection-key and long-key checks read which nodes are keys off js-yaml's parse
 * (`key-watch.ts`) instead of the `yaml` package's AST (issue 39: the AST cost about 250 bytes a
 * byte). The AST walk stays for the documents the second reader builds; here it is the oracle:
 * on hand-written and generated documents the watch must find the very keys it finds, at the same
 * line and column. And a collection key deep in a large flow document is found at its position.
 */
import * as jsyaml from 'js-yaml';
import { rng } from '../../helpers/random';
import { KeyWatch } from '../../../src/importer/load/key-watch';
import { ChunkAst, collectionKeys } from '../../../src/importer/load/positions';
import { longKeysInAst } from '../../../src/importer/load/pyyaml-keys';
import { PYYAML_SAFE_SCHEMA } from '../../../src/importer/load/pyyaml-schema';
import { positionOf } from '../../../src/importer/load/source';
import { parseText } from './helpers';
import { asChartValues, YamlGenerator } from './yaml-generator';

type Found = string[];

/** What the watch finds in each document of `text`, or undefined when js-yaml refuses it. */
function watched(text: string): Found[] | undefined {
  const watch = new KeyWatch(text, true);
  let docs: unknown[];
  try {
    docs = jsyaml.loadAll(text, null, { schema: PYYAML_SAFE_SCHEMA, listener: watch.listener as never });
  } catch {
    return undefined;
  }
  return docs.map((_, i) => {
    const out: string[] = [];
    for (const k of watch.collectionKeys.get(i) ?? []) {
      const p = positionOf(text, k.offset);
      out.push(`collection ${p.line}:${p.column}${k.template ? ' template' : ''}`);
    }
    for (const k of watch.longKeys.get(i) ?? []) {
      const p = positionOf(text, k.offset);
      out.push(`long ${p.line}:${p.column} ${k.length}`);
    }
    return out.sort();
  });
}

/** What the `yaml` AST finds in each of the same documents. */
function inAst(text: string, count: number): Found[] {
  const ast = new ChunkAst(text, 1);
  return Array.from({ length: count }, (_, i) => {
    const out: string[] = [];
    for (const k of collectionKeys(ast, i)) out.push(`collection ${k.at.line}:${k.at.column}${k.template ? ' template' : ''}`);
    for (const k of longKeysInAst(ast, text, i)) out.push(`long ${k.at.line}:${k.at.column} ${k.length}`);
    return out.sort();
  });
}

const long = 'k'.repeat(1030);

const CASES: string[] = [
  '{{ .Values.image }}: nginx\n',
  'a: {{{ x }}: 1}\n',
  '[a, b]: 1\n',
  '? [a, b]\n: 1\n',
  '? - a\n  - b\n: 1\n',
  '? # comment\n  [a]\n: 1\n',
  '{[a]: 1, b: 2}\n',
  '{a: 1, [b]: 2}\n',
  '{a: 1, [b]}\n',
  '{\n  {{ x }}\n}\n',
  '{\n  a: 1, # comment, with: colon\n  [b]\n}\n',
  '[[a]: 1]\n',
  '[{a: 1}: 2, x]\n',
  '[? [a] : 1]\n',
  '[a, [b], {c: d}]\n',
  'x: [a, [b], {c: d}]\ny: {a: [b], c: {d: e}}\n',
  'a: &m {x: 1}\nb: {*m : 2}\n',
  'a: &s [1, 2]\nb:\n  *s : 2\n',
  'a: &v 1\nb:\n  *v : 2\n',
  '{&a [x]: 1}\n',
  '{!!seq [x]: 1}\n',
  '{? {a: 1}: 2}\n',
  '- [a]: 1\n- {b: c}: 2\n',
  '? {{a: 1}: 2}\n: x\n',
  'a:\n  - {b: [c]}\n  - [{d: e}]\n',
  `${long}: v\n`,
  `x:\n  ${long}: v\n`,
  `{a: 1, ${long}: v}\n`,
  `[${long}: v]\n`,
  `? ${long}\n: v\n`,
  `a: "${long}"\n`,
  `"${long}": v\n`,
  `{&anchor ${long}: v}\n`,
  `[${'{a: [1, x], b: {c: d}}, '.repeat(100)}[z]: 1]\n`,
  '---\n[a]: 1\n---\nb: 2\n---\n{c: d}: 3\n',
];

describe('collection keys and long keys, read off js-yaml', () => {
  test.each(CASES)('finds what the AST finds: %j', (text) => {
    const w = watched(text);
    expect(w).toBeDefined();
    expect(w).toEqual(inAst(text, w!.length));
  });

  test('hand-written cases do find keys (the test can fail)', () => {
    expect(watched('a: {[b]: 1}\n')).toEqual([['collection 1:5']]);
    expect(watched('{\n  {{ x }}\n}\n')).toEqual([['collection 2:3']]);
    expect(watched('{ {{ x }} }\n')).toEqual([['collection 1:3 template']]);
  });

  test('a block mapping as an explicit key is placed where PyYAML places it (the AST said one column further)', () => {
    // PyYAML: "found unhashable key" in line 1, column 3.
    expect(watched('? a: 1\n: 2\n')).toEqual([['collection 1:3']]);
    expect(inAst('? a: 1\n: 2\n', 1)).toEqual([['collection 1:4']]);
  });

  test('on generated documents, with flow collections put where keys go', () => {
    const KEYS = ['[a]', '{b: c}', '[{d: e}]', '{{ x }}', '*m', '&q [z]', `${'p'.repeat(1025)}`];
    const differ: string[] = [];
    let withKeys = 0;
    for (let seed = 0; seed < 1500; seed++) {
      const random = rng(70_000 + seed);
      let text = seed % 2 === 0 ? new YamlGenerator(random).stream() : asChartValues(new YamlGenerator(random).document());
      // A key of each kind at random line starts and after random flow indicators.
      for (let n = Math.floor(random() * 3); n > 0; n--) {
        const key = KEYS[Math.floor(random() * KEYS.length)];
        const at = Math.floor(random() * text.length);
        const brace = text.slice(at).search(/[{[,]/);
        const nl = text.indexOf('\n', at);
        const pos = brace >= 0 && random() < 0.5 ? at + brace + 1 : nl >= 0 ? nl + 1 : text.length;
        const indent = /^ */.exec(text.slice(pos))![0];
        const inFlow = brace >= 0 && pos === at + brace + 1;
        // In a flow collection, sometimes without a value: a key still in a flow mapping (`{[a], b: c}`).
        const entry = inFlow && random() < 0.4 ? `${key},` : `${key}: 1${inFlow ? ',' : '\n'}`;
        text = `a: &m {x: 1}\n${text.slice(0, pos)}${indent}${entry}${text.slice(pos + indent.length)}`;
      }
      const w = watched(text);
      if (w === undefined) continue;
      const a = inAst(text, w.length);
      if (a.some((d) => d.length > 0)) withKeys++;
      if (JSON.stringify(w) !== JSON.stringify(a)) differ.push(`seed ${70_000 + seed}: ${JSON.stringify(text)}\n  watch ${JSON.stringify(w)}\n  ast   ${JSON.stringify(a)}`);
    }
    expect(differ.slice(0, 5)).toEqual([]);
    // The generator must actually make such keys for the comparison to mean something.
    expect(withKeys).toBeGreaterThan(100);
  });

  test('a collection key deep in a large flow document is found at its line and column', () => {
    const item = '{a: [1, x], b: {c: d}}';
    const line = `    s: [${Array.from({ length: 400 }, () => item).join(', ')}]\n`;
    const lines = Array.from({ length: 300 }, (_, i) => line.replace('s:', `s${i}:`));
    // Line 250 of the values (line 259 of the file), the 301st item: a mapping used as a key.
    const row = lines[249];
    const at = row.indexOf(item, row.indexOf(item) + 300 * (item.length + 2));
    lines[249] = `${row.slice(0, at)}{${item}: 1}${row.slice(at + item.length)}`;
    const text = `schema: armada/Chart/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: big\ndata:\n  chart_name: big\n  release: big\n  namespace: default\n  values:\n${lines.join('')}`;
    expect(text.length).toBeGreaterThan(2_500_000);
    const errors = parseText(text, 'big.yaml').diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => `${d.location} ${d.message}`)).toEqual([`big.yaml:259:${at + 2} found unhashable key: is this an unrendered template? Quote '{{ ... }}' or render it first`]);
  });
});
