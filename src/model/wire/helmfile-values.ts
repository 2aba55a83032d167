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
 * The values, keys sorted, with the value at each secret path replaced by
 * `ref+envsubst://$VARIABLE`. Paths that the values do not have are skipped.
 */
export function valuesWithSecretRefs(values: Readonly<Record<string, unknown>>, chart: string, paths: readonly FieldPath[], taken: Set<string>): { values: Record<string, unknown>; secrets: SecretReference[] } {
  const out = sortKeysDeep(values as Record<string, unknown>);
  const secrets: SecretReference[] = [];
  for (const path of paths) {
    if (path.length === 0) continue;
    let parent: unknown = out;
    for (let i = 0; i < path.length - 1 && parent !== undefined; i++) parent = child(parent, path[i]);
    const last = path[path.length - 1];
    const current = parent === undefined ? undefined : child(parent, last);
    if (current === undefined) continue;
    if (typeof current === 'string' && current.startsWith('ref+envsubst://$ARMADA_SECRET_')) continue;
    const variable = secretVariable(chart, path, taken);
    const ref = `ref+envsubst://$${variable}`;
    if (Array.isArray(parent)) parent[last as number] = ref;
    else setOwn(parent as Record<string, unknown>, String(last), ref);
    secrets.push({ path, variable, typeChanged: typeof current !== 'string' });
  }
  return { values: out, secrets };
}

function child(v: unknown, key: string | number): unknown {
  if (Array.isArray(v)) return typeof key === 'number' ? v[key] : undefined;
  if (isPlainObject(v)) return Object.prototype.hasOwnProperty.call(v, key) ? v[String(key)] : undefined;
  return undefined;
}
