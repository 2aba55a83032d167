/** The Namespaces a bundle creates, with their Pod Security labels. */
import { Construct, IConstruct } from 'constructs';
import type { Cdk8sPlus } from './cdk8s-plus';
import { PodSecurityLevel } from './props';
import { isSystemNamespace, machineryNamespace } from '../../model/system-namespaces';

const LEVELS: readonly string[] = Object.values(PodSecurityLevel);

/** Why a `podSecurity` entry is invalid, or undefined. */
export function podSecurityProblem(namespace: string, level: string): string | undefined {
  if (LEVELS.includes(level)) return undefined;
  return `podSecurity[${JSON.stringify(namespace)}] ${JSON.stringify(level)}: use PodSecurityLevel.PRIVILEGED, BASELINE or RESTRICTED`;
}

/** Creates each namespace once, across the bundle's charts, enforcing its level. */
export class NamespaceWriter {
  private readonly created = new Set<string>();

  constructor(
    private readonly kplus: Cdk8sPlus,
    private readonly podSecurity: Readonly<Record<string, PodSecurityLevel>>,
  ) {}

  /**
   * `level` unless `podSecurity` names the namespace; `warn` and `audit` are always `restricted`.
   * Namespaces the API server keeps, and those of cluster machinery (`flux-system`...), are never
   * created, so never relabelled nor deleted with a bundle: the machinery's own install made them
   * with the labels its pods need (a release there is warned of, see `bundleWarnings`).
   */
  public create(scope: IConstruct, ns: string, level: PodSecurityLevel): void {
    if (isSystemNamespace(ns) || machineryNamespace(ns) !== undefined || this.created.has(ns)) return;
    this.created.add(ns);
    new this.kplus.Namespace(scope as Construct, ns, {
      metadata: {
        name: ns,
        labels: {
          'pod-security.kubernetes.io/enforce': this.podSecurity[ns] ?? level,
          'pod-security.kubernetes.io/audit': PodSecurityLevel.RESTRICTED,
          'pod-security.kubernetes.io/warn': PodSecurityLevel.RESTRICTED,
        },
      },
    });
  }
}
