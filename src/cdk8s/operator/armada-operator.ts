/**
 * The operator install bundle: everything `kubectl apply -f` needs to run an Armada operator,
 * without Helm (which would need the operator's own chart installed by the tool the operator
 * replaces): CRDs, Namespaces, ServiceAccount, RBAC, Deployment, in that order in the file.
 */
import * as cdk8s from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { ArmadaManifest } from '../../constructs/armada-manifest';
import { Diagnostic, formatDiagnostic } from '../../model/diagnostics';
import { toKeleustesObjects } from '../../model/wire/keleustes-v1alpha1';
import { ArmadaChartOutput, OperatorApi, WarningHandler } from '../outputs';
import { RenderedObject } from '../rendered-object';
import { Cdk8sPlus, loadCdk8sPlus } from './cdk8s-plus';
import { operatorCrds } from './crds';
import { describeFinding, escalationFindings } from './escalation';
import { clusterWide, leastPrivilege, OperatorPermissions, RbacRule, ReleaseAccess, RoleEscalation } from './rbac';
import { ChartContents, releasesOf } from './releases';
import { ResourceKind, ResourceKinds } from './resource-kinds';

type Kplus = Cdk8sPlus;
/** A Pod Security Standard level (the `pod-security.kubernetes.io/*` namespace labels). */
export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

/** Container resources, as Kubernetes quantities (`"500m"`, `"1Gi"`). */
export interface OperatorResources {
  /**
   * What the scheduler reserves.
   * @default - none
   */
  readonly requests?: { readonly cpu?: string; readonly memory?: string };
  /**
   * The most the container may use.
   * @default - none
   */
  readonly limits?: { readonly cpu?: string; readonly memory?: string };
}

/** A Kubernetes Probe object (`httpGet`, `tcpSocket` or `exec`, with its timing fields). */
export interface OperatorProbe {
  readonly [field: string]: unknown;
}

/**
 * How the operator's permissions are granted.
 * - `least-privilege`: Roles in exactly the namespaces the manifest's releases use, for the kinds
 *   their charts create, and a ClusterRole only for cluster-scoped kinds, namespaces and the
 *   operator's own custom resources.
 * - `cluster-wide`: one ClusterRole with the default Helm-release kinds and what the operator
 *   itself does, in every namespace. Broad (it can read and write Secrets everywhere) but no
 *   wildcard; for an operator whose releases are not known when the bundle is built.
 * - `cluster-admin`: binds the built-in `cluster-admin` ClusterRole, as Airship's own chart does.
 *   Unsafe: whoever controls an ArmadaChart (or the operator's pod, or its token) controls the
 *   whole cluster, since a chart may then create any object, including RBAC that grants anything
 *   to anyone. Synthesis warns when it is used.
 */
export type OperatorRbac = 'least-privilege' | 'cluster-wide' | 'cluster-admin';

