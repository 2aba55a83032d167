/**
 * `armada.airshipit.org/v1` ArmadaChart objects for the airship armada-operator, shaped the way
 * armada-go builds them from `armada/Chart/v1` documents: body under `data:`, `metadata.name` =
 * the Helm release (`<release_prefix>-<release>`), namespace = `data.namespace`, and the label
 * armada-go waits on. Only fields this operator's CRD knows are written; every Armada field it
 * cannot carry is reported, never dropped silently.
 *
 * Where the operator's own defaults differ from Armada's (tests off, native wait off unless set),
 * the definition's effective value is written explicitly so that the operator does what Armada
 * would.
 */
import { setOwn } from '../own-keys';
import { Diagnostics, FieldPath, MessageWriterOf, show } from '../diagnostics';
import { chartVersion, effectiveNativeWait, effectiveTest, effectiveWaitResources, effectiveWaitTimeout, jobDeletesWithoutCronJobs, DEFAULT_DELETE_TIMEOUT_SECONDS, DEFAULT_TEST_TIMEOUT_SECONDS } from '../effective';
import { Plan, PlannedRelease, PlanStep } from '../plan';
import { firstByName } from '../first-by-name';
import { ChartSource, SourceType } from '../source';
import { ChartSpec, ManifestSpec, SchemaVersion } from '../spec';
import { CONTROLLER_TYPES, DEFAULT_MIN_READY, parseMinReady, V2_DEFAULT_WAIT_RESOURCES, WaitResource } from '../wait';
import { labelsOut, ordered, valuesOut, WriterForm } from './emit';
import { timestampAsString } from '../values';
import type { AirshipArmadaChartData, AirshipChartDeleteResource, AirshipChartSource, AirshipChartUpgrade, AirshipChartWait, AirshipChartWaitResource } from './types';

export const AIRSHIP_API_VERSION = 'armada.airshipit.org/v1';
/** The label armada-go puts on every ArmadaChart and waits on. */
export const RELEASE_NAME_LABEL = 'armada.airshipit.org/release-name';
/** Annotations carrying the plan, since this operator has no ordering of its own. */
export const STEP_ANNOTATION = 'armada-cdk.io/step';
export const GROUP_ANNOTATION = 'armada-cdk.io/chart-group';
export const MANIFEST_ANNOTATION = 'armada-cdk.io/manifest';
export const SYNC_WAVE_ANNOTATION = 'argocd.argoproj.io/sync-wave';

/** Options of {@link toAirshipCharts}. */
export interface AirshipOptions {
  /**
   * Add `argocd.argoproj.io/sync-wave` annotations from the plan's step index, so that Argo CD
   * applies the ArmadaCharts in Armada's order (a wave waits for the previous one to be healthy).
   * @default false
   */
  readonly syncWaves?: boolean | undefined;
}

/** A Kubernetes object as written to YAML. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string | undefined; readonly labels?: Record<string, string> | undefined; readonly annotations?: Record<string, string> | undefined };
  readonly [key: string]: unknown;
}

/** One ArmadaChart per deployed chart, in deployment order. */
export function toAirshipCharts(spec: ManifestSpec, plan: Plan, options: AirshipOptions = {}, form: WriterForm = {}): { objects: KubeObject[]; diagnostics: Diagnostics } {
  const r = airshipChartsAsRead(spec, plan, options, form);
  return { objects: [...r.objects], diagnostics: r.diagnostics };
}

/**
 * {@link toAirshipCharts} for a writer that writes each object and lets it go: every finding is
 * made here, and an ArmadaChart is built only when `objects` reaches it (each iteration builds
 * them anew), so that a large site never holds all of them at once.
 */
