/**
 * Strict validation of a `v1` Namespace, the one core kind the Flux output writes: against the
 * Kubernetes API's own types (cdk8s-plus-33's imports, generated from the Kubernetes OpenAPI
 * schema), whose writer keeps only the fields the API knows, so that a field the API server would
 * drop is reported; and what the API server checks itself: the name is a DNS-1123 label, the
 * annotations map qualified names to strings.
 */
import { k8s } from 'cdk8s-plus-33';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

function qualifiedNameProblem(key: string): string | undefined {
  const [prefix, name] = key.includes('/') ? [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)] : [undefined, key];
  if (prefix !== undefined && (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) return 'its prefix is not a DNS-1123 subdomain';
  if (name.length > 63 || !QUALIFIED_NAME.test(name)) return 'its name is not a qualified name';
  return undefined;
}

/** Paths of `actual` that `known` lacks: fields the API's types do not have. */
function unknownFields(actual: unknown, known: unknown, path: string, out: string[]): void {
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return;
  for (const [k, v] of Object.entries(actual)) {
    const kv = (known as Record<string, unknown> | undefined)?.[k];
    if (kv === undefined) out.push(`${path}/${k} is not a field of v1 Namespace`);
    else unknownFields(v, kv, `${path}/${k}`, out);
  }
}

/** Every problem of one Namespace (empty when the API server would accept it as is). */
export function namespaceErrors(obj: { apiVersion?: string | undefined; kind: string; metadata?: any; spec?: any; [k: string]: unknown }): string[] {
  const errors: string[] = [];
  if (obj.apiVersion !== 'v1') errors.push(`/apiVersion is ${JSON.stringify(obj.apiVersion)}, Namespace is served as v1`);
  unknownFields(obj, k8s.KubeNamespace.manifest({ metadata: obj.metadata, spec: obj.spec }), '', errors);
  const name = obj.metadata?.name;
  if (typeof name !== 'string' || name.length > 63 || !DNS1123_LABEL.test(name)) errors.push(`/metadata/name ${JSON.stringify(name)} is not a DNS-1123 label`);
  if (obj.metadata?.namespace !== undefined) errors.push('/metadata/namespace is set on a cluster-scoped object');
  for (const [k, v] of Object.entries(obj.metadata?.annotations ?? {})) {
    const p = qualifiedNameProblem(k);
    if (p) errors.push(`/metadata/annotations key ${JSON.stringify(k)}: ${p}`);
    if (typeof v !== 'string') errors.push(`/metadata/annotations/${k} is not a string`);
  }
  return errors;
}
