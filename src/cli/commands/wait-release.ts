/**
 * The Helm release `armada-cdk wait` works on, from Helm's own records (Secrets labelled
 * `owner=helm,name=RELEASE` in the release's namespace, Helm 3's default storage, which Armada
 * used): its latest revision and that revision's status.
 */
import type { KubeConfigLike } from '../../pulumi/provider/readiness';
import { COLLECTIONS, describeFailure, kubeRequest, KubeRequest, KubeResponse } from '../../pulumi/provider/kube-rest';

/** The latest revision of a release, and its status (`deployed`, `failed`, `pending-upgrade`, ...). */
export interface ReleaseRevision {
  readonly revision: number;
  readonly status: string;
}

/**
 * The latest revision of `release` in `namespace`, or undefined when Helm has no record of it.
 * @throws Error when the records cannot be listed
 */
export async function latestRevision(
  kubeConfig: KubeConfigLike,
  namespace: string,
  release: string,
  request: (k: KubeConfigLike, r: KubeRequest) => Promise<KubeResponse> = kubeRequest,
): Promise<ReleaseRevision | undefined> {
  const res = await request(kubeConfig, { method: 'GET', path: COLLECTIONS.secret(namespace), query: { labelSelector: `owner=helm,name=${release}` } });
  if (res.status !== 200) throw new Error(`cannot list the Helm records of release ${namespace}/${release}: ${describeFailure(res)}`);
  let latest: ReleaseRevision | undefined;
  for (const item of (res.body?.items ?? []) as { metadata?: { labels?: Record<string, string> | undefined } | undefined }[]) {
    const labels = item.metadata?.labels ?? {};
    const revision = Number(labels.version);
    if (!Number.isInteger(revision) || revision < 1) continue;
    if (latest === undefined || revision > latest.revision) latest = { revision, status: labels.status ?? 'unknown' };
  }
  return latest;
}
