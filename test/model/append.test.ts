import { append } from '../../src/model/append';

test('append takes any number of items, where push(...items) throws RangeError past about 120,000', () => {
  const many = new Array<number>(1_000_000).fill(7);
  expect(() => [].push(...(many as never[]))).toThrow(RangeError);
  const target = [1, 2];
  expect(append(target, many)).toBe(target);
  expect([target.length, target[0], target[2], target[target.length - 1]]).toEqual([1_000_002, 1, 7, 7]);
  expect(append([0], new Set([1, 2]))).toEqual([0, 1, 2]);
});
