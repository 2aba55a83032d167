/** Helpers shared by the wire writers. */
import { Labels } from '../spec';
import { setOwn } from '../own-keys';
import { sortKeysDeep } from '../values';

/** Copies a labels map with sorted keys, or undefined. */
export function labelsOut(labels: Labels | undefined): Record<string, string> | undefined {
  if (labels === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const k of Object.keys(labels).sort()) setOwn(out, k, labels[k]);
  return out;
}

/**
 * Builds an object from `[key, value]` pairs in the given order, leaving out undefined values, so
 * that every writer emits its fields in one fixed, readable order whatever order the props had.
 */
export function ordered(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) if (v !== undefined) setOwn(out, k, v);
  return out;
}

/**
 * Values for output: a deep copy with sorted keys, so that the output never shares the user's
 * object and does not depend on the order in which keys were written.
 * @param leaf - what each object leaf (not a mapping, a sequence or a primitive) becomes in the
 *   copy, such as {@link timestampAsString} for a target that is not read by PyYAML
 */
export function valuesOut(values: Readonly<Record<string, unknown>> | undefined, leaf?: (v: object) => unknown): Record<string, unknown> | undefined {
  return values === undefined ? undefined : sortKeysDeep(values as Record<string, unknown>, leaf);
}
