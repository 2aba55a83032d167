/**
 * The operator install bundle: everything `kubectl apply -f` needs to run an Armada operator,
 * without Helm (which would need the operator's own chart installed by the tool the operator
 * replaces): Namespaces, ServiceAccount, RBAC, Deployment, in that order in the file, with the
 * CRDs and the release namespaces in files of their own, which deleting the bundle leaves alone.
 * What differs between the operators is in their profiles; this construct only assembles.
 */
import * as cdk8s from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { ArmadaManifest } from '../../constructs/armada-manifest';
import { hasErrors } from '../../model/diagnostics';
import { ownChart, watchClashes } from '../app-clashes';
import { OperatorApi } from '../operator-api';
import { reportWarnings } from '../warning-handler';
import { Cdk8sPlus, loadCdk8sPlus } from './cdk8s-plus';
import { checkLabel, checkProps } from './check-props';
import { freeSiblingScope, operatorCrdChart } from './crd-chart';
import { deploymentJson } from './deployment';
import { describeFinding, escalationFindings } from './escalation';
import { NamespaceWriter } from './namespaces';
import type { OperatorProfile, ReleaseAccess } from './operator-profile';
import { operatorProfile } from './profile';
import { ArmadaOperatorProps, OperatorRbac, PodSecurityLevel, ReleaseNamespaceOutput } from './props';
import { operatorPermissions, OperatorPermissions } from './rbac';
import { apiObjects, createRbacObjects } from './rbac-objects';
import { siteReleases } from './releases';
import { ResourceKinds } from './resource-kinds';
import { bundleWarnings } from './warnings';

export type { ArmadaOperatorProps, OperatorProbe, OperatorResources } from './props';
export { OperatorRbac, PodSecurityLevel, ReleaseNamespaceOutput, RoleEscalation } from './props';

const API_VALUES: readonly unknown[] = Object.values(OperatorApi);