export function airshipChartsAsRead(spec: ManifestSpec, plan: Plan, options: AirshipOptions = {}, form: WriterForm = {}): { objects: Iterable<KubeObject>; diagnostics: Diagnostics } {
  const d = new Diagnostics();
  const charts = firstByName(spec.charts);
  const groups = firstByName(spec.groups);
  const pending: { release: PlannedRelease; chart: ChartSpec; step: PlanStep }[] = [];
  const done = new Set<string>();
  for (const step of plan.steps) {
    for (const r of step.releases) {
      const chart = charts.get(r.chart)!;
      if (done.has(chart.name)) {
        d.warn(chart.origin, undefined, 'not-expressible', `cannot be expressed for the airship operator: the chart is deployed again in step ${step.index} (group ${show(step.group)}), but one ArmadaChart exists per release; it is deployed once, in step ${r.firstStep}`);
        continue;
      }
      done.add(chart.name);
      new ChartWriter(spec, chart, d, form).report();
      pending.push({ release: r, chart, step });
      if (chart.dependsOn.some((t) => plan.firstStepOf(t) === step.index)) {
        d.warn(chart.origin, ['dependsOn'], 'not-expressible', 'cannot be expressed for the airship operator: an addDependency edge inside one parallel step has no equivalent (the operator reconciles every ArmadaChart on its own); the step annotation orders steps only');
      }
    }
  }
  return {
    objects: {
      *[Symbol.iterator]() {
        for (const { release, chart, step } of pending) {
          const annotations: Record<string, string> = {
            [GROUP_ANNOTATION]: step.group,
            [MANIFEST_ANNOTATION]: spec.name,
            [STEP_ANNOTATION]: String(step.index),
          };
          if (options.syncWaves) annotations[SYNC_WAVE_ANNOTATION] = String(step.index);
          yield {
            apiVersion: AIRSHIP_API_VERSION,
            kind: 'ArmadaChart',
            metadata: {
              name: release.name,
              namespace: chart.namespace,
              labels: { [RELEASE_NAME_LABEL]: release.name },
              annotations: sortedRecord(annotations),
            },
            data: new ChartWriter(spec, chart, d, form).data(groups.get(step.group)),
          };
        }
      },
    },
    diagnostics: d,
  };
}

function sortedRecord(r: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(r).sort()) setOwn(out, k, r[k]);
  return out;
}

type HookLabels = Readonly<Record<string, string>> | undefined;

// What ChartWriter finds, as writers of one message each from a value the chart holds (see
// Diagnostics.warnOf), and the fields they are about: a large site has a few of each per chart.
const lostText = (message: string) => `cannot be expressed for the airship operator (armada.airshipit.org/v1): ${message}`;
const differsText = (message: string) => `the airship operator departs from Armada here: ${message}`;

const WAIT: FieldPath = ['wait'];
const WAIT_RESOURCES: FieldPath = ['wait', 'resources'];
const SOURCE_TYPE: FieldPath = ['source', 'type'];
const SOURCE_SUBPATH: FieldPath = ['source', 'subpath'];
const SOURCE_PROXY: FieldPath = ['source', 'proxyServer'];
const DEPENDENCIES: FieldPath = ['dependencies'];

const SOURCE_LOST: MessageWriterOf<ChartSource> = (s) =>
  lostText(`a ${s.type} source (${show(s.location)}); the operator only downloads HTTP(S) chart tarballs (.tgz), so publish the chart as a tarball and use ChartSource.tar`);
const SUBPATH_LOST: MessageWriterOf<ChartSource> = (s) => lostText(`subpath ${show(s.subpath)}; the operator installs the tarball as downloaded and cannot pick a chart nested inside it`);
const PROXY_LOST: MessageWriterOf<ChartSource> = (s) => lostText(`proxyServer ${show(s.proxyServer)} (the CRD has no source.proxy_server)`);
const REQUIRED_LOST: MessageWriterOf<WaitResource> = (r) => lostText(`required=true; the operator skips a wait that finds no ${r.type}, as if required were false`);
const ASYNC_UPDATES_LOST = lostText('allowAsyncUpdates (the CRD has no allow_async_updates)');
const NO_HOOKS_LOST = lostText('noHooks=true (the CRD has no no_hooks; the operator always runs hooks)');
const FORCE_LOST = lostText('force=true (the CRD has no upgrade.options)');
const PRE_UPDATE_LOST = lostText('upgrade.pre.update');
const PRE_CREATE_LOST = lostText('upgrade.pre.create');
const POST_LOST = lostText('upgrade.post');
const SUBCHARTS_LOST: MessageWriterOf<readonly string[]> = (deps) =>
  lostText(`subchart dependencies ${show(deps)}; the operator installs the downloaded tarball as is, so package the subcharts into it`);
const PROTECTED_LOST = lostText('protected (the operator uninstalls and reinstalls a failed release)');
const DELETE_TIMEOUT_LOST: MessageWriterOf<number> = (seconds) => lostText(`delete.timeout ${seconds} s (the operator always waits up to 300 s)`);
const TEST_TIMEOUT_LOST: MessageWriterOf<number> = (seconds) => lostText(`test.timeout ${seconds} s (the CRD has test.enabled only)`);

const REQUIRED_DIFFERS: MessageWriterOf<{ types: readonly string[]; listed: boolean }> = ({ types, listed }) => {
  const list = types.length === 1 ? types[0] : `${types.slice(0, -1).join(', ')} or ${types[types.length - 1]}`;
  return differsText(`Armada fails the chart when a required wait finds no ${list} by its timeout (${listed ? 'a listed wait is required unless it says required: false' : "armada/Chart/v1's default pod wait is required"}); the operator skips a wait that finds nothing`);
};
const NO_MIN_READY_DIFFERS: MessageWriterOf<string> = (type) =>
  differsText(`a ${type} wait without minReady means ${DEFAULT_MIN_READY} available in Armada; the operator checks no availability at all when min_ready is absent (and a written "100%" holds for the first object it checks only); write a count of pods, e.g. minReady: 1`);
