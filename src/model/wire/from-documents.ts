/**
 * Armada documents (already schema-valid) to a resolved ManifestSpec: the importer's core, and
 * the inverse of `documents.ts`. What was written stays written and what was left out stays out,
 * so that writing the spec back gives documents equal in meaning to the input.
 */
import { Diagnostics, Origin, show } from '../diagnostics';
import { Duration } from '../duration';
import { closest } from '../graph';
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
import { V1_DEFAULT_WAIT_RESOURCES, V2_DEFAULT_WAIT_RESOURCES, WaitResource, WaitResourceOptions } from '../wait';

/** One Armada document as the loader hands it over. */
export interface InputDocument {
  /** `armada/Chart/v1` and so on. */
  readonly schema: string;
  /** `metadata.name`. */
  readonly name: string;
  readonly data: Record<string, unknown>;
  /** Where the document came from; rules locate their findings through it. */
  readonly origin: Origin;
}

/** Options of {@link documentsToSpec}. */
export interface DocumentsToSpecOptions {
  /**
   * The manifest to build, as `armada apply --target-manifest`.
   * @default - the only manifest in the documents (more than one is an error)
   */
  readonly targetManifest?: string;
}

const SCHEMA = /^armada\/(Chart|ChartGroup|Manifest)\/v(1|2)$/;

/** Splits `armada/Chart/v2` into its kind and version, or undefined for a non-Armada schema. */
export function armadaSchema(schema: string): { kind: 'Chart' | 'ChartGroup' | 'Manifest'; version: SchemaVersion } | undefined {
  const m = SCHEMA.exec(schema);
  return m ? { kind: m[1] as 'Chart' | 'ChartGroup' | 'Manifest', version: Number(m[2]) as SchemaVersion } : undefined;
}

/**
 * Selects the manifest as Armada does and converts every chart and group document of the stream.
 * Non-Armada documents are ignored.
 */
