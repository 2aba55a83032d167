/**
 * The loader's limits (limits.ts) at the unit level: the document cut stops at its limit without
 * looking at the rest, and a run's count is shared by its inputs.
 */
import { parseInputs, parseYamlStream } from '../../../src/importer/load';
import { LoadBudget, MAX_DOCUMENTS } from '../../../src/importer/load/limits';
import { splitDocuments } from '../../../src/importer/load/source';

describe('splitDocuments with a limit', () => {
  const streams = [
    'a: 1\n---\nb: 2\n...\n---\nc: 3\n--- # four\nd: 4\n---\n---\ne: 5\n',
    '%YAML 1.1\n---\na: 1\n...\n%YAML 1.1\n---\nb: 2\n',
    '# comment only\n---\na: 1\n...\n...\n...\nb: 2\n---\n',
    'x: 1\n...\n...\n...\n...\n---\ny: 2\n...\n---\n',
  ];

  test.each(streams)('the first chunks are those of the whole cut, then one more at most: %j', (text) => {
    const all = splitDocuments(text);
    for (let limit = 0; limit <= all.length + 1; limit++) {
      const some = splitDocuments(text, limit);
      expect(some.length).toBe(Math.min(all.length, limit + 1));
      // Every chunk but a cut-short last one is the same.
      expect(some.slice(0, limit)).toEqual(all.slice(0, Math.min(limit, all.length)));
      if (some.length > limit) expect(some[limit].start).toBe(all[limit].start);
    }
  });

  test('a million markers: the chunks up to the limit, and one', () => {
    expect(splitDocuments('---\n'.repeat(1_000_000), 10).map((c) => c.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});

describe("a run's count of documents", () => {
  test('shared by the inputs of one parseInputs call: the stop comes in the input that passes the limit', () => {
    const many = { file: 'a.yaml', text: 'k: 1\n' + '---\nk: 1\n'.repeat(MAX_DOCUMENTS - 2) };
    const r = parseInputs([many, { file: 'b.yaml', text: 'x: 1\n---\ny: 2\n' }, { file: 'c.yaml', text: 'z: 1\n' }]);
    expect(r.documents).toHaveLength(MAX_DOCUMENTS);
    expect(r.documents[r.documents.length - 1].raw).toEqual({ x: 1 });
    expect(r.diagnostics.map((d) => [d.location, d.code])).toEqual([['b.yaml:2:1', 'input-limit']]);
  });

  test('a budget passed in carries the count of earlier calls', () => {
    const budget = new LoadBudget();
    budget.documents = MAX_DOCUMENTS;
    const r = parseInputs([{ file: 'late.yaml', text: 'a: 1\n' }], budget);
    expect([r.documents.length, r.diagnostics.map((d) => d.location), budget.stopped]).toEqual([0, ['late.yaml:1:1'], true]);
    // A stream of its own starts from nothing.
    expect(parseYamlStream({ file: 'own.yaml', text: 'a: 1\n' }).documents).toHaveLength(1);
  });
});
