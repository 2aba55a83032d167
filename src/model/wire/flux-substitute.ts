/**
 * `${VAR}` placeholders in a HelmRelease's values, kept for kustomize-controller's post-build
 * substitution (`--substitute-from`): the values they stand for (passwords, site addresses) then
 * live in a Secret of the cluster, never in Git. kustomize-controller substitutes every `${...}`
 * of the objects it applies, an undefined one with the empty string; so every `${` that is not a
 * placeholder meant for envsubst (a script's, a configuration template's: see placeholders.ts) is
 * escaped as `$${`, which it writes back as `${`.
 *
 * The values a Deckhand site holds as secrets (substituted from `deckhand/Passphrase` and the
 * other secret documents) become placeholders too, `${SECRET_<RELEASE>_<PATH>}`: the directory
 * then holds no secret, and the user puts each one in the Secret from where the site keeps it.
 */
import { SortedValuesView } from './yaml';
import { envsubstMeant, PLACEHOLDER } from '../envsubst';

/** A copy of `values` with the `${` of runtime templates escaped; `names` collects the placeholders kept. */
function escape(v: unknown, path: (string | number)[], names: Set<string>): unknown {
  if (typeof v === 'string') {
    if (!v.includes('${')) return v;
    const found = [...v.matchAll(PLACEHOLDER)].map((m) => m[1]);
    if (found.length > 0 && envsubstMeant(path, v, found)) {
      for (const n of found) names.add(n);
      return v;
    }
    return v.split('${').join('$${');
  }
  if (Array.isArray(v)) return v.map((x, i) => escape(x, [...path, i], names));
  // Plain mappings only: a timestamp or another leaf object is written as it is.
  if (v !== null && typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = escape(x, [...path, k], names);
    return out;
  }
  return v;
}

/** A placeholder that stands for a secret of the site: its variable, and where the value was. */
export interface SecretPlaceholder {
  readonly variable: string;
  readonly release: string;
  /** The path inside the release's values. */
  readonly path: readonly (string | number)[];
}

const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** `${VAR}` for each scalar at or under `path` of `values` (an escaped copy, changed in place). */
function placeSecrets(values: unknown, release: string, path: readonly (string | number)[], taken: Set<string>, out: SecretPlaceholder[], placed: Set<string>): void {
  let parent: unknown = undefined;
  let key: string | number | undefined;
  let node: unknown = values;
  for (const seg of path) {
    if (!(Array.isArray(node) || isPlain(node)) || !Object.prototype.hasOwnProperty.call(node, seg)) return;
    parent = node;
    key = seg;
    node = (node as Record<string | number, unknown>)[seg];
  }
  if (Array.isArray(node)) {
    node.forEach((_, i) => placeSecrets(values, release, [...path, i], taken, out, placed));
    return;
  }
  if (isPlain(node)) {
    for (const k of Object.keys(node)) placeSecrets(values, release, [...path, k], taken, out, placed);
    return;
  }
  if (parent === undefined || key === undefined || node === null || typeof node === 'object') return;
  // A value named twice (a path and one inside it) keeps its first placeholder.
  const at = JSON.stringify([release, path]);
  if (placed.has(at)) return;
  placed.add(at);
  const base = `SECRET_${`${release}_${path.join('_')}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')}`;
  let variable = base;
  for (let n = 2; taken.has(variable); n++) variable = `${base}_${n}`;
  taken.add(variable);
  (parent as Record<string | number, unknown>)[key] = `\${${variable}}`;
  out.push({ variable, release, path });
}

/**
 * The HelmReleases (other objects as they are) with their values ready for post-build
 * substitution, the placeholders they keep (sorted), and the secrets of `secretPaths` (release
 * name -> paths inside its values) made placeholders, in order.
 */
export function forSubstitution(objects: readonly object[], secretPaths: ReadonlyMap<string, readonly (readonly (string | number)[])[]> = new Map()): { objects: object[]; names: string[]; secrets: SecretPlaceholder[] } {
  const names = new Set<string>();
  const secrets: SecretPlaceholder[] = [];
  const taken = new Set<string>();
  const placed = new Set<string>();
  const out = objects.map((o) => {
    const spec = (o as { kind?: string; spec?: { values?: unknown; releaseName?: string } }).spec;
    if ((o as { kind?: string }).kind !== 'HelmRelease' || spec?.values === undefined) return o;
    // The YAML writer's view of the spec's values (see valuesOut) is escaped as the values it shows.
    const view = spec.values instanceof SortedValuesView ? spec.values : undefined;
    const values = escape(view ? view.tree : spec.values, ['values'], names);
    const release = String(spec.releaseName ?? '');
    for (const p of secretPaths.get(release) ?? []) placeSecrets(values, release, p, taken, secrets, placed);
    return { ...o, spec: { ...spec, values: view ? new SortedValuesView(values as Record<string, unknown>, view.leaf) : values } };
  });
  return { objects: out, names: [...names].sort(), secrets };
}