/**
 * An Armada operator, installed by `kubectl apply -f` of the chart it is created in (its
 * Namespace, ServiceAccount, RBAC and a hardened
 * Deployment (non-root, read-only root filesystem, no privilege escalation, no capabilities,
 * RuntimeDefault seccomp), after the chart of its CRDs (generated from this library's wire types)
 * and the one of its release namespaces, written beside it. With a `manifest`, RBAC is
 * least-privilege and derived from it.
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
  /** The CRDs, written exactly as generated, in {@link ArmadaOperator.crdChart}. */
  public readonly crds: readonly cdk8s.ApiObject[];
  /**
   * The chart that holds the CRDs, beside the operator's (`<chart>-crds`, named after the chart
   * of the app's first operator of this API, which shares it with any other): to apply before
   * the bundle, and never to delete with it, since deleting a CRD deletes every custom resource
   * of it, and the operator then uninstalls their releases.
   */
  public readonly crdChart: cdk8s.Chart;
  /**
   * The chart that holds the release namespaces (`releaseNamespaceOutput: 'separate'`, with
   * least-privilege RBAC or a manifest), beside the operator's chart: to apply before the bundle,
   * and never to delete with it. The operator's own namespace is written here, not into the
   * bundle, when releases are installed into it (always for keleustes). When the bundle is
   * rendered (at validation) and no namespace is to be written into it (every release is in a
   * system namespace, or, with `cluster-wide` or `cluster-admin` RBAC, none is in the operator's)
   * and nothing else was added to it, it is taken out of the app, so that no empty file is
   * written (`kubectl apply` refuses one); it is then undefined.
   * @default - none
   */
  public get releaseNamespaceChart(): cdk8s.Chart | undefined {
    return this.namespaceChart;
  }

  /** @internal */
  public readonly _reportsSameFile = false;

  private namespaceChart?: cdk8s.Chart | undefined;

  private readonly props: ArmadaOperatorProps;
  private readonly profile: OperatorProfile;
  private readonly kplus: Cdk8sPlus;
  private readonly name: string;
  private readonly rbacMode: OperatorRbac;
  private readonly namespaceWriter: NamespaceWriter;
  private readonly namespaceScope: Construct;
  private readonly rbac: Construct;
  private readonly sa: InstanceType<Cdk8sPlus['ServiceAccount']>;
  private readonly denyIngress?: cdk8s.ApiObject | undefined;
  private rendered = false;
  /** A constructor that threw leaves its operator in the tree: no sibling to refuse. */
  private built = false;

  constructor(scope: Construct, id: string, props: ArmadaOperatorProps = {}) {
    super(scope, id);
    const where = `ArmadaOperator ${this.node.path}`;
    const chart = findChart(this);
    if (!chart) throw new Error(`${where}: must be created inside a cdk8s Chart (its objects are written to that chart's file)`);
    if (props.manifest !== undefined && !ArmadaManifest.isArmadaManifest(props.manifest)) throw new Error(`${where}: props.manifest must be an ArmadaManifest`);
    this.kplus = loadCdk8sPlus(where, props.cdk8sPlus).module;
    this.props = props;
    this.api = props.api ?? OperatorApi.AIRSHIP_V1;
    this.profile = operatorProfile(this.api);
    this.name = props.name ?? 'armada-operator';
    const { rbac, replicas } = checkProps(where, props, this.profile);
    this.rbacMode = rbac;
    // An operator without a namespace of its own takes the manifest's as it is now ("default"
    // while it has no objects yet); nothing replaces it later: should the manifest's objects
    // end up elsewhere, synthesis reports it.
    this.namespace = props.namespace ?? this.profile.defaultNamespace ?? this.siteNamespace() ?? 'default';
    checkLabel(where, 'namespace', this.namespace);
    const sibling = chart.node.findAll().find((c) => c instanceof ArmadaOperator && c.built && findChart(c) === chart);
    if (sibling) {
      throw new Error(`${where}: the chart ${chart.node.path} already holds the ArmadaOperator ${sibling.node.path}; create each ArmadaOperator in a cdk8s.Chart of its own (the files of its CRDs and release namespaces are named after that chart)`);
    }

    // Tree order is file order (cdk8s writes objects depth-first): Namespaces, ServiceAccount,
    // RBAC, NetworkPolicy, Deployment. The namespace and RBAC scopes are filled at validation.
    ({ chart: this.crdChart, crds: this.crds } = operatorCrdChart(chart, this.api, where));
    ownChart(this.crdChart, this);
    this.namespaceWriter = new NamespaceWriter(this.kplus, props.podSecurity ?? {});
    // Filled at validation: whether the operator's namespace is its own or holds releases is
    // known only from the finished manifest.
    this.namespaceScope = new Construct(this, 'namespaces');
    if ((props.releaseNamespaceOutput ?? ReleaseNamespaceOutput.SEPARATE) === ReleaseNamespaceOutput.SEPARATE && (this.rbacMode === OperatorRbac.LEAST_PRIVILEGE || props.manifest !== undefined)) {
      // Apart from the bundle, so that deleting the operator never deletes a site.
      this.namespaceChart = new cdk8s.Chart(freeSiblingScope(chart, 'release-namespaces', where), `${chart.node.id}-release-namespaces`);
      ownChart(this.namespaceChart, this);
    }
    this.sa = new this.kplus.ServiceAccount(this, 'service-account', {
      metadata: { name: this.name, namespace: this.namespace, labels: this.labels() },
      // The operator talks to the API server with this account's token.
      automountToken: true,
    });
    this.serviceAccount = cdk8s.ApiObject.of(this.sa);
    this.rbac = new Construct(this, 'rbac');
    if (props.denyIngress !== false) {
      this.denyIngress = new cdk8s.ApiObject(this, 'deny-ingress', {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: `${this.name}-deny-ingress`, namespace: this.namespace, labels: this.labels() },
        spec: { podSelector: { matchLabels: this.selector() }, policyTypes: ['Ingress'] },
      });
    }
    const who = { name: this.name, namespace: this.namespace, labels: this.labels(), selector: this.selector(), replicas };
    this.deployment = new cdk8s.ApiObject(this, 'deployment', deploymentJson(this.profile, props, who));
    this.node.addValidation({ validate: () => this.renderOnce() });
    watchClashes(this);
    this.built = true;
  }

  /** @internal */
  public _renderNow(): void {
    this.renderOnce();
  }

  /** @internal */
  public _describe(): string {
    return `the ArmadaOperator ${this.node.path} (api ${this.api})`;
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

  /** The namespace of the manifest's objects for this operator, when it decides the operator's. */
  private siteNamespace(): string | undefined {
    const m = this.props.manifest;
    if (!m || !this.profile.siteNamespace) return undefined;
    const { spec, plan, diagnostics } = m.resolve();
    if (hasErrors(diagnostics)) return undefined;
    return this.profile.siteNamespace(spec, plan);
  }

  /**
   * The namespaces releases are installed into, in deployment order, as far as the bundle knows
   * them: least-privilege RBAC's releases, or else the manifest's (none without one, or while it
   * has errors, which it reports itself).
   */
  private releaseNamespaces(releases: readonly ReleaseAccess[]): string[] {
    if (this.rbacMode === OperatorRbac.LEAST_PRIVILEGE) return [...new Set(releases.map((x) => x.namespace))];
    const p = this.props;
    if (p.manifest === undefined) return [];
    const site = siteReleases(this.profile, {
      manifest: p.manifest,
      defaultKinds: p.defaultResourceKinds ?? ResourceKinds.HELM_RELEASE,
      operatorNamespace: this.namespace,
      namespaceGiven: p.namespace !== undefined,
    });
    return 'errors' in site ? [] : [...new Set(site.releases.map((x) => x.namespace))];
  }

  private labels(): Record<string, string> {
    return { 'app.kubernetes.io/name': this.name, 'app.kubernetes.io/component': 'operator', 'app.kubernetes.io/managed-by': 'armada-cdk' };
  }

  private selector(): Record<string, string> {
    return { 'app.kubernetes.io/name': this.name, 'app.kubernetes.io/component': 'operator' };
  }

  /** The permissions, or the errors that prevent deriving them. */
  private derive(): { permissions: OperatorPermissions; releases: readonly ReleaseAccess[] } | { errors: string[] } {
    const p = this.props;
    const defaultKinds = p.defaultResourceKinds ?? ResourceKinds.HELM_RELEASE;
    let releases: readonly ReleaseAccess[] = [];
    if (this.rbacMode === OperatorRbac.LEAST_PRIVILEGE) {
      const site = siteReleases(this.profile, {
        manifest: p.manifest,
        releaseNamespaces: p.releaseNamespaces,
        resourceKinds: p.resourceKinds,
        defaultKinds,
        operatorNamespace: this.namespace,
        namespaceGiven: p.namespace !== undefined,
      });
      if ('errors' in site) return site;
      releases = site.releases;
    }
    const permissions = operatorPermissions(this.profile, {
      mode: this.rbacMode,
      releases,
      defaultKinds,
      leaderElection: p.leaderElection !== false,
      operatorNamespace: this.namespace,
      roleEscalation: p.roleEscalation,
      globalNetworkPolicyFallback: p.globalNetworkPolicyFallback,
    });
    return { permissions, releases };
  }

  private renderOnce(): string[] {
    if (this.rendered) return [];
    const r = this.derive();
    if ('errors' in r) {
      // The manifest reports its own errors when it is validated in this tree.
      const sameTree = this.props.manifest !== undefined && this.props.manifest.node.root === this.node.root;
      const model = this.props.manifest !== undefined && hasErrors(this.props.manifest.resolve().diagnostics);
      return sameTree && model ? [] : r.errors;
    }
    const errors = [...this.crdConflicts(), ...this.sameApiConflicts(), ...this.escalationErrors(r.permissions, r.releases)];
    if (errors.length > 0) return errors;
    this.rendered = true;
    const p = this.props;
    const warnings = bundleWarnings(
      { location: this.node.path, mode: this.rbacMode, sensitiveNamespaces: p.sensitiveNamespaces, defaultResourceKinds: p.defaultResourceKinds, roleEscalation: p.roleEscalation },
      r.releases,
    );
    reportWarnings(this, [], warnings, p.onWarning);
    // A namespace that holds releases is never the bundle's: `kubectl delete -f` of the bundle
    // would delete it, and every release in it, and its level is the releases' (the operator's
    // pods meet `restricted`, so any level admits them).
    const releaseNamespaces = this.releaseNamespaces(r.releases);
    const shared = releaseNamespaces.includes(this.namespace);
    if (!shared && p.createNamespaces !== false) this.namespaceWriter.create(this.namespaceScope, this.namespace, PodSecurityLevel.RESTRICTED);
    const nsChart = this.namespaceChart;
    if (nsChart) {
      // Without least-privilege RBAC the bundle writes no release namespace but the operator's.
      const written = this.rbacMode === OperatorRbac.LEAST_PRIVILEGE ? releaseNamespaces : shared ? [this.namespace] : [];
      for (const namespace of written) this.namespaceWriter.create(nsChart, namespace, PodSecurityLevel.BASELINE);
      // cdk8s lists the charts to write after validation: an empty one is left out of the app.
      if (nsChart.node.children.length === 0 && nsChart.node.scope?.node.tryRemoveChild(nsChart.node.id)) this.namespaceChart = undefined;
    }
    const at = { kplus: this.kplus, scope: this.rbac, subject: this.sa, name: this.name, namespace: this.namespace, labels: this.labels() };
    const created = createRbacObjects(at, this.rbacMode, r.permissions);
    // Besides tree order: a pod must not start before its permissions exist.
    for (const d of [...(this.denyIngress ? [this.denyIngress] : []), this.deployment]) for (const c of created) for (const o of apiObjects(c)) d.node.addDependency(o);
    return [];
  }

  /**
   * Both operators define armadacharts.armada.airshipit.org: one app must not mix them. The
   * constructs that write one operator's objects (this one, the custom resource outputs) carry
   * its API as `api`.
   */
  private crdConflicts(): string[] {
    const others = this.node.root.node.findAll().filter((c): c is IConstruct & { readonly api: OperatorApi } => c !== this && API_VALUES.includes((c as { api?: unknown }).api) && (c as { api?: unknown }).api !== this.api);
    return others.map((o) => {
      const what = o instanceof ArmadaOperator ? 'the ArmadaOperator' : 'the ArmadaChartOutput';
      return `api ${JSON.stringify(this.api)}: ${what} ${o.node.path} uses ${JSON.stringify(o.api)}, and both operators define the CRD armadacharts.armada.airshipit.org (versions v1 and v1alpha1): applying one replaces the other's, and the API server refuses it once CRs are stored; use one operator per cluster`;
    });
  }

  /**
   * Two operators of one API that would reconcile the same custom resources, each installing and
   * upgrading every release: the airship operator watches every namespace, keleustes its own.
   * Reported by the later one, naming the earlier.
   */
  private sameApiConflicts(): string[] {
    const same = this.node.root.node.findAll().filter((c): c is ArmadaOperator => c instanceof ArmadaOperator && c.api === this.api);
    const earlier = same.slice(0, same.indexOf(this));
    const cluster = this.profile.watch === 'cluster';
    return earlier.filter((o) => cluster || o.namespace === this.namespace).map((o) => {
      const scope = cluster ? 'every ArmadaChart of the cluster (it watches every namespace)' : `every custom resource of namespace ${JSON.stringify(this.namespace)}, which both watch`;
      const fix = cluster ? 'create one airship ArmadaOperator per cluster' : 'give each operator (and its manifest) a namespace of its own';
      return `api ${JSON.stringify(this.api)}: the ArmadaOperator ${o.node.path} installs the same operator, and both would reconcile ${scope}, each installing and upgrading every release against the other; ${fix}`;
    });
  }

  /** The escalation check over what the charts are known to contain; empty unless the rules are short. */
  private escalationErrors(perms: OperatorPermissions, releases: readonly ReleaseAccess[]): string[] {
    if (this.rbacMode === OperatorRbac.CLUSTER_ADMIN) return [];
    const byNs = new Map(perms.namespaced.map((n) => [n.namespace, n.rules]));
    const charts = releases.map((r) => ({ chart: r.chart, namespace: r.namespace, contents: { kinds: r.kinds, roles: r.roles ?? [], bindings: r.bindings ?? [] } }));
    return escalationFindings({ namespaced: (ns) => byNs.get(ns) ?? [], cluster: perms.cluster }, charts).map(describeFinding);
  }
}

function findChart(c: IConstruct): cdk8s.Chart | undefined {
  for (let s: IConstruct | undefined = c; s; s = s.node.scope) if (cdk8s.Chart.isChart(s)) return s as cdk8s.Chart;
  return undefined;
}
