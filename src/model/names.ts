/** Naming rules Armada, Helm and Kubernetes apply to the names this library writes. */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** Helm 3 rejects release names longer than this (`ValidateReleaseName`). */
export const HELM_RELEASE_NAME_MAX = 53;

/**
 * The Helm release Armada installs: `"{release_prefix}-{release}"`, exactly one hyphen
 * (`armada/utils/release.py::release_prefixer`).
 */
export function releaseName(releasePrefix: string, release: string): string {
  return `${releasePrefix}-${release}`;
}

/** Why `name` is not a DNS-1123 subdomain (Kubernetes object names), or undefined. */
export function dns1123SubdomainProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'must be a non-empty string';
  if (name.length > 253) return `is ${name.length} characters long; at most 253 are allowed`;
  if (!DNS1123_SUBDOMAIN.test(name)) {
    return 'must be a DNS-1123 subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit';
  }
  return undefined;
}

/** Why `name` is not a DNS-1123 label (namespaces), or undefined. */
export function dns1123LabelProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'must be a non-empty string';
  if (name.length > 63) return `is ${name.length} characters long; at most 63 are allowed`;
  if (!DNS1123_LABEL.test(name)) {
    return 'must be a DNS-1123 label: lower-case letters, digits and "-", starting and ending with a letter or digit';
  }
  return undefined;
}

/** Why `name` is not a valid Helm 3 release name, or undefined. */
export function helmReleaseNameProblem(name: string): string | undefined {
  if (name.length > HELM_RELEASE_NAME_MAX) return `is ${name.length} characters long; Helm allows at most ${HELM_RELEASE_NAME_MAX}`;
  if (!DNS1123_SUBDOMAIN.test(name)) {
    return 'is not a valid Helm release name: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit';
  }
  return undefined;
}

/** Why `key` is not a Kubernetes label key, or undefined. */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && dns1123SubdomainProblem(prefix)) return `label key ${JSON.stringify(key)} has an invalid prefix: it must be a DNS-1123 subdomain`;
  if (name.length === 0 || name.length > 63 || !LABEL_NAME.test(name)) {
    return `label key ${JSON.stringify(key)} is invalid: the name part must be 1-63 characters of letters, digits, "-", "_" and ".", starting and ending with a letter or digit`;
  }
  return undefined;
}

/** Why `value` is not a Kubernetes label value, or undefined. */
export function labelValueProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `label values must be strings; received ${typeof value}`;
  if (value === '') return undefined;
  if (value.length > 63 || !LABEL_NAME.test(value)) {
    return `label value ${JSON.stringify(value)} is invalid: at most 63 characters of letters, digits, "-", "_" and ".", starting and ending with a letter or digit`;
  }
  return undefined;
}
