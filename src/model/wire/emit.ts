/** Helpers shared by the wire writers. */
import { Labels } from '../spec';
import { setOwn } from '../own-keys';
import { sortKeysDeep } from '../values';
import { SortedValuesView } from './yaml';

/** Copies a labels map with sorted keys, or undefined. */
export function labelsOut(labels: Labels | undefined): Record<string, string> | undefined {
  if (labels === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const k of Object.keys(labels).sort()) setOwn(out, k, labels[k]);
  return out;
}

/**
 * Builds an object from `[key, value]` pairs in the given order, leaving out undefined values, so
 * that every writer emits its fields in one fixed, readable order whatever order the props had;
 * `more` are entries after `entries`.
 * @default more - none
 */
export function ordered(entries: readonly (readonly [string, unknown])[], more?: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  add(out, entries);
  if (more !== undefined) add(out, more);
  return out;
}

// An index loop, not `for...of` with destructuring (nor a spread of `more` at the call): this
// runs in every writer's per-chart code, where an iterator is many times the code for V8 to
// optimize.
function add(out: Record<string, unknown>, entries: readonly (readonly [string, unknown])[]): void {
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e[1] !== undefined) setOwn(out, e[0], e[1]);
  }
}

/**
 * Values for output: a deep copy with sorted keys, so that the output never shares the user's
 * object and does not depend on the order in which keys were written.
 * @param leaf - what each object leaf (not a mapping, a sequence or a primitive) becomes in the
 *   copy, such as {@link timestampAsString} for a target that is not read by PyYAML
 * @param form - with `valuesForYamlWriter`, a {@link SortedValuesView} that the YAML writer
 *   writes as that copy, instead of the copy: for objects nothing but that writer reads
 * @default form - the copy
 */
export function valuesOut(values: Readonly<Record<string, unknown>> | undefined, leaf?: (v: object) => unknown, form?: WriterForm): Record<string, unknown> | SortedValuesView | undefined {
  if (values === undefined) return undefined;
  return form?.valuesForYamlWriter === true ? new SortedValuesView(values, leaf) : sortKeysDeep(values as Record<string, unknown>, leaf);
}

/**
 * What a writer's objects are for, when not for everyone. Not part of any writer's public options.
 */
export interface WriterForm {
  /**
   * The objects go straight to the YAML writer (`yamlStreamChunks`, `toYamlStream`) and nowhere
   * else: chart values are handed over as a {@link SortedValuesView} of the spec's values, which
   * that writer writes exactly as their sorted copy, instead of the copy.
   * @default false
   */
  readonly valuesForYamlWriter?: boolean | undefined;
}