const PERCENT_DIFFERS: MessageWriterOf<{ minReady: unknown; percent: number }> = ({ minReady, percent }) =>
  differsText(
    `minReady ${show(minReady)}: the operator computes (${percent} / 100) * pods with integer division, ${percent < 100 ? 'which is 0: nothing is held back' : 'and stores the result in the percentage it reads again, so only the first object of the wait is checked with it and later checks require 0'}; write a count of pods instead`,
  );

class ChartWriter {
  constructor(
    private readonly spec: ManifestSpec,
    private readonly chart: ChartSpec,
    private readonly d: Diagnostics,
    private readonly form: WriterForm,
  ) {}

  // A message that names values comes from one of the writers above, at module level, so that a
  // site's thousands of these share one function per rule.
  private lost<T>(field: FieldPath, message: string | MessageWriterOf<T>, value?: T): void {
    if (typeof message === 'string') this.d.warn(this.chart.origin, field, 'not-expressible', message);
    else this.d.warnOf(this.chart.origin, field, 'not-expressible', message, value as T);
  }

  /** Where the operator's own code gives a field another meaning than Armada's. */
  private differs<T>(field: FieldPath, message: MessageWriterOf<T>, value: T): void {
    this.d.warnOf(this.chart.origin, field, 'operator-differs', message, value);
  }

  /**
   * The operator computes a percentage min_ready as `(N / 100) * count` in integer arithmetic,
   * into a value shared by every object of the wait (waitutil `isDeploymentReady` and peers), and
   * checks no availability when min_ready is absent.
   */
  private checkMinReady(field: FieldPath, type: string, minReady: unknown): void {
    if (!CONTROLLER_TYPES.includes(type)) return;
    const written = minReady === undefined ? undefined : parseMinReady(minReady);
    if (written?.kind === 'count') return;
    if (written === undefined) this.differs(field, NO_MIN_READY_DIFFERS, type);
    else if (written.percent > 0) this.differs(field, PERCENT_DIFFERS, { minReady, percent: written.percent });
  }

  /** Every finding about the chart, in the order a reader meets its fields; {@link data} makes none. */
  public report(): void {
    this.reportUnsupported();
    this.reportSource();
    this.reportWait();
  }

  public data(group: Parameters<typeof effectiveTest>[1]): AirshipArmadaChartData {
    const c = this.chart;
    return ordered([
      ['chart_name', c.chartName ?? c.name],
      ['release', c.release],
      ['namespace', c.namespace],
      ['source', this.source()],
      ['wait', this.wait()],
      // The operator runs no tests unless told; Armada runs them unless told not to.
      ['test', { enabled: effectiveTest(c, group).enabled }],
      ['upgrade', this.upgrade()],
      ['values', valuesOut(c.values, timestampAsString, this.form)],
    ]) as unknown as AirshipArmadaChartData;
  }

  private reportSource(): void {
    const s = this.chart.source;
    if (s.type !== SourceType.TAR) {
      // One finding for the whole source: its reference, proxy and auth go with it.
      this.lost(SOURCE_TYPE, SOURCE_LOST, s);
    } else {
      // Helm loads a chart tarball from its single top directory, which is what a one-segment
      // Armada subpath names; a deeper subpath has no equivalent.
      if (s.subpath !== undefined && s.subpath.replace(/^\.\/|\/$/g, '').includes('/')) {
        this.lost(SOURCE_SUBPATH, SUBPATH_LOST, s);
      }
      if (s.proxyServer !== undefined) this.lost(SOURCE_PROXY, PROXY_LOST, s);
    }
  }

  private source(): AirshipChartSource {
    const s = this.chart.source;
    return ordered([['type', s.type], ['location', s.location], ['subpath', s.subpath]]) as unknown as AirshipChartSource;
  }

  private reportWait(): void {
    const c = this.chart;
    const w = c.wait;
    // Required by default (a listed wait, v1's default pod wait): one line per chart, since the
    // operator has no required waits at all. An explicit required=true is reported on its item.
    const implicit = effectiveWaitResources(c, this.spec.schemaVersion).filter((r, i) => r.required && (w?.resources === undefined || w.resources[i].options.required === undefined));
    if (implicit.length > 0) this.differs(WAIT, REQUIRED_DIFFERS, { types: [...new Set(implicit.map((r) => r.type))], listed: w?.resources !== undefined });
    if (w?.resources !== undefined) {
      w.resources.forEach((r, i) => {
        if (r.options.required === true) this.lost(['wait', 'resources', i, 'required'], REQUIRED_LOST, r);
        if (r.options.allowAsyncUpdates === true) this.lost(['wait', 'resources', i, 'allowAsyncUpdates'], ASYNC_UPDATES_LOST);
        this.checkMinReady(['wait', 'resources', i, 'minReady'], r.type, r.options.minReady);
      });
    } else if (chartVersion(c, this.spec.schemaVersion) === SchemaVersion.V2) {
      for (const r of V2_DEFAULT_WAIT_RESOURCES) this.checkMinReady(WAIT_RESOURCES, r.type, undefined);
    }
  }

