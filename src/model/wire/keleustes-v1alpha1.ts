/**
 * `armada.airshipit.org/v1alpha1` ArmadaChart, ArmadaChartGroup and ArmadaManifest objects for the
 * keleustes armada-operator (`spec:` bodies, every field its CRDs require).
 *
 * The order is enforced by the operator through `target_state`: every chart and every group is
 * written `uninitialized` and only the manifest `deployed`, so the manifest enables the groups one
 * at a time in order, and each group enables its charts (one at a time when sequenced).
 *
 * This operator looks names up in the object's own namespace and installs each release into its
 * CR's namespace, so a group (or a manifest) that spans namespaces cannot be expressed.
 */
import { Diagnostics, FieldPath, formatFieldPath, show, withCommas } from '../diagnostics';
import { Plan } from '../plan';
import { dns1123SubdomainProblem } from '../names';
import { firstByName } from '../first-by-name';
import { ChartGroupSpec, ChartSpec, ManifestSpec, TestOptions } from '../spec';
import { parseMinReady } from '../wait';
import type { KubeObject } from './airship-v1';
import { labelsOut, ordered, valuesOut, WriterForm } from './emit';
import { timestampAsString } from '../values';
import { checkStructuralBounded, StructuralSchema } from './structural';
import type {
  KeleustesArmadaChartGroupSpec,
  KeleustesArmadaChartSpec,
  KeleustesArmadaManifestSpec,
  KeleustesChartTest,
  KeleustesChartUpgrade,
  KeleustesChartWait,
  KeleustesChartWaitResource,
  KeleustesHookAction,
} from './types';

export const KELEUSTES_API_VERSION = 'armada.airshipit.org/v1alpha1';

/** How `spec.release` is written; this operator uses it as the Helm release name, as is. */
export enum KeleustesReleaseNaming {
  /** `<releasePrefix>-<release>`: the same Helm release Armada installs. */
  PREFIXED = 'prefixed',
  /** `release` as written: what the keleustes examples do (the operator ignores `release_prefix`). */
  AS_WRITTEN = 'as-written',
}

/** Options of {@link toKeleustesObjects}. */
export interface KeleustesOptions {
  /**
   * How `spec.release` (the Helm release name for this operator) is written.
   * @default KeleustesReleaseNaming.PREFIXED
   */
  readonly releaseNaming?: KeleustesReleaseNaming | undefined;
  /**
   * Which ArmadaChart CRD the cluster has: `'upstream'` (keleustes's own, whose closed values
   * schema prunes or rejects chart values it does not list) or `'generated'` (the one armada-cdk
   * generates, `ArmadaOperator`, with free-form values: no values check).
   * @default 'upstream'
   */
  readonly crd?: 'upstream' | 'generated' | undefined;
}

let valuesSchema: StructuralSchema | undefined;
function keleustesValuesSchema(): StructuralSchema {
  // Loaded on first use: only this target needs the 90 kB closed values schema.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  valuesSchema ??= (require('./keleustes-values') as typeof import('./keleustes-values')).KELEUSTES_VALUES_SCHEMA;
  return valuesSchema;
}

