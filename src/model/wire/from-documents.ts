/**
 * Armada documents (already schema-valid) to a resolved ManifestSpec: the importer's core, and
 * the inverse of `documents.ts`. What was written stays written and what was left out stays out,
 * so that writing the spec back gives documents equal in meaning to the input.
 */
import { Diagnostics, Origin, show, suggest } from '../diagnostics';
import { Duration } from '../duration';
import { ChartSource } from '../source';
import {
  ChartGroupSpec,
  ChartSpec,
  HookAction,
  ManifestSpec,
  SchemaVersion,
  TestOptions,
  UpgradeOptions,
  WaitOptions,
} from '../spec';
import { V2_DEFAULT_WAIT_RESOURCES, WaitResource, WaitResourceOptions } from '../wait';
import { firstByName, repeatedNameMessage } from '../first-by-name';
import { DiagnosticCodes } from '../codes';
import type { FailedDocuments } from '../validate';

/** One Armada document as the loader hands it over. */
export interface InputDocument {
  /** `armada/Chart/v1` and so on. */
  readonly schema: string;
  /** `metadata.name`. */
  readonly name: string;
  readonly data: Record<string, unknown>;
  /** Where the document came from; rules locate their findings through it. */
  readonly origin: Origin;
  /**
   * The document failed Armada's schema check: it counts as a document of its kind and name (a
   * reference to it is not missing), but its data is not read.
   * @default false
   */
  readonly failed?: boolean | undefined;
}

/** Options of {@link documentsToSpec}. */
export interface DocumentsToSpecOptions {
  /**
   * The manifest to build, as `armada apply --target-manifest`.
   * @default - the only manifest in the documents (more than one is an error)
   */
  readonly targetManifest?: string | undefined;
}

const SCHEMA = /^armada\/(Chart|ChartGroup|Manifest)\/v(1|2)$/;

/** Splits `armada/Chart/v2` into its kind and version, or undefined for a non-Armada schema. */
export function armadaSchema(schema: string): { kind: 'Chart' | 'ChartGroup' | 'Manifest'; version: SchemaVersion } | undefined {
  const m = SCHEMA.exec(schema);
  return m ? { kind: m[1] as 'Chart' | 'ChartGroup' | 'Manifest', version: Number(m[2]) as SchemaVersion } : undefined;
}

/** What {@link documentsToSpec} returns. */
export interface DocumentsSpec {
  /** The site, without the documents that failed; undefined when no manifest can be chosen. */
  readonly spec?: ManifestSpec | undefined;
  readonly diagnostics: Diagnostics;
  /**
   * The documents left out of `spec` because they failed (see {@link InputDocument.failed}),
   * for the rules to leave out what depends on them.
   * @default - none failed
   */
  readonly failed?: FailedDocuments | undefined;
}

/**
 * Selects the manifest as Armada does and converts every chart and group document of the stream.
 * Non-Armada documents are ignored; failed ones count in the choice of the manifest and the
 * presence of each kind, and are otherwise left out.
 */
