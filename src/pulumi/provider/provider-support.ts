/**
 * What the provider modules (readiness gate with helm test, pre-upgrade delete) share: the
 * cluster inputs, logging to Pulumi from the provider process, and input comparison for `diff`.
 */
import { setOwn } from '../../model/own-keys';
import { safeText } from '../../model/safe-text';
import { KubeConfigLike, resolveKubeConfig } from './readiness';

/**
 * The cluster a provider talks to: kubeconfig contents or path, and context, as given to
 * `ManifestDeployment` (they must match the Kubernetes provider's). Passed as a secret.
 */
export interface ClusterInputs {
  readonly kubeconfig?: string | undefined;
  readonly context?: string | undefined;
}

/**
 * The part of a Release's `status` output the providers read. The whole output is passed, not
 * its fields one by one: each lifted field would be one more output per chart.
 */
export interface ReleaseState {
  readonly revision?: number | undefined;
  readonly status?: string | undefined;
}

/**
 * Whether the given fields of a release state differ between two runs. A state that is not an
 * object (an unknown in a preview) compares as itself, so it shows as a change.
 */
export function releaseChanged(olds: unknown, news: unknown, fields: readonly (keyof ReleaseState)[]): boolean {
  const version = (state: unknown) => (state !== null && typeof state === 'object' ? fields.map((f) => (state as ReleaseState)[f] ?? null) : (state ?? null));
  return stableJson(version(olds)) !== stableJson(version(news));
}

/** Where a provider's messages go: Pulumi's log by default. */
export interface ProviderLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Pulumi's log. In the dynamic-provider process `@pulumi/pulumi` has no engine connection and
 * prints `info: ...` lines, which the engine passes through to the `pulumi up` output.
 */
export function pulumiLog(): ProviderLog {
  const pulumi = require('@pulumi/pulumi') as typeof import('@pulumi/pulumi');
  // Every line of the providers goes out here: what the cluster or the site said in it is escaped,
  // and a URL in it keeps its credentials to itself.
  return {
    info: (m) => void pulumi.log.info(safeText(m)),
    warn: (m) => void pulumi.log.warn(safeText(m)),
  };
}

/** Loads the KubeConfig of the cluster inputs (the default kubeconfig when there are none). */
export async function loadCluster(cluster: ClusterInputs | undefined): Promise<KubeConfigLike> {
  return resolveKubeConfig(cluster?.kubeconfig || undefined, cluster?.context || undefined);
}

/** JSON with sorted keys: equal for equal data whatever the key order. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) setOwn(sorted, k, (v as Record<string, unknown>)[k]);
    return sorted;
  });
}

/** The keys whose values differ between old outputs and new inputs. */
export function changedKeys(olds: Readonly<Record<string, unknown>>, news: Readonly<Record<string, unknown>>, keys: readonly string[]): string[] {
  return keys.filter((k) => stableJson(olds[k] ?? null) !== stableJson(news[k] ?? null));
}
