/** FluxOutput: the cdk8s output of the Flux target. */
import * as cdk8s from 'cdk8s';
import * as YAML from 'yaml';
import { defineSite } from '../../examples/site';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration } from '../../src';
import { FluxOutput, FluxOutputProps, HelmReleasePlacement } from '../../src/cdk8s';
import { Diagnostic } from '../../src/model/diagnostics';
import { fluxCrdErrors } from '../helpers/flux-crds';
import { levelsFromDependsOn } from '../helpers/flux-order';
import { TAR } from '../helpers/flux-site';

function synthFlux(manifest: ArmadaManifest, props: Omit<FluxOutputProps, 'manifest'> = {}) {
  const warnings: Diagnostic[] = [];
  const app = new cdk8s.App();
  const chart = new cdk8s.Chart(app, 'flux');
  new FluxOutput(chart, 'flux', { manifest, onWarning: (w) => warnings.push(w), ...props });
  return { objects: cdk8s.Testing.synth(chart) as any[], warnings, yaml: app.synthYaml() };
}

describe('FluxOutput', () => {
  test('the example site: sources, then one HelmRelease per deployed chart in plan order, every object valid against the Flux CRDs', () => {
    const site = defineSite();
    const { objects, warnings } = synthFlux(site);
    expect(objects.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'HelmRepository/flux-system/site.openstack-helm-infra',
      'GitRepository/flux-system/site.openstack-helm-changes-61-924261-3',
      'HelmRepository/flux-system/site.openstack-helm',
      ...site.resolve().plan.releases.map((r) => `HelmRelease/flux-system/site.${r.name}`),
    ]);
    for (const o of objects) expect([o.metadata.name, fluxCrdErrors(o)]).toEqual([o.metadata.name, []]);
    expect(levelsFromDependsOn(objects)).toEqual(site.resolve().plan.steps.map((s) => s.releases.map((r) => r.name)));
    // Every finding names a chart and a field (the example site's local charts, waits, pre-upgrade deletes...).
    expect(warnings.filter((w) => w.code === 'not-expressible' || w.code === 'flux-assumption').every((w) => /^site\/[a-z-]+\/[a-z-]+$/.test(w.location) && w.field !== undefined)).toBe(true);
    expect(warnings.filter((w) => w.field === 'source.type').map((w) => w.location)).toEqual(['site/openstack-compute/openvswitch', 'site/openstack-compute/libvirt']);
  });

  test('the example site with localSources: its local charts read from a GitRepository, and no local-source warning', () => {
    const { objects, warnings } = synthFlux(defineSite(), {
      localSources: { '/opt/charts/openstack-helm-infra': ChartSource.git('https://opendev.org/openstack/openstack-helm-infra', { reference: 'master' }) },
    });
    expect(warnings.filter((w) => w.field === 'source.type')).toEqual([]);
    expect(objects.filter((o) => o.spec?.releaseName === 'airship-libvirt').map((o) => o.spec.chart.spec)).toEqual([
      { chart: './libvirt', sourceRef: { kind: 'GitRepository', name: 'site.openstack-helm-infra-master' }, reconcileStrategy: 'Revision' },
    ]);
    for (const o of objects) expect(fluxCrdErrors(o)).toEqual([]);
  });

  test('placement CHART_NAMESPACE on the example site: its Namespace first (not kube-system\'s), still valid, sources beside the HelmReleases, one cross-namespace warning', () => {
    const { objects, warnings, yaml } = synthFlux(defineSite(), { placement: HelmReleasePlacement.CHART_NAMESPACE });
    expect(objects.filter((o) => o.kind === 'Namespace')).toEqual([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'openstack', annotations: { 'kustomize.toolkit.fluxcd.io/prune': 'disabled', 'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent' } } },
    ]);
    expect(objects[0].kind).toBe('Namespace');
    // kubectl apply -f applies a file in the order written.
    expect(yaml.startsWith('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: openstack\n')).toBe(true);
    expect(warnings.filter((w) => /must exist before/.test(w.message))).toEqual([]);
    for (const o of objects) expect(fluxCrdErrors(o)).toEqual([]);
    for (const o of objects.filter((x) => x.kind === 'HelmRelease')) expect(o.metadata.namespace).toBe(o.spec.targetNamespace);
    expect(objects.filter((o) => o.kind === 'HelmRepository').map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'kube-system/site.openstack-helm-infra',
      'openstack/site.openstack-helm-infra',
      'openstack/site.openstack-helm',
    ]);
    expect(warnings.filter((w) => w.code === 'flux-cross-namespace')).toHaveLength(1);
  });

  test('the default placement writes no Namespace, with every namespace option set', () => {
    const { objects } = synthFlux(defineSite(), { namespace: 'gitops', sourceNamespace: 'sources' });
    expect(objects.filter((o) => o.kind === 'Namespace')).toEqual([]);
    expect([...new Set(objects.map((o) => `${o.kind}/${o.metadata.namespace}`))]).toEqual(['HelmRepository/sources', 'GitRepository/sources', 'HelmRelease/gitops']);
  });

  test('deterministic, and YAML 1.1 safe: values that PyYAML or go-yaml v2 would read as booleans, numbers or dates stay strings', () => {
    const make = () => {
      const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
      new Chart(new ChartGroup(site, 'g'), 'a', { namespace: 'ns', source: TAR, values: { b: 'yes', a: { mode: '0755', t: '1:20', d: '2024-01-01', off: 'off' } } });
      return synthFlux(site).yaml;
    };
    const first = make();
    expect(make()).toBe(first);
    const hr = YAML.parseAllDocuments(first, { version: '1.1' }).map((d) => d.toJS()).find((o) => o.kind === 'HelmRelease');
    expect(hr.spec.values).toEqual({ a: { d: '2024-01-01', mode: '0755', off: 'off', t: '1:20' }, b: 'yes' });
  });

  test('an error (a tarball without a version) fails the synth and writes nothing', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(site, 'g'), 'a', { namespace: 'ns', source: ChartSource.tar('https://e.org/charts/a.tgz') });
    expect(() => synthFlux(site)).toThrow(/site\/g\/a: source\.location: received "https:\/\/e\.org\/charts\/a\.tgz", a tarball whose file name has no version: a Flux HelmRepository serves a chart by name and version/);
  });

  test('a "<<" in values, which cdk8s writes unquoted and go-yaml reads as a merge key, is an error that points to convert', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(site, 'g'), 'a', { namespace: 'ns', source: TAR, values: { conf: { '<<': 'x', list: ['<<'] } } });
    expect(() => synthFlux(site)).toThrow(
      'site/g/a: values.conf.<<: the key "<<" is written unquoted by cdk8s\'s YAML writer, and go-yaml (kubectl, the Kubernetes API) reads it as a YAML 1.1 merge key; write these objects with `armada-cdk convert --to flux-v2` instead, which quotes and escapes it, or leave it out',
    );
    expect(() => synthFlux(site)).toThrow(/site\/g\/a: values\.conf\.list\[0\]: the string "<<"/);
  });

  test('props are checked at once, with the construct path', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const chart = new cdk8s.Chart(new cdk8s.App(), 'c');
    expect(() => new FluxOutput(chart, 'a', { manifest: site, namespace: 'Flux' })).toThrow(
      'c/a: namespace: received "Flux"; a namespace must be a DNS-1123 label: lower-case letters, digits and "-", starting and ending with a letter or digit',
    );
    expect(() => new FluxOutput(chart, 'b', { manifest: site, interval: Duration.seconds(0) })).toThrow('c/b: interval: received 0 seconds; an interval must be a whole number of seconds greater than 0');
    expect(() => new FluxOutput(chart, 'huge', { manifest: site, sourceInterval: Duration.hours(3_000_000) })).toThrow('c/huge: sourceInterval: received 10800000000 seconds; Flux reads an interval as a Go duration, which ends at 9223372036 seconds (about 292 years)');
    expect(() => new FluxOutput(chart, 'd', { manifest: site, sourceInterval: 60 as never })).toThrow('c/d: sourceInterval: received 60; use Duration.minutes(...) or Duration.seconds(...)');
    expect(() => new FluxOutput(chart, 'f', { manifest: site, localSources: { '/opt/charts': ChartSource.local('/srv') } })).toThrow(
      'c/f: localSources["/opt/charts"]: received a local source; use ChartSource.git(url, { reference, subpath }): a Flux GitRepository is what reads a directory tree',
    );
    expect(() => new FluxOutput(chart, 'e', { manifest: site, placement: 'everywhere' as never })).toThrow(
      'c/e: placement: received "everywhere"; use HelmReleasePlacement.SINGLE_NAMESPACE or HelmReleasePlacement.CHART_NAMESPACE',
    );
  });

  test('a FluxOutput renders a manifest in its own chart, and nothing else does', () => {
    const app = new cdk8s.App();
    const chart = new cdk8s.Chart(app, 'site');
    const site = new ArmadaManifest(chart, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(site, 'g'), 'a', { namespace: 'ns', source: TAR });
    new FluxOutput(chart, 'flux', { manifest: site, onWarning: () => undefined });
    expect((cdk8s.Testing.synth(chart) as any[]).map((o) => o.kind)).toEqual(['HelmRepository', 'HelmRelease']);
  });
});
