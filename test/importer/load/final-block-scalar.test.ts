/**
 * A block scalar that ends the input without a final line break: PyYAML keeps only the line
 * breaks the text has, where js-yaml and the `yaml` package add one. Every input gets PyYAML's
 * value, whichever reader builds it. Expected values are PyYAML's (`yaml.safe_load_all`), and are
 * checked against PyYAML itself where python3 has it.
 */
import { havePyYaml, parseText, pyyamlLoadAll } from './helpers';

// [text, PyYAML's documents]
const CASES: [string, unknown[]][] = [
  ['a: |\n  x', [{ a: 'x' }]],
  ['a: >\n  x\n  y', [{ a: 'x y' }]],
  ['a: |+\n  x', [{ a: 'x' }]],
  ['a: |-\n  x', [{ a: 'x' }]],
  ['a: |\n  x\n  ', [{ a: 'x\n' }]],
  ['a: |+\n  x\n  ', [{ a: 'x\n' }]],
  ['a: |\n  x\n# c', [{ a: 'x\n' }]],
  ['- |\n  x', [['x']]],
  ['a: |\n  x\nb: |\n  y', [{ a: 'x\n', b: 'y' }]],
  ['a: "x\\n" # c', [{ a: 'x\n' }]],
  ['a: |\n  x\n...', [{ a: 'x\n' }]],
  ['a: |\n  x\n---', [{ a: 'x\n' }, null]],
  ['a: |\n  x\n\n  y', [{ a: 'x\n\ny' }]],
  ['|\n x', ['x']],
  ['a: |2\n   x', [{ a: ' x' }]],
  ['a: |\n  x\n', [{ a: 'x\n' }]],
  ['---\na: 1\n---\nb: >+\n  y', [{ a: 1 }, { b: 'y' }]],
];

// The same, read by the second reader: a property on an implicit key, which js-yaml refuses.
const SECOND_READER: [string, unknown[]][] = [
  ['&k a: |\n  x', [{ a: 'x' }]],
  ['&k a: |+\n  x', [{ a: 'x' }]],
  ['&k a: |+\n  x\n  ', [{ a: 'x\n' }]],
  ['&k a: |\n  x\n  ', [{ a: 'x\n' }]],
  ['&k a: |-\n  x', [{ a: 'x' }]],
];

describe('a block scalar at the end of the input without a final line break', () => {
  test.each([...CASES, ...SECOND_READER])('%j', (text, expected) => {
    const r = parseText(text);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.documents.map((d) => d.raw)).toEqual(expected);
  });

  const pyyaml = havePyYaml(1) ? test : test.skip;
  pyyaml('the expected values are PyYAML’s', () => {
    const all = [...CASES, ...SECOND_READER];
    expect(pyyamlLoadAll(all.map(([t]) => t))).toEqual(all.map(([, docs]) => ({ docs })));
  });
});