/** Props of {@link ArmadaOperator}. */
export interface ArmadaOperatorProps {
  /**
   * Which operator to install: the airship operator (one ArmadaChart CRD) or the keleustes one
   * (ArmadaChart, ArmadaChartGroup and ArmadaManifest CRDs). The CRDs are always
   * apiextensions.k8s.io/v1.
   * @default OperatorApi.AIRSHIP_V1
   */
  readonly api?: OperatorApi;
  /**
   * The manifest the operator will deploy: least-privilege RBAC is derived from it (namespaces
   * and charts of its deployed releases, their waits, pre-upgrade deletes and tests).
   * @default - no manifest: `rbac` must be given (airship), or `namespace` (keleustes)
   */
  readonly manifest?: ArmadaManifest;
  /**
   * The operator's namespace (its ServiceAccount, Deployment and leader-election lock). The
   * keleustes operator only watches its own namespace, so it must be the manifest's.
   * @default - airship: "armada-operator-system"; keleustes: the manifest's namespace
   */
  readonly namespace?: string;
  /**
   * Whether the bundle creates the operator's Namespace (release namespaces: see
   * `releaseNamespaceOutput`). `default`, `kube-system`, `kube-public` and `kube-node-lease` are
   * never created.
   * @default true
   */
  readonly createNamespaces?: boolean;
  /**
   * Name of the ServiceAccount, the Deployment and the RBAC objects (cluster-scoped ones get the
   * namespace appended, so that two bundles in two namespaces do not collide).
   * @default "armada-operator"
   */
  readonly name?: string;
  /**
   * The operator image, without the tag.
   * @default - airship: "quay.io/airshipit/armada-operator"; keleustes: "keleustes/armada-operator-dev"
   */
  readonly image?: string;
  /**
   * The image tag, or a digest (`sha256:...`) to pin the exact image.
   * @default - airship: "3305eeda772b96142c6844b70e44c9db83f4e265-ubuntu_noble" (the commit tag its publish job pushed for the last CVE rebuild, 2026-02-03; upstream builds ubuntu_noble images only); keleustes: "v2.14.1" (its deploy/operator.yaml, the last Helm v2 build that installs charts)
   */
  readonly tag?: string;
  /**
   * When the kubelet pulls the image.
   * @default - Always for a `latest` or `latest-*` tag, IfNotPresent otherwise
   */
  readonly imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  /**
   * The cdk8s-plus package to build the bundle with.
   * @default - the newest installed of cdk8s-plus-33 ... cdk8s-plus-28
   */
  readonly cdk8sPlus?: string;
  /**
   * Pod replicas; more than one needs leader election.
   * @default 1
   */
  readonly replicas?: number;
  /**
   * airship: run with `--leader-elect` (a Lease in the operator's namespace). The keleustes
   * operator always takes its ConfigMap lock, so `false` is an error for it.
   * @default true
   */
  readonly leaderElection?: boolean;
  /**
   * Container resources.
   * @default - requests 100m CPU and 256Mi memory, limits 1 CPU and 1Gi memory: Helm holds each chart it renders in memory (an OpenStack-Helm chart with helm-toolkit and its values is tens of MB), and the airship operator reconciles up to 20 ArmadaCharts at once
   */
  readonly resources?: OperatorResources;
  /**
   * Liveness probe.
   * @default - airship: GET /healthz on 8081; keleustes: none (it serves no health endpoint)
   */
  readonly liveness?: OperatorProbe;
  /**
   * Readiness probe.
   * @default - airship: GET /readyz on 8081; keleustes: none
   */
  readonly readiness?: OperatorProbe;
  /**
   * airship: where the health probes listen. The kubelet probes the pod's IP, so that address
   * is enough; on an IPv6 pod network write `[$(POD_IP)]:8081`. Metrics stay on 127.0.0.1:8080.
   * @default "$(POD_IP):8081"
   */
  readonly probeBindAddress?: string;
  /**
   * Size limit of the `/tmp` emptyDir (chart downloads).
   * @default 512 MiB
   */
  readonly tmpSizeLimit?: cdk8s.Size;
  /**
   * keleustes: the image that seeds the writable `/opt/armada/helm-charts` (where the operator
   * clones git and unpacks tar sources, and reads the helm-toolkit it copies into charts with
   * dependencies, and local charts) with the operator image's own content. By default a busybox
   * copies it from an image volume of the operator image (Kubernetes 1.35, or 1.31+ with the
   * ImageVolume feature gate); an image given here must hold that content at
   * `/opt/armada/helm-charts` itself, and `cp` (e.g. built from the operator image and busybox).
   * @default "docker.io/library/busybox:1.37.0" with an image volume
   */
  readonly chartsSeedImage?: string;
  /**
   * Namespaces besides `kube-system` where the operator's Secrets, ServiceAccount and Role write
   * access is close to cluster-admin: a release there is a warning.
   * @default - kube-system only
   */
  readonly sensitiveNamespaces?: readonly string[];
  /**
   * Pod Security level enforced on the namespaces the bundle creates (labels
   * `pod-security.kubernetes.io/enforce`, with `warn` and `audit` at `restricted`).
   * @default - "restricted" for the operator's namespace, "baseline" for release namespaces
   */
  readonly podSecurity?: Readonly<Record<string, PodSecurityLevel>>;
  /**
   * Where release namespaces go (the operator's own is always in the bundle):
   * `separate`: a chart of their own beside the operator's (`<chart>-release-namespaces.k8s.yaml`),
   * to apply before the bundle and never to delete with it; `none`: not written (created by
   * whoever deploys, as Armada and the operators do; the bundle's Roles in them then wait for
   * them).
   * @default "separate"
   */
  readonly releaseNamespaceOutput?: 'separate' | 'none';
  /**
   * How the operator may create the Roles and bindings its charts contain: hold their rules
   * (`hold`), or `escalate`/`bind` on them in the release namespaces (`escalate`).
   * @default "hold"
   */
  readonly roleEscalation?: RoleEscalation;
  /**
   * airship: grant what the download fallback needs (read the `armada-gnp` ConfigMap in the
   * operator's namespace; get, create and delete Calico GlobalNetworkPolicies cluster-wide).
   * @default false
   */
  readonly globalNetworkPolicyFallback?: boolean;
  /**
   * A NetworkPolicy that admits no traffic to the operator's pod (it serves nothing anyone needs;
   * the keleustes operator's metrics listen on every address with no flag to change it).
   * @default true
   */
  readonly denyIngress?: boolean;
  /**
   * The user the container runs as (always non-root).
   * @default 65532 (the airship image's USER; the keleustes image, FROM scratch, declares none)
   */
  readonly user?: number;
  /**
   * The group the container runs as.
   * @default 65532
   */
  readonly group?: number;
  /**
   * Whether the root filesystem is read-only (emptyDirs are mounted where the operator writes).
   * @default true
   */
  readonly readOnlyRootFilesystem?: boolean;
  /**
   * How permissions are granted.
   * @default - "least-privilege" when `manifest` (or `releaseNamespaces`) is given; for airship
   *   without either, an explicit choice is required; keleustes is always least-privilege
   */
  readonly rbac?: OperatorRbac;
  /**
   * What each chart creates, by chart name (the chart document's `metadata.name`), replacing
   * `defaultResourceKinds` for that chart: list the kinds by hand, or read a rendered chart with
   * `ResourceKinds.fromRenderedChart('rendered/keystone.yaml')` (its kinds, and the rules of its
   * Roles and ClusterRoles, which the operator must hold to create them). What the operator
   * itself needs (Helm storage, waits, pre-upgrade deletes, tests) is added on top.
   * @default - every chart gets `defaultResourceKinds` and helm-toolkit's dependency-check rules
   */
  readonly resourceKinds?: Readonly<Record<string, ChartContents>>;
  /**
   * What a chart without an entry in `resourceKinds` creates (also the kinds of `cluster-wide`).
   * @default ResourceKinds.HELM_RELEASE
   */
  readonly defaultResourceKinds?: readonly ResourceKind[];
  /**
   * airship without a manifest: least-privilege RBAC for releases in these namespaces, with
   * `defaultResourceKinds` and every wait, delete and test the operator supports.
   * @default - derived from `manifest`
   */
  readonly releaseNamespaces?: readonly string[];
  /**
   * Where synthesis warnings go (broad RBAC, sensitive namespaces, the default kind guess).
   * @default - printed to stderr, one line each
   */
  readonly onWarning?: WarningHandler;
}

