/**
 * The checks of an ArmadaOperator's options that need no manifest: misuse throws at once, with
 * the construct path and the fix. What each operator refuses, and why, is in its profile.
 */
import { dns1123LabelProblem } from '../../model/names';
import { podSecurityProblem } from './namespaces';
import type { OperatorProfile } from './operator-profile';
import { ArmadaOperatorProps, OperatorRbac } from './props';

/** The RBAC mode and the replicas of valid options; throws on misuse. */
export function checkProps(where: string, p: ArmadaOperatorProps, profile: OperatorProfile): { rbac: OperatorRbac; replicas: number } {
  const rbac = chooseRbac(where, p, profile);
  if (profile.defaultNamespace === undefined && p.manifest === undefined && p.namespace === undefined) {
    throw new Error(`${where}: ${profile.refuses.noNamespace ?? 'this operator has no default namespace: give the manifest (its namespace is used) or namespace'}`);
  }
  const refused: readonly [keyof OperatorProfile['refuses'], boolean, string][] = [
    ['leaderElectionOff', p.leaderElection === false, 'leaderElection false'],
    ['globalNetworkPolicyFallback', p.globalNetworkPolicyFallback === true, 'globalNetworkPolicyFallback'],
    ['chartsSeedImage', p.chartsSeedImage !== undefined, 'chartsSeedImage'],
  ];
  for (const [option, given, what] of refused) {
    const reason = profile.refuses[option];
    if (given && reason !== undefined) throw new Error(`${where}: ${what}: ${reason}`);
  }
  const replicas = p.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 0) throw new Error(`${where}: replicas ${replicas}: must be a whole number, 0 or more`);
  if (replicas > 1 && p.leaderElection === false) {
    throw new Error(`${where}: replicas ${replicas} with leaderElection false: several operators would reconcile the same releases at once; enable leader election or run one replica`);
  }
  if (p.resourceKinds !== undefined && (p.manifest === undefined || rbac !== OperatorRbac.LEAST_PRIVILEGE)) {
    throw new Error(`${where}: resourceKinds apply to least-privilege RBAC derived from a manifest; give the manifest, or use defaultResourceKinds`);
  }
  checkLabel(where, 'name', p.name ?? 'armada-operator');
  for (const [ns, level] of Object.entries(p.podSecurity ?? {})) {
    const problem = podSecurityProblem(ns, level);
    if (problem) throw new Error(`${where}: ${problem}`);
  }
  return { rbac, replicas };
}

/** Throws unless `value` is a DNS-1123 label (Kubernetes namespaces, and the names the bundle derives from it). */
export function checkLabel(where: string, option: string, value: string): void {
  const problem = dns1123LabelProblem(value);
  if (problem) throw new Error(`${where}: ${option} ${JSON.stringify(value)}: ${problem}`);
}

function chooseRbac(where: string, p: ArmadaOperatorProps, profile: OperatorProfile): OperatorRbac {
  if (p.rbac !== undefined && !profile.rbacModes.includes(p.rbac)) {
    throw new Error(`${where}: rbac ${JSON.stringify(p.rbac)}: ${profile.refuses.rbac ?? `this operator runs with ${profile.rbacModes.map((m) => JSON.stringify(m)).join(', ')} only`}`);
  }
  // One namespace, known from the manifest or given: least privilege needs nothing more.
  if (profile.watch === 'own-namespace') return OperatorRbac.LEAST_PRIVILEGE;
  if (p.rbac !== undefined) {
    if (p.rbac === OperatorRbac.LEAST_PRIVILEGE && p.manifest === undefined && p.releaseNamespaces === undefined) {
      throw new Error(`${where}: least-privilege RBAC needs the manifest (or releaseNamespaces) to know where the releases go`);
    }
    if (p.rbac !== OperatorRbac.LEAST_PRIVILEGE && p.releaseNamespaces !== undefined) throw new Error(`${where}: releaseNamespaces apply to least-privilege RBAC only`);
    return p.rbac;
  }
  if (p.manifest === undefined && p.releaseNamespaces === undefined) {
    throw new Error(
      `${where}: no manifest, so least-privilege RBAC cannot be derived: give the manifest, or releaseNamespaces, or choose rbac OperatorRbac.CLUSTER_WIDE (broad, no wildcard) or OperatorRbac.CLUSTER_ADMIN (unsafe)`,
    );
  }
  return OperatorRbac.LEAST_PRIVILEGE;
}
