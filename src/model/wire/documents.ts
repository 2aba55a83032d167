/**
 * Classic Armada documents (`schema` / `metadata` / `data`) for `armada apply`, in v1 or v2.
 *
 * What the user wrote is written, and what they left out stays out (Armada applies the same
 * defaults), except where the output version's defaults differ from the definition's: then the
 * definition's effective value is written explicitly, so that the documents mean the same thing.
 */
import { Diagnostics, FieldPath, Origin, show } from '../diagnostics';
import { chartVersion, effectiveTest, effectiveWaitResources, jobDeletesWithoutCronJobs } from '../effective';
import { firstByName } from '../first-by-name';
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
import { V1_DEFAULT_WAIT_RESOURCES, WaitResource } from '../wait';
import { labelsOut, ordered, valuesOut, WriterForm } from './emit';

/** A classic Armada document. */
export interface ArmadaDocument {
  readonly schema: string;
  /** `schema` and `name`, then what else the document read had there ({@link Origin.documentMetadata}). */
  readonly metadata: { readonly schema: 'metadata/Document/v1'; readonly name: string; readonly [field: string]: unknown };
  readonly data: Record<string, unknown>;
}

/** Options of {@link toArmadaDocuments}. */
export interface DocumentsOptions {
  /**
   * The document schema version to write, for every document.
   * @default - each document's own: the manifest's schemaVersion, or a chart's or group's own
   */
  readonly version?: SchemaVersion | undefined;
}

/** Writes every chart, group and the manifest, in that order (Armada's lookups are by name). */
export function toArmadaDocuments(spec: ManifestSpec, options: DocumentsOptions = {}, form: WriterForm = {}): { documents: ArmadaDocument[]; diagnostics: Diagnostics } {
  const version = options.version ?? spec.schemaVersion;
  const d = new Diagnostics();
  const writers = new Map<SchemaVersion, DocumentWriter>();
  const w = (v: SchemaVersion) => {
    const found = writers.get(v);
    if (found) return found;
    const made = new DocumentWriter(spec, v, d, form);
    writers.set(v, made);
    return made;
  };
  // A v2 manifest may list v1 charts and groups (Armada reads each by its own schema): without a
  // forced version each keeps its own, so that the documents read back the same.
  const own = (v: SchemaVersion | undefined) => options.version ?? v ?? version;
  const documents = [
    ...spec.charts.map((c) => doc('Chart', own(c.schemaVersion), c.name, c.origin, w(own(c.schemaVersion)).chart(c))),
    ...spec.groups.map((g) => doc('ChartGroup', own(g.schemaVersion), g.name, g.origin, w(own(g.schemaVersion)).group(g))),
    doc('Manifest', version, spec.name, spec.origin, ordered([['release_prefix', spec.releasePrefix], ['chart_groups', [...spec.chartGroups]]])),
  ];
  return { documents, diagnostics: d };
}

function doc(kind: string, version: SchemaVersion, name: string, origin: Origin, data: Record<string, unknown>): ArmadaDocument {
  const kept = origin.documentMetadata?.();
  return { schema: `armada/${kind}/v${version}`, metadata: { schema: 'metadata/Document/v1', name, ...kept }, data };
}

class DocumentWriter {
  private readonly target: string;
  /** v1 `test_charts` of the groups each chart is in, for writing v2 (which has no test_charts). */
  private readonly groupTestCharts = new Map<string, boolean[]>();

  constructor(
    private readonly spec: ManifestSpec,
    private readonly version: SchemaVersion,
    private readonly d: Diagnostics,
    private readonly form: WriterForm,
  ) {
    this.target = `armada/Chart/v${version} documents`;
    const groups = firstByName(spec.groups);
    for (const gName of spec.chartGroups) {
      const g = groups.get(gName);
      if (g?.testCharts === undefined) continue;
      for (const c of g.charts) this.groupTestCharts.set(c, [...(this.groupTestCharts.get(c) ?? []), g.testCharts]);
    }
  }

  private lost(chart: ChartSpec, field: FieldPath, message: string): void {
    this.d.warn(chart.origin, field, 'not-expressible', `cannot be expressed in ${this.target}: ${message}`);
  }

  public group(g: ChartGroupSpec): Record<string, unknown> {
    return ordered([
      ['name', g.displayName],
      ['description', g.description],
      ['sequenced', g.sequenced],
      // v2 has no test_charts: its effect moves onto the charts (see `test`).
      ['test_charts', this.version === SchemaVersion.V1 ? g.testCharts : undefined],
      ['chart_group', [...g.charts]],
    ]);
  }