export function documentsToSpec(docs: readonly InputDocument[], options: DocumentsToSpecOptions = {}): { spec?: ManifestSpec; diagnostics: Diagnostics } {
  const d = new Diagnostics();
  const armada = docs.map((doc) => ({ doc, info: armadaSchema(doc.schema) })).filter((x) => x.info !== undefined);
  let manifests = armada.filter((x) => x.info!.kind === 'Manifest');
  if (options.targetManifest !== undefined) {
    const wanted = manifests.filter((x) => x.doc.name === options.targetManifest);
    if (wanted.length === 0) {
      d.add({
        severity: 'error',
        location: docs[0]?.origin.locate().location ?? '<input>',
        message: `no armada/Manifest named ${show(options.targetManifest)}; the documents have ${manifests.length === 0 ? 'none' : manifests.map((m) => show(m.doc.name)).join(', ')}`,
        code: 'ARM001',
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
      code: 'ARM001',
    });
    return { diagnostics: d };
  }
  if (!armada.some((x) => x.info!.kind === 'Chart') || !armada.some((x) => x.info!.kind === 'ChartGroup')) {
    // Armada's own check and words (`Manifest.__init__`).
    d.add({
      severity: 'error',
      location: manifests[0].doc.origin.locate().location,
      document: `${manifests[0].doc.schema} ${manifests[0].doc.name}`,
      message: 'Documents must include at least one of each of [Chart, ChartGroup] and only one Manifest (a fragment of a site: pass every document of the rendered site)',
      code: 'ARM001',
    });
    return { diagnostics: d };
  }
  const m = manifests[0];
  const version = m.info!.version;
  const charts: ChartSpec[] = [];
  const groups: ChartGroupSpec[] = [];
  for (const { doc, info } of armada) {
    if (info!.kind === 'Chart') charts.push(chartFromData(doc, info!.version, version, d));
    else if (info!.kind === 'ChartGroup') groups.push(groupFromData(doc));
  }
  const spec: ManifestSpec = {
    name: m.doc.name,
    releasePrefix: m.doc.data.release_prefix as string,
    schemaVersion: version,
    chartGroups: [...((m.doc.data.chart_groups as string[] | undefined) ?? [])],
    groups,
    charts,
    origin: m.doc.origin,
  };
  return { spec, diagnostics: d };
}

function groupFromData(doc: InputDocument): ChartGroupSpec {
  const x = doc.data;
  return {
    name: doc.name,
    description: x.description as string | undefined,
    sequenced: x.sequenced as boolean | undefined,
    testCharts: x.test_charts as boolean | undefined,
    displayName: x.name as string | undefined,
    charts: [...((x.chart_group as string[] | undefined) ?? [])],
    origin: doc.origin,
  };
}

const seconds = (v: unknown): Duration | undefined => (typeof v === 'number' ? Duration.seconds(v) : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function chartFromData(doc: InputDocument, version: SchemaVersion, manifestVersion: SchemaVersion, d: Diagnostics): ChartSpec {
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
      const hint = typeof type === 'string' ? closest(type, ['local', 'tar', 'git']) : undefined;
      d.error(doc.origin, ['source', 'type'], 'source', `received ${show(type)}${hint ? ` (did you mean ${show(hint)}?)` : ''}; Armada fetches only local, tar and git sources (it fails with ChartSourceException before deploying anything)`);
    }
    source = ChartSource.local(location, common);
  }
  for (const k of Object.keys(src)) {
    if (!['type', 'location', 'subpath', 'reference', 'proxy_server', 'auth_method'].includes(k)) {
      d.warn(doc.origin, ['source', k], 'ignored', `source.${k} is not a field Armada reads; it is dropped`);
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
    chartName: x.chart_name as string | undefined,
    release: x.release as string,
    namespace: x.namespace as string,
    source,
    values: obj(x.values),
    dependencies: Array.isArray(x.dependencies) ? [...(x.dependencies as string[])] : undefined,
    protected: obj(x.protected) ? clean({ continueProcessing: obj(x.protected)!.continue_processing as boolean | undefined }) : undefined,
    test,
    wait: waitFromData(obj(x.wait), version, manifestVersion, doc, d),
    upgrade: upgradeFromData(obj(x.upgrade), version),
    delete: obj(x.delete) ? clean({ timeout: seconds(obj(x.delete)!.timeout) }) : undefined,
    install: obj(x.install),
    timeout: seconds(x.timeout),
    dependsOn: [],
    origin: doc.origin,
  };
}

function waitFromData(w: Record<string, unknown> | undefined, version: SchemaVersion, manifestVersion: SchemaVersion, doc: InputDocument, d: Diagnostics): WaitOptions | undefined {
  let resources: WaitResource[] | undefined;
  const raw = w?.resources;
  if (Array.isArray(raw)) {
    resources = raw.map((r) => resourceFromData(obj(r) ?? {}, String(obj(r)?.type ?? '')));
  } else if (obj(raw) && version === SchemaVersion.V2) {
    resources = expandV2Dict(obj(raw)!);
  }
  let native = obj(w?.native) ? clean({ enabled: obj(w!.native)!.enabled as boolean | undefined }) : undefined;
  // A chart document of the other version than its manifest keeps its own defaults: write them out.
  if (version !== manifestVersion) {
    native = { ...native, enabled: native?.enabled ?? version === SchemaVersion.V1 };
    resources ??= (version === SchemaVersion.V1 ? V1_DEFAULT_WAIT_RESOURCES : V2_DEFAULT_WAIT_RESOURCES).map((r) => WaitResource.of(r.type, { required: r.required }));
    d.warn(doc.origin, ['wait'], 'mixed-versions', `this is a v${version} chart in a v${manifestVersion} manifest: its v${version} wait defaults are written out explicitly; pod ownership rules of the manifest's version apply`);
  }
  if (w === undefined && resources === undefined && native === undefined) return undefined;
  return clean({
    timeout: seconds(w?.timeout),
    labels: obj(w?.labels) as Record<string, string> | undefined,
    resources,
    native,
  });
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
function expandV2Dict(dict: Record<string, unknown>): WaitResource[] {
  const order = V2_DEFAULT_WAIT_RESOURCES.map((r) => r.type);
  const configs = new Map<string, unknown>(order.map((t) => [t, { required: false }]));
  for (const [type, v] of Object.entries(dict)) {
    if (v === false) configs.delete(type);
    else configs.set(type, v);
  }
  const out: WaitResource[] = [];
  for (const [type, config] of configs) {
    for (const c of Array.isArray(config) ? config : [config]) out.push(resourceFromData(obj(c) ?? {}, type));
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
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}
