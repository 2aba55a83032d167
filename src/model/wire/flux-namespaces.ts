/**
 * The `v1` Namespaces that Flux output placed in the charts' namespaces writes, so that it applies
 * by itself: every namespace it writes a HelmRelease or a source into, except those that exist
 * wherever the output can be applied.
 *
 * Safe on a cluster that already has them. kustomize-controller reads two annotations:
 * - `kustomize.toolkit.fluxcd.io/ssa: IfNotPresent` creates a Namespace that is missing and never
 *   patches one that exists. Without it (the `Override` policy) the controller takes over the
 *   metadata fields `kubectl` set on a namespace another tool made, and its next apply removes the
 *   labels it took over that this output does not write (Pod Security levels, for one).
 * - `kustomize.toolkit.fluxcd.io/prune: disabled`: a Namespace that leaves the output (its last
 *   chart moved or removed), or whose Kustomization is deleted with `prune: true`, stays; deleting
 *   it would delete every release in it.
 *
 * Order: kustomize-controller applies Namespaces (with CRDs) in a stage of their own, waits until
 * they are ready, and only then applies the rest; `kubectl apply -f` applies the objects of a file
 * in the order written. So the Namespaces come first, sorted by name.
 */
import { isSystemNamespace } from '../system-namespaces';
import type { KubeObject } from './airship-v1';
import { FLUX_RESERVED_NAMES } from './flux-sources';

/** kustomize-controller's apply policy annotation. */
export const FLUX_SSA_ANNOTATION = 'kustomize.toolkit.fluxcd.io/ssa';
/** kustomize-controller's garbage collection annotation. */
export const FLUX_PRUNE_ANNOTATION = 'kustomize.toolkit.fluxcd.io/prune';

/**
 * One Namespace per name of `used`, sorted by name, leaving out the namespaces the API server
 * keeps, `flux-system` and `fluxNamespace`: Flux's controllers run there, so it exists wherever these objects can
 * be applied, and Flux's own installation owns it.
 */
export function fluxNamespaceObjects(used: Iterable<string>, fluxNamespace: string): KubeObject[] {
  // Flux's default namespace is Flux's even when it runs elsewhere: never an object of the output.
  const names = [...new Set(used)].filter((n) => n !== fluxNamespace && !FLUX_RESERVED_NAMES.has(n) && !isSystemNamespace(n));
  // Code-unit order, not the locale's: byte-identical output on every machine.
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((name) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, annotations: { [FLUX_PRUNE_ANNOTATION]: 'disabled', [FLUX_SSA_ANNOTATION]: 'IfNotPresent' } },
  }));
}
