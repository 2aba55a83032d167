/**
 * Armada resolves names to the first document with that name, in stream order: a later document
 * of the same name is never read (validation reports it as a duplicate).
 */
import { show } from './diagnostics';

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

/** The error at a later document of the same kind and name, `firstAt` the first one's location. */
export function repeatedNameMessage(kind: string, name: string, firstAt: string): string {
  return `another ${kind} is already named ${show(name)} (${firstAt}); Armada would silently use the first one and ignore this one, so armada-cdk requires names unique per kind`;
}