export function documentsToSpec(docs: readonly InputDocument[], options: DocumentsToSpecOptions = {}): DocumentsSpec {
  const d = new Diagnostics();
  const all: ArmadaInput[] = [];
  let anyFailed = false;
  for (const doc of docs) {
    const info = armadaSchema(doc.schema);
    if (info === undefined) continue;
    all.push({ doc, info });
    anyFailed ||= doc.failed === true;
  }
  let manifests = all.filter((x) => x.info!.kind === 'Manifest');
  if (options.targetManifest !== undefined) {
    const wanted = manifests.filter((x) => x.doc.name === options.targetManifest);
    if (wanted.length === 0) {
      d.add({
        severity: 'error',
        location: docs[0]?.origin.locate().location ?? '<input>',
        message: `no armada/Manifest named ${show(options.targetManifest)}; the documents have ${manifests.length === 0 ? 'none' : manifests.map((m) => show(m.doc.name)).join(', ')}`,
        code: DiagnosticCodes.ARM001,
      });
      return { diagnostics: d };
    }
    manifests = wanted;
  }
  if (manifests.length !== 1) {
    const where = manifests.map((m) => `${m.doc.origin.locate().location} ${show(m.doc.name)}`).join(', ');
    d.add({
      severity: 'error',
      location: manifests[1]?.doc.origin.locate().location ?? docs[0]?.origin.locate().location ?? '<input>',
      message: manifests.length === 0
        ? 'the documents contain no armada/Manifest; Armada needs at least one Chart, one ChartGroup and exactly one Manifest'
        : options.targetManifest !== undefined
          ? `the documents contain ${manifests.length} manifests named ${show(options.targetManifest)} (${where}), so --target-manifest cannot choose between them; rename or remove all but one`
          : `the documents contain ${manifests.length} manifests (${where}); choose one with --target-manifest, as Armada requires`,
      code: DiagnosticCodes.ARM001,
    });
    return { diagnostics: d };
  }
  if (!all.some((x) => x.info!.kind === 'Chart') || !all.some((x) => x.info!.kind === 'ChartGroup')) {
    // Armada's own check and words (`Manifest.__init__`).
    d.add({
      severity: 'error',
      location: manifests[0].doc.origin.locate().location,
      document: `${manifests[0].doc.schema} ${manifests[0].doc.name}`,
      message: 'Documents must include at least one of each of [Chart, ChartGroup] and only one Manifest (a fragment of a site: pass every document of the rendered site)',
      code: DiagnosticCodes.ARM001,
    });
    return { diagnostics: d };
  }
  const m = manifests[0];
  const failed = anyFailed ? failedDocuments(all, m.doc) : undefined;
  if (failed) repeatedWithFailed(all, d);
  const armada = failed ? all.filter((x) => !x.doc.failed) : all;
  const version = m.info!.version;
  const charts: ChartSpec[] = [];
  const groups: ChartGroupSpec[] = [];
  // What Armada finds wrong in a chart only when it builds or deploys it waits for the scope.
  const deferred = new Map<ChartSpec, ChartFindings>();
  // An index loop here and forEach below: they run once per document, before V8 optimizes them,
  // and an unoptimized for...of makes an object per step (two over a Map).
  for (let i = 0; i < armada.length; i++) {
    const { doc, info } = armada[i];
    if (info!.kind === 'Chart') {
      const findings: ChartFindings = { built: new Diagnostics(), deployed: new Diagnostics() };
      const chart = chartFromData(doc, info!.version, version, findings);
      deferred.set(chart, findings);
      charts.push(chart);
    } else if (info!.kind === 'ChartGroup') groups.push(groupFromData(doc, info!.version, version));
  }
  // A failed manifest's data is not read: it deploys no group the rules can see.
  const data = failed?.manifest ? {} : m.doc.data;
  const spec: ManifestSpec = {
    name: m.doc.name,
    releasePrefix: (failed?.manifest ? '' : data.release_prefix) as string,
    schemaVersion: version,
    chartGroups: [...((data.chart_groups as string[] | undefined) ?? [])],
    groups,
    charts,
    origin: m.doc.origin,
  };
  const scope = buildScope(spec, failed);
  const first = firstByName(spec.charts);
  deferred.forEach((findings, chart) => {
    // A chart a failed document may deploy is judged on its own fields: what Armada would find
    // wrong in them when it builds or deploys the chart.
    const maybe = scope.unsure && first.get(chart.name) === chart;
    if (maybe || scope.reachable.has(chart)) d.addAll(findings.built.all);
    if (maybe || scope.deployed.has(chart)) d.addAll(findings.deployed.all);
  });
  for (const other of manifests.length === 1 ? armada.filter((x) => x.info!.kind === 'Manifest' && x.doc !== m.doc) : []) {
    checkOtherManifest(other.doc, spec, d, failed);
  }
  return { spec, diagnostics: d, ...(failed ? { failed } : {}) };
}