const SYSTEM_NAMESPACES = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const printWarning: WarningHandler = (d) => process.stderr.write(`armada-cdk: ${formatDiagnostic(d)}\n`);

interface Defaults {
  readonly image: string;
  readonly tag: string;
  readonly container: string;
}
const DEFAULTS: Readonly<Record<OperatorApi, Defaults>> = {
  [OperatorApi.AIRSHIP_V1]: { image: 'quay.io/airshipit/armada-operator', tag: '3305eeda772b96142c6844b70e44c9db83f4e265-ubuntu_noble', container: 'manager' },
  [OperatorApi.KELEUSTES_V1ALPHA1]: { image: 'keleustes/armada-operator-dev', tag: 'v2.14.1', container: 'armada-operator' },
};
/** Metrics stay on loopback: nothing in the bundle scrapes them. */
const AIRSHIP_METRICS = '--metrics-bind-address=127.0.0.1:8080';
/** Where the keleustes operator clones, unpacks and finds its bundled charts (its HELM_CHARTS). */
const KELEUSTES_CHARTS = '/opt/armada/helm-charts';
const SEED_IMAGE = 'docker.io/library/busybox:1.37.0';
const DEFAULT_RESOURCES: OperatorResources = { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '1', memory: '1Gi' } };

/**
 * An Armada operator, installed by `kubectl apply -f` of the chart it is created in: its CRDs
 * (generated from this library's wire types), Namespaces, ServiceAccount, RBAC and a hardened
 * Deployment (non-root, read-only root filesystem, no privilege escalation, no capabilities,
 * RuntimeDefault seccomp). With a `manifest`, RBAC is least-privilege and derived from it.
 *
 * RBAC that depends on the manifest is built when cdk8s validates the app, so that it reflects
 * the finished manifest.
 */
export class ArmadaOperator extends Construct {
  public readonly api: OperatorApi;
  /** The operator's namespace. */
  public readonly namespace: string;
  /** The operator's ServiceAccount object. */
  public readonly serviceAccount: cdk8s.ApiObject;
  /** The operator's Deployment object. */
  public readonly deployment: cdk8s.ApiObject;
  /** The CRDs, first in the file. */
  public readonly crds: readonly RenderedObject[];
  /**
   * The chart that holds the release namespaces (`releaseNamespaceOutput: 'separate'`, with
   * least-privilege RBAC), beside the operator's chart.
   * @default - none
   */
  public readonly releaseNamespaceChart?: cdk8s.Chart;

  private readonly props: ArmadaOperatorProps;
  private readonly kplus: Kplus;
  private readonly name: string;
  private readonly rbacMode: OperatorRbac;
  private readonly namespaces: Construct;
  private readonly rbac: Construct;
  private readonly sa: IConstruct & { readonly name: string };
  private readonly createdNamespaces = new Set<string>();
  private readonly denyIngress?: cdk8s.ApiObject;
  private rendered = false;

