/**
 * Builds whatever of the stack the cache lacks and returns the binaries' paths. Go components are
 * built one after the other (each `go build` already uses every core); the Helm layers, which only
 * download and unpack, are fetched meanwhile.
 */
import { ensureBuilt } from './cache';
import { buildEngines } from './engines';
import { etcd, kubernetes, kwok } from './go-components';
import { helmLayer } from './helm-layers';
import { HELM3_LAYER, HELM4_LAYER } from './versions';

/** Paths of every binary the stack runs. */
export interface StackBinaries {
  readonly etcd: string;
  readonly kubeApiserver: string;
  readonly kubeControllerManager: string;
  readonly kubeScheduler: string;
  readonly kwok: string;
  readonly helm3: string;
  readonly helm4: string;
  readonly kubectl: string;
}

export async function buildStack(log: (line: string) => void): Promise<StackBinaries> {
  const k8s = kubernetes();
  const db = etcd();
  const fake = kwok();
  const helm3 = helmLayer(HELM3_LAYER);
  const helm4 = helmLayer(HELM4_LAYER);
  const layers = Promise.all([helm3, helm4].map((c) => ensureBuilt(c.entry, (dir) => c.build(dir), log)));
  // A failing download must not go unobserved while the Go builds run.
  layers.catch(() => undefined);
  for (const c of [db, k8s, fake]) await ensureBuilt(c.entry, (dir) => c.build(dir), log);
  // Pulumi, its Kubernetes provider, Flux's controllers and Helmfile (the tests find them by
  // their cache entries: e2e/build/engines.ts).
  await buildEngines(log);
  await layers;
  return {
    etcd: db.binaries.etcd!,
    kubeApiserver: k8s.binaries['kube-apiserver']!,
    kubeControllerManager: k8s.binaries['kube-controller-manager']!,
    kubeScheduler: k8s.binaries['kube-scheduler']!,
    kwok: fake.binaries.kwok!,
    helm3: helm3.helm,
    helm4: helm4.helm,
    // The Helm 4 layer's kubectl is of the API server's minor version.
    kubectl: helm4.kubectl,
  };
}
