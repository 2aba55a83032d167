import { leafPaths } from '../../src/model/values';

describe('leafPaths: the paths of the leaves a test picks, depth first', () => {
  const values = { a: { b: null, c: [1, null, { d: 'x' }] }, e: null, f: 'ref+vault://x' };

  test('every leaf it picks, arrays by index and objects in key order', () => {
    expect(leafPaths(values, (v) => v === null)).toEqual([['a', 'b'], ['a', 'c', 1], ['e']]);
    expect(leafPaths(values, (v) => typeof v === 'string')).toEqual([['a', 'c', 2, 'd'], ['f']]);
  });

  test('at most max, the first ones; a leaf at the root has the empty path', () => {
    expect(leafPaths(values, (v) => v === null, 2)).toEqual([['a', 'b'], ['a', 'c', 1]]);
    expect(leafPaths(null, (v) => v === null)).toEqual([[]]);
    expect(leafPaths({}, () => true)).toEqual([]);
  });
});