/** An Armada document with its kind and version. */
interface ArmadaInput {
  readonly doc: InputDocument;
  readonly info: NonNullable<ReturnType<typeof armadaSchema>>;
}

/** The names of the failed documents, by kind. */
function failedDocuments(all: readonly ArmadaInput[], manifest: InputDocument): FailedDocuments {
  const of = (kind: string) => new Set(all.filter((x) => x.doc.failed && x.info.kind === kind).map((x) => x.doc.name));
  return { manifest: manifest.failed === true, groups: of('ChartGroup'), charts: of('Chart') };
}

/**
 * Names that a failed document shares with another document of its kind. Validation sees only the
 * documents that passed, so it would report such a name only once the failed one is fixed; here a
 * document is reported when it is failed and repeats an earlier name, or when it is the first
 * passing one of a name that failed documents had before it (validation reports the later passing
 * ones, against this one).
 */
function repeatedWithFailed(all: readonly ArmadaInput[], d: Diagnostics): void {
  const seen = new Map<string, { first: InputDocument; passing: boolean }>();
  for (const { doc, info } of all) {
    if (info.kind === 'Manifest') continue;
    const key = `${info.kind}\u0000${doc.name}`;
    const before = seen.get(key);
    if (before === undefined) {
      seen.set(key, { first: doc, passing: doc.failed !== true });
      continue;
    }
    if (doc.failed === true || !before.passing) {
      d.error(doc.origin, ['name'], 'duplicate-name', repeatedNameMessage(info.kind === 'Chart' ? 'chart' : 'chart group', doc.name, before.first.origin.locate().location));
    }
    if (doc.failed !== true) before.passing = true;
  }
}

/**
 * Diagnostics of one chart document that Armada raises only when it builds the chart (a
 * subchart of a deployed chart included) or deploys it (waits).
 */
interface ChartFindings {
  readonly built: Diagnostics;
  readonly deployed: Diagnostics;
}

/**
 * The chart specs Armada deploys for the target manifest, those it builds at all, and whether a
 * failed document on the way may deploy others (`unsure`).
 */
function buildScope(spec: ManifestSpec, failed: FailedDocuments | undefined): { deployed: Set<ChartSpec>; reachable: Set<ChartSpec>; unsure: boolean } {
  const groups = firstByName(spec.groups);
  const charts = firstByName(spec.charts);
  const deployed = new Set<ChartSpec>();
  const reachable = new Set<ChartSpec>();
  let unsure = failed?.manifest === true;
  const chart = (name: string) => {
    const c = charts.get(name);
    if (!c && failed?.charts.has(name)) unsure = true;
    return c;
  };
  const visit = (c: ChartSpec | undefined) => {
    if (!c || reachable.has(c)) return;
    reachable.add(c);
    for (const dep of c.dependencies ?? []) visit(chart(dep));
  };
  for (const g of spec.chartGroups) {
    const group = groups.get(g);
    if (!group && failed?.groups.has(g)) unsure = true;
    for (const name of group?.charts ?? []) {
      const c = chart(name);
      if (c) deployed.add(c);
      visit(c);
    }
  }
  return { deployed, reachable, unsure };
}

/**
 * `armada apply` validates the stream first, and that builds every manifest in it
 * (`validate_armada_manifests`): a group, chart or subchart another manifest names and no
 * document defines fails the apply, although the target manifest never uses it.
 */
