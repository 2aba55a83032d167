/**
 * The line outline (positions in documents too big for the `yaml` AST): one lookup at a time
 * gives what one lookup of every path gives, also once the lookups are answered from the index
 * it builds after a few of them.
 */
import * as yaml from 'js-yaml';
import { BlockOutline } from '../../../src/importer/load/outline';
import { parseInputs } from '../../../src/importer/load';
import { ChunkAst } from '../../../src/importer/load/positions';
import { SourcePosition } from '../../../src/importer/load/wire-path';
import { corpusFiles, readShared } from '../../helpers/shared';

const TEXT = [
  'schema: armada/Chart/v1',
  'data:',
  '  values:',
  ...Array.from({ length: 30 }, (_, i) => `    k${i}: ${i}`),
  '    k3: again',
  '    list:',
  '      - a: 1',
  '      - b: 2',
  '  wait:',
  '    timeout: 10',
  '',
].join('\n');

const PATHS: (string | number)[][] = [
  ['data', 'values', 'k29'],
  ['data', 'values', 'k0'],
  ['data', 'values', 'k3'],
  ['data', 'values', 'list', 1, 'b'],
  ['data', 'values', 'list', 7],
  ['data', 'wait', 'timeout'],
  ['data', 'wait', 'missing', 'deeper'],
  ['schema'],
  ['nothing'],
  ...Array.from({ length: 30 }, (_, i) => ['data', 'values', `k${29 - i}`]),
];

test('one path at a time, past the walks before the index, gives the same positions as all paths at once', () => {
  const together = new BlockOutline(TEXT, 10).locateMany(PATHS);
  const single = new BlockOutline(TEXT, 10);
  expect(PATHS.map((p) => single.locateMany([p])[0])).toEqual(together);
  // Spot checks: the first of a repeated key (as the walk finds it), an item, a path that stops short.
  expect(together.slice(0, 7)).toEqual([
    { line: 42, column: 5 },
    { line: 13, column: 5 },
    { line: 16, column: 5 },
    { line: 46, column: 9 },
    { line: 44, column: 5 },
    { line: 48, column: 5 },
    { line: 47, column: 3 },
  ]);
  expect(together[8]).toBeUndefined();
});

test('lookups near the start of a huge document read only as far as they need, once past the single walks', () => {
  const keys = 100_000;
  const text = ['data:', '  values:', ...Array.from({ length: keys }, (_, i) => `    k${i}: ${i}`), ''].join('\n');
  const outline = new BlockOutline(text, 1);
  const positions = Array.from({ length: 1_000 }, (_, i) => outline.locateMany([['data', 'values', `k${i}`]])[0]);
  expect(positions[0]).toEqual({ line: 3, column: 5 });
  expect(positions[999]).toEqual({ line: 1_002, column: 5 });
  // What the index holds is what the walk has passed: the two parents and the keys up to k999.
  const index = (outline as unknown as { index: Map<string, unknown> }).index;
  expect(index.size).toBe(1_002);
  // A path that is not there reads to the end once, then gives its deepest part.
  expect(outline.locateMany([['data', 'values', 'nothing', 'below']])).toEqual([{ line: 2, column: 3 }]);
  expect(index.size).toBe(keys + 2);
  expect(outline.locateMany([['data', 'values', `k${keys - 1}`]])).toEqual([{ line: keys + 2, column: 5 }]);
});

/** Every key and item of `v`, and a path below each that is not there. */
function pathsOf(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix, [...prefix, 'no-such-key']);
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...prefix, i], out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) pathsOf(x, [...prefix, k], out);
  return out;
}

test('on every corpus document, one path at a time gives what all paths at once give', () => {
  let compared = 0;
  for (const { file } of corpusFiles()) {
    for (const doc of readShared('corpus', file).split(/^---$/m)) {
      let value: unknown;
      try {
        value = yaml.load(doc);
      } catch {
        continue;
      }
      const paths = pathsOf(value);
      const single = new BlockOutline(doc, 1);
      expect(paths.map((p) => single.locateMany([p])[0])).toEqual(new BlockOutline(doc, 1).locateMany(paths));
      compared += paths.length;
    }
  }
  expect(compared).toBeGreaterThan(10_000);
});

test('a path inside a flow mapping near the start of a huge document is answered where the mapping is, without reading on to the end', () => {
  const keys = 100_000;
  const text = ['schema: armada/Chart/v1', 'data:', "  source: {type: tar, location: 'https://e.org/c-1.0.0.tgz'}", '  wait: {labels: {a: b}}', '  values:', ...Array.from({ length: keys }, (_, i) => `    k${i}: ${i}`), ''].join('\n');
  const paths = [['data', 'source', 'location'], ['data', 'wait', 'labels', 'a']];
  const outline = new BlockOutline(text, 1);
  // The single walks, then the shared one: every answer is the flow mapping's key.
  const answers = Array.from({ length: 6 }, (_, i) => outline.locateMany([paths[i % 2]])[0]);
  expect(answers).toEqual([{ line: 3, column: 3 }, { line: 4, column: 3 }, { line: 3, column: 3 }, { line: 4, column: 3 }, { line: 3, column: 3 }, { line: 4, column: 3 }]);
  // The shared walk stopped at the first key after each mapping: it has read four lines.
  expect((outline as unknown as { index: Map<string, unknown> }).index.size).toBe(5);
  // One walk for all paths at once reads to the end, and answers the same.
  expect(new BlockOutline(text, 1).locateMany(paths)).toEqual([{ line: 3, column: 3 }, { line: 4, column: 3 }]);
});

