/**
 * Armada resolves names to the first document with that name, in stream order: a later document
 * of the same name is never read (validation reports it as a duplicate).
 */
export function firstByName<T extends { readonly name: string }>(items: readonly T[]): Map<string, T> {
  const m = new Map<string, T>();
  for (const i of items) if (!m.has(i.name)) m.set(i.name, i);
  return m;
}
