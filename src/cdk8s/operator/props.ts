/** The options of {@link ArmadaOperator}, and the types they use. */
import type * as cdk8s from 'cdk8s';
import type { ArmadaManifest } from '../../constructs/armada-manifest';
import type { OperatorApi } from '../operator-api';
import type { WarningHandler } from '../warning-handler';
import type { ChartContents, ResourceKind } from './resource-kinds';

/** A Pod Security Standard level (the `pod-security.kubernetes.io/*` namespace labels). */
export enum PodSecurityLevel {
  /** No restriction (privileged pods, host namespaces). */
  PRIVILEGED = 'privileged',
  /** Prevents known privilege escalations; what release namespaces get by default. */
  BASELINE = 'baseline',
  /** Hardened pods only; what the operator's own namespace gets. */
  RESTRICTED = 'restricted',
}

/** Container resources, as Kubernetes quantities (`"500m"`, `"1Gi"`). */
export interface OperatorResources {
  /**
   * What the scheduler reserves.
   * @default - none
   */
  readonly requests?: { readonly cpu?: string | undefined; readonly memory?: string | undefined } | undefined;
  /**
   * The most the container may use.
   * @default - none
   */
  readonly limits?: { readonly cpu?: string | undefined; readonly memory?: string | undefined } | undefined;
}

/** A Kubernetes Probe object (`httpGet`, `tcpSocket` or `exec`, with its timing fields). */
export interface OperatorProbe {
  readonly [field: string]: unknown;
}

/**
 * How the operator may create the Roles, ClusterRoles and bindings of its charts (Kubernetes lets
 * a subject create them only if it holds every permission they grant, or holds `escalate` /
 * `bind` on them).
 * - `HOLD`: the operator holds every rule of those Roles itself (read from rendered charts, and
 *   helm-toolkit's dependency-check rules for charts with the default kinds). Nothing more than
 *   the charts grant; whoever can write ArmadaCharts can hand those permissions to any
 *   ServiceAccount of a release namespace.
 * - `ESCALATE`: the operator holds `escalate` and `bind` on roles (the charts' own names where
 *   known) in the release namespaces, and on the charts' ClusterRoles: it need not hold their
 *   rules, but whoever can write ArmadaCharts can then grant anything within those namespaces.
 */
export enum RoleEscalation {
  /** The operator holds every rule of its charts' Roles itself. */
  HOLD = 'hold',
  /** The operator holds `escalate` and `bind` on its charts' roles. */
  ESCALATE = 'escalate',
}

/**
 * How the operator's permissions are granted.
 * - `LEAST_PRIVILEGE`: Roles in exactly the namespaces the manifest's releases use, for the kinds
 *   their charts create, and a ClusterRole only for cluster-scoped kinds, namespaces and the
 *   operator's own custom resources.
 * - `CLUSTER_WIDE`: one ClusterRole with the default Helm-release kinds and what the operator
 *   itself does, in every namespace. Broad (it can read and write Secrets everywhere) but no
 *   wildcard; for an operator whose releases are not known when the bundle is built.
 * - `CLUSTER_ADMIN`: binds the built-in `cluster-admin` ClusterRole, as Airship's own chart does.
 *   Unsafe: whoever controls an ArmadaChart (or the operator's pod, or its token) controls the
 *   whole cluster, since a chart may then create any object, including RBAC that grants anything
 *   to anyone. Synthesis warns when it is used.
 */
export enum OperatorRbac {
  /** Roles in exactly the namespaces the manifest's releases use, for the kinds their charts create. */
  LEAST_PRIVILEGE = 'least-privilege',
  /** One ClusterRole with the default Helm-release kinds, in every namespace. */
  CLUSTER_WIDE = 'cluster-wide',
  /** The built-in `cluster-admin` ClusterRole (unsafe; synthesis warns). */
  CLUSTER_ADMIN = 'cluster-admin',
}

/** Where {@link ArmadaOperator} writes the release namespaces. */
export enum ReleaseNamespaceOutput {
  /** A chart of their own beside the operator's, to apply before the bundle and never delete with it. */
  SEPARATE = 'separate',
  /** Not written: created by whoever deploys. */
  NONE = 'none',
}