function checkOtherManifest(doc: InputDocument, target: ManifestSpec, d: Diagnostics, failed: FailedDocuments | undefined): void {
  const groups = firstByName(target.groups);
  const charts = firstByName(target.charts);
  const fail = (field: (string | number)[], what: string) =>
    d.error(doc.origin, field, 'ARM001', `${what}; Armada builds every manifest of the stream before it applies the target ${show(target.name)}, so \`armada apply\` fails on this one too`);
  const listed = Array.isArray(doc.data.chart_groups) ? (doc.data.chart_groups as unknown[]) : [];
  listed.forEach((g, i) => {
    if (typeof g !== 'string') return;
    const group = groups.get(g);
    // What a failed group lists is not known.
    if (!group && failed?.groups.has(g)) return;
    if (!group) return fail(['chartGroups', i], `manifest ${show(doc.name)} lists chart group ${show(g)}, which no document defines`);
    for (const c of group.charts) {
      const problem = chartBuildProblem(c, charts, [], failed?.charts);
      if (problem) fail(['chartGroups', i], `manifest ${show(doc.name)} lists chart group ${show(g)}, whose chart ${problem}`);
    }
  });
}

/**
 * Why Armada's `build_chart_deps` fails for `name` (missing chart, missing subchart, cycle), or
 * undefined; a chart whose document failed is not missing, and its subcharts are not known.
 */
function chartBuildProblem(name: string, charts: ReadonlyMap<string, ChartSpec>, path: readonly string[], failed: ReadonlySet<string> | undefined): string | undefined {
  if (path.includes(name)) return `${show(path[0])} has subchart dependencies that form a cycle (${[...path, name].join(' -> ')})`;
  const c = charts.get(name);
  if (!c && failed?.has(name)) return undefined;
  if (!c) return path.length === 0 ? `${show(name)} is defined by no document` : `${show(path[0])} needs subchart ${show(name)}, which no document defines`;
  for (const dep of c.dependencies ?? []) {
    const p = chartBuildProblem(dep, charts, [...path, name], failed);
    if (p) return p;
  }
  return undefined;
}

function groupFromData(doc: InputDocument, version: SchemaVersion, manifestVersion: SchemaVersion): ChartGroupSpec {
  const x = doc.data;
  return {
    name: doc.name,
    ...(version !== manifestVersion ? { schemaVersion: version } : {}),
    description: x.description as string | undefined,
    sequenced: x.sequenced as boolean | undefined,
    testCharts: x.test_charts as boolean | undefined,
    displayName: x.name as string | undefined,
    charts: [...((x.chart_group as string[] | undefined) ?? [])],
    origin: doc.origin,
  };
}

