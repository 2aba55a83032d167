/**
 * What `kubectl apply -f bundle.yaml` on an empty cluster needs beyond each object's own schema:
 * the order (CRDs, Namespaces, ServiceAccount, RBAC, Deployment), every reference resolvable
 * inside the bundle (namespaces, roles, service accounts, selectors), names valid, no wildcard
 * permission, and a pod that passes the "restricted" Pod Security Standard.
 */
type Obj = Record<string, any>;

const SYSTEM_NAMESPACES = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);
const CLUSTER_SCOPED = new Set(['CustomResourceDefinition', 'Namespace', 'ClusterRole', 'ClusterRoleBinding']);
const ORDER = ['CustomResourceDefinition', 'Namespace', 'ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding', 'NetworkPolicy', 'Deployment'];
const PHASE: Record<string, number> = { CustomResourceDefinition: 0, Namespace: 1, ServiceAccount: 2, Role: 3, RoleBinding: 3, ClusterRole: 3, ClusterRoleBinding: 3, NetworkPolicy: 4, Deployment: 4 };
const VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'bind', 'escalate']);
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Every problem found in the bundle (empty when it applies cleanly, in order). */
export function bundleErrors(objects: readonly Obj[], appliedBefore: readonly Obj[] = []): string[] {
  const errors: string[] = [];
  const id = (o: Obj) => `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`;
  const find = (kind: string, name: string, namespace?: string) => objects.find((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === namespace);
  const namespaces = new Set(objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name));
  const earlier = new Set(appliedBefore.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name));
  const seen = new Set<string>();
  let phase = 0;
  for (const o of objects) {
    if (o.kind === 'Namespace' && !o.metadata.labels?.['pod-security.kubernetes.io/enforce']) errors.push(`${id(o)}: no Pod Security label`);
    if (!ORDER.includes(o.kind)) errors.push(`${id(o)}: unexpected kind in the operator bundle`);
    if (PHASE[o.kind] < phase) errors.push(`${id(o)}: comes after a later phase (order must be CRDs, Namespaces, ServiceAccount, RBAC, Deployment)`);
    phase = Math.max(phase, PHASE[o.kind] ?? phase);
    if (seen.has(id(o))) errors.push(`${id(o)}: defined twice`);
    seen.add(id(o));
    if (!DNS1123_SUBDOMAIN.test(o.metadata?.name ?? '') || o.metadata.name.length > 253) errors.push(`${id(o)}: name is not a DNS-1123 subdomain`);
    const ns = o.metadata?.namespace;
    if (CLUSTER_SCOPED.has(o.kind)) {
      if (ns !== undefined) errors.push(`${id(o)}: a cluster-scoped object has a namespace`);
    } else if (ns === undefined) {
      errors.push(`${id(o)}: a namespaced object without a namespace would land in kubectl's current namespace`);
    } else if (!SYSTEM_NAMESPACES.has(ns)) {
      if (earlier.has(ns)) continue;
      if (!namespaces.has(ns)) errors.push(`${id(o)}: namespace ${ns} is not created by the bundle`);
      else if (objects.findIndex((x) => x.kind === 'Namespace' && x.metadata.name === ns) > objects.indexOf(o)) errors.push(`${id(o)}: its namespace comes later in the file`);
    }
    if (o.kind === 'Role' || o.kind === 'ClusterRole') {
      for (const [i, r] of (o.rules ?? []).entries()) {
        const where = `${id(o)}: rules[${i}]`;
        if ([...(r.apiGroups ?? []), ...(r.resources ?? []), ...(r.verbs ?? [])].includes('*')) errors.push(`${where}: wildcard`);
        if (r.nonResourceURLs) errors.push(`${where}: non-resource URLs are not needed`);
        if (!r.resources?.length || !r.apiGroups?.length || !r.verbs?.length) errors.push(`${where}: empty groups, resources or verbs`);
        for (const v of r.verbs ?? []) if (!VERBS.has(v)) errors.push(`${where}: verb ${v}`);
        if (r.resourceNames?.length && (r.verbs ?? []).some((v: string) => v === 'create' || v === 'list' || v === 'watch' || v === 'deletecollection')) {
          errors.push(`${where}: ${r.verbs.join(',')} cannot be limited by resourceNames`);
        }
      }
    }
    if (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') {
      const ref = o.roleRef;
      const target = ref.kind === 'Role' ? find('Role', ref.name, ns) : find('ClusterRole', ref.name);
      if (ref.apiGroup !== 'rbac.authorization.k8s.io') errors.push(`${id(o)}: roleRef.apiGroup ${ref.apiGroup}`);
      if (o.kind === 'ClusterRoleBinding' && ref.kind !== 'ClusterRole') errors.push(`${id(o)}: a ClusterRoleBinding must refer to a ClusterRole`);
      if (!target && !(ref.kind === 'ClusterRole' && ref.name === 'cluster-admin')) errors.push(`${id(o)}: roleRef ${ref.kind} ${ref.name} is not in the bundle`);
      for (const s of o.subjects ?? []) {
        if (s.kind !== 'ServiceAccount' || !find('ServiceAccount', s.name, s.namespace)) errors.push(`${id(o)}: subject ${s.kind} ${s.namespace}/${s.name} is not a ServiceAccount of the bundle`);
      }
    }
    if (o.kind === 'Deployment') errors.push(...podErrors(o, id(o), find));
  }
  return errors;
}

