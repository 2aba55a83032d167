/** One test per row of the Armada -> Flux mapping table of docs/flux.md. */
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, SchemaVersion, WaitResource } from '../../src';
import { goDuration, HelmReleasePlacement } from '../../src/model/wire/flux-v2';
import { fluxCrdErrors } from '../helpers/flux-crds';
import { fluxOf, oneChart, TAR } from '../helpers/flux-site';

const LOST_PREFIX = 'cannot be expressed for Flux (helm.toolkit.fluxcd.io/v2): ';
const REMEDIATE = { retries: 0, remediateLastFailure: true, ignoreTestFailures: true };

describe('Flux mapping: one HelmRelease per deployed chart', () => {
  test('identity: name <site>.<release>, releaseName = the Helm release, targetNamespace = storageNamespace = the chart namespace, in flux-system', () => {
    const { release, objects } = oneChart();
    expect(release.apiVersion).toBe('helm.toolkit.fluxcd.io/v2');
    expect(release.metadata).toEqual({
      name: 'site.airship-mariadb',
      namespace: 'flux-system',
      annotations: { 'armada-cdk.io/chart-group': 'g', 'armada-cdk.io/manifest': 'site', 'armada-cdk.io/step': '0' },
    });
    expect(Object.keys(release.spec)).toEqual(['releaseName', 'targetNamespace', 'storageNamespace', 'interval', 'chart', 'timeout', 'waitStrategy', 'install', 'upgrade', 'test', 'uninstall']);
    expect([release.spec.releaseName, release.spec.targetNamespace, release.spec.storageNamespace, release.spec.interval]).toEqual(['airship-mariadb', 'openstack', 'openstack', '10m']);
    for (const o of objects) expect(fluxCrdErrors(o)).toEqual([]);
  });

  test('placement CHART_NAMESPACE: each HelmRelease and its sources in the chart namespace; a source is written per namespace', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'a', { namespace: 'one', source: TAR });
    new Chart(g, 'b', { namespace: 'two', source: TAR });
    const { releases, sources } = fluxOf(site, { placement: HelmReleasePlacement.CHART_NAMESPACE });
    expect(releases.map((r) => [r.metadata.namespace, r.spec.targetNamespace, r.spec.chart.spec.sourceRef])).toEqual([
      ['one', 'one', { kind: 'HelmRepository', name: 'site.charts' }],
      ['two', 'two', { kind: 'HelmRepository', name: 'site.charts' }],
    ]);
    expect(sources.map((s) => [s.kind, s.metadata.namespace, s.metadata.name])).toEqual([['HelmRepository', 'one', 'site.charts'], ['HelmRepository', 'two', 'site.charts']]);
    // The output creates those namespaces itself (test/flux/namespaces.test.ts): nothing left to warn about.
    expect(fluxOf(site, { placement: HelmReleasePlacement.CHART_NAMESPACE }).diagnostics.filter((d) => d.code === 'flux-assumption' && d.location === 'site')).toEqual([]);
    expect(fluxOf(site).diagnostics.filter((d) => d.code === 'flux-assumption' && d.location === 'site')).toEqual([]);
  });

  test('namespace, interval, sourceInterval and suspend options', () => {
    const { release, objects } = oneChart({}, SchemaVersion.V1, { namespace: 'gitops', interval: Duration.hours(1), sourceInterval: Duration.seconds(90), suspend: true });
    expect([release.metadata.namespace, release.spec.interval, release.spec.suspend]).toEqual(['gitops', '1h', true]);
    expect(objects[0].spec.interval).toBe('1m30s');
    expect(oneChart().spec).not.toHaveProperty('suspend');
  });

  test('sourceNamespace: sources there, sourceRef.namespace written', () => {
    const { release, sources } = oneChart({}, SchemaVersion.V1, { sourceNamespace: 'sources' });
    expect(sources[0].metadata).toEqual({ name: 'site.charts', namespace: 'sources' });
    expect(release.spec.chart.spec.sourceRef).toEqual({ kind: 'HelmRepository', name: 'site.charts', namespace: 'sources' });
  });

  test('values as written, keys sorted, null kept (Helm removes the default); none or {} writes no values', () => {
    const withNull = oneChart({ values: { z: 1, conf: { legacy: null, a: 'yes' } } });
    expect(withNull.spec.values).toEqual({ conf: { a: 'yes', legacy: null }, z: 1 });
    // Kept, but an update drops it from the object: said, once per chart, where it is.
    expect(withNull.findings.filter(([f]) => f?.startsWith('values'))).toEqual([
      ['values.conf.legacy', "cannot be expressed for Flux (helm.toolkit.fluxcd.io/v2): null here: the HelmRelease keeps it in spec.values, but kustomize-controller and kubectl apply drop a null from the object when they update it, and Helm then keeps the chart's default, which Armada's values file removed; put such values in a ConfigMap the HelmRelease reads with valuesFrom"],
    ]);
    // Values near the API server's object limit: said, with their size.
    const big = oneChart({ values: { blob: 'x'.repeat(1_200_000) } });
    expect(big.findings.filter(([f]) => f === 'values')).toEqual([
      ['values', `${LOST_PREFIX}the values alone are about 1.1 MiB, and a HelmRelease holds them: the API server refuses an object over about 1.5 MiB (etcd's request limit), and a client-side kubectl apply one over 256 KiB (its last-applied annotation), where Armada handed Helm a file; put them in ConfigMaps or Secrets the HelmRelease reads with valuesFrom`],
    ]);
    expect(oneChart({ values: { blob: 'x'.repeat(900_000) } }).findings.filter(([f]) => f === 'values')).toEqual([]);
    expect(oneChart({ values: { a: null, b: [null], c: { d: null } } }).findings.filter(([f]) => f?.startsWith('values')).map(([f, m]) => [f, m.slice(LOST_PREFIX.length, LOST_PREFIX.length + 41)])).toEqual([['values.a', 'null at values.a, values.b[0], values.c.d']]);
    // Past three, the rest are "more"; the size counts keys and strings at every depth, nulls included.
    const nulls = oneChart({ values: { n: [{ m: null }], a: null, b: { c: [1, null, { d: null }] }, e: null } }).findings.filter(([f]) => f?.startsWith('values'));
    expect(nulls.map(([f, m]) => [f, m.slice(LOST_PREFIX.length, m.indexOf(':', LOST_PREFIX.length))])).toEqual([['values.n[0].m', 'null at values.n[0].m, values.a, values.b.c[1] and more']]);
    const keys = Object.fromEntries(Array.from({ length: 36_200 }, (_, i) => [`key-${String(i).padStart(17, '0')}`, [null]]));
    expect(oneChart({ values: { deep: { keys } } }).findings.filter(([f]) => f === 'values').map(([, m]) => m.slice(LOST_PREFIX.length, LOST_PREFIX.length + 34))).toEqual(['the values alone are about 1.0 MiB']);
    expect(Object.keys(oneChart({ values: { z: 1, a: 2 } }).spec.values)).toEqual(['a', 'z']);
    expect(oneChart().spec).not.toHaveProperty('values');
    expect(oneChart({ values: {} }).spec).not.toHaveProperty('values');
  });

  test('timeout from wait.timeout (or the deprecated chart timeout, or 900 s), as a Go duration', () => {
    expect(oneChart().spec.timeout).toBe('15m');
    expect(oneChart({ wait: { timeout: Duration.seconds(5400) } }).spec.timeout).toBe('1h30m');
    expect(oneChart({ timeout: Duration.seconds(61) }).spec.timeout).toBe('1m1s');
    expect([goDuration(3600), goDuration(45), goDuration(300), goDuration(3661)]).toEqual(['1h', '45s', '5m', '1h1m1s']);
  });

  test('install creates the namespace, as Armada does', () => {
    expect(oneChart().spec.install.createNamespace).toBe(true);
  });

  describe("Flux's wait is Armada's native wait: Helm 3's (legacy) wait when on, none when off (Helm returns after its hooks)", () => {
    const LEGACY = { name: 'legacy' };
    test('v1 defaults (native wait on): waitStrategy legacy, Jobs not waited on, as Helm 3\'s --wait', () => {
      const { spec } = oneChart();
      expect(spec.waitStrategy).toEqual(LEGACY);
      expect(spec.install).toEqual({ createNamespace: true, disableOpenAPIValidation: true, disableWaitForJobs: true, remediation: REMEDIATE });
      expect(spec.upgrade).toEqual({ disableOpenAPIValidation: true, disableWaitForJobs: true, remediation: { ...REMEDIATE, strategy: 'uninstall' } });
    });
    test('native wait on with a job among the wait resources: still no wait on Jobs (it would run before the hooks)', () => {
      const { spec } = oneChart({ wait: { resources: [WaitResource.job(), WaitResource.deployment()] } });
      expect([spec.waitStrategy, spec.install.disableWait, spec.install.disableWaitForJobs, spec.upgrade.disableWaitForJobs]).toEqual([LEGACY, undefined, true, true]);
    });
    test('v2 defaults (native wait off, every type waited on by Armada): disableWait on install and upgrade, no waitStrategy', () => {
      const { spec } = oneChart({}, SchemaVersion.V2);
      expect(spec).not.toHaveProperty('waitStrategy');
      expect(spec.install).toEqual({ createNamespace: true, disableOpenAPIValidation: true, disableWait: true, remediation: REMEDIATE });
      expect(spec.upgrade).toEqual({ disableOpenAPIValidation: true, disableWait: true, remediation: { ...REMEDIATE, strategy: 'uninstall' } });
    });
    test('native wait off in a v1 chart (as the OSH sites write it): disableWait', () => {
      const { spec, objects } = oneChart({ wait: { native: { enabled: false }, labels: { release_group: 'x' } } });
      expect([spec.waitStrategy, spec.install.disableWait, spec.upgrade.disableWait, spec.install.disableWaitForJobs]).toEqual([undefined, true, true, undefined]);
      for (const o of objects) expect(fluxCrdErrors(o)).toEqual([]);
    });
    test('native wait on and resources []: Helm 3\'s wait', () => {
      const { spec } = oneChart({ wait: { resources: [] } });
      expect([spec.waitStrategy, spec.install.disableWait, spec.install.disableWaitForJobs]).toEqual([LEGACY, undefined, true]);
    });
  });

  test('tests: test.enable and test.timeout from the effective test (on, 300 s by default)', () => {
    expect(oneChart().spec.test).toEqual({ enable: true, timeout: '5m' });
    expect(oneChart({ test: { timeout: Duration.minutes(10) } }).spec.test).toEqual({ enable: true, timeout: '10m' });
    expect(oneChart({ test: { enabled: false } }).spec.test).toEqual({ enable: false });
    expect(oneChart({ test: false }).spec.test).toEqual({ enable: false });
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(site, 'g', { testCharts: false }), 'a', { namespace: 'ns', source: TAR });
    expect(fluxOf(site).releases[0].spec.test).toEqual({ enable: false });
  });

  test('hooks and force: upgrade.noHooks -> upgrade.disableHooks (install keeps its hooks), upgrade.options.force -> upgrade.force', () => {
    const { spec } = oneChart({ upgrade: { noHooks: true, options: { force: true } } });
    expect([spec.upgrade.disableHooks, spec.upgrade.force, spec.install.disableHooks]).toEqual([true, true, undefined]);
    // helm-controller replaces (Helm 3's force) only without server-side apply, which is its
    // default for an install, and upgrades follow the release's install.
    expect(spec.install.serverSideApply).toBe(false);
    expect(oneChart().spec.install).not.toHaveProperty('serverSideApply');
    const plain = oneChart({ upgrade: { noHooks: false, options: { force: false } } }).spec;
    expect([plain.upgrade.disableHooks, plain.upgrade.force]).toEqual([undefined, undefined]);
  });

  test('not protected: a failed release is uninstalled (a failed test is not), with delete.timeout as uninstall.timeout', () => {
    const { spec } = oneChart({ delete: { timeout: Duration.seconds(600) } });
    expect(spec.install.remediation).toEqual(REMEDIATE);
    expect(spec.upgrade.remediation).toEqual({ ...REMEDIATE, strategy: 'uninstall' });
    expect(spec.uninstall).toEqual({ timeout: '10m' });
    expect(oneChart().spec.uninstall).toEqual({ timeout: '5m' });
  });

  test('protected: no remediation, the failed release stays as it is; nothing is ever uninstalled, so no uninstall timeout', () => {
    for (const p of [{ continueProcessing: false }, { continueProcessing: true }]) {
      const { spec } = oneChart({ protected: p, delete: { timeout: Duration.seconds(600) } });
      expect(spec.install.remediation).toEqual({ retries: 0, remediateLastFailure: false });
      expect(spec.upgrade.remediation).toEqual({ retries: 0, remediateLastFailure: false });
      expect(spec).not.toHaveProperty('uninstall');
    }
    // Armada tests `if protected:`: an empty block is not protected.
    expect(oneChart({ protected: {} }).spec.install.remediation).toEqual(REMEDIATE);
  });
});

