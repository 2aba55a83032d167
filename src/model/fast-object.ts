/**
 * V8 turns an object that gets more than about 16 properties one computed key at a time into a
 * hash table (a "dictionary"): five times the memory of the same properties in fast mode, which
 * every later GC copies or marks, and slower to list and read. Chart values are built that way (a
 * loaded mapping, a sorted or merged copy) and often have more keys than that. A copy by spread is
 * made in fast mode (up to about 1,000 properties), with the same own properties in the same order,
 * `__proto__` included as a plain data key.
 */
const FAST_PROPERTIES = 16;

/** `o` itself, or, when it was given more than 16 properties key by key, a fast-mode copy of it. */
export function fastObject<T extends object>(o: T, keys: number): T {
  return keys > FAST_PROPERTIES ? { ...o } : o;
}
