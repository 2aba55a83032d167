/**
 * A resolved ManifestSpec (from imported documents) back into constructs, so that an existing
 * site can be rendered by any target, or extended in TypeScript.
 */
import { Construct } from 'constructs';
import { ArmadaManifest } from '../constructs/armada-manifest';
import { Chart, ChartProps } from '../constructs/chart';
import { ChartGroup } from '../constructs/chart-group';
import { firstByName } from '../model/first-by-name';
import { ChartSpec, ManifestSpec } from '../model/spec';

/** Options of {@link specToConstructs}. */
export interface SpecToConstructsOptions {
  /**
   * Where to create the manifest.
   * @default - a construct tree of its own
   */
  readonly scope?: Construct | undefined;
  /**
   * Construct id of the manifest.
   * @default - the manifest's name
   */
  readonly id?: string | undefined;
}

/**
 * Builds ArmadaManifest > ChartGroup > Chart constructs equal in meaning to `spec`. Each chart is
 * created inside the first group that lists it (later groups list it again); charts no group
 * lists (subcharts such as helm-toolkit) are created directly in the manifest. Groups the manifest
 * does not list are not created: Armada ignores them, and a group created in a manifest joins it.
 * References must resolve (validate first).
 */
export function specToConstructs(spec: ManifestSpec, options: SpecToConstructsOptions = {}): ArmadaManifest {
  const manifest = new ArmadaManifest(options.scope, options.id ?? spec.name, {
    name: spec.name,
    releasePrefix: spec.releasePrefix,
    schemaVersion: spec.schemaVersion,
  });
  const groups = firstByName(spec.groups);
  const charts = firstByName(spec.charts);
  const built = new Map<string, Chart>();
  const listed = new Set(spec.chartGroups.flatMap((g) => groups.get(g)?.charts ?? []));

  // Subchart-only and unused charts first: they are usually what deployed charts depend on.
  for (const c of spec.charts) {
    if (!listed.has(c.name) && charts.get(c.name) === c) built.set(c.name, new Chart(manifest, uniqueId(manifest, c.name), { ...chartProps(c), name: c.name }));
  }
  const createdGroups = new Set<string>();
  for (const gName of spec.chartGroups) {
    const g = groups.get(gName);
    if (!g || createdGroups.has(gName)) continue;
    createdGroups.add(gName);
    const group = new ChartGroup(manifest, uniqueId(manifest, g.name), {
      name: g.name,
      description: g.description,
      sequenced: g.sequenced,
      testCharts: g.testCharts,
      displayName: g.displayName,
      schemaVersion: g.schemaVersion,
    });
    for (const cName of g.charts) {
      const existing = built.get(cName);
      if (existing) {
        group.addChart(existing);
        continue;
      }
      const c = charts.get(cName);
      if (c) built.set(cName, new Chart(group, uniqueId(group, c.name), { ...chartProps(c), name: c.name }));
    }
  }
  // Subcharts last, once every chart exists whatever the document order.
  for (const c of spec.charts) {
    const chart = built.get(c.name);
    if (!chart || charts.get(c.name) !== c || c.dependencies === undefined) continue;
    const deps = c.dependencies.map((d) => built.get(d)).filter((d): d is Chart => d !== undefined);
    // An empty list was already set by chartProps: `[]` stays `[]`.
    if (deps.length > 0) chart.addSubchart(...deps);
  }
  return manifest;
}

/** A chart and a group may share a name (different kinds): their construct ids must not. */
function uniqueId(scope: Construct, name: string): string {
  let id = name;
  for (let i = 2; scope.node.tryFindChild(id); i++) id = `${name}-${i}`;
  return id;
}

function chartProps(c: ChartSpec): ChartProps {
  return {
    namespace: c.namespace,
    source: c.source,
    release: c.release,
    schemaVersion: c.schemaVersion,
    chartName: c.chartName,
    values: c.values as Record<string, unknown> | undefined,
    protected: c.protected,
    test: c.test,
    wait: c.wait,
    upgrade: c.upgrade,
    delete: c.delete,
    install: c.install,
    timeout: c.timeout,
    // `[]` is meaningful (replace the chart's own subcharts with none): set it now, fill later.
    dependencies: c.dependencies === undefined ? undefined : [],
  };
}

