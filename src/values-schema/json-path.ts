/** JSON paths of values, as users write them: `pod.replicas.server`, `images.tags["db-init"]`, `conf.list[2]`. */
import { isIdentifier } from './identifiers';

/** A path as segments: keys of objects and indexes of arrays. */
export type ValuePath = readonly (string | number)[];

/** Renders segments as a path; the root is the empty string. */
export function formatValuePath(path: ValuePath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (isIdentifier(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * The segments of a JSON pointer (`/images/tags/db-init`) into `root`. A segment is an array index
 * only where the value it steps into is an array, so an object key `"0"` stays a key.
 */
export function pointerToPath(pointer: string, root: unknown): (string | number)[] {
  if (pointer === '') return [];
  const segments: (string | number)[] = [];
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(key)) {
      segments.push(Number(key));
      current = current[Number(key)];
    } else {
      segments.push(key);
      current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
    }
  }
  return segments;
}
