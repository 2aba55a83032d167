/**
 * What each deployed release needs from the operator, from a resolved manifest (pure): its
 * namespace, what its chart creates (declared, read from a rendered chart, or the default
 * guess), and, for the airship operator, the waits, pre-upgrade deletes and tests of the
 * ArmadaChart it will read.
 */
import { firstByName, Plan } from '../../model/plan';
import { ManifestSpec } from '../../model/spec';
import { toAirshipCharts } from '../../model/wire/airship-v1';
import type { AirshipArmadaChartData } from '../../model/wire/types';
import { OperatorApi } from '../outputs';
import { ReleaseAccess } from './rbac';
import { RenderedChart, ResourceKind } from './resource-kinds';

/** What a chart creates: kinds only, or a rendered chart (kinds and RBAC objects). */
export type ChartContents = readonly ResourceKind[] | RenderedChart;

export function isRenderedChart(c: ChartContents): c is RenderedChart {
  return !Array.isArray(c) && typeof (c as RenderedChart).source === 'string';
}

/** The releases of a resolved manifest, one per deployed chart, in deployment order. */
export function releasesOf(
  api: OperatorApi,
  spec: ManifestSpec,
  plan: Plan,
  declared: Readonly<Record<string, ChartContents>>,
  defaults: readonly ResourceKind[],
  keleustesNamespace: string,
): ReleaseAccess[] {
  const contents = (chart: string): Pick<ReleaseAccess, 'kinds' | 'roles' | 'bindings' | 'helmToolkitRoles'> => {
    const c = declared[chart];
    if (c === undefined) return { kinds: defaults, helmToolkitRoles: true };
    return isRenderedChart(c) ? { kinds: c.kinds, roles: c.roles, bindings: c.bindings } : { kinds: c };
  };
  const deployed = [...new Set(plan.releases.map((r) => r.chart))];
  if (api === OperatorApi.KELEUSTES_V1ALPHA1) {
    return deployed.map((chart) => ({ chart, namespace: keleustesNamespace, ...contents(chart), waitTypes: [], deleteTypes: [], test: false, nativeWait: false }));
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
      ...contents(r.chart),
      // The operator's default when resources is absent.
      waitTypes: resources === undefined ? ['job', 'pod'] : resources.map((w) => w.type),
      deleteTypes: (data.upgrade?.pre?.delete ?? []).map((x) => x.type ?? ''),
      test: data.test?.enabled === true,
      nativeWait: data.wait?.native?.enabled === true && (data.wait?.timeout ?? 0) > 0,
    });
  }
  return releases;
}