describe('a text with repeated keys', () => {
  // `values` twice (the second without `k1`), `k0` three times within the last copy, an item's
  // key twice, and a mapping repeated below a repeated key.
  const text = [
    'schema: armada/Chart/v1',
    'data:',
    '  values:',
    '    k0: first',
    '    k1:',
    '      deep: 1',
    '  wait:',
    '    timeout: 10',
    '  values:',
    '    k0: second',
    '    nested:',
    '      a: 1',
    '      b: 2',
    '    nested:',
    '      a: 3',
    '    k0: third',
    '    list:',
    '      - name: x',
    '        name: y',
    '        extra: z',
    '  wait:',
    '    labels:',
    '      app: a',
    '',
  ].join('\n');
  const paths = [
    ...pathsOf({ data: { values: { k0: 1, k1: { deep: 1 }, nested: { a: 1, b: 1 }, list: [{ name: 1, extra: 1 }] }, wait: { timeout: 1, labels: { app: 1 } } } }),
    ['schema'],
  ];

  test('looks into the last copy, as the AST does (which PyYAML keeps), one at a time and all at once', () => {
    const ast = new ChunkAst(text, 1);
    const expected = paths.map((p) => ast.locate(0, p));
    // Where nothing of a path is found, the document (as its loader answers for the outline).
    const orStart = (at: SourcePosition | undefined) => at ?? { line: 1, column: 1 };
    expect(new BlockOutline(text, 1, true).locateMany(paths).map(orStart)).toEqual(expected);
    const single = new BlockOutline(text, 1, true);
    expect(paths.map((p) => orStart(single.locateMany([p])[0]))).toEqual(expected);
    // Spot checks: the last k0; k1 and nested.b only under earlier copies: their last parent.
    const at = (p: (string | number)[]) => expected[paths.findIndex((q) => JSON.stringify(q) === JSON.stringify(p))];
    expect(at(['data', 'values', 'k0'])).toEqual({ line: 16, column: 5 });
    expect(at(['data', 'values', 'k1', 'deep'])).toEqual({ line: 9, column: 3 });
    expect(at(['data', 'values', 'nested', 'b'])).toEqual({ line: 14, column: 5 });
    expect(at(['data', 'values', 'list', 0, 'name'])).toEqual({ line: 19, column: 9 });
    expect(at(['data', 'wait', 'timeout'])).toEqual({ line: 21, column: 3 });
  });

  test('only a path under a repeated key reads on to its last copy', () => {
    const keys = 100_000;
    const big = ['data:', '  values:', ...Array.from({ length: keys }, (_, i) => `    k${i}: ${i}`), '    k5: again', ''].join('\n');
    const outline = new BlockOutline(big, 1, true);
    const positions = Array.from({ length: 1_000 }, (_, i) => outline.locateMany([['data', 'values', `k${i}`]])[0]);
    expect(positions[0]).toEqual({ line: 3, column: 5 });
    expect(positions[5]).toEqual({ line: keys + 3, column: 5 });
    expect(positions[999]).toEqual({ line: 1_002, column: 5 });
  });

  test('without being told of the repeats, the outline looks into the first copy', () => {
    expect(new BlockOutline(text, 1).locateMany([['data', 'values', 'k1', 'deep']])).toEqual([{ line: 6, column: 7 }]);
  });
});

test('a document over 1 MB with a repeated key is located as the same document under 1 MB is', () => {
  const doc = (padding: number) =>
    [
      'schema: armada/Chart/v1',
      'metadata:',
      '  schema: metadata/Document/v1',
      '  name: big',
      'data:',
      '  values:',
      '    old:',
      '      deep: 1',
      '  values:',
      '    new: 1',
      ...Array.from({ length: padding }, (_, i) => `    pad${i}: ${'x'.repeat(40)}`),
      '',
    ].join('\n');
  const locate = (text: string) => {
    const r = parseInputs([{ file: 'site.yaml', text }]);
    expect(r.diagnostics.map((d) => `${d.location} ${d.code}`)).toEqual(['site.yaml:9:3 duplicate-key']);
    return [['data', 'values', 'old', 'deep'], ['data', 'values', 'new'], ['data', 'values', 'pad5']].map((p) => r.documents[0].locate(p));
  };
  const large = doc(30_000);
  expect(large.length).toBeGreaterThan(1024 * 1024);
  const expected = [{ line: 9, column: 3 }, { line: 10, column: 5 }, { line: 16, column: 5 }];
  expect(locate(doc(10))).toEqual(expected);
  expect(locate(large)).toEqual(expected);
});
