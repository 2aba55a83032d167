/**
 * The key checks of `keyProblems` (keys one in Python, null keys in values, number or bool label
 * keys) read the `yaml` AST, about ten times js-yaml's cost; a document whose value, read as if
 * every key were plain, cannot hold such a key does without it (issue 39). The value test must
 * let through every document the AST finds something in: checked on generated documents.
 */
import * as jsyaml from 'js-yaml';
import { rng } from '../../helpers/random';
import { ChunkAst } from '../../../src/importer/load/positions';
import { keyProblems, keyProblemsPrefilter, mayHaveKeyProblemsIn } from '../../../src/importer/load/pyyaml-keys';
import { constructStats, PYYAML_SAFE_SCHEMA } from '../../../src/importer/load/pyyaml-schema';
import { parseText } from './helpers';
import { asChartValues, YamlGenerator } from './yaml-generator';

/** Documents whose keys the value test decides for (`keys`, no repeated key, no merge), with what the AST finds in each. */
function decided(text: string): { value: unknown; found: number }[] | undefined {
  if (keyProblemsPrefilter(text) !== 'keys') return undefined;
  const merges = constructStats.merges;
  let values: unknown[];
  try {
    values = jsyaml.loadAll(text, null, { schema: PYYAML_SAFE_SCHEMA });
  } catch {
    return undefined; // a repeated key, or an error: the AST decides, or nothing is checked
  }
  if (constructStats.merges !== merges) return undefined;
  const ast = new ChunkAst(text, 1);
  return values.map((value, i) => ({ value, found: keyProblems(ast, text, i, 'f', '').length }));
}

describe('the value test before the key checks', () => {
  test.each([
    ['data:\n  values:\n    ~: x\n', true],
    ['data:\n  values:\n    a: {null: x}\n', true],
    ['data:\n  wait:\n    labels:\n      on: x\n', true],
    ['data:\n  upgrade:\n    pre:\n      delete:\n        - labels:\n            1: x\n', true],
    ['a:\n  1: x\n  true: y\n', true],
    ['a:\n  1: x\n  1.0: y\n', true],
    ['a:\n  80: http\n  443: https\n', false],
    ['a:\n  80: http\nb:\n  80: http\n', false],
    ['data:\n  values:\n    on: x\n', false],
  ])('%j may hold a finding: %s', (text, expected) => {
    expect(keyProblemsPrefilter(text)).toBe('keys');
    expect(mayHaveKeyProblemsIn(jsyaml.load(text, { schema: PYYAML_SAFE_SCHEMA }))).toBe(expected);
  });

  test('a port map is no finding, and two keys one in Python still are', () => {
    expect(parseText('a:\n  80: http\n  443: https\n').diagnostics).toEqual([]);
    expect(parseText('a:\n  1: x\n  true: y\n').diagnostics.map((d) => `${d.location} ${d.message}`)).toEqual([
      'test.yaml:3:3 the keys 1 and true are one key in Python (equal values hash alike), so PyYAML keeps only the key 1 with the last value; quote them to keep them apart as strings, or remove one',
    ]);
  });

  test('on generated documents, every document the AST finds something in passes the value test', () => {
    const missed: string[] = [];
    let withFindings = 0;
    for (let seed = 0; seed < 3000; seed++) {
      const random = rng(40_000 + seed);
      const text = seed % 2 === 0 ? new YamlGenerator(random).stream() : asChartValues(new YamlGenerator(random).document());
      const docs = decided(text);
      if (!docs) continue;
      for (const d of docs) {
        if (d.found === 0) continue;
        withFindings++;
        if (!mayHaveKeyProblemsIn(d.value)) missed.push(`seed ${40_000 + seed}: ${JSON.stringify(text)}`);
      }
    }
    expect(missed.slice(0, 5)).toEqual([]);
    expect(withFindings).toBeGreaterThan(20);
  });
});