/** Charts (deployed ones, in deployment order), then groups, then the manifest. */
export function toKeleustesObjects(spec: ManifestSpec, plan: Plan, options: KeleustesOptions = {}, form: WriterForm = {}): { objects: KubeObject[]; diagnostics: Diagnostics } {
  const d = new Diagnostics();
  const charts = firstByName(spec.charts);
  const groups = firstByName(spec.groups);
  const naming = options.releaseNaming ?? KeleustesReleaseNaming.PREFIXED;
  const closedValues = (options.crd ?? 'upstream') === 'upstream';

  const deployed: ChartSpec[] = [];
  const owner = new Map<string, string>();
  for (const step of plan.steps) {
    for (const r of step.releases) {
      const prev = owner.get(r.chart);
      if (prev === undefined) {
        owner.set(r.chart, step.group);
        deployed.push(charts.get(r.chart)!);
      } else if (prev !== step.group) {
        d.error(charts.get(r.chart)!.origin, undefined, 'not-expressible', `cannot be expressed for the keleustes operator: the chart is in groups ${show(prev)} and ${show(step.group)}, but each ArmadaChartGroup takes controller ownership of its charts, so a chart can belong to one group only`);
      }
    }
  }

  const groupNamespace = new Map<string, string>();
  const listed = spec.chartGroups.map((n) => groups.get(n)).filter((g): g is ChartGroupSpec => g !== undefined);
  for (const g of dedupe(listed)) {
    const nameProblem = dns1123SubdomainProblem(g.name);
    if (nameProblem) {
      d.error(g.origin, ['name'], 'not-expressible', `cannot be expressed for the keleustes operator: it names each ArmadaChartGroup after its group, and chart group name ${show(g.name)} ${nameProblem}; Armada itself uses the name only to find the document, so rename the group for this target`);
    }
    const namespaces = [...new Set(g.charts.map((c) => charts.get(c)?.namespace).filter((n): n is string => n !== undefined))];
    if (namespaces.length > 1) {
      d.error(g.origin, ['charts'], 'namespaces', `cannot be expressed for the keleustes operator: chart group ${show(g.name)} has charts in namespaces ${namespaces.map((n) => show(n)).join(', ')}, but the operator looks a group's charts up in the group's own namespace; split the group by namespace`);
    }
    if (namespaces.length > 0) groupNamespace.set(g.name, namespaces[0]);
  }
  const manifestNamespaces = [...new Set(groupNamespace.values())];
  if (manifestNamespaces.length > 1) {
    d.error(spec.origin, ['chartGroups'], 'namespaces', `cannot be expressed for the keleustes operator: the manifest's groups are in namespaces ${manifestNamespaces.map((n) => show(n)).join(', ')}, but the operator looks the manifest's groups up in the manifest's own namespace; use one namespace per manifest`);
  }
  const manifestNamespace = manifestNamespaces[0];

  const objects: KubeObject[] = [];
  for (const c of deployed) objects.push(chartObject(spec, c, naming, closedValues, d, form));
  for (const g of dedupe(listed)) {
    objects.push({
      apiVersion: KELEUSTES_API_VERSION,
      kind: 'ArmadaChartGroup',
      metadata: ordered([['name', g.name], ['namespace', groupNamespace.get(g.name)]]) as KubeObject['metadata'],
      spec: ordered([
        ['name', g.displayName],
        ['description', g.description],
        ['sequenced', g.sequenced],
        ['test_charts', g.testCharts],
        ['chart_group', [...g.charts]],
        // The manifest flips it to deployed when the previous group is done.
        ['target_state', 'uninitialized'],
      ]) as unknown as KeleustesArmadaChartGroupSpec,
    });
  }
  objects.push({
    apiVersion: KELEUSTES_API_VERSION,
    kind: 'ArmadaManifest',
    metadata: ordered([['name', spec.name], ['namespace', manifestNamespace]]) as KubeObject['metadata'],
    spec: ordered([
      ['release_prefix', spec.releasePrefix],
      ['chart_groups', [...spec.chartGroups]],
      ['target_state', 'deployed'],
    ]) as unknown as KeleustesArmadaManifestSpec,
  });
  for (const c of deployed) {
    if (c.dependsOn.some((t) => plan.firstStepOf(t) === plan.firstStepOf(c.name))) {
      d.warn(c.origin, ['dependsOn'], 'not-expressible', 'cannot be expressed for the keleustes operator: an addDependency edge inside one parallel group has no equivalent (the group enables all its charts at once)');
    }
  }
  return { objects, diagnostics: d };
}

function dedupe<T>(items: T[]): T[] {
  return [...new Set(items)];
}

const LOST = 'cannot be expressed for the keleustes operator (armada.airshipit.org/v1alpha1):';

/**
 * The values findings of one chart listed one by one; the rest are counted in one finding. A
 * chart's values have tens of keys the closed schema drops; one of a million keys would be a
 * million findings to place in the file (900 MB and 12 s, where converting it takes 5 s).
 */
export const MAX_VALUE_FINDINGS_PER_CHART = 1_000;
const PAST_LIMIT = `past the first ${withCommas(MAX_VALUE_FINDINGS_PER_CHART)} of a chart`;

/**
 * The fields of one chart's values that the closed schema does not know, as one warning: where the
 * first one is, then every one of them in the order of the values. One warning per chart keeps
 * the count, `--max-warnings` and `--all-warnings` about charts, and reads in one line what the
 * API server will drop.
 */
