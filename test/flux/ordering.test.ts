/** Armada's order as dependsOn: the steps computed back from dependsOn alone equal the plan's. */
import { defineSite } from '../../examples/site';
import { ArmadaManifest, Chart, ChartGroup } from '../../src';
import { buildPlan } from '../../src/model/plan';
import { HelmReleasePlacement } from '../../src/model/wire/flux-v2';
import { levelsFromDependsOn } from '../helpers/flux-order';
import { fluxOf, TAR } from '../helpers/flux-site';

const planSteps = (site: ArmadaManifest) => buildPlan(site.resolve().spec).steps.map((s) => s.releases.map((r) => r.name));

describe('Flux ordering', () => {
  test('the example site: dependsOn gives back exactly the plan steps, in both placements', () => {
    for (const placement of [HelmReleasePlacement.SINGLE_NAMESPACE, HelmReleasePlacement.CHART_NAMESPACE]) {
      const site = defineSite();
      const { releases } = fluxOf(site, { placement });
      expect(levelsFromDependsOn(releases)).toEqual(planSteps(site));
      expect(planSteps(site)).toEqual([
        ['airship-ingress-kube-system', 'airship-ingress-openstack'],
        ['airship-mariadb'],
        ['airship-memcached'],
        ['airship-rabbitmq'],
        ['airship-keystone'],
        ['airship-glance', 'airship-nova', 'airship-neutron', 'airship-openvswitch', 'airship-libvirt'],
      ]);
    }
  });

  test('a sequenced group chains its charts; a parallel step depends on every release of the step before, and on nothing inside itself', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const seq = new ChartGroup(site, 'seq', { sequenced: true });
    for (const n of ['a', 'b']) new Chart(seq, n, { namespace: 'ns', source: TAR });
    const par = new ChartGroup(site, 'par');
    for (const n of ['c', 'd', 'e']) new Chart(par, n, { namespace: 'ns', source: TAR });
    const last = new ChartGroup(site, 'last');
    new Chart(last, 'f', { namespace: 'ns', source: TAR });
    const { releases } = fluxOf(site);
    expect(releases.map((r) => [r.metadata.name, r.spec.dependsOn?.map((x: any) => x.name)])).toEqual([
      ['site.p-a', undefined],
      ['site.p-b', ['site.p-a']],
      ['site.p-c', ['site.p-b']],
      ['site.p-d', ['site.p-b']],
      ['site.p-e', ['site.p-b']],
      ['site.p-f', ['site.p-c', 'site.p-d', 'site.p-e']],
    ]);
    expect(levelsFromDependsOn(releases)).toEqual(planSteps(site));
  });

  test('addDependency edges are added, inside a parallel step too, each dependency once', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const first = new ChartGroup(site, 'first');
    const a = new Chart(first, 'a', { namespace: 'ns', source: TAR });
    const b = new Chart(first, 'b', { namespace: 'ns', source: TAR });
    const second = new ChartGroup(site, 'second');
    const c = new Chart(second, 'c', { namespace: 'ns', source: TAR });
    const d = new Chart(second, 'd', { namespace: 'ns', source: TAR });
    d.addDependency(c, a);
    b.addDependency(a);
    const { releases } = fluxOf(site);
    expect(releases.map((r) => [r.metadata.name, r.spec.dependsOn?.map((x: any) => x.name)])).toEqual([
      ['site.p-a', undefined],
      ['site.p-b', ['site.p-a']],
      ['site.p-c', ['site.p-a', 'site.p-b']],
      ['site.p-d', ['site.p-a', 'site.p-b', 'site.p-c']],
    ]);
    // The explicit edges serialise inside the steps, and nothing else does.
    expect(levelsFromDependsOn(releases)).toEqual([['p-a'], ['p-b'], ['p-c'], ['p-d']]);
  });
});
