/**
 * A chart's values as a Helmfile release's inline `values:`. Helmfile hands them to Helm as a
 * values file (nulls and all, as Armada did), but first evaluates every string in them with vals:
 * a `ref+BACKEND://...` in a value is replaced by what it refers to. That is how secret values
 * stay out of the helmfile (`ref+envsubst://$VAR`, read from the environment of helmfile), and
 * why a value of the input that looks like a reference is refused: it would be read, not written.
 */
import { FieldPath } from '../diagnostics';
import { isPlainObject, leafPaths, sortKeysDeep } from '../values';
import { setOwn } from '../own-keys';

/** vals' reference syntax (its DefaultRefRegexp): anywhere in a string. */
const VALS_REF = /(?:secret)?ref\+[^+:]*:\/\/[^+\n ]+/;

/** The paths (inside the values) of the first few strings vals would read as references. */
export function valsReferences(values: unknown, max = 3): FieldPath[] {
  return leafPaths(values, (v) => typeof v === 'string' && VALS_REF.test(v), max);
}

/** One secret value taken out of the values: where it was, and the variable that carries it. */
export interface SecretReference {
  readonly path: FieldPath;
  readonly variable: string;
  /** The value was not a string: vals gives back a string. */
  readonly typeChanged: boolean;
}

/** An environment variable name for a secret of `chart` at `path`, unique among `taken`. */
export function secretVariable(chart: string, path: FieldPath, taken: Set<string>): string {
  const base = `ARMADA_SECRET_${[chart, ...path].map((s) => String(s)).join('_')}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_').replace(/_+/g, '_').replace(/_$/, '');
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

/**
 * The values, keys sorted, with each secret value replaced by `ref+envsubst://$VARIABLE`. A path
 * to a mapping or a sequence (`[]`: the whole values) covers every leaf under it: each leaf gets a
 * reference of its own and the collections keep their shape, since one reference in place of a
 * mapping would hand the chart a string where it reads a mapping. An empty collection has nothing
 * to hide and is kept. Paths that the values do not have are skipped; a leaf named twice (a path
 * and one inside it) is replaced once. The references come in the order the values are written.
 */
export function valuesWithSecretRefs(values: Readonly<Record<string, unknown>>, chart: string, paths: readonly FieldPath[], taken: Set<string>): { values: Record<string, unknown>; secrets: SecretReference[] } {
  const out = sortKeysDeep(values as Record<string, unknown>);
  const secrets: SecretReference[] = [];
  const wanted = new Set<string>();
  for (const given of paths) {
    const found = locate(out, given);
    if (found === undefined) continue;
    for (const rest of leavesOf(found.node)) if (found.path.length + rest.length > 0) wanted.add(JSON.stringify([...found.path, ...rest]));
  }
  if (wanted.size === 0) return { values: out, secrets };
  // In the order the values are written, whatever the order of the paths: variables and warnings
  // then follow the file.
  for (const leaf of leavesOf(out)) {
    if (!wanted.has(JSON.stringify(leaf))) continue;
    const parent = locate(out, leaf.slice(0, -1))!.node;
    const last = leaf[leaf.length - 1];
    const current = child(parent, last);
    const variable = secretVariable(chart, leaf, taken);
    const ref = `ref+envsubst://$${variable}`;
    if (Array.isArray(parent)) parent[last as number] = ref;
    else setOwn(parent as Record<string, unknown>, String(last), ref);
    secrets.push({ path: leaf, variable, typeChanged: typeof current !== 'string' });
  }
  return { values: out, secrets };
}

/**
 * The paths of the leaves under `v` (`[]` when `v` is one): anything but a sequence or a plain
 * mapping is a leaf, as {@link locate} goes into nothing else. An empty collection has none.
 */
function leavesOf(v: unknown): FieldPath[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => leavesOf(x).map((p) => [i, ...p]));
  if (isPlainObject(v)) return Object.keys(v).flatMap((k) => leavesOf(v[k]).map((p) => [k, ...p]));
  // Not written at all (a construct's value left undefined): nothing to take out.
  return v === undefined ? [] : [[]];
}

/**
 * The node at `path` inside `v` and the path as {@link leavesOf} writes it (a mapping's keys as
 * strings, a sequence's indexes as numbers), or undefined when `v` has no such path.
 */
function locate(v: unknown, path: FieldPath): { node: unknown; path: FieldPath } | undefined {
  let node = v;
  const canonical: (string | number)[] = [];
  for (const seg of path) {
    const key = keyIn(node, seg);
    if (key === undefined) return undefined;
    canonical.push(key);
    node = child(node, key);
  }
  return { node, path: canonical };
}

/** `key` as a key of `v` (an index of a sequence, a key of a mapping), or undefined when `v` has none such. */
function keyIn(v: unknown, key: string | number): string | number | undefined {
  if (Array.isArray(v)) {
    const i = typeof key === 'number' ? key : /^(0|[1-9]\d*)$/.test(key) ? Number(key) : -1;
    return Number.isInteger(i) && i >= 0 && i < v.length ? i : undefined;
  }
  if (isPlainObject(v)) return Object.prototype.hasOwnProperty.call(v, key) ? String(key) : undefined;
  return undefined;
}

function child(v: unknown, key: string | number): unknown {
  if (Array.isArray(v)) return typeof key === 'number' ? v[key] : undefined;
  if (isPlainObject(v)) return Object.prototype.hasOwnProperty.call(v, key) ? v[String(key)] : undefined;
  return undefined;
}
