/**
 * Kubernetes' RBAC escalation check, as the API server runs it when a subject creates or updates
 * a Role, ClusterRole, RoleBinding or ClusterRoleBinding without `escalate` (or `bind`): every
 * rule of the new object must be covered by a rule the subject already holds. Same semantics as
 * `Covers`, `BreakdownRule` and `ruleCovers` of Kubernetes' `pkg/registry/rbac/validation`:
 * - a rule is broken down into one (group, resource, verb[, name]) or (URL, verb) item each;
 * - `*` in verbs, API groups or resources of the held rule matches anything;
 * - a held resource written `*` then `/status` matches the `status` subresource of any resource,
 *   and a plain resource never matches its subresources (`pods` does not cover `pods/log`);
 * - a held rule with resourceNames covers only those names, one without covers every name;
 * - a held non-resource URL ending in `*` covers every URL with that prefix.
 * Pure: no framework imports.
 */

/** A PolicyRule as in a Role or ClusterRole (the fields Kubernetes' check reads). */
export interface PolicyRule {
  /**
   * API groups (`""` is the core group, `*` any).
   * @default - none (a rule of non-resource URLs)
   */
  readonly apiGroups?: readonly string[] | undefined;
  /**
   * Resources, `name/subresource` for a subresource (`*` any).
   * @default - none
   */
  readonly resources?: readonly string[] | undefined;
  /**
   * The object names the rule is limited to.
   * @default - every object
   */
  readonly resourceNames?: readonly string[] | undefined;
  /**
   * Non-resource URLs (ClusterRoles only), a trailing `*` matching any suffix.
   * @default - none
   */
  readonly nonResourceURLs?: readonly string[] | undefined;
  readonly verbs: readonly string[];
}

const ALL = '*';

/** One rule per (group, resource, verb, name) and per (URL, verb), as Kubernetes' BreakdownRule. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if ((rule.resourceNames ?? []).length > 0) {
          for (const name of rule.resourceNames!) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const has = (set: readonly string[] | undefined, e: string) => (set ?? []).includes(e);
const hasAll = (set: readonly string[] | undefined, items: readonly string[] | undefined) => (items ?? []).every((e) => has(set, e));

function resourceCoversAll(held: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (has(held, ALL) || hasAll(held, wanted)) return true;
  return (wanted ?? []).every((path) => {
    if (has(held, path)) return true;
    const slash = path.indexOf('/');
    // A plain resource is matched exactly or by `*` only.
    if (slash < 0) return false;
    return has(held, `*/${path.slice(slash + 1)}`);
  });
}

function nonResourceURLCovers(held: string, wanted: string): boolean {
  if (held === wanted) return true;
  return held.endsWith('*') && wanted.startsWith(held.replace(/\*+$/, ''));
}

/** Whether one held rule covers one (broken-down) rule, as Kubernetes' ruleCovers. */
export function ruleCovers(held: PolicyRule, wanted: PolicyRule): boolean {
  const verbs = has(held.verbs, ALL) || hasAll(held.verbs, wanted.verbs);
  const groups = has(held.apiGroups, ALL) || hasAll(held.apiGroups, wanted.apiGroups);
  const resources = resourceCoversAll(held.resources, wanted.resources);
  const urls = (wanted.nonResourceURLs ?? []).every((u) => (held.nonResourceURLs ?? []).some((h) => nonResourceURLCovers(h, u)));
  const heldNames = held.resourceNames ?? [];
  const names = (wanted.resourceNames ?? []).length === 0 ? heldNames.length === 0 : heldNames.length === 0 || hasAll(heldNames, wanted.resourceNames);
  return verbs && groups && resources && names && urls;
}

/**
 * Whether the held rules cover every permission of the wanted ones, and the broken-down
 * permissions they do not cover (empty when covered), in the order of the wanted rules.
 */
export function covers(held: readonly PolicyRule[], wanted: readonly PolicyRule[]): { readonly covered: boolean; readonly uncovered: PolicyRule[] } {
  const uncovered = wanted.flatMap(breakdownRule).filter((sub) => !held.some((h) => ruleCovers(h, sub)));
  return { covered: uncovered.length === 0, uncovered };
}

/** One broken-down permission as text: `get apps/deployments[name]`, `get /healthz`. */
export function describePermission(p: PolicyRule): string {
  const verb = p.verbs.join(',');
  if ((p.nonResourceURLs ?? []).length > 0) return `${verb} ${p.nonResourceURLs!.join(',')}`;
  const group = p.apiGroups?.[0] ?? '';
  const names = (p.resourceNames ?? []).length > 0 ? `[${p.resourceNames!.join(',')}]` : '';
  return `${verb} ${group === '' ? '' : `${group}/`}${p.resources?.join(',') ?? ''}${names}`;
}