function podErrors(d: Obj, where: string, find: (kind: string, name: string, namespace?: string) => Obj | undefined): string[] {
  const errors: string[] = [];
  const labels = d.spec.template.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(d.spec.selector?.matchLabels ?? {})) if (labels[k] !== v) errors.push(`${where}: selector ${k}=${String(v)} does not match the pod template`);
  if (Object.keys(d.spec.selector?.matchLabels ?? {}).some((k) => k.startsWith('cdk8s.io/'))) errors.push(`${where}: the selector (immutable) depends on the construct path`);
  const pod = d.spec.template.spec;
  if (!find('ServiceAccount', pod.serviceAccountName, d.metadata.namespace)) errors.push(`${where}: serviceAccountName ${pod.serviceAccountName} is not in the bundle`);
  if (pod.automountServiceAccountToken === false) errors.push(`${where}: the operator needs its token`);
  // The restricted Pod Security Standard.
  for (const k of ['hostNetwork', 'hostPID', 'hostIPC']) if (pod[k] === true) errors.push(`${where}: ${k}`);
  for (const v of pod.volumes ?? []) {
    if (v.hostPath) errors.push(`${where}: hostPath volume ${v.name}`);
    if (v.emptyDir && !v.emptyDir.sizeLimit) errors.push(`${where}: emptyDir ${v.name} has no sizeLimit`);
  }
  if (pod.containers.some((c: Obj) => c.imagePullPolicy !== 'IfNotPresent' || !/(:[^:/]+|@sha256:[0-9a-f]{64})$/.test(c.image) || /:latest(-|$)/.test(c.image))) errors.push(`${where}: the operator image is not pinned with IfNotPresent`);
  if (pod.securityContext?.runAsUser === 0) errors.push(`${where}: runs as root`);
  for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
    const sc = c.securityContext ?? {};
    const at = `${where}: container ${c.name}`;
    if ((sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot) !== true) errors.push(`${at}: runAsNonRoot is not true`);
    if (sc.runAsUser === 0) errors.push(`${at}: runs as root`);
    if (sc.allowPrivilegeEscalation !== false) errors.push(`${at}: allowPrivilegeEscalation is not false`);
    if (sc.privileged === true) errors.push(`${at}: privileged`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) errors.push(`${at}: capabilities are not all dropped`);
    if ((sc.capabilities?.add ?? []).length > 0) errors.push(`${at}: capabilities added`);
    const seccomp = sc.seccompProfile?.type ?? pod.securityContext?.seccompProfile?.type;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') errors.push(`${at}: no RuntimeDefault seccomp profile`);
    if (!c.resources?.limits?.memory) errors.push(`${at}: no memory limit`);
    for (const m of c.volumeMounts ?? []) if (!(pod.volumes ?? []).some((v: Obj) => v.name === m.name)) errors.push(`${at}: mount ${m.name} has no volume`);
  }
  return errors;
}
