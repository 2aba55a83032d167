/**
 * What each deployed release needs from the operator, from a resolved manifest (pure): its
 * namespace, what its chart creates (declared, read from a rendered chart, or the default
 * guess), and what the operator does for it as its profile reads the manifest (waits,
 * pre-upgrade deletes, tests).
 */
import { Plan } from '../../model/plan';
import { ManifestSpec } from '../../model/spec';
import type { ArmadaManifest } from '../../constructs/armada-manifest';
import { errorsOf, formatDiagnostic } from '../../model/diagnostics';
import type { OperatorProfile, ReleaseAccess } from './operator-profile';
import { ChartContents, RenderedChart, ResourceKind } from './resource-kinds';


export function isRenderedChart(c: ChartContents): c is RenderedChart {
  return !Array.isArray(c) && typeof (c as RenderedChart).source === 'string';
}

/** The releases of a resolved manifest, one per deployed chart, in deployment order. */
export function releasesOf(
  profile: OperatorProfile,
  spec: ManifestSpec,
  plan: Plan,
  declared: Readonly<Record<string, ChartContents>>,
  defaults: readonly ResourceKind[],
  operatorNamespace: string,
): ReleaseAccess[] {
  const contents = (chart: string): Pick<ReleaseAccess, 'kinds' | 'roles' | 'bindings' | 'helmToolkitRoles'> => {
    const c = declared[chart];
    if (c === undefined) return { kinds: defaults, helmToolkitRoles: true };
    return isRenderedChart(c) ? { kinds: c.kinds, roles: c.roles, bindings: c.bindings } : { kinds: c };
  };
  return profile.releasesOf(spec, plan, contents, operatorNamespace);
}

/** Without a manifest: releases of any chart in the given namespaces, with everything the operator can be asked to do. */
export function releasesAnywhere(profile: OperatorProfile, namespaces: readonly string[], defaults: readonly ResourceKind[]): ReleaseAccess[] {
  return namespaces.map((namespace): ReleaseAccess => ({ chart: '*', namespace, kinds: defaults, helmToolkitRoles: true, ...profile.allActions }));
}

/** What a bundle's releases come from. */
export interface ReleaseSource {
  readonly manifest?: ArmadaManifest | undefined;
  /** The namespaces given without a manifest (`cluster` watchers only). */
  readonly releaseNamespaces?: readonly string[] | undefined;
  readonly resourceKinds?: Readonly<Record<string, ChartContents>> | undefined;
  readonly defaultKinds: readonly ResourceKind[];
  readonly operatorNamespace: string;
  /** Whether the operator's namespace was given (and so not taken from the manifest). */
  readonly namespaceGiven: boolean;
}

/** The releases least-privilege RBAC is derived from, or the errors that prevent reading them. */
export function siteReleases(profile: OperatorProfile, source: ReleaseSource): { releases: ReleaseAccess[] } | { errors: string[] } {
  const ownNamespace = profile.watch === 'own-namespace';
  if (source.manifest === undefined) {
    const namespaces = ownNamespace ? [source.operatorNamespace] : [...new Set(source.releaseNamespaces ?? [])];
    return { releases: releasesAnywhere(profile, namespaces, source.defaultKinds) };
  }
  const resolved = source.manifest.resolve();
  const modelErrors = errorsOf(resolved.diagnostics);
  if (modelErrors.length > 0) return { errors: modelErrors.map((d) => formatDiagnostic(d, 'bare')) };
  const { spec, plan } = resolved;
  const declared = source.resourceKinds ?? {};
  const deployed = [...new Set(plan.releases.map((r) => r.chart))];
  const unknown = Object.keys(declared).filter((c) => !deployed.includes(c));
  if (unknown.length > 0) {
    return { errors: [`resourceKinds names ${unknown.map((u) => JSON.stringify(u)).join(', ')}, which the manifest does not deploy; its deployed charts are ${deployed.map((c) => JSON.stringify(c)).join(', ')}`] };
  }
  const misplaced = profile.misplacedSite?.(spec, plan, source.operatorNamespace, source.namespaceGiven) ?? [];
  if (misplaced.length > 0) return { errors: [...misplaced] };
  return { releases: releasesOf(profile, spec, plan, declared, source.defaultKinds, source.operatorNamespace) };
}
