/**
 * The namespaces the API server itself keeps: its system namespaces controller creates them at
 * start and again within a minute of their deletion, and the NamespaceLifecycle admission plugin
 * refuses to delete `default`, `kube-system` and `kube-public`. A writer never creates one: it
 * would claim an object the cluster owns (`kubectl apply` adds its last-applied annotation, which
 * makes the namespace one that `kubectl apply --prune` deletes once it leaves the output).
 */
const SYSTEM_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-node-lease', 'kube-public', 'kube-system']);

/** Whether the API server creates `namespace` itself (see above). */
export function isSystemNamespace(namespace: string): boolean {
  return SYSTEM_NAMESPACES.has(namespace);
}
