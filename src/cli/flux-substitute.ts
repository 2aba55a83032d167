/**
 * `${VAR}` placeholders in a HelmRelease's values, kept for kustomize-controller's post-build
 * substitution (`--substitute-from`): the values they stand for (passwords, site addresses) then
 * live in a Secret of the cluster, never in Git. kustomize-controller substitutes every `${...}`
 * of the objects it applies, an undefined one with the empty string; so every `${` that is not a
 * placeholder meant for envsubst (a script's, a configuration template's: see placeholders.ts) is
 * escaped as `$${`, which it writes back as `${`.
 */
import { SortedValuesView } from '../model/wire/yaml';
import { envsubstMeant, PLACEHOLDER } from './placeholders';

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

/**
 * The HelmReleases (other objects as they are) with their values ready for post-build
 * substitution, and the placeholders they keep, sorted.
 */
export function forSubstitution(objects: readonly object[]): { objects: object[]; names: string[] } {
  const names = new Set<string>();
  const out = objects.map((o) => {
    const spec = (o as { kind?: string; spec?: { values?: unknown } }).spec;
    if ((o as { kind?: string }).kind !== 'HelmRelease' || spec?.values === undefined) return o;
    // The YAML writer's view of the spec's values (see valuesOut) is escaped as the values it shows.
    const values = spec.values instanceof SortedValuesView
      ? new SortedValuesView(escape(spec.values.tree, ['values'], names) as Record<string, unknown>, spec.values.leaf)
      : escape(spec.values, ['values'], names);
    return { ...o, spec: { ...spec, values } };
  });
  return { objects: out, names: [...names].sort() };
}