  constructor(scope: Construct, id: string, props: ArmadaOperatorProps = {}) {
    super(scope, id);
    const where = `ArmadaOperator ${this.node.path}`;
    const chart = findChart(this);
    if (!chart) throw new Error(`${where}: must be created inside a cdk8s Chart (its objects are written to that chart's file)`);
    if (props.manifest !== undefined && !ArmadaManifest.isArmadaManifest(props.manifest)) throw new Error(`${where}: props.manifest must be an ArmadaManifest`);
    this.kplus = loadCdk8sPlus(where, props.cdk8sPlus).module;
    this.props = props;
    this.api = props.api ?? OperatorApi.AIRSHIP_V1;
    this.name = props.name ?? 'armada-operator';
    const keleustes = this.api === OperatorApi.KELEUSTES_V1ALPHA1;
    this.rbacMode = this.chooseRbac(where);
    if (keleustes && props.manifest === undefined && props.namespace === undefined) {
      throw new Error(`${where}: the keleustes operator watches only its own namespace: give the manifest (its namespace is used) or namespace`);
    }
    if (keleustes && props.leaderElection === false) {
      throw new Error(`${where}: leaderElection false: the keleustes operator always takes its ConfigMap lock; the option applies to the airship operator only`);
    }
    if (keleustes && props.globalNetworkPolicyFallback === true) throw new Error(`${where}: globalNetworkPolicyFallback: only the airship operator has that fallback`);
    if (!keleustes && props.chartsSeedImage !== undefined) throw new Error(`${where}: chartsSeedImage: only the keleustes operator writes under ${KELEUSTES_CHARTS}`);
    const replicas = props.replicas ?? 1;
    if (!Number.isInteger(replicas) || replicas < 0) throw new Error(`${where}: replicas ${replicas}: must be a whole number, 0 or more`);
    if (replicas > 1 && props.leaderElection === false) {
      throw new Error(`${where}: replicas ${replicas} with leaderElection false: several operators would reconcile the same releases at once; enable leader election or run one replica`);
    }
    if (props.resourceKinds !== undefined && (props.manifest === undefined || this.rbacMode !== 'least-privilege')) {
      throw new Error(`${where}: resourceKinds apply to least-privilege RBAC derived from a manifest; give the manifest, or use defaultResourceKinds`);
    }
    const name = this.name;
    if (!DNS1123_LABEL.test(name)) throw new Error(`${where}: name ${JSON.stringify(name)}: must be a DNS-1123 label`);
    for (const [ns, level] of Object.entries(props.podSecurity ?? {})) {
      if (!['privileged', 'baseline', 'restricted'].includes(level)) throw new Error(`${where}: podSecurity[${JSON.stringify(ns)}] ${JSON.stringify(level)}: must be "privileged", "baseline" or "restricted"`);
    }
    // The keleustes namespace is only known once the manifest is complete; a placeholder is
    // replaced at validation.
    this.namespace = props.namespace ?? (keleustes ? this.keleustesNamespace() ?? 'default' : 'armada-operator-system');
    if (!DNS1123_LABEL.test(this.namespace)) throw new Error(`${where}: namespace ${JSON.stringify(this.namespace)}: must be a DNS-1123 label`);

    // Tree order is file order (cdk8s writes objects depth-first): CRDs, Namespaces,
    // ServiceAccount, RBAC, NetworkPolicy, Deployment. The namespace and RBAC scopes are filled at
    // validation.
    this.crds = operatorCrds(this.api).map((crd) =>
      new RenderedObject(this, `crd-${crd.metadata.name.split('.')[0]}`, { apiVersion: crd.apiVersion, kind: crd.kind, name: crd.metadata.name }, crd as unknown as Record<string, unknown>),
    );
    this.namespaces = new Construct(this, 'namespaces');
    if (props.createNamespaces !== false) this.createNamespace(this.namespaces, this.namespace, 'restricted');
    if ((props.releaseNamespaceOutput ?? 'separate') === 'separate' && this.rbacMode === 'least-privilege') {
      // Apart from the bundle, so that deleting the operator never deletes a site.
      const app = chart.node.scope ?? chart.node.root;
      this.releaseNamespaceChart = new cdk8s.Chart(app, `${chart.node.id}-release-namespaces`);
    }
    const sa = new this.kplus.ServiceAccount(this, 'service-account', {
      metadata: { name, namespace: this.namespace, labels: this.labels() },
      // The operator talks to the API server with this account's token.
      automountToken: true,
    });
    this.sa = sa;
    this.serviceAccount = cdk8s.ApiObject.of(sa);
    this.rbac = new Construct(this, 'rbac');
    if (props.denyIngress !== false) {
      this.denyIngress = new cdk8s.ApiObject(this, 'deny-ingress', {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: `${name}-deny-ingress`, namespace: this.namespace, labels: this.labels() },
        spec: { podSelector: { matchLabels: this.selector() }, policyTypes: ['Ingress'] },
      });
    }
    this.deployment = this.createDeployment(replicas);
    this.node.addValidation({ validate: () => this.renderOnce() });
  }

  /**
   * The permissions the operator gets (rules by namespace, cluster rules, leader election),
   * computed from the manifest as it is now; empty for `cluster-admin`.
   */
  public permissions(): OperatorPermissions {
    const r = this.derive();
    if ('errors' in r) throw new Error(`ArmadaOperator ${this.node.path}: ${r.errors.join('; ')}`);
    return r.permissions;
  }

  private chooseRbac(where: string): OperatorRbac {
    const p = this.props;
    if (this.api === OperatorApi.KELEUSTES_V1ALPHA1) {
      if (p.rbac !== undefined && p.rbac !== 'least-privilege') {
        throw new Error(`${where}: rbac ${JSON.stringify(p.rbac)}: the keleustes operator works in one namespace only, where least-privilege RBAC covers all it does`);
      }
      return 'least-privilege';
    }
    if (p.rbac !== undefined) {
      if (p.rbac === 'least-privilege' && p.manifest === undefined && p.releaseNamespaces === undefined) {
        throw new Error(`${where}: least-privilege RBAC needs the manifest (or releaseNamespaces) to know where the releases go`);
      }
      if (p.rbac !== 'least-privilege' && p.releaseNamespaces !== undefined) throw new Error(`${where}: releaseNamespaces apply to least-privilege RBAC only`);
      return p.rbac;
    }
    if (p.manifest === undefined && p.releaseNamespaces === undefined) {
      throw new Error(
        `${where}: no manifest, so least-privilege RBAC cannot be derived: give the manifest, or releaseNamespaces, or choose rbac "cluster-wide" (broad, no wildcard) or "cluster-admin" (unsafe)`,
      );
    }
    return 'least-privilege';
  }

  /** The keleustes objects' namespace, when the manifest resolves to one. */
  private keleustesNamespace(): string | undefined {
    const m = this.props.manifest;
    if (!m) return undefined;
    const { spec, plan, diagnostics } = m.resolve();
    if (diagnostics.some((d) => d.severity === 'error')) return undefined;
    return toKeleustesObjects(spec, plan).objects.find((o) => o.kind === 'ArmadaManifest')?.metadata.namespace;
  }

  private labels(): Record<string, string> {
    return { 'app.kubernetes.io/name': this.name, 'app.kubernetes.io/component': 'operator', 'app.kubernetes.io/managed-by': 'armada-cdk' };
  }

  private selector(): Record<string, string> {
    return { 'app.kubernetes.io/name': this.name, 'app.kubernetes.io/component': 'operator' };
  }

  private createNamespace(scope: IConstruct, ns: string, level: PodSecurityLevel): void {
    if (SYSTEM_NAMESPACES.has(ns) || this.createdNamespaces.has(ns)) return;
    this.createdNamespaces.add(ns);
    const enforce = this.props.podSecurity?.[ns] ?? level;
    new this.kplus.Namespace(scope as Construct, ns, {
      metadata: {
        name: ns,
        labels: {
          'pod-security.kubernetes.io/enforce': enforce,
          'pod-security.kubernetes.io/audit': 'restricted',
          'pod-security.kubernetes.io/warn': 'restricted',
        },
      },
    });
  }

  /**
   * The Deployment as plain JSON: cdk8s-plus's typed Deployment would drop what its Kubernetes
   * version does not know (image volumes) and differs between its versions.
   */
  private createDeployment(replicas: number): cdk8s.ApiObject {
    const p = this.props;
    const d = DEFAULTS[this.api];
    const airship = this.api === OperatorApi.AIRSHIP_V1;
    const tag = p.tag ?? d.tag;
    const image = `${p.image ?? d.image}${tag.startsWith('sha256:') ? '@' : ':'}${tag}`;
    const pullPolicy = p.imagePullPolicy ?? (/^latest(-|$)/.test(tag) ? 'Always' : 'IfNotPresent');
    const user = p.user ?? 65532;
    const group = p.group ?? 65532;
    const fieldRef = (fieldPath: string) => ({ valueFrom: { fieldRef: { fieldPath } } });
    const env = airship
      ? [
          // The operator reads its armada-gnp ConfigMap from this namespace.
          { name: 'NAMESPACE', ...fieldRef('metadata.namespace') },
          // The health probes listen on the pod's own address only.
          { name: 'POD_IP', ...fieldRef('status.podIP') },
        ]
      : [
          // The operator exits without it; one operator serves one namespace.
          { name: 'WATCH_NAMESPACE', ...fieldRef('metadata.namespace') },
          // Its leader lock is owned by this Pod, found by name.
          { name: 'POD_NAME', ...fieldRef('metadata.name') },
          { name: 'OPERATOR_NAME', value: 'armada-operator' },
        ];
    const securityContext = {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      privileged: false,
      readOnlyRootFilesystem: p.readOnlyRootFilesystem ?? true,
      runAsGroup: group,
      runAsNonRoot: true,
      runAsUser: user,
      seccompProfile: { type: 'RuntimeDefault' },
    };
    const liveness = p.liveness ?? (airship ? { httpGet: { path: '/healthz', port: 8081 }, initialDelaySeconds: 15, periodSeconds: 20 } : undefined);
    const readiness = p.readiness ?? (airship ? { httpGet: { path: '/readyz', port: 8081 }, initialDelaySeconds: 5, periodSeconds: 10 } : undefined);
    const tmpLimit = (p.tmpSizeLimit ?? cdk8s.Size.mebibytes(512)).toMebibytes();
    const volumes: Record<string, unknown>[] = [{ name: 'tmp', emptyDir: { sizeLimit: `${tmpLimit}Mi` } }];
    const mounts: Record<string, unknown>[] = [{ name: 'tmp', mountPath: '/tmp' }];
    const charts = airship ? undefined : this.keleustesChartsDirectory(image, pullPolicy, securityContext);
    if (charts) {
      volumes.push(...charts.volumes);
      mounts.push(charts.mount);
    }
    const container = {
      name: d.container,
      image,
      imagePullPolicy: pullPolicy,
      // The keleustes image is FROM scratch: name the binary by its path (its Dockerfile's).
      command: airship ? ['/manager'] : ['/usr/local/bin/armada-operator'],
      ...(airship ? { args: [`--health-probe-bind-address=${p.probeBindAddress ?? '$(POD_IP):8081'}`, AIRSHIP_METRICS, ...(p.leaderElection === false ? [] : ['--leader-elect'])] } : {}),
      env,
      resources: p.resources ?? DEFAULT_RESOURCES,
      ...(liveness ? { livenessProbe: liveness } : {}),
      ...(readiness ? { readinessProbe: readiness } : {}),
      securityContext,
      volumeMounts: mounts,
    };
    return new cdk8s.ApiObject(this, 'deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: this.name, namespace: this.namespace, labels: this.labels() },
      spec: {
        replicas,
        // A selector is immutable: stable labels, not cdk8s's construct-path label.
        selector: { matchLabels: this.selector() },
        template: {
          metadata: { labels: this.labels() },
          spec: {
            serviceAccountName: this.name,
            // The operator talks to the API server with this account's token.
            automountServiceAccountToken: true,
            terminationGracePeriodSeconds: 10,
            securityContext: { runAsGroup: group, runAsNonRoot: true, runAsUser: user, seccompProfile: { type: 'RuntimeDefault' } },
            ...(charts ? { initContainers: [charts.init] } : {}),
            containers: [container],
            volumes,
          },
        },
      },
    });
  }

  /**
   * The keleustes operator creates its git and tar caches directly in its charts directory and
   * copies helm-toolkit from there: a writable emptyDir seeded with the image's own content.
   */
  private keleustesChartsDirectory(image: string, pullPolicy: string, securityContext: Record<string, unknown>) {
    const seed = this.props.chartsSeedImage;
    const mount = { name: 'helm-charts', mountPath: KELEUSTES_CHARTS };
    const resources = { requests: { cpu: '10m', memory: '32Mi' }, limits: { cpu: '500m', memory: '128Mi' } };
    const init = seed === undefined
      ? {
          name: 'seed-helm-charts',
          image: SEED_IMAGE,
          imagePullPolicy: 'IfNotPresent',
          command: ['cp', '-R', '/image/.', `${KELEUSTES_CHARTS}/`],
          resources,
          securityContext,
          volumeMounts: [{ name: 'operator-image', mountPath: '/image', readOnly: true, subPath: KELEUSTES_CHARTS.slice(1) }, mount],
        }
      : { name: 'seed-helm-charts', image: seed, imagePullPolicy: 'IfNotPresent', command: ['cp', '-R', `${KELEUSTES_CHARTS}/.`, '/seed/'], resources, securityContext, volumeMounts: [{ name: 'helm-charts', mountPath: '/seed' }] };
    const volumes: Record<string, unknown>[] = [{ name: 'helm-charts', emptyDir: { sizeLimit: '2Gi' } }];
    if (seed === undefined) volumes.push({ name: 'operator-image', image: { reference: image, pullPolicy } });
    return { init, volumes, mount };
  }

  /** The permissions, or the errors that prevent deriving them. */
  private derive(): { permissions: OperatorPermissions; releases: ReleaseAccess[] } | { errors: string[] } {
    const p = this.props;
    const options = {
      leaderElection: p.leaderElection !== false,
      operatorNamespace: this.namespace,
      roleEscalation: p.roleEscalation,
      globalNetworkPolicyFallback: p.globalNetworkPolicyFallback,
    };
    const defaults = p.defaultResourceKinds ?? ResourceKinds.HELM_RELEASE;
    if (this.rbacMode === 'cluster-admin') return { permissions: { namespaced: [], cluster: [], leaderElection: [] }, releases: [] };
    if (this.rbacMode === 'cluster-wide') return { permissions: clusterWide(this.api, defaults, options), releases: [] };
    if (p.manifest === undefined) {
      const namespaces = this.api === OperatorApi.KELEUSTES_V1ALPHA1 ? [this.namespace] : [...new Set(p.releaseNamespaces ?? [])];
      const airship = this.api === OperatorApi.AIRSHIP_V1;
      const releases = namespaces.map((namespace): ReleaseAccess => ({
        chart: '*',
        namespace,
        kinds: defaults,
        helmToolkitRoles: true,
        // Without a manifest, everything the operator can be asked to do.
        waitTypes: airship ? ['job', 'pod', 'deployment', 'daemonset', 'statefulset'] : [],
        deleteTypes: airship ? ['job', 'pod', 'cronjob', 'deployment'] : [],
        test: airship,
        nativeWait: airship,
      }));
      return { permissions: leastPrivilege(this.api, releases, options), releases };
    }
    const resolved = p.manifest.resolve();
    const modelErrors = resolved.diagnostics.filter((d) => d.severity === 'error');
    if (modelErrors.length > 0) return { errors: modelErrors.map(line) };
    const { spec, plan } = resolved;
    const declared = p.resourceKinds ?? {};
    const deployed = [...new Set(plan.releases.map((r) => r.chart))];
    const unknown = Object.keys(declared).filter((c) => !deployed.includes(c));
    if (unknown.length > 0) {
      return { errors: [`resourceKinds names ${unknown.map((u) => JSON.stringify(u)).join(', ')}, which the manifest does not deploy; its deployed charts are ${deployed.map((c) => JSON.stringify(c)).join(', ')}`] };
    }
    if (this.api === OperatorApi.KELEUSTES_V1ALPHA1) {
      const out = toKeleustesObjects(spec, plan);
      const errors = out.diagnostics.errors.map(line);
      const ns = out.objects.find((o) => o.kind === 'ArmadaManifest')?.metadata.namespace;
      if (errors.length === 0 && ns !== undefined && ns !== this.namespace) {
        errors.push(
          p.namespace === undefined
            ? `the manifest's keleustes objects moved to namespace ${JSON.stringify(ns)} after the ArmadaOperator took ${JSON.stringify(this.namespace)} from it; create the operator once the site is complete, or set namespace`
            : `namespace ${JSON.stringify(this.namespace)}: the keleustes operator watches only its own namespace, and the manifest's objects are in ${JSON.stringify(ns)}; leave namespace unset or set it to ${JSON.stringify(ns)}`,
        );
      }
      if (errors.length > 0) return { errors };
    }
    const releases = releasesOf(this.api, spec, plan, declared, defaults, this.namespace);
    return { permissions: leastPrivilege(this.api, releases, options), releases };
  }

  private renderOnce(): string[] {
    if (this.rendered) return [];
    const r = this.derive();
    if ('errors' in r) {
      // The manifest reports its own errors when it is validated in this tree.
      const sameTree = this.props.manifest !== undefined && this.props.manifest.node.root === this.node.root;
      const model = this.props.manifest?.resolve().diagnostics.some((d) => d.severity === 'error') ?? false;
      return sameTree && model ? [] : r.errors;
    }
    const perms = r.permissions;
    const errors = [...this.crdConflicts(), ...this.escalationErrors(perms, r.releases)];
    if (errors.length > 0) return errors;
    this.rendered = true;
    const warn = this.props.onWarning ?? printWarning;
    for (const w of this.warnings(r.releases)) warn(w);
    const kplus = this.kplus;
    if (this.releaseNamespaceChart) for (const { namespace } of r.releases) this.createNamespace(this.releaseNamespaceChart, namespace, 'baseline');
    const subject = this.sa as InstanceType<Kplus['ServiceAccount']>;
    const created: IConstruct[] = [];
    const clusterName = `${this.name}-${this.namespace}`;
    if (this.rbacMode === 'cluster-admin') {
      const binding = new kplus.ClusterRoleBinding(this.rbac, 'cluster-admin', {
        metadata: { name: `${clusterName}-cluster-admin`, labels: this.labels() },
        role: kplus.ClusterRole.fromClusterRoleName(this, 'cluster-admin-role', 'cluster-admin'),
      });
      binding.addSubjects(subject);
      created.push(binding);
    }
    const role = (id: string, name: string, namespace: string, rules: readonly RbacRule[]) => {
      const role = new kplus.Role(this.rbac, `${id}-role`, { metadata: { name, namespace, labels: this.labels() } });
      setRules(role, rules);
      const binding = new kplus.RoleBinding(this.rbac, `${id}-binding`, { metadata: { name, namespace, labels: this.labels() }, role });
      binding.addSubjects(subject);
      created.push(role, binding);
    };
    if (perms.leaderElection.length > 0) role('leader-election', `${this.name}-leader-election`, this.namespace, perms.leaderElection);
    for (const { namespace, rules } of perms.namespaced) role(`namespace-${namespace}`, this.name, namespace, rules);
    if (perms.cluster.length > 0) {
      const cr = new kplus.ClusterRole(this.rbac, 'cluster-role', { metadata: { name: clusterName, labels: this.labels() } });
      setRules(cr, perms.cluster);
      const binding = new kplus.ClusterRoleBinding(this.rbac, 'cluster-role-binding', { metadata: { name: clusterName, labels: this.labels() }, role: cr });
      binding.addSubjects(subject);
      created.push(cr, binding);
    }
    // Besides tree order: a pod must not start before its permissions exist.
    for (const d of [...(this.denyIngress ? [this.denyIngress] : []), this.deployment]) for (const c of created) for (const o of apiObjects(c)) d.node.addDependency(o);
    return [];
  }

  /** Both operators define armadacharts.armada.airshipit.org: one app must not mix them. */
  private crdConflicts(): string[] {
    const others = this.node.root.node.findAll().filter((c) => c !== this && (c instanceof ArmadaOperator || c instanceof ArmadaChartOutput) && (c as ArmadaOperator | ArmadaChartOutput).api !== this.api);
    return others.map((o) => {
      const what = o instanceof ArmadaOperator ? 'the ArmadaOperator' : 'the ArmadaChartOutput';
      return `api ${JSON.stringify(this.api)}: ${what} ${o.node.path} uses ${JSON.stringify((o as ArmadaOperator).api)}, and both operators define the CRD armadacharts.armada.airshipit.org (versions v1 and v1alpha1): applying one replaces the other's, and the API server refuses it once CRs are stored; use one operator per cluster`;
    });
  }

  /** The escalation check over what the charts are known to contain; empty unless the rules are short. */
  private escalationErrors(perms: OperatorPermissions, releases: readonly ReleaseAccess[]): string[] {
    if (this.rbacMode === 'cluster-admin') return [];
    const byNs = new Map(perms.namespaced.map((n) => [n.namespace, n.rules]));
    const charts = releases.map((r) => ({ chart: r.chart, namespace: r.namespace, contents: { kinds: r.kinds, roles: r.roles ?? [], bindings: r.bindings ?? [] } }));
    return escalationFindings({ namespaced: (ns) => byNs.get(ns) ?? [], cluster: perms.cluster }, charts).map(describeFinding);
  }

  private warnings(releases: readonly ReleaseAccess[]): Diagnostic[] {
    const out: Diagnostic[] = [];
    const warn = (code: string, message: string) => out.push({ severity: 'warning', location: this.node.path, message, code });
    const list = (xs: readonly string[]) => [...new Set(xs)].map((x) => JSON.stringify(x)).join(', ');
    if (this.rbacMode === 'cluster-admin') {
      warn(
        'cluster-admin',
        'rbac "cluster-admin" binds the operator to cluster-admin: anyone who can create an ArmadaChart, or reach the operator\'s pod or token, controls the whole cluster; prefer the least-privilege default (give the manifest)',
      );
    }
    if (this.rbacMode === 'cluster-wide') {
      warn(
        'cluster-wide',
        'rbac "cluster-wide" grants Secrets, ServiceAccounts, Roles and workloads in every namespace, kube-system included: anyone who can create an ArmadaChart can read every Secret and act as any ServiceAccount of the cluster, close to cluster-admin; prefer the least-privilege default (give the manifest, or releaseNamespaces)',
      );
    }
    const sensitive = new Set(['kube-system', ...(this.props.sensitiveNamespaces ?? [])]);
    const inSensitive = releases.filter((r) => sensitive.has(r.namespace));
    for (const ns of [...new Set(inSensitive.map((r) => r.namespace))]) {
      const charts = inSensitive.filter((r) => r.namespace === ns).map((r) => r.chart);
      warn(
        'sensitive-namespace',
        `${charts[0] === '*' ? 'releases' : `charts ${list(charts)}`} install into namespace ${JSON.stringify(ns)}: the operator gets Secrets, ServiceAccounts and Roles there, which in ${ns === 'kube-system' ? 'kube-system (the tokens of the cluster\'s own controllers)' : 'a namespace marked sensitive'} is close to cluster-admin for anyone who can create an ArmadaChart; move those releases to a namespace of their own`,
      );
    }
    const guessed = releases.filter((r) => r.helmToolkitRoles).map((r) => r.chart);
    if (guessed.length > 0 && this.rbacMode === 'least-privilege') {
      warn(
        'default-kinds',
        `${guessed[0] === '*' ? 'every release uses' : `charts ${list(guessed)} use`} the default kind list, a guess of what an OpenStack-Helm chart creates: ${kindList(this.props.defaultResourceKinds ?? ResourceKinds.HELM_RELEASE)}, and helm-toolkit's dependency-check Roles (get, list on daemonsets, endpoints, jobs, pods, secrets, services); anything else they create (a ClusterRole, a CRD, another kind, a Role with other rules) fails to install with Forbidden; read each chart rendered with resourceKinds: { chart: ResourceKinds.fromRenderedChart('rendered/chart.yaml') }`,
      );
    }
    if (this.props.roleEscalation === 'escalate') {
      warn(
        'role-escalation',
        `roleEscalation "escalate" grants escalate and bind on roles in ${list(releases.map((r) => r.namespace))}: anyone who can create an ArmadaChart can grant any permission within those namespaces; the default ("hold") grants only the rules the charts' Roles contain`,
      );
    }
    const external = releases.flatMap((r) => (r.bindings ?? []).filter((b) => !(r.roles ?? []).some((x) => x.kind === b.roleRef.kind && x.name === b.roleRef.name)).map((b) => `${r.chart}: ${b.kind} ${b.name} -> ${b.roleRef.kind} ${b.roleRef.name}`));
    if (external.length > 0 && this.props.roleEscalation !== 'escalate') {
      warn('bind', `bindings to roles their chart does not contain get bind on exactly those roles (their rules are unknown here, and the operator would otherwise have to hold them): ${external.join('; ')}`);
    }
    return out;
  }
}