// An integer beyond 2^53 arrives as a bigint; validation then reports it as beyond what Helm takes.
const seconds = (v: unknown): Duration | undefined => (typeof v === 'number' ? Duration.seconds(v) : typeof v === 'bigint' ? Duration.seconds(Number(v)) : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function chartFromData(doc: InputDocument, version: SchemaVersion, manifestVersion: SchemaVersion, findings: ChartFindings): ChartSpec {
  const x = doc.data;
  const src = obj(x.source) ?? {};
  const type = src.type;
  const location = (src.location as string | undefined) ?? '';
  const common = { subpath: src.subpath as string | undefined };
  let source: ChartSource;
  if (type === 'git') {
    source = ChartSource.git(location, { ...common, reference: src.reference as string | undefined, proxyServer: src.proxy_server as string | undefined, authMethod: src.auth_method as string | undefined });
  } else if (type === 'tar') {
    source = ChartSource.tar(location, { ...common, proxyServer: src.proxy_server as string | undefined });
  } else {
    if (type !== 'local') {
      const hint = typeof type === 'string' ? suggest(type, ['local', 'tar', 'git']) : undefined;
      findings.built.error(doc.origin, ['source', 'type'], 'source', `received ${show(type)}${hint ? ` (did you mean ${show(hint)}?)` : ''}; Armada fetches only local, tar and git sources (it fails with ChartSourceException before deploying anything)`);
    }
    source = ChartSource.local(location, common);
  }
  for (const k of Object.keys(src)) {
    if (!['type', 'location', 'subpath', 'reference', 'proxy_server', 'auth_method'].includes(k)) {
      findings.built.warn(doc.origin, ['source', k], 'ignored', `source.${k} is not a field Armada reads; it is dropped`);
    }
    // `reference` and the like on a local or tar source are common in real manifests (copied
    // from git ones) and ignored by Armada: they are dropped without a word, meaning unchanged.
  }

  const t = x.test;
  let test: TestOptions | boolean | undefined;
  if (typeof t === 'boolean') test = t;
  else if (obj(t)) {
    const to = obj(t)!;
    test = clean({ enabled: to.enabled as boolean | undefined, timeout: seconds(to.timeout), cleanup: obj(to.options)?.cleanup as boolean | undefined });
  }

  return {
    name: doc.name,
    ...(version !== manifestVersion ? { schemaVersion: version } : {}),
    chartName: x.chart_name as string | undefined,
    release: x.release as string,
    namespace: x.namespace as string,
    source,
    values: obj(x.values),
    dependencies: Array.isArray(x.dependencies) ? [...(x.dependencies as string[])] : undefined,
    protected: obj(x.protected) ? clean({ continueProcessing: obj(x.protected)!.continue_processing as boolean | undefined }) : undefined,
    test,
    wait: waitFromData(obj(x.wait), version, doc, findings.deployed),
    upgrade: upgradeFromData(obj(x.upgrade), version),
    delete: obj(x.delete) ? clean({ timeout: seconds(obj(x.delete)!.timeout) }) : undefined,
    install: obj(x.install),
    timeout: seconds(x.timeout),
    dependsOn: [],
    origin: doc.origin,
  };
}

function waitFromData(w: Record<string, unknown> | undefined, version: SchemaVersion, doc: InputDocument, d: Diagnostics): WaitOptions | undefined {
  let resources: WaitResource[] | undefined;
  const raw = w?.resources;
  if (Array.isArray(raw)) {
    resources = raw.map((r, i) => {
      checkResourceConfig(r, ['wait', 'resources', i], String(obj(r)?.type ?? ''), doc, d);
      return resourceFromData(obj(r) ?? {}, String(obj(r)?.type ?? ''));
    });
  } else if (version === SchemaVersion.V2 && raw !== undefined && raw !== null && isTruthy(raw)) {
    // `ChartWait.get_resources_list` calls `resources.items()`: anything but a mapping raises.
    if (!obj(raw)) {
      d.error(doc.origin, ['wait', 'resources'], 'wait-resources', `received ${show(raw)}; v2 wait.resources must be a list of resources or a mapping from type to config (the schema lets this through, but Armada fails on it when it deploys the chart: it calls .items() on it)`);
    } else {
      resources = expandV2Dict(obj(raw)!, doc, d);
    }
  }
  // v1 ignores any wait.resources that is not a list and uses its default; v2 does the same for a
  // falsy one (null, {}, "", 0, false).
  const native = obj(w?.native) ? clean({ enabled: obj(w!.native)!.enabled as boolean | undefined }) : undefined;
  if (w === undefined) return undefined;
  return clean({
    timeout: seconds(w?.timeout),
    labels: obj(w?.labels) as Record<string, string> | undefined,
    resources,
    native,
  });
}

/** Python's truth value of a loaded YAML value. */
function isTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (obj(v) && Object.getPrototypeOf(v) === Object.prototype) return Object.keys(v).length > 0;
  return true;
}

/** The keyword arguments each wait class of Armada takes (`get_resource_wait` passes the config as `**kwargs`). */
const WAIT_KWARGS: Record<string, readonly string[]> = {
  pod: ['required'],
  job: ['required'],
  deployment: ['required', 'min_ready'],
  daemonset: ['required', 'min_ready', 'allow_async_updates'],
  statefulset: ['required', 'min_ready', 'allow_async_updates'],
};

/**
 * A wait resource config Armada cannot turn into a wait: not a mapping, or a key its wait class
 * does not take (a TypeError, which Armada reports as "invalid config for item in
 * `wait.resources`"). `min_ready` and `allow_async_updates` on the wrong type are left to the
 * model's rules, which say more.
 */
