/**
 * The operator install bundle: everything `kubectl apply -f` needs to run an Armada operator,
 * without Helm (which would need the operator's own chart installed by the tool the operator
 * replaces): CRDs, Namespaces, ServiceAccount, RBAC, Deployment, in that order in the file.
 */
import * as cdk8s from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { ArmadaManifest } from '../../constructs/armada-manifest';
import { Diagnostic, formatDiagnostic } from '../../model/diagnostics';
import { firstByName } from '../../model/plan';
import { SourceType } from '../../model/source';
import { toAirshipCharts } from '../../model/wire/airship-v1';
import { toKeleustesObjects } from '../../model/wire/keleustes-v1alpha1';
import type { AirshipArmadaChartData } from '../../model/wire/types';
import { OperatorApi, WarningHandler } from '../outputs';
import { RenderedObject } from '../rendered-object';
import { operatorCrds } from './crds';
import { clusterWide, leastPrivilege, OperatorPermissions, RbacRule, ReleaseAccess } from './rbac';
import { ResourceKind, ResourceKinds } from './resource-kinds';

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
   * Whether the bundle creates its Namespaces: the operator's and, for least-privilege RBAC, the
   * releases' (a Role cannot be applied into a namespace that does not exist yet). `default`,
   * `kube-system`, `kube-public` and `kube-node-lease` are never created. Note that
   * `kubectl delete -f` of the bundle then deletes those namespaces with everything in them.
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
   * The image tag, or a digest (`sha256:...`). Pin it: the defaults are what the operators'
   * own manifests use, and `latest-*` tags move.
   * @default - airship: "latest-ubuntu_jammy" (Airship's armada chart); keleustes: "v2.14.1" (its deploy/operator.yaml, the last Helm v2 build that installs charts)
   */
  readonly tag?: string;
  /**
   * When the kubelet pulls the image.
   * @default - Always for a `latest` or `latest-*` tag, IfNotPresent otherwise
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;
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
   * @default - requests 10m CPU and 64Mi memory, limits 500m CPU and 128Mi memory (the airship operator's own manifest)
   */
  readonly resources?: kplus.ContainerResources;
  /**
   * Liveness probe.
   * @default - airship: GET /healthz on 8081; keleustes: none (it serves no health endpoint)
   */
  readonly liveness?: kplus.Probe;
  /**
   * Readiness probe.
   * @default - airship: GET /readyz on 8081; keleustes: none
   */
  readonly readiness?: kplus.Probe;
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
   * Whether the root filesystem is read-only (an emptyDir is mounted on /tmp for downloads and
   * git clones either way). The keleustes operator writes helm-toolkit into the directory of a
   * local chart that has dependencies, which needs it false (synthesis warns).
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
   * `defaultResourceKinds` for that chart: list the kinds by hand, or read them from a rendered
   * chart with `ResourceKinds.fromRenderedChart('rendered/keystone.yaml')`. What the operator
   * itself needs (Helm storage, waits, pre-upgrade deletes, tests) is added on top.
   * @default - every chart gets `defaultResourceKinds`
   */
  readonly resourceKinds?: Readonly<Record<string, readonly ResourceKind[]>>;
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
   * Where synthesis warnings go (cluster-admin, filesystem caveats).
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
  [OperatorApi.AIRSHIP_V1]: { image: 'quay.io/airshipit/armada-operator', tag: 'latest-ubuntu_jammy', container: 'manager' },
  [OperatorApi.KELEUSTES_V1ALPHA1]: { image: 'keleustes/armada-operator-dev', tag: 'v2.14.1', container: 'armada-operator' },
};
/** What Airship's operator container runs with; metrics stay on loopback, not on the pod network. */
const AIRSHIP_ARGS = ['--health-probe-bind-address=:8081', '--metrics-bind-address=127.0.0.1:8080'];

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
  public readonly serviceAccount: kplus.ServiceAccount;
  public readonly deployment: kplus.Deployment;
  /** The CRDs, first in the file. */
  public readonly crds: readonly RenderedObject[];

  private readonly props: ArmadaOperatorProps;
  private readonly name: string;
  private readonly rbacMode: OperatorRbac;
  private readonly namespaces: Construct;
  private readonly rbac: Construct;
  private readonly createdNamespaces = new Set<string>();
  private rendered = false;

  constructor(scope: Construct, id: string, props: ArmadaOperatorProps = {}) {
    super(scope, id);
    const where = `ArmadaOperator ${this.node.path}`;
    if (!cdk8s.Chart.isChart(findChart(this))) throw new Error(`${where}: must be created inside a cdk8s Chart (its objects are written to that chart's file)`);
    if (props.manifest !== undefined && !ArmadaManifest.isArmadaManifest(props.manifest)) throw new Error(`${where}: props.manifest must be an ArmadaManifest`);
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
    // The keleustes namespace is only known once the manifest is complete; a placeholder is
    // replaced at validation.
    this.namespace = props.namespace ?? (keleustes ? this.keleustesNamespace() ?? 'default' : 'armada-operator-system');
    if (!DNS1123_LABEL.test(this.namespace)) throw new Error(`${where}: namespace ${JSON.stringify(this.namespace)}: must be a DNS-1123 label`);

    // Tree order is file order (cdk8s writes objects depth-first): CRDs, Namespaces,
    // ServiceAccount, RBAC, Deployment. The namespace and RBAC scopes are filled at validation.
    this.crds = operatorCrds(this.api).map((crd) =>
      new RenderedObject(this, `crd-${crd.metadata.name.split('.')[0]}`, { apiVersion: crd.apiVersion, kind: crd.kind, name: crd.metadata.name }, crd as unknown as Record<string, unknown>),
    );
    this.namespaces = new Construct(this, 'namespaces');
    if (props.createNamespaces !== false) this.createNamespace(this.namespace);
    this.serviceAccount = new kplus.ServiceAccount(this, 'service-account', {
      metadata: { name, namespace: this.namespace, labels: this.labels() },
      // The operator talks to the API server with this account's token.
      automountToken: true,
    });
    this.rbac = new Construct(this, 'rbac');
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

  private createNamespace(ns: string): void {
    if (SYSTEM_NAMESPACES.has(ns) || this.createdNamespaces.has(ns)) return;
    this.createdNamespaces.add(ns);
    new kplus.Namespace(this.namespaces, ns, { metadata: { name: ns } });
  }

  private createDeployment(replicas: number): kplus.Deployment {
    const p = this.props;
    const d = DEFAULTS[this.api];
    const airship = this.api === OperatorApi.AIRSHIP_V1;
    const tag = p.tag ?? d.tag;
    const image = `${p.image ?? d.image}${tag.startsWith('sha256:') ? '@' : ':'}${tag}`;
    const user = p.user ?? 65532;
    const group = p.group ?? 65532;
    const selector = { 'app.kubernetes.io/name': this.name, 'app.kubernetes.io/component': 'operator' };
    const tmp = kplus.Volume.fromEmptyDir(this, 'tmp', 'tmp');
    const env: Record<string, kplus.EnvValue> = airship
      ? // The operator reads its armada-gnp ConfigMap from this namespace.
        { NAMESPACE: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAMESPACE) }
      : {
          // The operator exits without it; one operator serves one namespace.
          WATCH_NAMESPACE: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAMESPACE),
          // Its leader lock is owned by this Pod, found by name.
          POD_NAME: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAME),
          OPERATOR_NAME: kplus.EnvValue.fromValue('armada-operator'),
        };
    const deployment = new kplus.Deployment(this, 'deployment', {
      metadata: { name: this.name, namespace: this.namespace, labels: this.labels() },
      replicas,
      // A selector is immutable: stable labels, not cdk8s's construct-path label.
      select: false,
      podMetadata: { labels: { ...this.labels() } },
      serviceAccount: this.serviceAccount,
      automountServiceAccountToken: true,
      terminationGracePeriod: cdk8s.Duration.seconds(10),
      securityContext: { ensureNonRoot: true, user, group },
      containers: [
        {
          name: d.container,
          image,
          imagePullPolicy: p.imagePullPolicy ?? (/^latest(-|$)/.test(tag) ? kplus.ImagePullPolicy.ALWAYS : kplus.ImagePullPolicy.IF_NOT_PRESENT),
          // The keleustes image is FROM scratch: name the binary by its path (its Dockerfile's).
          command: airship ? ['/manager'] : ['/usr/local/bin/armada-operator'],
          args: airship ? [...AIRSHIP_ARGS, ...(p.leaderElection === false ? [] : ['--leader-elect'])] : undefined,
          envVariables: env,
          resources: p.resources ?? {
            cpu: { request: kplus.Cpu.millis(10), limit: kplus.Cpu.millis(500) },
            memory: { request: cdk8s.Size.mebibytes(64), limit: cdk8s.Size.mebibytes(128) },
          },
          liveness: p.liveness ?? (airship ? kplus.Probe.fromHttpGet('/healthz', { port: 8081, initialDelaySeconds: cdk8s.Duration.seconds(15), periodSeconds: cdk8s.Duration.seconds(20) }) : undefined),
          readiness: p.readiness ?? (airship ? kplus.Probe.fromHttpGet('/readyz', { port: 8081, initialDelaySeconds: cdk8s.Duration.seconds(5), periodSeconds: cdk8s.Duration.seconds(10) }) : undefined),
          securityContext: {
            ensureNonRoot: true,
            user,
            group,
            privileged: false,
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: p.readOnlyRootFilesystem ?? true,
            capabilities: { drop: [kplus.Capability.ALL] },
            seccompProfile: { type: kplus.SeccompProfileType.RUNTIME_DEFAULT },
          },
          // Chart downloads (airship) and git clones (keleustes) go to the temp directory.
          volumeMounts: [{ path: '/tmp', volume: tmp }],
        },
      ],
    });
    deployment.select(kplus.LabelSelector.of({ labels: selector }));
    return deployment;
  }

  /** The permissions, or the errors that prevent deriving them. */
  private derive(): { permissions: OperatorPermissions } | { errors: string[] } {
    const p = this.props;
    const leader = { leaderElection: p.leaderElection !== false, operatorNamespace: this.namespace };
    const defaults = p.defaultResourceKinds ?? ResourceKinds.HELM_RELEASE;
    if (this.rbacMode === 'cluster-admin') return { permissions: { namespaced: [], cluster: [], leaderElection: [] } };
    if (this.rbacMode === 'cluster-wide') return { permissions: clusterWide(this.api, defaults, leader) };
    if (p.manifest === undefined) {
      const namespaces = this.api === OperatorApi.KELEUSTES_V1ALPHA1 ? [this.namespace] : [...new Set(p.releaseNamespaces ?? [])];
      const airship = this.api === OperatorApi.AIRSHIP_V1;
      const releases = namespaces.map((namespace): ReleaseAccess => ({
        chart: '*',
        namespace,
        kinds: defaults,
        // Without a manifest, everything the operator can be asked to do.
        waitTypes: airship ? ['job', 'pod', 'deployment', 'daemonset', 'statefulset'] : [],
        deleteTypes: airship ? ['job', 'pod', 'cronjob', 'deployment'] : [],
        test: airship,
        nativeWait: airship,
      }));
      return { permissions: leastPrivilege(this.api, releases, leader) };
    }
    const releases = this.releasesOf(p.manifest, defaults);
    return 'errors' in releases ? releases : { permissions: leastPrivilege(this.api, releases.releases, leader) };
  }

  private releasesOf(manifest: ArmadaManifest, defaults: readonly ResourceKind[]): { releases: ReleaseAccess[] } | { errors: string[] } {
    const resolved = manifest.resolve();
    const modelErrors = resolved.diagnostics.filter((d) => d.severity === 'error');
    if (modelErrors.length > 0) return { errors: modelErrors.map(line) };
    const { spec, plan } = resolved;
    const declared = this.props.resourceKinds ?? {};
    const deployed = [...new Set(plan.releases.map((r) => r.chart))];
    const unknown = Object.keys(declared).filter((c) => !deployed.includes(c));
    if (unknown.length > 0) {
      return { errors: [`resourceKinds names ${unknown.map((u) => JSON.stringify(u)).join(', ')}, which the manifest does not deploy; its deployed charts are ${deployed.map((c) => JSON.stringify(c)).join(', ')}`] };
    }
    const kindsOf = (chart: string) => declared[chart] ?? defaults;
    if (this.api === OperatorApi.KELEUSTES_V1ALPHA1) {
      const out = toKeleustesObjects(spec, plan);
      const errors = out.diagnostics.errors.map(line);
      const ns = out.objects.find((o) => o.kind === 'ArmadaManifest')?.metadata.namespace;
      if (errors.length === 0 && ns !== undefined && ns !== this.namespace) {
        errors.push(
          this.props.namespace === undefined
            ? `the manifest's keleustes objects moved to namespace ${JSON.stringify(ns)} after the ArmadaOperator took ${JSON.stringify(this.namespace)} from it; create the operator once the site is complete, or set namespace`
            : `namespace ${JSON.stringify(this.namespace)}: the keleustes operator watches only its own namespace, and the manifest's objects are in ${JSON.stringify(ns)}; leave namespace unset or set it to ${JSON.stringify(ns)}`,
        );
      }
      if (errors.length > 0) return { errors };
      return { releases: deployed.map((chart) => ({ chart, namespace: this.namespace, kinds: kindsOf(chart), waitTypes: [], deleteTypes: [], test: false, nativeWait: false })) };
    }
    // What the operator reads is the ArmadaChart it is given: derive from those, defaults included.
    const charts = firstByName(spec.charts);
    const byRelease = new Map(toAirshipCharts(spec, plan).objects.map((o) => [o.metadata.name, o.data as AirshipArmadaChartData]));
    const releases: ReleaseAccess[] = [];
    const seen = new Set<string>();
    for (const r of plan.releases) {
      const data = byRelease.get(r.name);
      if (seen.has(r.chart) || !data || !charts.has(r.chart)) continue;
      seen.add(r.chart);
      const resources = data.wait?.resources;
      releases.push({
        chart: r.chart,
        namespace: data.namespace,
        kinds: kindsOf(r.chart),
        // The operator's default when resources is absent.
        waitTypes: resources === undefined ? ['job', 'pod'] : resources.map((w) => w.type),
        deleteTypes: (data.upgrade?.pre?.delete ?? []).map((x) => x.type ?? ''),
        test: data.test?.enabled === true,
        nativeWait: data.wait?.native?.enabled === true && (data.wait?.timeout ?? 0) > 0,
      });
    }
    return { releases };
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
    this.rendered = true;
    const warn = this.props.onWarning ?? printWarning;
    for (const w of this.warnings()) warn(w);
    const perms = r.permissions;
    if (this.props.createNamespaces !== false) for (const { namespace } of perms.namespaced) this.createNamespace(namespace);
    const subject = this.serviceAccount;
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
    for (const d of apiObjects(this.deployment)) for (const c of created) for (const o of apiObjects(c)) d.node.addDependency(o);
    return [];
  }

  private warnings(): Diagnostic[] {
    const out: Diagnostic[] = [];
    const warn = (code: string, message: string) => out.push({ severity: 'warning', location: this.node.path, message, code });
    if (this.rbacMode === 'cluster-admin') {
      warn(
        'cluster-admin',
        'rbac "cluster-admin" binds the operator to cluster-admin: anyone who can create an ArmadaChart, or reach the operator\'s pod or token, controls the whole cluster; prefer the least-privilege default (give the manifest)',
      );
    }
    const m = this.props.manifest;
    if (this.api === OperatorApi.KELEUSTES_V1ALPHA1 && m && this.props.readOnlyRootFilesystem !== false) {
      const { spec, plan } = m.resolve();
      const charts = firstByName(spec.charts);
      const local = [...new Set(plan.releases.map((r) => r.chart))].filter((c) => {
        const chart = charts.get(c);
        return chart?.source.type === SourceType.LOCAL && (chart.dependencies?.length ?? 0) > 0;
      });
      if (local.length > 0) {
        warn(
          'read-only-root',
          `charts ${local.map((c) => JSON.stringify(c)).join(', ')} are local with dependencies: the keleustes operator copies helm-toolkit into their directory in the image, which a read-only root filesystem (and a non-root user) forbids; set readOnlyRootFilesystem false and a user that owns /opt/armada/helm-charts, or use git or tar sources`,
        );
      }
    }
    return out;
  }
}

/**
 * Sets the rules as computed. cdk8s-plus writes one rule per resource; the computed list merges
 * the resources that share verbs, which is the same permission and reads as a whole.
 */
function setRules(role: kplus.Role | kplus.ClusterRole, rules: readonly RbacRule[]): void {
  const json = rules.map((r) => ({ apiGroups: [...r.apiGroups], resources: [...r.resources], ...(r.resourceNames ? { resourceNames: [...r.resourceNames] } : {}), verbs: [...r.verbs] }));
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
