/**
 * What an operator is, as data: one profile per operator (`profiles/`), read by the bundle's
 * construct, its Deployment and its RBAC, so that none of them asks which operator it is.
 */
import type { Plan } from '../../model/plan';
import type { ManifestSpec } from '../../model/spec';
import { OperatorApi } from '../operator-api';
import type { CustomResourceDefinitionJson } from './crds';
import { airship } from './profiles/airship';
import { keleustes } from './profiles/keleustes';
import type { OperatorProbe, OperatorRbac } from './props';
import type { ReleaseAccess } from './rbac';
import type { ResourceKind } from './resource-kinds';

/** Verbs on resources of one API group, limited to some objects or not. */
export interface Grant {
  readonly apiGroup: string;
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  /**
   * The objects the grant is limited to.
   * @default - every object of the resources
   */
  readonly resourceNames?: readonly string[];
}

/** What the operator itself does, in RBAC terms (what its charts create comes on top). */
export interface OperatorRbacNeeds {
  /** In every release namespace, whatever the release (Helm's release storage). */
  readonly releaseNamespace: readonly Grant[];
  /** The kinds its readiness waits list and watch in the release namespace, by wait type. */
  readonly waitKinds: Readonly<Record<string, ResourceKind>>;
  /**
   * The kinds its pre-upgrade deletes remove, by delete type: deletecollection in the release
   * namespace, list and watch cluster-wide (the poll that follows reads a cluster-wide cache).
   */
  readonly deleteKinds: Readonly<Record<string, ResourceKind>>;
  /** In the release namespace of a release whose tests run (test pods). */
  readonly test: readonly Grant[];
  /** In the release namespace of a release with Helm's own wait (what Helm reads to decide). */
  readonly nativeWait: readonly Grant[];
  /** On its own custom resources, where it watches them (see {@link OperatorProfile.watch}). */
  readonly customResources: readonly Grant[];
  /** In its own namespace, always. */
  readonly operatorNamespace: (namespace: string) => readonly Grant[];
  /** Cluster-wide, once it has a release to install. */
  readonly withReleases: readonly Grant[];
  /** In its own namespace, for its leader-election lock. */
  readonly leaderElection: readonly Grant[];
  /**
   * What its GlobalNetworkPolicy download fallback uses, when asked for.
   * @default - it has none
   */
  readonly globalNetworkPolicyFallback?: { readonly operatorNamespace: readonly Grant[]; readonly cluster: readonly Grant[] };
}

/** An environment variable of the operator's container. */
export interface EnvVar {
  readonly name: string;
  /**
   * A literal value.
   * @default - from `fieldPath`
   */
  readonly value?: string;
  /**
   * A field of the pod (`metadata.namespace`, `status.podIP`, ...).
   * @default - the literal `value`
   */
  readonly fieldPath?: string;
}

/** What the Deployment's container runs, and what it writes besides `/tmp`. */
export interface OperatorContainer {
  /** The image, without the tag. */
  readonly image: string;
  /** The default tag. */
  readonly tag: string;
  /** The container's name. */
  readonly name: string;
  readonly command: readonly string[];
  /**
   * The arguments, from the options that become flags.
   * @default - none (no `args` field)
   */
  readonly args?: (options: { readonly probeBindAddress?: string; readonly leaderElection: boolean }) => string[];
  readonly env: readonly EnvVar[];
  /**
   * @default - none (no health endpoint)
   */
  readonly liveness?: OperatorProbe;
  /**
   * @default - none
   */
  readonly readiness?: OperatorProbe;
  /**
   * A directory the operator writes into that must start with the image's own content there: an
   * emptyDir seeded by an init container (`chartsSeedImage`); `name` names its volume, and the
   * init container `seed-<name>`.
   * @default - none
   */
  readonly seededDirectory?: { readonly name: string; readonly path: string; readonly sizeLimit: string };
}

/**
 * What the operator can be asked to do for a release, for least-privilege RBAC without a
 * manifest (everything it supports).
 */
export type ReleaseActions = Pick<ReleaseAccess, 'waitTypes' | 'deleteTypes' | 'test' | 'nativeWait'>;

/** The releases of a resolved manifest as this operator will read them, or why they cannot be. */
export type ReleasesOfSite = (
  spec: ManifestSpec,
  plan: Plan,
  contents: (chart: string) => Pick<ReleaseAccess, 'kinds' | 'roles' | 'bindings' | 'helmToolkitRoles'>,
  operatorNamespace: string,
) => ReleaseAccess[];

/** One operator. */
export interface OperatorProfile {
  readonly api: OperatorApi;
  /** The CRDs it needs, in file order. */
  readonly crds: readonly CustomResourceDefinitionJson[];
  /**
   * Where it watches its custom resources and installs releases: `cluster` (every namespace,
   * its own namespace fixed) or `own-namespace` (one operator per namespace: the manifest's
   * objects', and every release's).
   */
  readonly watch: 'cluster' | 'own-namespace';
  /**
   * Its namespace when none is given.
   * @default - the namespace of the manifest's objects (`watch: 'own-namespace'`)
   */
  readonly defaultNamespace?: string;
  /** The RBAC modes it can run with. */
  readonly rbacModes: readonly OperatorRbac[];
  readonly container: OperatorContainer;
  readonly rbac: OperatorRbacNeeds;
  /** What it can be asked to do for a release (least-privilege RBAC without a manifest). */
  readonly allActions: ReleaseActions;
  /** Its releases in a resolved manifest. */
  readonly releasesOf: ReleasesOfSite;
  /**
   * The namespace of the manifest's objects for this operator, when it decides the operator's
   * (`watch: 'own-namespace'`).
   * @default - none: the operator's namespace is its own choice
   */
  readonly siteNamespace?: (spec: ManifestSpec, plan: Plan) => string | undefined;
  /**
   * Why the manifest cannot be deployed by this operator in `namespace` (empty: it can).
   * @default - it can, anywhere
   */
  readonly misplacedSite?: (spec: ManifestSpec, plan: Plan, namespace: string, namespaceGiven: boolean) => readonly string[];
  /** The options it refuses, each with the reason the error gives. */
  readonly refuses: {
    /** Neither `manifest` nor `namespace`, for an operator without `defaultNamespace`. */
    readonly noNamespace?: string;
    /** An `rbac` mode outside `rbacModes`. */
    readonly rbac?: string;
    /** `leaderElection: false`. */
    readonly leaderElectionOff?: string;
    /** `globalNetworkPolicyFallback: true`. */
    readonly globalNetworkPolicyFallback?: string;
    /** `chartsSeedImage`. */
    readonly chartsSeedImage?: string;
  };
}

const PROFILES: Readonly<Record<OperatorApi, OperatorProfile>> = {
  [OperatorApi.AIRSHIP_V1]: airship,
  [OperatorApi.KELEUSTES_V1ALPHA1]: keleustes,
};

/** The profile of the operator behind an API. */
export function operatorProfile(api: OperatorApi): OperatorProfile {
  return PROFILES[api];
}