function checkResourceConfig(r: unknown, field: (string | number)[], type: string, doc: InputDocument, d: Diagnostics): void {
  const o = obj(r);
  if (!o) {
    d.error(doc.origin, field, 'wait-resources', `received ${show(r)}; a wait resource must be a mapping (Armada fails on it when it deploys the chart)`);
    return;
  }
  const allowed = WAIT_KWARGS[type];
  if (!allowed) return;
  for (const k of Object.keys(o)) {
    // In the mapping form Armada overwrites `type` with the key, so it is harmless there too.
    if (k === 'labels' || k === 'type' || allowed.includes(k) || k === 'min_ready' || k === 'allow_async_updates') continue;
    d.error(doc.origin, [...field, k], 'wait-resources', `${show(k)} is not an option of a ${type} wait (it takes labels, ${allowed.join(', ')}); Armada fails on it when it deploys the chart ("invalid config for item in \`wait.resources\`")`);
  }
}

function resourceFromData(r: Record<string, unknown>, type: string): WaitResource {
  const opts: WaitResourceOptions = clean({
    labels: obj(r.labels) as Record<string, string> | undefined,
    minReady: r.min_ready as WaitResourceOptions['minReady'],
    required: r.required as boolean | undefined,
    allowAsyncUpdates: r.allow_async_updates as boolean | undefined,
  });
  return WaitResource.of(type, opts);
}

/** v2's dict form, merged over the v2 default exactly as `ChartWait.get_resources_list`. */
function expandV2Dict(dict: Record<string, unknown>, doc: InputDocument, d: Diagnostics): WaitResource[] {
  const order = V2_DEFAULT_WAIT_RESOURCES.map((r) => r.type);
  const configs = new Map<string, unknown>(order.map((t) => [t, { required: false }]));
  for (const [type, v] of Object.entries(dict)) {
    if (v === false) {
      // `resource_configs.pop(resource_type)`: a KeyError for a type not in the default list.
      if (!configs.has(type)) {
        d.error(doc.origin, ['wait', 'resources', type], 'wait-resources', `${show(type)}: false removes a type from the default list, which has only ${order.join(', ')}; Armada fails on it when it deploys the chart (KeyError)`);
      }
      configs.delete(type);
    } else configs.set(type, v);
  }
  const out: WaitResource[] = [];
  for (const [type, config] of configs) {
    const items = Array.isArray(config) ? config : [config];
    items.forEach((c, i) => {
      if (dict[type] !== undefined) checkResourceConfig(c, Array.isArray(config) ? ['wait', 'resources', type, i] : ['wait', 'resources', type], type, doc, d);
      out.push(resourceFromData(obj(c) ?? {}, type));
    });
  }
  return out;
}

function hooksFromData(v: unknown): HookAction[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.map((h) => {
    const o = obj(h) ?? {};
    return clean({ type: o.type as string, labels: obj(o.labels) as Record<string, string> | undefined, name: o.name as string | undefined });
  });
}

function upgradeFromData(u: Record<string, unknown> | undefined, version: SchemaVersion): UpgradeOptions | undefined {
  if (u === undefined) return undefined;
  const pre = obj(u.pre);
  const post = obj(u.post);
  const options = obj(u.options);
  const noHooks = (version === SchemaVersion.V2 ? options?.no_hooks : u.no_hooks) as boolean | undefined;
  const force = options?.force as boolean | undefined;
  return clean({
    noHooks,
    pre: pre ? clean({ delete: hooksFromData(pre.delete), update: hooksFromData(pre.update), create: hooksFromData(pre.create) }) : undefined,
    post: post ? clean({ create: hooksFromData(post.create) }) : undefined,
    options: options && (force !== undefined || version === SchemaVersion.V1) ? clean({ force }) : undefined,
  });
}

/** Drops undefined properties, so that "omitted" stays omitted all the way to the output. */
function clean<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  // Keys, not entries: no pair array per key (this runs for every chart's fields).
  for (const k of Object.keys(o)) {
    const v = (o as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out as T;
}
