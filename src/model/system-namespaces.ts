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

/**
 * Namespaces of cluster machinery: the controllers there run with cluster-wide power, so write
 * access to their Secrets, ServiceAccounts and Roles (what a release's namespace gives an
 * operator) is close to cluster-admin, and the machinery's own install created each namespace
 * with the Pod Security labels its pods need. Each with what makes it so, for the warning.
 */
const MACHINERY_NAMESPACES: ReadonlyMap<string, string> = new Map([
  ['kube-system', "the tokens of the cluster's own controllers"],
  ['kube-public', 'readable by every user, unauthenticated ones included'],
  ['kube-node-lease', "the kubelets' leases, which decide which nodes are alive"],
  ['flux-system', "Flux's controllers, which apply what they reconcile as cluster-admin"],
  ['argocd', "Argo CD's application controller, cluster-admin by default"],
  ['cattle-system', "Rancher's agents, cluster-admin"],
  ['cert-manager', "cert-manager, which reads and writes Secrets in every namespace"],
  ['gatekeeper-system', 'Gatekeeper, an admission webhook that sees every request'],
  ['kyverno', 'Kyverno, an admission webhook that can change every request'],
  ['istio-system', 'istiod, which signs the identities of every workload of the mesh'],
  ['calico-system', "Calico's node agents, privileged on every node"],
  ['tigera-operator', "Tigera's operator, which installs Calico cluster-wide"],
]);

/**
 * Why a release in `namespace` is close to cluster-admin for whoever can create one there (a
 * namespace of cluster machinery, see above), or undefined for an ordinary namespace.
 */
export function machineryNamespace(namespace: string): string | undefined {
  return MACHINERY_NAMESPACES.get(namespace);
}
