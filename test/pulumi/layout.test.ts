import { defineSite } from '../../examples/site';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, SchemaVersion, WaitResource, Duration } from '../../src';
import { aliasDiagnostics, layoutDeployment, previousKey, previousPath } from '../../src/pulumi/layout';
import { releaseInputs, unsupportedFields } from '../../src/pulumi/release-args';
import { buildPlan } from '../../src/model/plan';
import type { ManifestSpec } from '../../src/model/spec';

const layoutOf = (site: ArmadaManifest) => {
  const r = site.resolve();
  return layoutDeployment(r.spec, r.plan, site.node.path);
};
/**
 * The layout of a site's spec as `edit` changes it: a group or chart listed twice, as Armada
 * documents may list them (the constructs deploy each once, however often it is added).
 */
const layoutEdited = (site: ArmadaManifest, edit: (spec: ManifestSpec) => ManifestSpec) => {
  const spec = edit(site.resolve().spec);
  return layoutDeployment(spec, buildPlan(spec), site.node.path);
};
const src = ChartSource.local('/charts');
const labels = (n: string) => ({ labels: { app: n } });

describe('layoutDeployment', () => {
  test('example site: one unit per chart, keys from construct paths, each step after the previous one', () => {
    const layout = layoutOf(defineSite());
    expect(layout.groups.map((g) => [g.key, g.units])).toEqual([
      ['ingress', [0, 1]],
      ['openstack-infra', [2, 3, 4]],
      ['openstack-keystone', [5]],
      ['openstack-compute', [6, 7, 8, 9, 10]],
    ]);
    expect(layout.units.map((u) => [u.key, u.step, u.installs, u.after])).toEqual([
      ['ingress/ingress-kube-system', 0, true, []],
      ['ingress/ingress-openstack', 0, true, []],
      ['openstack-infra/mariadb', 1, true, [0, 1]],
      ['openstack-infra/memcached', 2, true, [2]],
      ['openstack-infra/rabbitmq', 3, true, [3]],
      ['openstack-keystone/keystone', 4, true, [4]],
      ['openstack-compute/glance', 5, true, [5]],
      ['openstack-compute/nova', 5, true, [5]],
      ['openstack-compute/neutron', 5, true, [5]],
      ['openstack-compute/openvswitch', 5, true, [5]],
      ['openstack-compute/libvirt', 5, true, [5]],
    ]);
    expect(layout.creationOrder).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(layout.diagnostics).toEqual([]);
  });

  test('a chart in two groups installs once and is waited for again; a group listed twice gets its own key', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const a = new ChartGroup(site, 'a');
    const db = new Chart(a, 'db', { namespace: 'ns', source: src, wait: labels('db') });
    const b = new ChartGroup(site, 'b', { sequenced: true });
    b.addChart(db);
    new Chart(b, 'web', { namespace: 'ns', source: src, wait: labels('web') });
    const layout = layoutEdited(site, (spec) => ({ ...spec, chartGroups: [...spec.chartGroups, 'b'] }));
    expect(layout.groups.map((g) => g.key)).toEqual(['a', 'b', 'b#2']);
    expect(layout.units.map((u) => [u.key, u.step, u.installs, u.installer, u.after])).toEqual([
      ['a/db', 0, true, 0, []],
      ['a/db@b', 1, false, 0, [0]],
      ['b/web', 2, true, 2, [1]],
      ['a/db@b#2', 3, false, 0, [2]],
      ['b/web@b#2', 4, false, 2, [3]],
    ]);
    expect(layout.diagnostics.map((d) => [d.severity, d.location, d.code])).toEqual([
      ['warning', 'site/a/db', 'pulumi-redeploy'],
      ['warning', 'site/a/db', 'pulumi-redeploy'],
      ['warning', 'site/b/web', 'pulumi-redeploy'],
    ]);
  });

  test('a chart listed twice in an unsequenced group is deployed once in that step, with a warning', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const a = new ChartGroup(site, 'a');
    new Chart(a, 'db', { namespace: 'ns', source: src, wait: labels('db') });
    const layout = layoutEdited(site, (spec) => ({ ...spec, groups: spec.groups.map((g) => (g.name === 'a' ? { ...g, charts: ['db', 'db'] } : g)) }));
    expect(layout.units.map((u) => u.key)).toEqual(['a/db']);
    expect(layout.diagnostics.map((d) => d.message)).toEqual(['chart "db" is listed twice in step 0 (group "a"); Armada deploys it twice at once, the Pulumi backend once']);
  });

  test('explicit edges point at installing units; creation order puts targets first within a step', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const a = new ChartGroup(site, 'a');
    const api = new Chart(a, 'api', { namespace: 'ns', source: src, wait: labels('api') });
    const db = new Chart(a, 'db', { namespace: 'ns', source: src, wait: labels('db') });
    const b = new ChartGroup(site, 'b');
    const web = new Chart(b, 'web', { namespace: 'ns', source: src, wait: labels('web') });
    api.addDependency(db);
    web.addDependency(api);
    const layout = layoutOf(site);
    expect(layout.units.map((u) => [u.key, u.explicit, u.after])).toEqual([
      ['a/api', [1], []],
      ['a/db', [], []],
      ['b/web', [0], [0, 1]],
    ]);
    expect(layout.creationOrder).toEqual([1, 0, 2]);
  });

  test('previousPath and previousKey map renamed construct paths, longest prefix first', () => {
    const aliases = { infra: 'old-infra', 'infra/db': 'infra/mariadb' };
    expect(previousPath('infra', aliases)).toBe('old-infra');
    expect(previousPath('infra/cache', aliases)).toBe('old-infra/cache');
    expect(previousPath('infra/db', aliases)).toBe('infra/mariadb');
    expect(previousPath('infrastructure/x', aliases)).toBeUndefined();
    expect(previousPath('x', undefined)).toBeUndefined();
    expect(previousKey('infra/db@compute#2', { ...aliases, compute: 'kit' })).toBe('infra/mariadb@kit#2');
    expect(previousKey('web', aliases)).toBeUndefined();
  });

  test('aliasDiagnostics: keys are the paths previousKey matches; far-off keys list the closest valid ones', () => {
    const layout = layoutOf(defineSite());
    const messages = (aliases: unknown) => aliasDiagnostics(aliases, layout, 'here').map((d) => `${d.field}: ${d.message}`);
    expect(messages({ 'openstack-infra': 'infra', 'openstack-infra/mariadb': 'db', ingress: 'in' })).toEqual([]);
    expect(messages(undefined)).toEqual([]);
    // Every valid key renames something, and a key that renames something is valid.
    const keys = [...layout.groups, ...layout.units].map((x) => x.key);
    expect(keys.every((k) => previousKey(k, { [k.split('@')[0]]: 'old' }) !== undefined)).toBe(true);
    expect(messages({ 'openstack-infra#2': 'x', 'openstack-infra/mariadb@openstack-compute': 'y' })).toHaveLength(2);
    expect(messages({ zzz: 'old' })).toEqual([
      'aliases["zzz"]: key "zzz" (old path "old") is not the path of a chart group or chart the deployment creates, so it would keep no URN; the 5 closest of 15 valid keys: "ingress", "openstack-infra", "openstack-compute", "openstack-keystone", "openstack-compute/nova"',
    ]);
    // A chart's name without its group.
    expect(messages({ mariadb: null })).toEqual([
      'aliases["mariadb"]: must be the old construct path, a string; received null',
      'aliases["mariadb"]: key "mariadb" is not the path of a chart group or chart the deployment creates, so it would keep no URN; did you mean "openstack-infra/mariadb"?',
    ]);
    // A manifest with errors has no layout: only the old paths are checked.
    expect(aliasDiagnostics({ anything: ' ' }, undefined, 'here').map((d) => d.message)).toEqual(['must be the old construct path; received " "']);
  });
});

