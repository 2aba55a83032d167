/** CHART_NAMESPACE output creates the namespaces it writes into, safely on a cluster that has them. */
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import { HelmReleasePlacement } from '../../src/model/wire/flux-v2';
import { fluxCrdErrors } from '../helpers/flux-crds';
import { levelsFromDependsOn } from '../helpers/flux-order';
import { BRANCH_NOTE, fluxOf, TAR } from '../helpers/flux-site';

const CHART_NAMESPACE = { placement: HelmReleasePlacement.CHART_NAMESPACE };
const ANNOTATIONS = { 'kustomize.toolkit.fluxcd.io/prune': 'disabled', 'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent' };
const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, annotations: ANNOTATIONS } });
const where = (objects: any[]) => objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);

/** One chart per `[name, namespace]`, in one parallel group. */
function site(charts: [string, string][], source = TAR) {
  const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  const g = new ChartGroup(m, 'g');
  for (const [name, namespace] of charts) new Chart(g, name, { namespace, source });
  return m;
}

describe('Flux CHART_NAMESPACE: the Namespaces it writes into', () => {
  test('one Namespace per namespace written into, first, sorted by name, whatever the charts\' order; two charts in one namespace share it', () => {
    const { objects, diagnostics } = fluxOf(site([['c', 'zeta'], ['a', 'alpha'], ['b', 'zeta']]), CHART_NAMESPACE);
    expect(where(objects)).toEqual([
      'Namespace//alpha',
      'Namespace//zeta',
      'HelmRepository/zeta/site.charts',
      'HelmRepository/alpha/site.charts',
      'HelmRelease/zeta/site.p-c',
      'HelmRelease/alpha/site.p-a',
      'HelmRelease/zeta/site.p-b',
    ]);
    expect(objects.slice(0, 2)).toEqual([ns('alpha'), ns('zeta')]);
    for (const o of objects) expect([o.kind, o.metadata.name, fluxCrdErrors(o)]).toEqual([o.kind, o.metadata.name, []]);
    // Nothing is left to warn about the namespaces themselves.
    expect(diagnostics.filter((d) => d.location === 'site' && d.code === 'flux-assumption' && !BRANCH_NOTE.test(d.message))).toEqual([]);
  });

  test('the namespaces every cluster has, and Flux\'s own, get none: a chart in kube-system, default and flux-system', () => {
    const charts: [string, string][] = [['k', 'kube-system'], ['d', 'default'], ['f', 'flux-system'], ['p', 'kube-public'], ['l', 'kube-node-lease'], ['o', 'openstack']];
    const { objects } = fluxOf(site(charts), CHART_NAMESPACE);
    expect(objects.filter((o) => o.kind === 'Namespace')).toEqual([ns('openstack')]);
    // The HelmReleases are still there, in those namespaces.
    expect(objects.filter((o) => o.kind === 'HelmRelease').map((o) => o.metadata.namespace)).toEqual(['kube-system', 'default', 'flux-system', 'kube-public', 'kube-node-lease', 'openstack']);
  });

  test('Flux\'s namespace is the namespace option: with Flux in "gitops", a chart in gitops gets no Namespace, nor one in flux-system, a name of Flux\'s own', () => {
    const { objects } = fluxOf(site([['f', 'flux-system'], ['g', 'gitops'], ['o', 'other']]), { ...CHART_NAMESPACE, namespace: 'gitops' });
    expect(objects.filter((o) => o.kind === 'Namespace')).toEqual([ns('other')]);
  });

  test('sourceNamespace: its Namespace too, sorted with the charts\'; none when it is Flux\'s', () => {
    const m = site([['a', 'one'], ['b', 'two']]);
    const { objects } = fluxOf(m, { ...CHART_NAMESPACE, sourceNamespace: 'charts-src' });
    expect(where(objects)).toEqual(['Namespace//charts-src', 'Namespace//one', 'Namespace//two', 'HelmRepository/charts-src/site.charts', 'HelmRelease/one/site.p-a', 'HelmRelease/two/site.p-b']);
    for (const o of objects) expect(fluxCrdErrors(o)).toEqual([]);
    expect(fluxOf(m, { ...CHART_NAMESPACE, sourceNamespace: 'flux-system' }).objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name)).toEqual(['one', 'two']);
  });

  test('only namespaces the output writes into: a local chart\'s GitRepository is not written, so sourceNamespace gets no Namespace for it', () => {
    const { objects } = fluxOf(site([['a', 'one']], ChartSource.local('/opt/charts/a')), { ...CHART_NAMESPACE, sourceNamespace: 'sources' });
    expect(where(objects)).toEqual(['Namespace//one', 'HelmRelease/one/site.p-a']);
    expect(objects[1].spec.chart.spec.sourceRef).toEqual({ kind: 'GitRepository', name: 'site.local-opt-charts-a', namespace: 'sources' });
  });

  test('the charts\' target namespaces are created by helm-controller in both placements (install.createNamespace), so the default placement writes no Namespace', () => {
    const m = site([['a', 'one'], ['k', 'kube-system']]);
    for (const options of [{}, CHART_NAMESPACE, { sourceNamespace: 'sources', namespace: 'gitops' }]) {
      const { objects } = fluxOf(m, options);
      expect(objects.filter((o) => o.kind === 'HelmRelease').map((o) => o.spec.install.createNamespace)).toEqual([true, true]);
      if (options !== CHART_NAMESPACE) expect(objects.filter((o) => o.kind === 'Namespace')).toEqual([]);
    }
    expect(where(fluxOf(m, { sourceNamespace: 'sources', namespace: 'gitops' }).objects)).toEqual(['HelmRepository/sources/site.charts', 'HelmRelease/gitops/site.p-a', 'HelmRelease/gitops/site.p-k']);
  });

  test('the order is kept: dependsOn across the namespaces gives back the plan', () => {
    const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(m, 'g', { sequenced: true });
    new Chart(g, 'a', { namespace: 'one', source: TAR });
    new Chart(g, 'b', { namespace: 'two', source: TAR });
    const { objects } = fluxOf(m, CHART_NAMESPACE);
    expect(levelsFromDependsOn(objects)).toEqual([['p-a'], ['p-b']]);
  });
});