/** Props of {@link ArmadaOperator}. */
export interface ArmadaOperatorProps {
  /**
   * Which operator to install: the airship operator (one ArmadaChart CRD) or the keleustes one
   * (ArmadaChart, ArmadaChartGroup and ArmadaManifest CRDs). The CRDs are always
   * apiextensions.k8s.io/v1.
   * @default OperatorApi.AIRSHIP_V1
   */
  readonly api?: OperatorApi | undefined;
  /**
   * The manifest the operator will deploy: least-privilege RBAC is derived from it (namespaces
   * and charts of its deployed releases, their waits, pre-upgrade deletes and tests).
   * @default - no manifest: `rbac` must be given (airship), or `namespace` (keleustes)
   */
  readonly manifest?: ArmadaManifest | undefined;
  /**
   * The operator's namespace (its ServiceAccount, Deployment and leader-election lock). The
   * keleustes operator only watches its own namespace (WATCH_NAMESPACE is its pod's) and installs
   * its releases there, so it must be the manifest's. A namespace that holds releases (always for
   * keleustes; for airship, one the manifest's releases, or `releaseNamespaces`, use) is a
   * release namespace: its Namespace is never in the bundle (which `kubectl delete -f` would
   * delete with every release in it) but with the release namespaces (`releaseNamespaceOutput`),
   * at their Pod Security level.
   * @default - airship: "armada-operator-system"; keleustes: the manifest's namespace
   */
  readonly namespace?: string | undefined;
  /**
   * Whether the bundle creates the operator's Namespace, when it holds no releases (release
   * namespaces, the operator's included when it holds releases: see `releaseNamespaceOutput`).
   * `default`, `kube-system`, `kube-public` and `kube-node-lease` are never created.
   * @default true
   */
  readonly createNamespaces?: boolean | undefined;
  /**
   * Name of the ServiceAccount, the Deployment and the RBAC objects (cluster-scoped ones get the
   * namespace appended, so that two bundles in two namespaces do not collide).
   * @default "armada-operator"
   */
  readonly name?: string | undefined;
  /**
   * The operator image, without the tag.
   * @default - airship: "quay.io/airshipit/armada-operator"; keleustes: "keleustes/armada-operator-dev"
   */
  readonly image?: string | undefined;
  /**
   * The image tag, or a digest (`sha256:...`) to pin the exact image.
   * @default - airship: "3305eeda772b96142c6844b70e44c9db83f4e265-ubuntu_noble" (the commit tag its publish job pushed for the last CVE rebuild, 2026-02-03; upstream builds ubuntu_noble images only); keleustes: "v2.14.1" (its deploy/operator.yaml, the last Helm v2 build that installs charts)
   */
  readonly tag?: string | undefined;
  /**
   * When the kubelet pulls the image.
   * @default - Always for a `latest` or `latest-*` tag, IfNotPresent otherwise
   */
  readonly imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never' | undefined;
  /**
   * The cdk8s-plus package to build the bundle with.
   * @default - the newest installed of cdk8s-plus-34 ... cdk8s-plus-28
   */
  readonly cdk8sPlus?: string | undefined;
  /**
   * Pod replicas; more than one needs leader election.
   * @default 1
   */
  readonly replicas?: number | undefined;
  /**
   * airship: run with `--leader-elect` (a Lease in the operator's namespace). The keleustes
   * operator always takes its ConfigMap lock, so `false` is an error for it.
   * @default true
   */
  readonly leaderElection?: boolean | undefined;
  /**
   * Container resources.
   * @default - requests 100m CPU and 256Mi memory, limits 1 CPU and 1Gi memory: Helm holds each chart it renders in memory (an OpenStack-Helm chart with helm-toolkit and its values is tens of MB), and the airship operator reconciles up to 20 ArmadaCharts at once
   */
  readonly resources?: OperatorResources | undefined;
  /**
   * Liveness probe.
   * @default - airship: GET /healthz on 8081; keleustes: none (it serves no health endpoint)
   */
  readonly liveness?: OperatorProbe | undefined;
  /**
   * Readiness probe.
   * @default - airship: GET /readyz on 8081; keleustes: none
   */
  readonly readiness?: OperatorProbe | undefined;
  /**
   * airship: where the health probes listen. The kubelet probes the pod's IP, so that address
   * is enough; on an IPv6 pod network write `[$(POD_IP)]:8081`. Metrics stay on 127.0.0.1:8080.
   * @default "$(POD_IP):8081"
   */
  readonly probeBindAddress?: string | undefined;
  /**
   * Size limit of the `/tmp` emptyDir (chart downloads).
   * @default 512 MiB
   */
  readonly tmpSizeLimit?: cdk8s.Size | undefined;
  /**
   * keleustes: the image that seeds the writable `/opt/armada/helm-charts` (where the operator
   * clones git and unpacks tar sources, and reads the helm-toolkit it copies into charts with
   * dependencies, and local charts) with the operator image's own content. By default a busybox
   * copies it from an image volume of the operator image (Kubernetes 1.35, or 1.31+ with the
   * ImageVolume feature gate); an image given here must hold that content at
   * `/opt/armada/helm-charts` itself, and `cp` (e.g. built from the operator image and busybox).
   * @default "docker.io/library/busybox:1.37.0" with an image volume
   */
  readonly chartsSeedImage?: string | undefined;
  /**
   * Namespaces besides those of cluster machinery (`kube-system`, `flux-system`, `argocd`,
   * `cert-manager`...) where the operator's Secrets, ServiceAccount and Role write access is close
   * to cluster-admin: a release there is a warning.
   * @default - the namespaces of cluster machinery only
   */
  readonly sensitiveNamespaces?: readonly string[] | undefined;
  /**
   * Pod Security level enforced on the namespaces the bundle creates (labels
   * `pod-security.kubernetes.io/enforce`, with `warn` and `audit` at `restricted`). The
   * operator's own pods meet `restricted` (on Kubernetes 1.33 and later with the keleustes image
   * volume, the default without `chartsSeedImage`: `restricted` admits image volumes from 1.33),
   * so a release namespace it shares needs no level for them.
   * @default - "restricted" for the operator's namespace when it holds no releases, "baseline" for release namespaces (the operator's included when it holds releases)
   */
  readonly podSecurity?: Readonly<Record<string, PodSecurityLevel>> | undefined;
  /**
   * Where release namespaces go (the operator's own is in the bundle unless it holds releases;
   * then it is a release namespace, which must exist before the bundle's objects in it):
   * `SEPARATE`: a chart of their own beside the operator's (`<chart>-release-namespaces.k8s.yaml`),
   * to apply before the bundle and never to delete with it; `NONE`: not written (created by
   * whoever deploys, as Armada and the operators do; the bundle's Roles in them then wait for
   * them). With `CLUSTER_WIDE` or `CLUSTER_ADMIN` RBAC only the operator's namespace is written
   * there, when the manifest's releases use it.
   * @default ReleaseNamespaceOutput.SEPARATE
   */
  readonly releaseNamespaceOutput?: ReleaseNamespaceOutput | undefined;
  /**
   * How the operator may create the Roles and bindings its charts contain: hold their rules
   * (`HOLD`), or `escalate`/`bind` on them in the release namespaces (`ESCALATE`).
   * @default RoleEscalation.HOLD
   */
  readonly roleEscalation?: RoleEscalation | undefined;
  /**
   * airship: grant what the download fallback needs (read the `armada-gnp` ConfigMap in the
   * operator's namespace; get, create and delete Calico GlobalNetworkPolicies cluster-wide).
   * @default false
   */
  readonly globalNetworkPolicyFallback?: boolean | undefined;
  /**
   * A NetworkPolicy that admits no traffic to the operator's pod (it serves nothing anyone needs;
   * the keleustes operator's metrics listen on every address with no flag to change it).
   * @default true
   */
  readonly denyIngress?: boolean | undefined;
  /**
   * The user the container runs as (always non-root).
   * @default 65532 (the airship image's USER; the keleustes image, FROM scratch, declares none)
   */
  readonly user?: number | undefined;
  /**
   * The group the container runs as.
   * @default 65532
   */
  readonly group?: number | undefined;
  /**
   * Whether the root filesystem is read-only (emptyDirs are mounted where the operator writes).
   * @default true
   */
  readonly readOnlyRootFilesystem?: boolean | undefined;
  /**
   * How permissions are granted.
   * @default - OperatorRbac.LEAST_PRIVILEGE when `manifest` (or `releaseNamespaces`) is given; for airship
   *   without either, an explicit choice is required; keleustes is always least-privilege
   */
  readonly rbac?: OperatorRbac | undefined;
  /**
   * What each chart creates, by chart name (the chart document's `metadata.name`), replacing
   * `defaultResourceKinds` for that chart: list the kinds by hand, or read a rendered chart with
   * `ResourceKinds.fromRenderedChart('rendered/keystone.yaml')` (its kinds, and the rules of its
   * Roles and ClusterRoles, which the operator must hold to create them). What the operator
   * itself needs (Helm storage, waits, pre-upgrade deletes, tests) is added on top.
   * @default - every chart gets `defaultResourceKinds` and helm-toolkit's dependency-check rules
   */
  readonly resourceKinds?: Readonly<Record<string, ChartContents>> | undefined;
  /**
   * What a chart without an entry in `resourceKinds` creates (also the kinds of `cluster-wide`).
   * @default ResourceKinds.HELM_RELEASE
   */
  readonly defaultResourceKinds?: readonly ResourceKind[] | undefined;
  /**
   * airship without a manifest: least-privilege RBAC for releases in these namespaces, with
   * `defaultResourceKinds` and every wait, delete and test the operator supports.
   * @default - derived from `manifest`
   */
  readonly releaseNamespaces?: readonly string[] | undefined;
  /**
   * Where the synthesis warnings nobody acknowledged go (broad RBAC, sensitive namespaces, the
   * default kind guess; see `Warnings.of(scope).acknowledge`), one call each.
   * @default - printed to stderr, each kind of warning found more than three times as one line
   */
  readonly onWarning?: WarningHandler | undefined;
}
