/**
 * What the API server prunes and rejects under a structural schema, bounded: the first findings
 * listed, the rest counted by kind.
 */
import { checkStructural, checkStructuralBounded, StructuralSchema } from '../../src/model/wire/structural';

const SCHEMA: StructuralSchema = {
  type: 'object',
  properties: { known: { type: 'string' }, sysctl: { type: 'object', additionalProperties: { type: 'string' } } },
};
// In walk order: pruned a, rejected known, pruned b, rejected sysctl.x and sysctl.y, pruned c.
const VALUE = { a: 1, known: 2, b: 3, sysctl: { x: 4, y: 'ok', z: 5 }, c: null };

test('without a limit, every finding in the order of the walk', () => {
  expect(checkStructural(SCHEMA, VALUE, ['values']).map((f) => [f.kind, f.path.join('.')])).toEqual([
    ['pruned', 'values.a'],
    ['rejected', 'values.known'],
    ['pruned', 'values.b'],
    ['rejected', 'values.sysctl.x'],
    ['rejected', 'values.sysctl.z'],
    ['pruned', 'values.c'],
  ]);
});

test('with a limit, the first findings, and the rest counted by kind', () => {
  const { listed, unlisted } = checkStructuralBounded(SCHEMA, VALUE, ['values'], 3);
  expect(listed.map((f) => [f.kind, f.path.join('.')])).toEqual([
    ['pruned', 'values.a'],
    ['rejected', 'values.known'],
    ['pruned', 'values.b'],
  ]);
  expect(unlisted).toEqual({ pruned: 1, rejected: 2 });
  expect(checkStructuralBounded(SCHEMA, VALUE, [], 0)).toEqual({ listed: [], unlisted: { pruned: 3, rejected: 3 } });
  expect(checkStructuralBounded(SCHEMA, VALUE, [], 6).unlisted).toEqual({ pruned: 0, rejected: 0 });
});

test('a million pruned keys are counted, not kept', () => {
  const many: Record<string, number> = {};
  for (let i = 0; i < 1_000_000; i++) many[`k${i}`] = i;
  const { listed, unlisted } = checkStructuralBounded(SCHEMA, many, ['values'], 1_000);
  expect(listed).toHaveLength(1_000);
  expect(listed[999].path).toEqual(['values', 'k999']);
  expect(unlisted).toEqual({ pruned: 999_000, rejected: 0 });
});