  private wait(): AirshipChartWait {
    const c = this.chart;
    const w = c.wait;
    let resources: AirshipChartWaitResource[] | undefined;
    // Armada merges an item's labels over wait.labels; the operator merges wait.labels over the
    // item's. Where they conflict, each item gets Armada's merge and wait.labels is left out.
    const waitLabels = w?.labels ?? {};
    const conflict = (w?.resources ?? []).some((r) => Object.entries(r.options.labels ?? {}).some(([k, v]) => k in waitLabels && waitLabels[k] !== v));
    if (w?.resources !== undefined) {
      resources = w.resources.map(
        (r) =>
          ordered([
            ['type', r.type],
            ['labels', labelsOut(conflict ? { ...waitLabels, ...(r.options.labels ?? {}) } : r.options.labels)],
            // The CRD types min_ready as a string: `1` must be written "1".
            ['min_ready', r.options.minReady === undefined ? undefined : String(r.options.minReady)],
          ]) as unknown as AirshipChartWaitResource,
      );
    } else if (chartVersion(c, this.spec.schemaVersion) === SchemaVersion.V2) {
      // The operator's default is v1's (jobs, pods); a v2 definition waits on every type.
      resources = V2_DEFAULT_WAIT_RESOURCES.map((r) => ({ type: r.type }));
    }
    return ordered([
      // Written explicitly: the operator needs a timeout for native wait to apply at all.
      ['timeout', effectiveWaitTimeout(c)],
      ['labels', conflict ? undefined : labelsOut(w?.labels)],
      ['resources', resources],
      // The operator's native wait is off unless enabled; Armada v1's is on unless disabled.
      ['native', { enabled: effectiveNativeWait(c, this.spec.schemaVersion) }],
    ]) as unknown as AirshipChartWait;
  }

  private upgrade(): AirshipChartUpgrade | undefined {
    const u = this.chart.upgrade;
    const del = u?.pre?.delete;
    if (del === undefined) return undefined;
    const item = (type: string, labels: HookLabels) => ordered([['type', type], ['labels', labelsOut(labels)]]) as unknown as AirshipChartDeleteResource;
    // Armada v1 deletes the CronJobs of `type: job` too; the operator deletes Jobs only.
    const v1 = chartVersion(this.chart, this.spec.schemaVersion) === SchemaVersion.V1;
    const withCronJobs = new Set(v1 ? jobDeletesWithoutCronJobs(del) : []);
    const out: AirshipChartDeleteResource[] = [];
    del.forEach((h, i) => {
      out.push(item(h.type, h.labels));
      if (withCronJobs.has(i)) out.push(item('cronjob', h.labels));
    });
    return { pre: { delete: out } };
  }

  private reportUnsupported(): void {
    const c = this.chart;
    const u = c.upgrade;
    if (u?.noHooks === true) this.lost(['upgrade', 'noHooks'], NO_HOOKS_LOST);
    if (u?.options?.force === true) this.lost(['upgrade', 'options', 'force'], FORCE_LOST);
    if (u?.pre?.update !== undefined && u.pre.update.length > 0) this.lost(['upgrade', 'pre', 'update'], PRE_UPDATE_LOST);
    if (u?.pre?.create !== undefined && u.pre.create.length > 0) this.lost(['upgrade', 'pre', 'create'], PRE_CREATE_LOST);
    if (u?.post?.create !== undefined && u.post.create.length > 0) this.lost(['upgrade', 'post'], POST_LOST);
    if (c.dependencies !== undefined && c.dependencies.length > 0) this.lost(DEPENDENCIES, SUBCHARTS_LOST, c.dependencies);
    if (c.protected !== undefined && Object.values(c.protected).some((v) => v !== undefined)) this.lost(['protected'], PROTECTED_LOST);
    const del = c.delete?.timeout?.toSeconds();
    if (del !== undefined && del !== DEFAULT_DELETE_TIMEOUT_SECONDS) this.lost(['delete', 'timeout'], DELETE_TIMEOUT_LOST, del);
    const t = typeof c.test === 'object' ? c.test : undefined;
    const tt = t?.timeout?.toSeconds();
    if (tt !== undefined && tt !== DEFAULT_TEST_TIMEOUT_SECONDS) this.lost(['test', 'timeout'], TEST_TIMEOUT_LOST, tt);
  }
}
