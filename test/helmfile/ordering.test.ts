/** Armada's order as Helmfile `needs`: the steps computed back from `needs` alone equal the plan's. */
import { defineSite } from '../../examples/site';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import { resolveInputs } from '../../src/importer/resolve';
import { buildPlan, Plan } from '../../src/model/plan';
import { toHelmfile } from '../../src/model/wire/helmfile';
import { corpusFiles, sharedPath } from '../helpers/shared';

const TAR = ChartSource.tar('https://charts.example.org/charts/mariadb-0.1.0.tgz', { subpath: 'mariadb' });

/**
 * The level of each release in the needs graph (no needs: 0; else one after its deepest need),
 * which is when Helmfile can first sync it; releases of a level in file order.
 */
export function levelsFromNeeds(releases: readonly any[]): string[][] {
  const byId = new Map<string, any>(releases.map((r) => [`${r.namespace}/${r.name}`, r]));
  const level = new Map<string, number>();
  const levelOf = (id: string, path: string[] = []): number => {
    const known = level.get(id);
    if (known !== undefined) return known;
    if (path.includes(id)) throw new Error(`needs cycle: ${[...path, id].join(' -> ')}`);
    const r = byId.get(id);
    if (!r) throw new Error(`needs names ${id}, which is not a release of the helmfile`);
    const needs: string[] = r.needs ?? [];
    const l = needs.length === 0 ? 0 : 1 + Math.max(...needs.map((n) => levelOf(n, [...path, id])));
    level.set(id, l);
    return l;
  };
  const out: string[][] = [];
  for (const r of releases) (out[levelOf(`${r.namespace}/${r.name}`)] ??= []).push(r.name);
  return out;
}

/** The plan's steps as release names, each release at its first step only. */
function planSteps(plan: Plan): string[][] {
  const seen = new Set<string>();
  return plan.steps.map((s) => s.releases.filter((r) => !seen.has(r.chart) && seen.add(r.chart)).map((r) => r.name)).filter((s) => s.length > 0);
}

function releasesOf(site: ArmadaManifest): any[] {
  const { spec, plan } = site.resolve();
  return (toHelmfile(spec, plan, { waitInput: ['site.yaml'] }).helmfile.releases as any[]) ?? [];
}

describe('Helmfile ordering', () => {
  test('the example site: needs give back exactly the plan steps', () => {
    const site = defineSite();
    expect(levelsFromNeeds(releasesOf(site))).toEqual(planSteps(site.resolve().plan));
    expect(planSteps(site.resolve().plan)).toEqual([
      ['airship-ingress-kube-system', 'airship-ingress-openstack'],
      ['airship-mariadb'],
      ['airship-memcached'],
      ['airship-rabbitmq'],
      ['airship-keystone'],
      ['airship-glance', 'airship-nova', 'airship-neutron', 'airship-openvswitch', 'airship-libvirt'],
    ]);
  });

  test('every corpus site: needs give back the plan steps', async () => {
    let checked = 0;
    for (const { file } of corpusFiles()) {
      const r = await resolveInputs([sharedPath('corpus', file)]);
      if (r.spec === undefined) continue;
      const plan = buildPlan(r.spec);
      const releases = (toHelmfile(r.spec, plan, { waitInput: ['x.yaml'] }).helmfile.releases as any[]) ?? [];
      expect({ file, levels: levelsFromNeeds(releases) }).toEqual({ file, levels: planSteps(plan) });
      checked += releases.length;
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  test('a sequenced group chains its charts; a parallel step needs every release of the step before, and nothing inside itself', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const seq = new ChartGroup(site, 'seq', { sequenced: true });
    for (const n of ['a', 'b']) new Chart(seq, n, { namespace: 'ns', source: TAR });
    const par = new ChartGroup(site, 'par');
    for (const n of ['c', 'd', 'e']) new Chart(par, n, { namespace: n === 'e' ? 'other' : 'ns', source: TAR });
    const last = new ChartGroup(site, 'last');
    new Chart(last, 'f', { namespace: 'ns', source: TAR });
    expect(releasesOf(site).map((r) => [r.name, r.needs])).toEqual([
      ['p-a', undefined],
      ['p-b', ['ns/p-a']],
      ['p-c', ['ns/p-b']],
      ['p-d', ['ns/p-b']],
      ['p-e', ['ns/p-b']],
      ['p-f', ['ns/p-c', 'ns/p-d', 'other/p-e']],
    ]);
    expect(levelsFromNeeds(releasesOf(site))).toEqual([['p-a'], ['p-b'], ['p-c', 'p-d', 'p-e'], ['p-f']]);
  });

  test('addDependency edges are added, inside a parallel step too, each once', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const first = new ChartGroup(site, 'first');
    const a = new Chart(first, 'a', { namespace: 'ns', source: TAR });
    const b = new Chart(first, 'b', { namespace: 'ns', source: TAR });
    const second = new ChartGroup(site, 'second');
    const c = new Chart(second, 'c', { namespace: 'ns', source: TAR });
    const d = new Chart(second, 'd', { namespace: 'ns', source: TAR });
    d.addDependency(c, a);
    b.addDependency(a);
    expect(releasesOf(site).map((r) => [r.name, r.needs])).toEqual([
      ['p-a', undefined],
      ['p-b', ['ns/p-a']],
      ['p-c', ['ns/p-a', 'ns/p-b']],
      ['p-d', ['ns/p-a', 'ns/p-b', 'ns/p-c']],
    ]);
  });

  test('a chart deployed again by a later group is one release, at its first step, with a warning; the steps after need the steps before', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const a = new Chart(site, 'a', { namespace: 'ns', source: TAR });
    new ChartGroup(site, 'g1', { charts: [a] });
    const g2 = new ChartGroup(site, 'g2');
    new Chart(g2, 'b', { namespace: 'ns', source: TAR });
    g2.addChart(a);
    const g3 = new ChartGroup(site, 'g3');
    new Chart(g3, 'c', { namespace: 'ns', source: TAR });
    const { spec, plan } = site.resolve();
    const r = toHelmfile(spec, plan, { waitInput: ['s.yaml'] });
    expect((r.helmfile.releases as any[]).map((x) => [x.name, x.needs])).toEqual([
      ['p-a', undefined],
      ['p-b', ['ns/p-a']],
      // Step 1 deploys a again, and Armada waits for it before step 2.
      ['p-c', ['ns/p-b', 'ns/p-a']],
    ]);
    expect(r.diagnostics.all.map((d) => [d.location, d.field, d.code, d.message])).toEqual([
      ['site/a', undefined, 'not-expressible', 'cannot be expressed for Helmfile: the chart is deployed again in step 1 (group "g2"), but a helmfile has one release per release name; it is deployed once, in step 0, and the steps after 1 need that one and every release of the steps before 1'],
    ]);
  });
});
