/**
 * The deployment order a set of HelmReleases encodes, computed back from `dependsOn` alone: a
 * HelmRelease without dependencies is at level 0, any other one level after its deepest
 * dependency, which is the step at which Flux can first reconcile it.
 */
export function levelsFromDependsOn(objects: readonly any[]): string[][] {
  const releases = objects.filter((o) => o.kind === 'HelmRelease');
  const byKey = new Map<string, any>(releases.map((o) => [`${o.metadata.namespace}/${o.metadata.name}`, o]));
  const level = new Map<string, number>();
  const visiting = new Set<string>();
  const levelOf = (key: string): number => {
    const known = level.get(key);
    if (known !== undefined) return known;
    if (visiting.has(key)) throw new Error(`dependsOn cycle through ${key}`);
    const o = byKey.get(key);
    if (!o) throw new Error(`dependsOn names ${key}, which is not in the output`);
    visiting.add(key);
    const deps: { name: string; namespace?: string | undefined }[] = o.spec.dependsOn ?? [];
    const l = deps.length === 0 ? 0 : 1 + Math.max(...deps.map((d) => levelOf(`${d.namespace ?? o.metadata.namespace}/${d.name}`)));
    visiting.delete(key);
    level.set(key, l);
    return l;
  };
  const out: string[][] = [];
  for (const o of releases) {
    const l = levelOf(`${o.metadata.namespace}/${o.metadata.name}`);
    (out[l] ??= []).push(o.spec.releaseName);
  }
  return out;
}
