/** The verb sets and API groups the operators' RBAC is written with. */

/** What Helm does with the objects of a release: create, read back, watch hooks, upgrade, uninstall. */
export const MANAGE: readonly string[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
export const READ: readonly string[] = ['get', 'list', 'watch'];
/** Helm's secret storage driver. */
export const HELM_STORAGE: readonly string[] = ['get', 'list', 'create', 'update', 'delete'];
/** Controllers update their CRs (finalizers, spec changes by groups) and never create them. */
export const OWN_CR: readonly string[] = ['get', 'list', 'watch', 'update', 'patch'];
export const STATUS: readonly string[] = ['get', 'update', 'patch'];
export const ARMADA_GROUP = 'armada.airshipit.org';
export const RBAC_GROUP = 'rbac.authorization.k8s.io';
