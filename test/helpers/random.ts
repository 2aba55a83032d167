/**
 * Seeded random numbers in [0, 1) for tests that generate inputs: the same seed gives the same
 * inputs on every run and machine, so a failure can be replayed.
 */

/** xorshift32. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

/** A linear congruential generator (the older YAML writer tests' sequence). */
export function lcg(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}
