/**
 * Appends every item of `items` to `target`. `target.push(...items)` passes each item as an
 * argument, and V8 throws RangeError ("Maximum call stack size exceeded") past about 120,000 of
 * them: an input with that many documents or findings is not rare enough to risk it.
 */
export function append<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
