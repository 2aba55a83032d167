import { ALIAS_EXPANSION_BUDGET, findAliasProblem, mayHaveAliases, measureAliases } from '../../../src/importer/load/aliases';
import { parseYamlStream } from '../../../src/importer/load';

describe('alias expansion budget', () => {
  test('measures the expanded size of shared collections, once each', () => {
    const leaf = { a: 1, b: [1, 2] }; // 1 + (1 + 1) + (1 + 3) = 7 nodes (a mapping entry counts its key)
    expect(measureAliases({ x: leaf, y: leaf }, { nodes: 7 })).toBe('ok');
    expect(measureAliases({ x: leaf, y: leaf }, { nodes: 6 })).toBe('budget');
    expect(measureAliases({ x: leaf, y: leaf, z: leaf }, { nodes: 13 })).toBe('budget');
    expect(measureAliases({ x: leaf, y: leaf, z: leaf }, { nodes: 14 })).toBe('ok');
  });

  test('a cycle is recursive; deep nesting does not exhaust the stack', () => {
    const a: unknown[] = [1];
    a.push(a);
    expect(measureAliases({ a })).toBe('recursive');
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(measureAliases(deep)).toBe('ok');
  });

  test('a billion laughs is measured in linear time', () => {
    let level: unknown = ['lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol'];
    for (let i = 0; i < 30; i++) level = Array(10).fill(level);
    const started = Date.now();
    expect(measureAliases(level)).toBe('budget');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('finds the alias: the recursive one, or the one that passes the budget', () => {
    expect(findAliasProblem('a: &a\n  b: 1\n  self: *a\n')).toEqual({ kind: 'recursive', offset: 21, alias: 'a' });
    const text = 'x: &x [1, 2, 3]\ny: [*x, *x, *x]\n';
    expect(findAliasProblem(text, { nodes: 5 })).toEqual({ kind: 'budget', offset: text.indexOf('*x', text.indexOf('*x') + 1), alias: 'x', expanded: 8, expandedChars: 0 });
    expect(findAliasProblem(text, { nodes: 100 })).toBeUndefined();
  });

  test('counts the characters aliases add: a long string named by few nodes', () => {
    const long = 'x'.repeat(1000);
    const ten = Array(10).fill(long); // one shared primitive, written as ten aliases
    const hundred = Array(10).fill(ten); // a shared list: each reference adds 10,000 characters
    // 110,002 characters in all (keys a and b), 100,000 of them added by the ten references to `ten`.
    expect(measureAliases({ a: ten, b: hundred }, { chars: 100_000 }, 10_002)).toBe('ok');
    expect(measureAliases({ a: ten, b: hundred }, { chars: 99_999 }, 110_002)).toBe('chars');
    // Keys count too.
    const keyed = { ['k'.repeat(500)]: 1 };
    expect(measureAliases({ a: keyed, b: keyed, c: keyed }, { chars: 999 }, 1_503)).toBe('chars');
    expect(measureAliases({ a: keyed, b: keyed, c: keyed }, { chars: 1_000 }, 1_503)).toBe('ok');
    // Scalar aliases are not told from copies: bounded by what the value holds beyond its text.
    expect(measureAliases({ a: ten }, { chars: 5_000 }, 2_000)).toBe('chars');
    expect(measureAliases({ a: ten }, { chars: 9_000 }, 2_000)).toBe('ok');
    // A node bound passed stays 'budget'.
    expect(measureAliases({ a: hundred, b: hundred }, { nodes: 5, chars: 1 }, 0)).toBe('budget');
  });

  test('finds the alias that passes the character budget, string or collection', () => {
    const text = `s: &s "${'x'.repeat(100)}"\nl: &l [*s, *s]\nm: [*l, *l, *l]\n`;
    // *s, *s add 200; *l adds 200 each: the second *l passes 500.
    expect(findAliasProblem(text, { chars: 500 })).toEqual({ kind: 'budget', offset: text.indexOf('*l', text.indexOf('*l') + 1), alias: 'l', expanded: 6, expandedChars: 600 });
    expect(findAliasProblem(text, { chars: 800 })).toBeUndefined();
  });

  test('the cheap pre-check', () => {
    expect(mayHaveAliases('a: *b')).toBe(true);
    expect(mayHaveAliases('- *b')).toBe(true);
    expect(mayHaveAliases('a: [*b]')).toBe(true);
    expect(mayHaveAliases('a: "*.example.com"\nb: 2*3\n')).toBe(false);
  });

  test('the loader keeps the other documents of the stream and reports the refused one at its alias', () => {
    const r = parseYamlStream({ file: 'f.yaml', text: 'a: 1\n---\nschema: armada/Chart/v1\nmetadata: {name: c}\ndata: &d\n  self: *d\n---\nb: 2\n' });
    expect(r.documents.map((d) => d.raw)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(r.diagnostics).toEqual([
      { severity: 'error', location: 'f.yaml:6:9', document: 'armada/Chart/v1 c', code: 'yaml-alias', message: 'recursive alias *d: the node it names contains it, so the document would be infinitely deep; Armada cannot use it' },
    ]);
    expect(ALIAS_EXPANSION_BUDGET).toBe(1_000_000);
  });
});
