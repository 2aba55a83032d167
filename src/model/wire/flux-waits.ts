/**
 * What a HelmRelease's wait guarantees, against each of Armada's waits.
 *
 * Armada ran `helm install/upgrade` (with `--wait` when the native wait is on), and only after Helm
 * returned, so after the post-install/post-upgrade hooks, its own waits: label-selected jobs,
 * pods and controllers with `min_ready`. helm-controller's wait runs inside the Helm action,
 * before the hooks, and a wait that times out fails the release, which remediation uninstalls.
 * So the mapping never waits more than Armada did at that point:
 * - native wait on: Helm 3's wait (`waitStrategy: legacy`, `disableWaitForJobs`), what Armada's
 *   native wait was; kstatus (helm-controller's default `poller`) would wait on more kinds.
 * - native wait off: `disableWait`: Helm returns after its hooks (hook Jobs are still waited for),
 *   as under Armada, and the HelmRelease is Ready then (after its tests).
 * Armada's own waits after the hooks have no place in a HelmRelease; {@link lostWaits} says, per
 * wait, what is waited on instead. What comes next in the plan waits for the HelmRelease's Ready.
 */
import { CONTROLLER_TYPES, EffectiveWaitResource, parseMinReady } from '../wait';

/** One wait as the warning names it: `pod labelled application=keystone, min_ready 2, required`. */
function waitText(w: EffectiveWaitResource, namespace: string): string {
  const labels = Object.entries(w.labels).map(([k, v]) => `${k}=${v}`).join(',');
  const parts = [labels === '' ? `${w.type} (no labels: every ${w.type} in namespace ${JSON.stringify(namespace)})` : `${w.type} labelled ${labels}`];
  const min = parseMinReady(w.minReady);
  if (CONTROLLER_TYPES.includes(w.type) && !(min?.kind === 'percent' && min.percent === 100)) parts.push(`min_ready ${JSON.stringify(w.minReady)}`);
  if (w.required) parts.push('required');
  if (w.allowAsyncUpdates) parts.push('async updates allowed');
  return parts.join(', ');
}

/** What Flux waits on instead of one of Armada's waits, Helm's wait being on (legacy) or off. */
function instead(w: EffectiveWaitResource, native: boolean): string {
  const missing = w.required ? '; and a release without one is not a failure' : '';
  if (!native) return `not waited on${missing}`;
  if (w.type === 'job') return `not waited on (Helm 3's wait skips Jobs; hook Jobs are waited for as hooks)${missing}`;
  const type = w.type === 'pod' ? 'pods' : `${w.type}s`;
  const rule = w.type === 'pod' ? 'Ready' : "ready by Helm 3's rules (which Armada's native wait applied too)";
  return `the release's own ${type} are ${rule} before its hooks run; ${type} created by the hooks or not of the release are not waited on${missing}`;
}

/**
 * The warning for a chart whose Armada waits (`waits`, not empty) Flux does not carry. A chart
 * without wait resources gets none: Helm's wait, or none, is all Armada did too.
 */
export function lostWaits(waits: readonly EffectiveWaitResource[], native: boolean, namespace: string): string {
  const head = native
    ? "native wait on: the HelmRelease waits with Helm 3's wait (waitStrategy legacy, Jobs not waited on), as Armada's native wait did, before the post-install/post-upgrade hooks"
    : 'native wait off: the HelmRelease is written with disableWait, so Helm returns after its hooks (hook Jobs complete), as under Armada, and the release is Ready then, after its tests';
  const each = waits.map((w) => `${waitText(w, namespace)}: ${instead(w, native)}`).join('; ');
  return `${head}. Armada's own waits, after Helm returned, have no place in a HelmRelease (helm-controller waits only before the hooks, and a wait that times out there fails the release, which remediation uninstalls): ${each}. What follows in the plan waits for the HelmRelease to be Ready, not for these; add health checks of your own to the step's Kustomization (spec.healthChecks, by object name) where they matter`;
}
