/**
 * Documents nested deeper than Armada can read (see `PYYAML_MAX_DEPTH`). js-yaml reads about four
 * times deeper than PyYAML, so this is checked here.
 */
import { PYYAML_MAX_DEPTH } from '../../model/armada-depth';
import { isPlainObject } from '../../model/values';
import type { WirePath } from './wire-path';

export { PYYAML_MAX_DEPTH };

/**
 * Whether `text` holds enough indicators to nest deeper than `limit`: every mapping or sequence
 * has one of its own (the `:` of its first key, its first `-`, its `[` or `{`, or an explicit
 * key's `?`), so a document with fewer of them cannot. Most documents stop here, without a walk.
 */
export function mayNestDeeperThan(text: string, limit: number = PYYAML_MAX_DEPTH): boolean {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 58 /* : */ || c === 45 /* - */ || c === 91 /* [ */ || c === 123 /* { */ || c === 63 /* ? */) {
      if (++n > limit) return true;
    }
  }
  return false;
}

/**
 * The path of the first mapping or sequence (in document order) nested deeper than `limit`, or
 * `undefined` when there is none. Iterative, so that it cannot exhaust the stack itself. A
 * collection reached a second time (an alias) is not entered again: PyYAML composes an alias
 * without going into the node it names, so only where a node is written counts.
 */
export function firstTooDeep(value: unknown, limit: number = PYYAML_MAX_DEPTH): WirePath | undefined {
  if (!isCollection(value)) return undefined;
  if (limit < 1) return [];
  const seen = new Set<object>([value]);
  const path: (string | number)[] = [];
  // One frame per open collection: the collection, its keys (a mapping's) and the next entry.
  const stack: Frame[] = [frame(value)];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const size = top.keys === undefined ? (top.node as unknown[]).length : top.keys.length;
    if (top.next === size) {
      stack.pop();
      path.pop();
      continue;
    }
    const i = top.next++;
    const key = top.keys === undefined ? i : top.keys[i];
    const child = (top.node as Record<string | number, unknown>)[key];
    if (!isCollection(child) || seen.has(child)) continue;
    seen.add(child);
    path.push(key);
    if (stack.length + 1 > limit) return path;
    stack.push(frame(child));
  }
  return undefined;
}

interface Frame {
  readonly node: object;
  readonly keys: string[] | undefined;
  next: number;
}

function frame(node: object): Frame {
  return { node, keys: Array.isArray(node) ? undefined : Object.keys(node), next: 0 };
}

function isCollection(v: unknown): v is object {
  return Array.isArray(v) || isPlainObject(v);
}
