/**
 * Workloads for the tests, as the JSON the API server takes: pods of an image that is never pulled
 * (kwok plays the kubelet), with the labels and annotations kwok's stages read (see
 * cluster/kwok-stages.yaml).
 */
import { KubeEndpoint, kubeOk } from './kube-http';

/** How kwok treats a workload's pods. */
export interface PodBehaviour {
  /** Pods stay Pending until the label is removed. @default false */
  readonly stall?: boolean | undefined;
  /** Pods fail. @default false */
  readonly fail?: boolean | undefined;
  /** Pods restart once after becoming ready. @default false */
  readonly restart?: boolean | undefined;
  /** Delay before a pod becomes Ready (a Go duration). @default - about 0.1 s */
  readonly readyAfter?: string | undefined;
  readonly restartAfter?: string | undefined;
  readonly recoverAfter?: string | undefined;
}

export function podTemplate(labels: Record<string, string>, behaviour: PodBehaviour = {}): Record<string, unknown> {
  const annotations: Record<string, string> = {};
  if (behaviour.readyAfter) annotations['e2e.armada-cdk.io/ready-after'] = behaviour.readyAfter;
  if (behaviour.restartAfter) annotations['e2e.armada-cdk.io/restart-after'] = behaviour.restartAfter;
  if (behaviour.recoverAfter) annotations['e2e.armada-cdk.io/recover-after'] = behaviour.recoverAfter;
  const kwokLabels: Record<string, string> = {};
  if (behaviour.stall) kwokLabels['e2e.armada-cdk.io/stall'] = 'true';
  if (behaviour.fail) kwokLabels['e2e.armada-cdk.io/fail'] = 'true';
  if (behaviour.restart) kwokLabels['e2e.armada-cdk.io/restart'] = 'true';
  return {
    metadata: { labels: { ...labels, ...kwokLabels }, annotations },
    spec: { containers: [{ name: 'app', image: 'registry.invalid/e2e/app:1' }], terminationGracePeriodSeconds: 0 },
  };
}

export function deployment(name: string, replicas: number, labels: Record<string, string>, behaviour: PodBehaviour = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels },
    spec: { replicas, selector: { matchLabels: labels }, template: podTemplate(labels, behaviour) },
  };
}

export function pod(name: string, labels: Record<string, string>, behaviour: PodBehaviour = {}): Record<string, unknown> {
  const t = podTemplate(labels, behaviour) as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
  return { apiVersion: 'v1', kind: 'Pod', metadata: { ...t.metadata, name }, spec: t.spec };
}

const PATHS: Readonly<Record<string, string>> = { Deployment: '/apis/apps/v1/namespaces/NS/deployments', Pod: '/api/v1/namespaces/NS/pods' };

/** Creates an object of {@link PATHS}' kinds in `namespace`. */
export function create(ep: KubeEndpoint, namespace: string, obj: Record<string, unknown>): Promise<any> {
  const path = PATHS[obj.kind as string];
  if (!path) throw new Error(`workloads.create: no path for kind ${String(obj.kind)}`);
  return kubeOk(ep, 'POST', path.replace('NS', namespace), { body: obj });
}

/** Polls `read` until `until` holds of its value; returns that value. */
export async function poll<T>(what: string, read: () => Promise<T>, until: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await read();
    if (until(last)) return last;
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}; last seen: ${JSON.stringify(last)?.slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The pods of `namespace` matching `selector`. */
export async function listPods(ep: KubeEndpoint, namespace: string, selector: string): Promise<any[]> {
  const list = await kubeOk<{ items: any[] }>(ep, 'GET', `/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(selector)}`);
  return list.items;
}

/** Removes the stall label from a pod, so that kwok starts it. */
export function unstall(ep: KubeEndpoint, namespace: string, podName: string): Promise<unknown> {
  return kubeOk(ep, 'PATCH', `/api/v1/namespaces/${namespace}/pods/${podName}`, {
    body: { metadata: { labels: { 'e2e.armada-cdk.io/stall': null } } },
    contentType: 'application/merge-patch+json',
  });
}

export function isReady(p: any): boolean {
  return p?.status?.phase === 'Running' && (p.status.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
}
