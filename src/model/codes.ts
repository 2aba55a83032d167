/**
 * The `code` of every diagnostic built on the model's shape: the model's rules, the wire
 * converters, and what the adapters add. The importer's loader has its own registry
 * (`LoadCodes`). A code is stable: the CLI's JSON output carries it, reports group warnings by it,
 * and users filter on it; a new rule gets a new code here rather than reusing one.
 */
export const DiagnosticCodes = {
  // Names and references (model/validate.ts).
  /** A chart group, chart or subchart named but not in the manifest (Armada's own code). */
  ARM001: 'ARM001',
  /** A manifest, chart group or chart name that Armada or Kubernetes does not accept. */
  NAME: 'name',
  /** Two charts, or two chart groups, with one name (Armada silently keeps the first). */
  DUPLICATE_NAME: 'duplicate-name',
  /** Two charts that install the same Helm release in one namespace. */
  DUPLICATE_RELEASE: 'duplicate-release',
  /** A missing or malformed release prefix. */
  RELEASE_PREFIX: 'release-prefix',
  /** A missing or malformed release name. */
  RELEASE: 'release',
  /** A namespace that is not a DNS label. */
  NAMESPACE: 'namespace',
  /** A construct referred to from outside the manifest that defines it. */
  FOREIGN_REFERENCE: 'foreign-reference',
  // Structure of the site.
  /** A manifest without chart groups. */
  NO_GROUPS: 'no-groups',
  /** A chart group without charts (warning). */
  EMPTY_GROUP: 'empty-group',
  /** A chart group listed twice in the manifest. */
  GROUP_LISTED_TWICE: 'group-listed-twice',
  /** A chart listed twice in one chart group. */
  CHART_LISTED_TWICE: 'chart-listed-twice',
  /** A chart in more than one chart group of the manifest. */
  CHART_IN_TWO_GROUPS: 'chart-in-two-groups',
  /** A chart in no chart group and no deployed chart's subcharts (warning). */
  NOT_DEPLOYED: 'not-deployed',
  /** A loop of subchart dependencies. */
  DEPENDENCY_CYCLE: 'dependency-cycle',
  /** One subchart dependency listed twice by a chart (Armada fails with FileExistsError). */
  DEPENDENCY_TWICE: 'dependency-twice',
  /** An ordering constraint (addDependency) Armada cannot honour. */
  ORDER: 'order',
  /** A loop of ordering constraints. */
  ORDER_CYCLE: 'order-cycle',
  /** A construct inside a cdk8s Chart that nothing renders. */
  NO_OUTPUT: 'no-output',
  // Chart fields.
  /** A prop whose runtime type is wrong (JavaScript callers, or TypeScript through `as any`). */
  PROP_TYPE: 'prop-type',
  /** A chart source Armada cannot fetch. */
  SOURCE: 'source',
  /** Values that are not a mapping of plain data. */
  VALUES: 'values',
  /**
   * A value string that Armada's `yaml.safe_dump` leaves unquoted and Helm then reads as a boolean
   * or a number (`y`, `1e3`, `0o755`), so it means something else under Armada (warning): for a
   * site read from Armada YAML, and for one written as Armada documents (`ArmadaDocuments`).
   */
  VALUES_RETYPED: 'values-retyped',
  /** Values that break the chart's values.schema.json. */
  VALUES_SCHEMA: 'values-schema',
  /** A timeout that is not a whole number of seconds Armada accepts. */
  TIMEOUT: 'timeout',
  /** A wait resource type Armada does not wait on. */
  WAIT_TYPE: 'wait-type',
  /** A wait option that does not apply to its resource type. */
  WAIT_OPTION: 'wait-option',
  /** Wait resources of imported documents that Armada fails on when it deploys the chart. */
  WAIT_RESOURCES: 'wait-resources',
  /** A wait that has no labels, so it waits on every pod of the namespace (warning). */
  WAIT_NO_LABELS: 'wait-no-labels',
  /** A minReady that is neither a count nor a percentage. */
  MIN_READY: 'min-ready',
  /** A label key or value Kubernetes does not accept. */
  LABELS: 'labels',
  /** A pre-upgrade delete type Armada does not delete (warning). */
  PRE_DELETE_TYPE: 'pre-delete-type',
  /** An empty protected block, which Armada treats as not protected (warning). */
  PROTECTED_EMPTY: 'protected-empty',
  /** A field Armada accepts and ignores (warning). */
  IGNORED: 'ignored',
  /** A deprecated field (warning). */
  DEPRECATED: 'deprecated',
  /** A field that is not part of the v2 schemas. */
  V2_FIELD: 'v2-field',
  // Wire formats (model/wire/).
  /** A definition the target format cannot express. */
  NOT_EXPRESSIBLE: 'not-expressible',
  /**
   * Findings of one rule past the number listed one by one, counted in one diagnostic (the values
   * of a chart that keleustes's closed values schema drops or rejects, past the first 1,000).
   */
  FINDING_LIMIT: 'finding-limit',
  /** Where the airship or keleustes operator departs from Armada (warning). */
  OPERATOR_DIFFERS: 'operator-differs',
  /** A chart group whose charts the keleustes operator cannot find in their namespaces. */
  NAMESPACES: 'namespaces',
  /** A Flux option with a value Flux does not accept. */
  FLUX_OPTION: 'flux-option',
  /** Two charts that would write one HelmRelease. */
  FLUX_NAME: 'flux-name',
  /** A chart source that Flux cannot serve. */
  FLUX_SOURCE: 'flux-source',
  /** HelmRelease references across namespaces, which a locked-down helm-controller refuses (warning). */
  FLUX_CROSS_NAMESPACE: 'flux-cross-namespace',
  /** What the Flux mapping assumes where Armada and Flux differ (warning). */
  FLUX_ASSUMPTION: 'flux-assumption',
  /** Two charts that would write one Helmfile release. */
  HELMFILE_NAME: 'helmfile-name',
  /** A chart source that Helmfile cannot fetch. */
  HELMFILE_SOURCE: 'helmfile-source',
  /** What the Helmfile mapping assumes where Armada and Helmfile differ (warning). */
  HELMFILE_ASSUMPTION: 'helmfile-assumption',
  /** A secret value written as a reference to the environment of helmfile (warning). */
  HELMFILE_SECRET: 'helmfile-secret',
  /** A value Helmfile would not pass to Helm as written (a vals reference). */
  HELMFILE_VALUES: 'helmfile-values',
  /** A string that cdk8s's YAML writer leaves unquoted and a YAML 1.1 reader misreads. */
  YAML_1_1: 'yaml-1.1',
  // The importer above the loader.
  /** Documents that are fragments of a site not yet rendered (Deckhand, Pegleg). */
  UNRENDERED: 'unrendered',
  /** An override (`--set`, `--values`, override documents) Armada would reject or ignore. */
  OVERRIDE: 'override',
  /** A document of another tool (Deckhand, Pegleg) that a command's output leaves out (warning). */
  NOT_CONVERTED: 'not-converted',
  /** A `${VAR}` placeholder left in an Armada document (warning). */
  UNEXPANDED_PLACEHOLDER: 'unexpanded-placeholder',
  // The Pulumi deployment.
  /** A chart field the Pulumi deployment does not apply (warning). */
  PULUMI_UNSUPPORTED: 'pulumi-unsupported',
  /** A chart Armada deploys more than once, which the Pulumi deployment deploys once (warning). */
  PULUMI_REDEPLOY: 'pulumi-redeploy',
  /** An `aliases` entry of a deployment that names nothing it creates, or no old path. */
  PULUMI_ALIAS: 'pulumi-alias',
  /** An option of a deployment (`ManifestDeployment`) of the wrong type or value. */
  PULUMI_OPTION: 'pulumi-option',
  // The operator bundle (cdk8s/operator/warnings.ts); all warnings.
  /** An operator bound to cluster-admin. */
  CLUSTER_ADMIN: 'cluster-admin',
  /** An operator granted workloads and Secrets in every namespace. */
  CLUSTER_WIDE: 'cluster-wide',
  /** Releases installed into a sensitive namespace (kube-system among them). */
  SENSITIVE_NAMESPACE: 'sensitive-namespace',
  /** Least-privilege RBAC derived from the default kind list, a guess. */
  DEFAULT_KINDS: 'default-kinds',
  /** RBAC that lets the operator grant any permission within its namespaces. */
  ROLE_ESCALATION: 'role-escalation',
  /** Bindings to roles the chart does not contain. */
  BIND: 'bind',
} as const;

/** One of {@link DiagnosticCodes}. */
export type DiagnosticCode = (typeof DiagnosticCodes)[keyof typeof DiagnosticCodes];
