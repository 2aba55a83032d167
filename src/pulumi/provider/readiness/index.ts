/**
 * The readiness gate: Armada's `wait` after each Helm release, as pure rules
 * ({@link resourceReadiness} and friends) and a list/watch loop ({@link waitForResources}).
 */
export { waitForResources } from './watch';
export type { WaitForResourcesOptions, ResourceWaitResult } from './watch';
export {
  checkWaitResource,
  daemonSetReadiness,
  deploymentReadiness,
  excludeReason,
  hasOwner,
  isHelmTestPod,
  jobExcludeReason,
  jobReadiness,
  labelSelector,
  podExcludeReason,
  podReadiness,
  resourceReadiness,
  statefulSetReadiness,
} from './rules';
export type { ControllerRuleOptions, Readiness } from './rules';
export {
  CredentialError,
  IdleConnectionError,
  InvalidWaitResourceError,
  KubeconfigRefusedError,
  KubernetesApiError,
  ReadinessTimeoutError,
  ResponseTooLargeError,
  TransportError,
} from './errors';
export type { NotReadyResource, PendingWait, ReadinessTimeoutDetails } from './errors';
export { resolveKubeConfig } from './kubeconfig';
export type { ClusterConfig, KubeConfigLike } from './kubeconfig';
export type * from './objects';