  public chart(c: ChartSpec): Record<string, unknown> {
    const v1 = this.version === SchemaVersion.V1;
    return ordered([
      ['chart_name', v1 ? (c.chartName ?? c.name) : undefined],
      ['release', c.release],
      ['namespace', c.namespace],
      ['timeout', v1 ? c.timeout?.toSeconds() : undefined],
      ['wait', this.wait(c)],
      ['test', this.test(c)],
      ['protected', c.protected === undefined ? undefined : ordered([['continue_processing', c.protected.continueProcessing]])],
      ['install', v1 && c.install !== undefined ? valuesOut(c.install, undefined, this.form) : undefined],
      ['upgrade', this.upgrade(c, c.upgrade)],
      ['delete', c.delete === undefined ? undefined : ordered([['timeout', c.delete.timeout?.toSeconds()]])],
      ['source', this.source(c)],
      ['dependencies', c.dependencies === undefined ? undefined : [...c.dependencies]],
      ['values', valuesOut(c.values, undefined, this.form)],
    ]);
  }

  private source(c: ChartSpec): Record<string, unknown> {
    const s = c.source;
    return ordered([
      ['type', s.type],
      ['location', s.location],
      // v1 requires subpath; write Armada's default when the user left it out.
      ['subpath', s.subpath ?? (this.version === SchemaVersion.V1 ? '.' : undefined)],
      ['reference', s.reference],
      ['proxy_server', s.proxyServer],
      ['auth_method', s.authMethod],
    ]);
  }

  private test(c: ChartSpec): unknown {
    const t = c.test;
    const v1 = this.version === SchemaVersion.V1;
    // Writing v2 from a v1 definition: the groups' test_charts default must land on the chart.
    const inherited = !v1 && this.spec.schemaVersion === SchemaVersion.V1 ? this.inheritedTestCharts(c) : undefined;
    if (typeof t === 'boolean') return v1 ? t : { enabled: t };
    const explicitEnabled = t?.enabled;
    const enabled = explicitEnabled ?? inherited;
    if (t === undefined && enabled === undefined) return undefined;
    const o = (t ?? {}) as TestOptions;
    return ordered([
      ['enabled', enabled],
      ['timeout', o.timeout?.toSeconds()],
      ['options', o.cleanup === undefined ? undefined : { cleanup: o.cleanup }],
    ]);
  }

  private inheritedTestCharts(c: ChartSpec): boolean | undefined {
    const values = this.groupTestCharts.get(c.name);
    if (!values || values.length === 0) return undefined;
    if (new Set(values).size > 1) {
      this.lost(c, ['test', 'enabled'], `the chart is in groups with different testCharts (${values.join(', ')}); v2 has no testCharts, so the chart gets test.enabled=${values[0]} from its first group`);
    }
    // An explicit test.enabled (or boolean test) on the chart wins in Armada, so this is only used without one.
    return effectiveTest(c, { name: '', charts: [], origin: c.origin, testCharts: values[0] }).enabled;
  }

  private wait(c: ChartSpec): Record<string, unknown> | undefined {
    const w: WaitOptions | undefined = c.wait;
    const v1 = this.version === SchemaVersion.V1;
    const own = chartVersion(c, this.spec.schemaVersion);
    const crossVersion = this.version !== own;
    // The deprecated chart timeout is gone from v2: its value becomes wait.timeout.
    const timeout = w?.timeout?.toSeconds() ?? (!v1 ? c.timeout?.toSeconds() : undefined);
    // The two versions default native wait differently: keep the definition's meaning.
    const native = w?.native?.enabled ?? (crossVersion ? own === SchemaVersion.V1 : undefined);
    const resources = this.resources(c, w?.resources, crossVersion);
    if (crossVersion && effectiveWaitResources(c, this.spec.schemaVersion).some((r) => r.type === 'pod')) {
      // Armada's pod wait reads the chart document's schema: no field can carry the old rule.
      this.lost(c, ['wait', 'resources'], own === SchemaVersion.V1
        ? 'the v1 pod wait skips only pods owned by a Job and repeats until nothing changes; as armada/Chart/v2 it skips every pod that has an owner (Deployment, StatefulSet, DaemonSet, Job pods) and runs once'
        : 'the v2 pod wait skips every pod that has an owner and runs once; as armada/Chart/v1 it also waits on the pods of Deployments, StatefulSets and DaemonSets and repeats until nothing changes');
    }
    if (w === undefined && timeout === undefined && native === undefined && resources === undefined) return undefined;
    return ordered([
      ['timeout', timeout],
      ['labels', labelsOut(w?.labels)],
      ['resources', resources],
      ['native', w?.native !== undefined || native !== undefined ? ordered([['enabled', native]]) : undefined],
    ]);
  }