function kindList(kinds: readonly ResourceKind[]): string {
  return kinds.map((k) => `${k.apiGroup === '' ? '' : `${k.apiGroup}/`}${k.resource}`).join(', ');
}

/**
 * Sets the rules as computed. cdk8s-plus writes one rule per resource; the computed list merges
 * the resources that share verbs, which is the same permission and reads as a whole.
 */
function setRules(role: IConstruct, rules: readonly RbacRule[]): void {
  const json = rules.map((r) =>
    r.nonResourceURLs
      ? { nonResourceURLs: [...r.nonResourceURLs], verbs: [...r.verbs] }
      : { apiGroups: [...r.apiGroups], resources: [...r.resources], ...(r.resourceNames ? { resourceNames: [...r.resourceNames] } : {}), verbs: [...r.verbs] },
  );
  for (const o of apiObjects(role)) o.addJsonPatch(cdk8s.JsonPatch.add('/rules', json));
}

function apiObjects(c: IConstruct): cdk8s.ApiObject[] {
  return c.node.findAll().filter((x): x is cdk8s.ApiObject => x instanceof cdk8s.ApiObject);
}

function line(d: Diagnostic): string {
  return [d.location, d.document, d.field].filter(Boolean).join(': ') + ': ' + d.message;
}

function findChart(c: IConstruct): IConstruct | undefined {
  for (let s: IConstruct | undefined = c; s; s = s.node.scope) if (cdk8s.Chart.isChart(s)) return s;
  return undefined;
}