function unknownValuesWarning(c: ChartSpec, paths: readonly FieldPath[], d: Diagnostics): void {
  if (paths.length === 1) {
    d.warn(c.origin, paths[0], 'not-expressible', `${LOST} ${formatFieldPath(paths[0])}: ${UNKNOWN_ONE}`);
    return;
  }
  const at = c.origin.locate(paths[0]);
  const values = c.origin.locate(['values']);
  d.add({
    severity: 'warning',
    location: at.location,
    ...(at.document !== undefined ? { document: at.document } : {}),
    ...(values.field !== undefined ? { field: values.field } : {}),
    message: `${LOST} ${withCommas(paths.length)} fields of values are unknown to the CRD schema, so the API server drops them silently and Helm never sees them (this operator's values schema is closed): ${paths.map(formatFieldPath).join(', ')}`,
    code: 'not-expressible',
  });
}
const UNKNOWN_ONE = "unknown to the CRD schema, so the API server drops it silently and Helm never sees it (this operator's values schema is closed)";

function chartObject(spec: ManifestSpec, c: ChartSpec, naming: KeleustesReleaseNaming, closedValues: boolean, d: Diagnostics, form: WriterForm): KubeObject {
  const lost = (field: FieldPath, message: string) => d.warn(c.origin, field, 'not-expressible', `${LOST} ${message}`);
  const nameProblem = dns1123SubdomainProblem(c.name);
  if (nameProblem) {
    d.error(c.origin, ['name'], 'not-expressible', `cannot be expressed for the keleustes operator: it names each ArmadaChart after its chart, and chart name ${show(c.name)} ${nameProblem}; Armada itself uses the name only to find the document, so rename the chart for this target`);
  }
  const release = naming === KeleustesReleaseNaming.PREFIXED ? `${spec.releasePrefix}-${c.release}` : c.release;
  if (c.dependencies !== undefined && c.dependencies.length > 0) {
    // helmv2 source.go copyDependency: "Let's assume the dependency is on helm-toolkit".
    d.warn(
      c.origin,
      ['dependencies'],
      'operator-differs',
      `the keleustes operator departs from Armada here: with dependencies ${show(c.dependencies)} it copies the helm-toolkit 0.1.0 bundled in its image (dependency-cache/helm-toolkit-0.1.0.tgz) into the chart's charts/, whatever the list names; the manifest's own ${c.dependencies.length === 1 ? 'chart is' : 'charts are'} never fetched`,
    );
  }

  if (c.values !== undefined && closedValues) {
    // Paths from `values`, as the diagnostics name the field.
    const { listed, unlisted } = checkStructuralBounded(keleustesValuesSchema(), c.values, ['values'], MAX_VALUE_FINDINGS_PER_CHART);
    const unknown: FieldPath[] = [];
    for (const f of listed) {
      if (f.kind === 'pruned' && f.key !== undefined) unknown.push(f.path);
      else if (f.kind === 'pruned') d.warn(c.origin, f.path, 'not-expressible', `${LOST} ${formatFieldPath(f.path)}: ${f.message} (this operator's values schema is closed)`);
      else d.error(c.origin, f.path, 'not-expressible', `the keleustes ArmadaChart CRD rejects ${formatFieldPath(f.path)}: ${f.message}`);
    }
    if (unknown.length > 0) unknownValuesWarning(c, unknown, d);
    if (unlisted.rejected > 0) {
      d.error(c.origin, ['values'], 'finding-limit', `the keleustes ArmadaChart CRD rejects ${withCommas(unlisted.rejected)} more ${unlisted.rejected === 1 ? 'value' : 'values'} of this chart (of the wrong type for its closed values schema), besides those reported (${PAST_LIMIT}, they are counted, not listed one by one)`);
    }
    if (unlisted.pruned > 0) {
      d.warn(c.origin, ['values'], 'finding-limit', `${LOST} ${withCommas(unlisted.pruned)} more ${unlisted.pruned === 1 ? 'field' : 'fields'} of values, besides those reported: the API server drops ${unlisted.pruned === 1 ? 'it' : 'them'} as well (this operator's values schema is closed; ${PAST_LIMIT}, they are counted, not listed one by one)`);
    }
  }

  const resources = c.wait?.resources?.map((r, i) => {
    let minReady: number | undefined;
    const parsed = r.options.minReady === undefined ? undefined : parseMinReady(r.options.minReady);
    if (parsed?.kind === 'count') minReady = parsed.count;
    else if (parsed?.kind === 'percent' && parsed.percent !== 100) {
      lost(['wait', 'resources', i, 'minReady'], `minReady ${show(r.options.minReady)}; the CRD types min_ready as an integer, so a percentage is left out`);
    }
    if (r.options.required !== undefined) lost(['wait', 'resources', i, 'required'], 'required (the CRD has no wait.resources[].required)');
    if (r.options.allowAsyncUpdates !== undefined) lost(['wait', 'resources', i, 'allowAsyncUpdates'], 'allowAsyncUpdates (the CRD has no allow_async_updates)');
    return ordered([['type', r.type], ['labels', labelsOut(r.options.labels)], ['min_ready', minReady]]) as unknown as KeleustesChartWaitResource;
  });
  const w = c.wait;
  const wait: KeleustesChartWait | undefined = w === undefined ? undefined : ordered([
    ['timeout', w.timeout?.toSeconds()],
    ['labels', labelsOut(w.labels)],
    ['resources', resources],
    ['native', w.native === undefined ? undefined : ordered([['enabled', w.native.enabled]])],
  ]) as unknown as KeleustesChartWait;

  const t = c.test;
  const test: KeleustesChartTest | undefined = t === undefined ? undefined : typeof t === 'boolean' ? { enabled: t } : ordered([
    ['enabled', (t as TestOptions).enabled],
    ['timeout', t.timeout?.toSeconds()],
    ['options', t.cleanup === undefined ? undefined : { cleanup: t.cleanup }],
  ]) as unknown as KeleustesChartTest;

  const u = c.upgrade;
  const hooks = (list: readonly { type: string; labels?: Record<string, string> | Readonly<Record<string, string>> | undefined; name?: string | undefined }[] | undefined) =>
    list?.map((h) => ordered([['name', h.name], ['type', h.type], ['labels', labelsOut(h.labels)]]) as unknown as KeleustesHookAction);
  const upgrade: KeleustesChartUpgrade | undefined = u === undefined ? undefined : ordered([
    // The CRD requires no_hooks whenever upgrade is present.
    ['no_hooks', u.noHooks ?? false],
    ['options', u.options === undefined ? undefined : ordered([['force', u.options.force]])],
    ['pre', u.pre === undefined ? undefined : ordered([['delete', hooks(u.pre.delete)], ['update', hooks(u.pre.update)], ['create', hooks(u.pre.create)]])],
    ['post', u.post === undefined ? undefined : ordered([['create', hooks(u.post.create)]])],
  ]) as unknown as KeleustesChartUpgrade;

  return {
    apiVersion: KELEUSTES_API_VERSION,
    kind: 'ArmadaChart',
    metadata: { name: c.name, namespace: c.namespace },
    spec: ordered([
      ['chart_name', c.chartName ?? c.name],
      ['release', release],
      ['namespace', c.namespace],
      ['timeout', c.timeout?.toSeconds()],
      ['wait', wait],
      ['test', test],
      ['protected', c.protected === undefined ? undefined : ordered([['continue_processing', c.protected.continueProcessing]])],
      ['upgrade', upgrade],
      ['delete', c.delete === undefined ? undefined : ordered([['timeout', c.delete.timeout?.toSeconds()]])],
      ['source', ordered([
        ['type', c.source.type],
        ['location', c.source.location],
        // Required by the CRD; Armada's default when not written.
        ['subpath', c.source.effectiveSubpath],
        ['reference', c.source.reference],
        ['proxy_server', c.source.proxyServer],
        ['auth_method', c.source.authMethod],
      ])],
      // Required by the CRD; the operator only checks whether the list is empty.
      ['dependencies', [...(c.dependencies ?? [])]],
      ['values', valuesOut(c.values, timestampAsString, form)],
      // The chart's group flips it to deployed when its turn comes.
      ['target_state', 'uninitialized'],
    ]) as unknown as KeleustesArmadaChartSpec,
  };
}
