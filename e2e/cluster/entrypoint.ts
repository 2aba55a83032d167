/**
 * What OpenStack-Helm's init container (kubernetes-entrypoint) does, for pods on fake nodes: a pod
 * labelled `e2e.armada-cdk.io/init-blocked=true` stays in its init containers until every Job named
 * in its annotation `e2e.armada-cdk.io/wait-for-jobs` (comma-separated, same namespace) has
 * completed; then the label is removed and kwok's stages start the pod. Polls: a wait of a fraction
 * of a second is what the real init container does too.
 */
import { KubeEndpoint, kubeOk } from '../kube-http';

const LABEL = 'e2e.armada-cdk.io/init-blocked';
const ANNOTATION = 'e2e.armada-cdk.io/wait-for-jobs';

interface PodItem {
  metadata: { name: string; namespace: string; annotations?: Record<string, string> };
}
interface JobItem {
  status?: { conditions?: { type: string; status: string }[] };
}

/** Starts the loop; the returned function stops it. */
export function startEntrypointSimulator(ep: KubeEndpoint, onError: (message: string) => void, intervalMs = 500): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      const pods = await kubeOk<{ items: PodItem[] }>(ep, 'GET', `/api/v1/pods?labelSelector=${encodeURIComponent(`${LABEL}=true`)}`);
      for (const pod of pods.items) {
        const jobs = (pod.metadata.annotations?.[ANNOTATION] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
        if (!(await allComplete(ep, pod.metadata.namespace, jobs))) continue;
        await kubeOk(ep, 'PATCH', `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`, {
          body: { metadata: { labels: { [LABEL]: null } } },
          contentType: 'application/merge-patch+json',
        }).catch(() => undefined);
      }
    } catch (e) {
      // An API server restart (a test does that on purpose) interrupts the loop; it simply polls again.
      if (!/ECONNREFUSED|ECONNRESET|socket hang up/.test(String(e))) onError(`entrypoint simulator: ${(e as Error).message}`);
    }
    if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
  };
  void tick();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

async function allComplete(ep: KubeEndpoint, namespace: string, jobs: readonly string[]): Promise<boolean> {
  for (const name of jobs) {
    const job = await kubeOk<JobItem>(ep, 'GET', `/apis/batch/v1/namespaces/${namespace}/jobs/${name}`).catch(() => undefined);
    if (!job?.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True')) return false;
  }
  return true;
}
