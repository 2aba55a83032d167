/**
 * What an operator is, as data: the shape of the profiles in `profiles/` (one per operator), and
 * of what they describe (CRDs, container, RBAC needs, the releases of a site as it reads them).
 * Types only, so that the profiles, the registry and the RBAC derivation all read them without
 * reading each other.
 */
import type { Plan } from '../../model/plan';
import type { ManifestSpec } from '../../model/spec';
import type { OperatorApi } from '../operator-api';
import type { OperatorProbe, OperatorRbac } from './props';
import type { ChartRole, ChartRoleBinding, ResourceKind } from './resource-kinds';

/** An apiextensions.k8s.io/v1 CustomResourceDefinition, as JSON. */
export interface CustomResourceDefinitionJson {
  readonly apiVersion: 'apiextensions.k8s.io/v1';
  readonly kind: 'CustomResourceDefinition';
  readonly metadata: { readonly name: string };
  readonly spec: Readonly<Record<string, unknown>>;
}

/** What one release of the manifest needs from the operator. */
export interface ReleaseAccess {
  /** The chart document's name. */
  readonly chart: string;
  readonly namespace: string;
  /** What the chart creates. */
  readonly kinds: readonly ResourceKind[];
  /** airship: the `wait.resources[].type`s the operator waits on (defaults applied). */
  readonly waitTypes: readonly string[];
  /** airship: the `upgrade.pre.delete[].type`s deleted before upgrades. */
  readonly deleteTypes: readonly string[];
  /** airship: whether `helm test` runs. */
  readonly test: boolean;
  /** airship: whether Helm's own wait runs. */
  readonly nativeWait: boolean;
  /**
   * Whether the chart's kinds are the default guess, whose Roles are taken to be helm-toolkit's.
   * @default false
   */
  readonly helmToolkitRoles?: boolean | undefined;
  /**
   * The Roles and ClusterRoles the chart creates, read from it rendered.
   * @default - none known
   */
  readonly roles?: readonly ChartRole[] | undefined;
  /**
   * The RoleBindings and ClusterRoleBindings the chart creates.
   * @default - none known
   */
  readonly bindings?: readonly ChartRoleBinding[] | undefined;
}

/** Verbs on resources of one API group, limited to some objects or not. */
export interface Grant {
  readonly apiGroup: string;
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  /**
   * The objects the grant is limited to.
   * @default - every object of the resources
   */
  readonly resourceNames?: readonly string[] | undefined;
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
  readonly globalNetworkPolicyFallback?: { readonly operatorNamespace: readonly Grant[]; readonly cluster: readonly Grant[] } | undefined;
}

/** An environment variable of the operator's container. */
export interface EnvVar {
  readonly name: string;
  /**
   * A literal value.
   * @default - from `fieldPath`
   */
  readonly value?: string | undefined;
  /**
   * A field of the pod (`metadata.namespace`, `status.podIP`, ...).
   * @default - the literal `value`
   */
  readonly fieldPath?: string | undefined;
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
  readonly args?: ((options: { readonly probeBindAddress?: string | undefined; readonly leaderElection: boolean }) => string[]) | undefined;
  readonly env: readonly EnvVar[];
  /**
   * @default - none (no health endpoint)
   */
  readonly liveness?: OperatorProbe | undefined;
  /**
   * @default - none
   */
  readonly readiness?: OperatorProbe | undefined;
  /**
   * A directory the operator writes into that must start with the image's own content there: an
   * emptyDir seeded by an init container (`chartsSeedImage`); `name` names its volume, and the
   * init container `seed-<name>`.
   * @default - none
   */
  readonly seededDirectory?: { readonly name: string; readonly path: string; readonly sizeLimit: string } | undefined;
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
  readonly defaultNamespace?: string | undefined;
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
  readonly misplacedSite?: ((spec: ManifestSpec, plan: Plan, namespace: string, namespaceGiven: boolean) => readonly string[]) | undefined;
  /** The options it refuses, each with the reason the error gives. */
  readonly refuses: {
    /** Neither `manifest` nor `namespace`, for an operator without `defaultNamespace`. */
    readonly noNamespace?: string | undefined;
    /** An `rbac` mode outside `rbacModes`. */
    readonly rbac?: string | undefined;
    /** `leaderElection: false`. */
    readonly leaderElectionOff?: string | undefined;
    /** `globalNetworkPolicyFallback: true`. */
    readonly globalNetworkPolicyFallback?: string | undefined;
    /** `chartsSeedImage`. */
    readonly chartsSeedImage?: string | undefined;
  };
}