describe('Flux mapping: sources', () => {
  const gitSite = (...sources: ChartSource[]) => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    sources.forEach((source, i) => new Chart(g, `c${i}`, { namespace: 'ns', source }));
    return fluxOf(site);
  };

  test('git: one GitRepository per repository and reference; the subpath as chart.spec.chart; reconcileStrategy Revision', () => {
    const OSH = 'https://opendev.org/openstack/openstack-helm';
    const { sources, releases, objects } = gitSite(
      ChartSource.git(OSH, { subpath: 'keystone' }),
      ChartSource.git(OSH, { subpath: './glance/', reference: 'master' }),
      ChartSource.git(OSH, { subpath: '.', reference: '87aad18f7d8c6a1a08f3adc8866efd33bee6aa52' }),
      ChartSource.git(OSH, { reference: 'refs/changes/61/924261/3' }),
      ChartSource.git(OSH, { subpath: 'nova', reference: 'stable/2024.1' }),
    );
    expect(sources.map((s) => [s.metadata.name, s.spec])).toEqual([
      ['site.openstack-helm-master', { url: OSH, ref: { branch: 'master' }, interval: '10m' }],
      ['site.openstack-helm-87aad18f7d8c', { url: OSH, ref: { commit: '87aad18f7d8c6a1a08f3adc8866efd33bee6aa52' }, interval: '10m' }],
      ['site.openstack-helm-changes-61-924261-3', { url: OSH, ref: { name: 'refs/changes/61/924261/3' }, interval: '10m' }],
      ['site.openstack-helm-stable-2024-1', { url: OSH, ref: { branch: 'stable/2024.1' }, interval: '10m' }],
    ]);
    expect(releases.map((r) => r.spec.chart)).toEqual([
      { spec: { chart: './keystone', sourceRef: { kind: 'GitRepository', name: 'site.openstack-helm-master' }, reconcileStrategy: 'Revision' } },
      { spec: { chart: './glance', sourceRef: { kind: 'GitRepository', name: 'site.openstack-helm-master' }, reconcileStrategy: 'Revision' } },
      { spec: { chart: './', sourceRef: { kind: 'GitRepository', name: 'site.openstack-helm-87aad18f7d8c' }, reconcileStrategy: 'Revision' } },
      { spec: { chart: './', sourceRef: { kind: 'GitRepository', name: 'site.openstack-helm-changes-61-924261-3' }, reconcileStrategy: 'Revision' } },
      { spec: { chart: './nova', sourceRef: { kind: 'GitRepository', name: 'site.openstack-helm-stable-2024-1' }, reconcileStrategy: 'Revision' } },
    ]);
    for (const o of objects) expect(fluxCrdErrors(o)).toEqual([]);
  });

  test('git: a full SHA in upper case is a commit (lower case); a reference that may be no branch is written as one, with a warning saying what to write', () => {
    const OSH = 'https://opendev.org/openstack/openstack-helm';
    const { sources, findings } = gitSite(
      ChartSource.git(OSH, { reference: '87AAD18F7D8C6A1A08F3ADC8866EFD33BEE6AA52' }),
      ChartSource.git(OSH, { reference: '2024.2.0' }),
      ChartSource.git(OSH, { reference: '87aad18' }),
      ChartSource.git(OSH, { reference: 'HEAD' }),
      ChartSource.git(OSH, { reference: 'stable/2024.1' }),
    );
    expect(sources.map((s) => s.spec.ref)).toEqual([{ commit: '87aad18f7d8c6a1a08f3adc8866efd33bee6aa52' }, { branch: '2024.2.0' }, { branch: '87aad18' }, { branch: 'HEAD' }, { branch: 'stable/2024.1' }]);
    const why = 'for Flux (helm.toolkit.fluxcd.io/v2): the reference is written as the GitRepository\'s ref.branch, and Flux fetches only a branch of that name, where Armada fetches whatever it names; ';
    const after = ', or the source never becomes Ready and no release after it is installed';
    expect(findings.filter(([f]) => f === 'source.reference')).toEqual([
      ['source.reference', `${why}"2024.2.0" looks like a tag: if it is one, write refs/tags/2024.2.0${after}`],
      ['source.reference', `${why}"87aad18" looks like an abbreviated commit: write the full 40-character SHA${after}`],
      ['source.reference', `${why}HEAD (the remote's default branch): name that branch${after}`],
    ]);
  });

  test('git: scp-style URLs become ssh:// URLs', () => {
    expect(gitSite(ChartSource.git('git@github.com:openstack/openstack-helm.git')).sources[0].spec.url).toBe('ssh://git@github.com/openstack/openstack-helm.git');
  });

  test('names: readable, and hash-suffixed only where two sources would share one, whatever the order', () => {
    const a = ChartSource.git('https://a.example.org/x/charts');
    const b = ChartSource.git('https://b.example.org/y/charts.git');
    const c = ChartSource.git('https://b.example.org/y/other');
    const one = gitSite(a, b, c).sources.map((s) => [s.spec.url, s.metadata.name] as [string, string]);
    const two = gitSite(c, b, a).sources.map((s) => [s.spec.url, s.metadata.name] as [string, string]);
    expect(new Map(one)).toEqual(new Map(two));
    expect(one.map(([, n]) => n)).toEqual([expect.stringMatching(/^site\.charts-master-[0-9a-f]{8}$/), expect.stringMatching(/^site\.charts-master-[0-9a-f]{8}$/), 'site.other-master']);
    expect(one[0][1]).not.toBe(one[1][1]);
  });

  test('tar: a HelmRepository for the directory, chart name and version from the file name, one per directory', () => {
    const dir = 'https://tarballs.opendev.org/openstack/openstack-helm-infra';
    const { sources, releases, objects } = gitSite(
      ChartSource.tar(`${dir}/helm-toolkit-0.2.23.tgz`, { subpath: 'helm-toolkit' }),
      ChartSource.tar(`${dir}/mariadb-2024.2.0.tgz`),
      ChartSource.tar('http://localhost:8879/charts/ceph-1-0.1.0-rc.1+b2.tgz'),
    );
    expect(sources.map((s) => [s.kind, s.metadata.name, s.spec])).toEqual([
      ['HelmRepository', 'site.openstack-helm-infra', { url: dir, interval: '10m' }],
      ['HelmRepository', 'site.charts', { url: 'http://localhost:8879/charts', interval: '10m' }],
    ]);
    expect(releases.map((r) => r.spec.chart.spec)).toEqual([
      { chart: 'helm-toolkit', version: '0.2.23', sourceRef: { kind: 'HelmRepository', name: 'site.openstack-helm-infra' } },
      { chart: 'mariadb', version: '2024.2.0', sourceRef: { kind: 'HelmRepository', name: 'site.openstack-helm-infra' } },
      { chart: 'ceph-1', version: '0.1.0-rc.1+b2', sourceRef: { kind: 'HelmRepository', name: 'site.charts' } },
    ]);
    for (const o of objects) expect(fluxCrdErrors(o)).toEqual([]);
  });

  test('sources come first, in first-use order, then the HelmReleases in plan order', () => {
    const { objects } = gitSite(ChartSource.git('https://e.org/r'), TAR, ChartSource.git('https://e.org/r'));
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['GitRepository/site.r-master', 'HelmRepository/site.charts', 'HelmRelease/site.p-c0', 'HelmRelease/site.p-c1', 'HelmRelease/site.p-c2']);
  });
});
