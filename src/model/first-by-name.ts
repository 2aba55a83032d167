/**
 * Armada resolves names to the first document with that name, in stream order: a later document
 * of the same name is never read (validation reports it as a duplicate).
 */

// A spec's lists never change once built, and every rule, the plan and each writer look names
// up in the same ones: each list is indexed once.
const indexes = new WeakMap<readonly object[], ReadonlyMap<string, unknown>>();

/** The first item of each name, by name. */
export function firstByName<T extends { readonly name: string }>(items: readonly T[]): ReadonlyMap<string, T> {
  let m = indexes.get(items) as ReadonlyMap<string, T> | undefined;
  if (m === undefined) {
    const built = new Map<string, T>();
    for (const i of items) if (!built.has(i.name)) built.set(i.name, i);
    indexes.set(items, (m = built));
  }
  return m;
}