  private resources(c: ChartSpec, resources: readonly WaitResource[] | undefined, crossVersion: boolean): unknown[] | undefined {
    const v1 = this.version === SchemaVersion.V1;
    if (resources === undefined) {
      if (!crossVersion) return undefined;
      if (v1) {
        // v2 default (every type, each optional): v1 documents cannot say "optional".
        this.lost(c, ['wait', 'resources'], 'the armada/Chart/v2 default (every type, each optional) has no v1 form; v1 falls back to its own default (optional jobs, then required pods)');
        return undefined;
      }
      // v1 default, written out for v2 (whose own default differs).
      return V1_DEFAULT_WAIT_RESOURCES.map((r) => ordered([['type', r.type], ['required', r.required ? undefined : false]]));
    }
    if (v1 && matchesV1Default(resources)) {
      // Optional jobs + required pods is exactly v1's default, and v1 items cannot say
      // "optional": omitting the list is the one way to say it in v1.
      return undefined;
    }
    return resources.map((r, i) => {
      const field = ['wait', 'resources', i];
      if (v1 && r.options.required === false) {
        this.lost(c, [...field, 'required'], `v1 items have no \`required\`; the ${r.type} wait is written without it and Armada treats it as required (write v2 documents to keep it optional)`);
      }
      if (v1 && r.options.allowAsyncUpdates === true) {
        this.lost(c, [...field, 'allowAsyncUpdates'], 'v1 items have no `allow_async_updates`; it is left out (write v2 documents to keep it)');
      }
      return ordered([
        ['type', r.type],
        ['labels', labelsOut(r.options.labels)],
        ['min_ready', r.options.minReady],
        ['required', v1 ? undefined : r.options.required],
        ['allow_async_updates', v1 ? undefined : r.options.allowAsyncUpdates],
      ]);
    });
  }

  private upgrade(c: ChartSpec, u: UpgradeOptions | undefined): Record<string, unknown> | undefined {
    if (u === undefined) return undefined;
    const v1 = this.version === SchemaVersion.V1;
    const own = chartVersion(c, this.spec.schemaVersion);
    // A v1 `type: job` delete removes CronJobs too, a v2 one Jobs only (see jobDeletesWithoutCronJobs).
    const changed = u.pre?.delete !== undefined && own !== this.version ? new Set(jobDeletesWithoutCronJobs(u.pre.delete)) : new Set<number>();
    if (own === SchemaVersion.V2) {
      for (const i of changed) {
        this.lost(c, ['upgrade', 'pre', 'delete', i, 'type'], `the v2 \`type: job\` delete removes Jobs only; as armada/Chart/v1 it also removes the CronJobs with ${u.pre!.delete![i].labels === undefined ? 'no labels given (every CronJob of the namespace)' : 'the same labels'}, and v1 has no way to remove Jobs alone`);
      }
    }
    const hooks = (list: readonly HookAction[] | undefined, keepName: boolean) =>
      list?.map((h) => ordered([['name', keepName ? h.name : undefined], ['type', h.type], ['labels', labelsOut(h.labels)]]));
    // v1 to v2: the CronJobs a v1 job item removed get an item of their own, after it.
    const deletes = (list: readonly HookAction[] | undefined, keepName: boolean) =>
      hooks(list, keepName)?.flatMap((item, i) => (own === SchemaVersion.V1 && changed.has(i) ? [item, ordered([['type', 'cronjob'], ['labels', labelsOut(list![i].labels)]])] : [item]));
    if (v1) {
      return ordered([
        // v1 requires no_hooks whenever upgrade is present; false is Armada's default.
        ['no_hooks', u.noHooks ?? false],
        ['pre', u.pre === undefined ? undefined : ordered([
          ['delete', deletes(u.pre.delete, true)],
          ['update', hooks(u.pre.update, true)],
          ['create', hooks(u.pre.create, true)],
        ])],
        ['post', u.post === undefined ? undefined : ordered([['create', hooks(u.post.create, true)]])],
        ['options', u.options === undefined ? undefined : ordered([['force', u.options.force]])],
      ]);
    }
    if (u.pre?.update !== undefined && u.pre.update.length > 0) this.lost(c, ['upgrade', 'pre', 'update'], 'v2 has no upgrade.pre.update (broken in Armada since Helm 3); it is left out');
    if (u.pre?.create !== undefined && u.pre.create.length > 0) this.lost(c, ['upgrade', 'pre', 'create'], 'v2 has no upgrade.pre.create (never implemented by Armada); it is left out');
    if (u.post?.create !== undefined && u.post.create.length > 0) this.lost(c, ['upgrade', 'post'], 'v2 has no upgrade.post (ignored by Armada); it is left out');
    const named = (u.pre?.delete ?? []).findIndex((h) => h.name !== undefined);
    if (named >= 0) this.lost(c, ['upgrade', 'pre', 'delete', named, 'name'], `v2 hook actions have no name (${show(u.pre!.delete![named].name)}); Armada only used it for pre.update`);
    const options = u.noHooks !== undefined || u.options !== undefined
      ? ordered([['force', u.options?.force], ['no_hooks', u.noHooks]])
      : undefined;
    return ordered([
      ['pre', u.pre?.delete === undefined ? undefined : { delete: deletes(u.pre.delete, false) }],
      ['options', options],
    ]);
  }
}

function matchesV1Default(resources: readonly WaitResource[]): boolean {
  return (
    resources.length === V1_DEFAULT_WAIT_RESOURCES.length &&
    resources.every((r, i) => {
      const d = V1_DEFAULT_WAIT_RESOURCES[i];
      const o = r.options;
      return r.type === d.type && (o.required ?? true) === d.required && o.labels === undefined && o.minReady === undefined && o.allowAsyncUpdates === undefined;
    }) &&
    resources.some((r) => r.options.required === false)
  );
}
