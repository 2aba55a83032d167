/**
 * Documents nested deeper than PyYAML reads: refused where Armada's loader would raise
 * RecursionError, and cross-checked against PyYAML itself where python3 has it.
 */
import { spawnSync } from 'child_process';
import { firstTooDeep, mayNestDeeperThan, PYYAML_MAX_DEPTH } from '../../../src/importer/load/depth';
import { parseYamlStream } from '../../../src/importer/load';
import { havePyYaml } from './helpers';

/** `depth` block mappings, one inside the other, under `data`: the document's own mapping is level 1. */
function nestedBlockMappings(depth: number): string {
  let text = 'schema: armada/Chart/v1\nmetadata: {name: deep}\ndata:\n';
  // the document mapping and data's mapping are levels 1 and 2
  for (let level = 2; level < depth; level++) text += `${'  '.repeat(level - 1)}k${level}:\n`;
  return text + `${'  '.repeat(depth - 1)}leaf: 1\n`;
}

/** A flow sequence nested `depth` levels deep, as the whole document. */
function nestedFlowSequences(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth) + '\n';
}

describe('how deep a document may nest', () => {
  test('the first collection past the limit, by its path; none at the limit itself', () => {
    let v: unknown = { leaf: 1 };
    for (let i = 0; i < 4; i++) v = { k: v };
    // 5 mappings deep
    expect(firstTooDeep(v, 5)).toBeUndefined();
    expect(firstTooDeep(v, 4)).toEqual(['k', 'k', 'k', 'k']);
    expect(firstTooDeep({ a: 1, b: [[1], { c: [[]] }] }, 3)).toEqual(['b', 1, 'c']);
    expect(firstTooDeep({ a: 1, b: [[1], { c: [[]] }] }, 5)).toBeUndefined();
    expect(firstTooDeep('scalar', 0)).toBeUndefined();
    expect(firstTooDeep([], 0)).toEqual([]);
  });

  test('an alias is not entered again (PyYAML composes it without going into its node), and a cycle ends the walk', () => {
    const shared = { x: { y: {} } }; // 3 deep on its own
    expect(firstTooDeep({ a: shared, b: { c: { d: shared } } }, 3)).toEqual(['a', 'x', 'y']);
    // b.c.d is the shared node again, 4 deep; its x and y would be 5 and 6 deep
    expect(firstTooDeep({ a: shared, b: { c: { d: shared } } }, 4)).toBeUndefined();
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(firstTooDeep(cycle, 2)).toBeUndefined();
  });

  test('its walk does not use the stack: 200,000 levels', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(firstTooDeep(deep)?.length).toBe(PYYAML_MAX_DEPTH);
  });

  test('a text with fewer indicators (: - [ { ?) than the limit cannot nest past it, and is not walked', () => {
    // three colons, a dash, a bracket and a brace
    expect(mayNestDeeperThan('a:\n  b:\n    - [c, {d: e}]\n', 6)).toBe(false);
    expect(mayNestDeeperThan('a:\n  b:\n    - [c, {d: e}]\n', 5)).toBe(true);
    expect(mayNestDeeperThan('? a\n', 0)).toBe(true);
    expect(mayNestDeeperThan(nestedBlockMappings(600))).toBe(true);
    expect(mayNestDeeperThan('a: 1\n'.repeat(400))).toBe(false);
  });

  test('a document 490 levels deep loads; one 491 levels deep is refused at its deepest key, and the others of the stream load', () => {
    expect(PYYAML_MAX_DEPTH).toBe(490);
    const ok = parseYamlStream({ file: 'f.yaml', text: nestedBlockMappings(490) });
    expect(ok.diagnostics).toEqual([]);
    expect(ok.documents).toHaveLength(1);

    const text = `a: 1\n---\n${nestedBlockMappings(491)}---\nb: 2\n`;
    const r = parseYamlStream({ file: 'f.yaml', text });
    expect(r.documents.map((d) => d.raw)).toEqual([{ a: 1 }, { b: 2 }]);
    // The mapping at level 491 is the value of k490, whose key is on line 4 + 490 of the stream.
    expect(r.diagnostics).toEqual([
      {
        severity: 'error',
        location: `f.yaml:${4 + 490}:${2 * 489 + 1}`,
        document: 'armada/Chart/v1 deep',
        code: 'yaml-depth',
        message:
          'this document nests mappings and sequences more than 490 levels deep (at data.k2.k3.k4 ... .k489.k490): PyYAML, which Armada reads documents with, stops there with a RecursionError (Python\'s limit of 1,000 frames, two for each level); flatten the values',
      },
    ]);
  });

  test('flow collections count alike, and the position is their bracket', () => {
    const r = parseYamlStream({ file: 'f.yaml', text: nestedFlowSequences(600) });
    expect(r.documents).toEqual([]);
    expect(r.diagnostics.map((d) => [d.location, d.code])).toEqual([['f.yaml:1:491', 'yaml-depth']]);
    expect(r.diagnostics[0].message).toContain('more than 490 levels deep (at [0][0][0][0] ... [0][0])');
  });

  test('a document too deep for the parser itself is reported, not thrown', () => {
    for (const text of [nestedFlowSequences(100_000), nestedBlockMappings(5_000)]) {
      const r = parseYamlStream({ file: 'f.yaml', text: `a: 1\n---\n${text}` });
      expect(r.documents.map((d) => d.raw)).toEqual([{ a: 1 }]);
      expect(r.diagnostics).toEqual([
        {
          severity: 'error',
          location: 'f.yaml:2:1',
          code: 'yaml-depth',
          message: 'this document nests too deeply to be loaded (the parser ran out of stack): PyYAML, which Armada reads documents with, stops at 490 levels with a RecursionError; flatten the values',
        },
      ]);
    }
  });

  const python = havePyYaml(1);
  (python ? test : test.skip)('PyYAML loads what this loader keeps and refuses what it refuses, at the limit and one past it', () => {
    const cases = [
      { name: 'block mappings', text: (n: number) => nestedBlockMappings(n) },
      { name: 'block sequences', text: (n: number) => `${Array.from({ length: n - 1 }, (_, i) => `${'  '.repeat(i)}-\n`).join('')}${'  '.repeat(n - 1)}- 1\n` },
    ];
    const texts = cases.flatMap((c) => [c.text(PYYAML_MAX_DEPTH), c.text(PYYAML_MAX_DEPTH + 1)]);
    const py = spawnSync(
      'python3',
      // Loaded from a function of a function, as the measurement in depth.ts was made; each frame
      // more on the caller's stack (Armada's own) takes half a level off.
      ['-c', 'import json, sys, yaml\ndef load(t):\n    try:\n        yaml.safe_load(t); return "ok"\n    except RecursionError:\n        return "RecursionError"\ndef main():\n    print(json.dumps([load(t) for t in json.load(sys.stdin)]))\nmain()'],
      { input: JSON.stringify(texts), encoding: 'utf8' },
    );
    expect(py.status).toBe(0);
    const ours = texts.map((text) => (parseYamlStream({ file: 'f.yaml', text }).diagnostics.some((d) => d.code === 'yaml-depth') ? 'RecursionError' : 'ok'));
    expect(ours).toEqual(['ok', 'RecursionError', 'ok', 'RecursionError']);
    expect(JSON.parse(py.stdout)).toEqual(ours);
  });
});