describe('releaseInputs and unsupportedFields', () => {
  const one = (props: Partial<ConstructorParameters<typeof Chart>[2]>, version = SchemaVersion.V1) => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p', schemaVersion: version });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'x', { namespace: 'ns', source: src, wait: labels('x'), ...props });
    const r = site.resolve();
    return { release: r.plan.releases[0], chart: r.spec.charts[0] };
  };

  test('defaults (v1): native wait with jobs, 900 s, hooks and Helm CLI history as Armada', () => {
    const { release, chart } = one({});
    expect(releaseInputs(release, chart)).toEqual({
      name: 'p-x',
      namespace: 'ns',
      createNamespace: true,
      values: {},
      timeout: 900,
      skipAwait: false,
      waitForJobs: true,
      forceUpdate: false,
      disableCRDHooks: false,
      disableOpenapiValidation: true,
      maxHistory: 10,
    });
  });

  test('v2 defaults: no native wait; explicit native wait on deployments only does not wait for jobs', () => {
    expect(releaseInputs(one({}, SchemaVersion.V2).release, one({}, SchemaVersion.V2).chart)).toMatchObject({ skipAwait: true, waitForJobs: false });
    const x = one({ wait: { ...labels('x'), native: { enabled: true }, resources: [WaitResource.deployment()], timeout: Duration.minutes(3) } }, SchemaVersion.V2);
    expect(releaseInputs(x.release, x.chart)).toMatchObject({ skipAwait: false, waitForJobs: false, timeout: 180 });
  });

  test('upgrade flags and values (null kept: it removes a chart default in Helm; no allowNullValues, which provider 4.30+ ignores with a deprecation)', () => {
    const x = one({ values: { a: { b: null, c: 1 } }, upgrade: { noHooks: true, options: { force: true } } });
    const inputs = releaseInputs(x.release, x.chart);
    expect(inputs).toMatchObject({ values: { a: { b: null, c: 1 } }, disableCRDHooks: true, forceUpdate: true });
    expect('allowNullValues' in inputs).toBe(false);
  });

  test('unsupportedFields warns with the field path for what Pulumi cannot honour', () => {
    const x = one({ protected: { continueProcessing: true }, delete: { timeout: Duration.seconds(30) }, upgrade: { pre: { update: [{ type: 'daemonset', name: 'ds' }] } } });
    expect(unsupportedFields([x.chart]).map((d) => [d.severity, d.location, d.field, d.code])).toEqual([
      ['warning', 'site/g/x', 'protected.continueProcessing', 'pulumi-unsupported'],
      ['warning', 'site/g/x', 'delete.timeout', 'pulumi-unsupported'],
      ['warning', 'site/g/x', 'upgrade.pre.update', 'pulumi-unsupported'],
    ]);
    expect(unsupportedFields([one({ protected: { continueProcessing: false } }).chart])).toEqual([]);
  });
});
