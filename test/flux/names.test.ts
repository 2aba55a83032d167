/** Flux object names: scoped to the site, never Flux's own; credentials in a URL refused; releases in Flux's or the cluster's namespaces warned. */
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import { toFluxObjects } from '../../src/model/wire/flux-v2';
import { fluxCrdErrors } from '../helpers/flux-crds';
import { fluxOf } from '../helpers/flux-site';
import { shortHash } from '../../src/model/wire/flux-sources';

function site(name: string, ...sources: ChartSource[]): ArmadaManifest {
  const m = new ArmadaManifest(undefined, name, { releasePrefix: 'p' });
  const g = new ChartGroup(m, 'g');
  sources.forEach((source, i) => new Chart(g, `c${i}`, { namespace: 'ns', source }));
  return m;
}

/** Every diagnostic of a site, errors included, as `[severity, location, field, message]`. */
function all(m: ArmadaManifest, options = {}) {
  const { spec, plan } = m.resolve();
  const r = toFluxObjects(spec, plan, options);
  return { objects: r.objects, diagnostics: r.diagnostics.all.filter((d) => d.field !== 'wait' && !/follows? a branch|a tar source becomes/.test(d.message)).map((d) => [d.severity, d.location, d.field, d.message]) };
}

describe('Flux names', () => {
  test('sources are named <site>.<repository>-<ref>: two sites never share one, also when one name runs into the other', () => {
    const charts = ChartSource.git('https://e.org/x/b-c');
    const c = ChartSource.git('https://e.org/x/c');
    expect(fluxOf(site('a', charts)).sources.map((s) => s.metadata.name)).toEqual(['a.b-c-master']);
    expect(fluxOf(site('a-b', c)).sources.map((s) => s.metadata.name)).toEqual(['a-b.c-master']);
  });

  test('manifest names a.b and a-b (or a-b-<8 hex>, or a long one) never give one site prefix: a name that is its own slug is kept, any other is hashed', () => {
    const long = `${'a'.repeat(20)}.b`;
    const names = ['a-b', 'a.b', `a-b-${shortHash('a.b')}`, 'site', long, `${'a'.repeat(20)}-b`];
    const prefixes = names.map((n) => fluxOf(site(n, ChartSource.git('https://e.org/x/c'))).sources[0].metadata.name.split('.')[0]);
    expect(prefixes).toEqual(['a-b', `a-b-${shortHash('a.b')}`, `a-b-${shortHash('a.b').slice(0, 7)}-${shortHash(`a-b-${shortHash('a.b')}`)}`, 'site', `aaaaaaaaaaa-${shortHash(long)}`, `aaaaaaaaaaa-${shortHash(`${'a'.repeat(20)}-b`)}`]);
    expect(new Set(prefixes).size).toBe(names.length);
    // Every object's name takes it: sources, HelmReleases, the directory's Kustomizations.
    const hr = fluxOf(site('a.b', ChartSource.git('https://e.org/x/c'))).releases[0];
    expect(hr.metadata.name).toBe(`a-b-${shortHash('a.b')}.p-c0`);
  });

  test('a repository called flux at ref system is not flux-system, Flux\'s own GitRepository', () => {
    const { sources, releases } = fluxOf(site('site', ChartSource.git('https://e.org/org/flux', { reference: 'system' })));
    expect(sources.map((s) => [s.metadata.namespace, s.metadata.name])).toEqual([['flux-system', 'site.flux-system']]);
    expect(releases[0].spec.chart.spec.sourceRef).toEqual({ kind: 'GitRepository', name: 'site.flux-system' });
  });

  test('long names stay within 63 characters, hash-suffixed ones included, and valid', () => {
    const long = 'a'.repeat(80);
    const r = fluxOf(site(`s${'x'.repeat(40)}`, ChartSource.git(`https://e.org/one/${long}`), ChartSource.git(`https://f.org/two/${long}`)));
    expect(r.sources.map((s) => s.metadata.name.length)).toEqual([63, 63]);
    expect(r.sources.map((s) => s.metadata.name.slice(0, 21))).toEqual([`sxxxxxxxxxx-${shortHash(`s${'x'.repeat(40)}`)}.`, `sxxxxxxxxxx-${shortHash(`s${'x'.repeat(40)}`)}.`]);
    expect(r.sources[0].metadata.name).not.toBe(r.sources[1].metadata.name);
    for (const o of r.objects) expect(fluxCrdErrors(o)).toEqual([]);
  });
});

describe('Flux credentials in a chart URL', () => {
  const FIX_GIT = "Remove it from the URL and give the GitRepository spec.secretRef, a Secret of the same namespace with username and password (a token as the password), or identity and known_hosts for an ssh:// URL: name it in sourceSecrets (--source-secret URL=SECRET)";
  test('refused, quoted without them, with the secretRef to use; nothing is written for the chart', () => {
    const r = all(site('site',
      ChartSource.git('https://user:hunter2@e.org/r.git'),
      ChartSource.git('https://ghp_abcdef@github.com/o/r'),
      ChartSource.git('ssh://git:pw@e.org/r'),
      ChartSource.git('https://e.org/r?private_token=glpat-xyz'),
      ChartSource.tar('https://robot:tok@charts.e.org/repo/mariadb-0.1.0.tgz'),
    ));
    expect(r.diagnostics).toEqual([
      ['error', 'site/g/c0', 'source.location', `received "https://***@e.org/r.git", which carries credentials before the host: the GitRepository's spec.url would hold it in clear, in Git. ${FIX_GIT}`],
      ['error', 'site/g/c1', 'source.location', `received "https://***@github.com/o/r", which carries credentials before the host: the GitRepository's spec.url would hold it in clear, in Git. ${FIX_GIT}`],
      ['error', 'site/g/c2', 'source.location', `received "ssh://***@e.org/r", which carries a password: the GitRepository's spec.url would hold it in clear, in Git. ${FIX_GIT}`],
      ['error', 'site/g/c3', 'source.location', `received "https://e.org/r?private_token=***", which carries a secret query or fragment parameter: the GitRepository's spec.url would hold it in clear, in Git. ${FIX_GIT}`],
      ['error', 'site/g/c4', 'source.location', `received "https://***@charts.e.org/repo/mariadb-0.1.0.tgz", which carries credentials before the host: the HelmRepository's spec.url would hold it in clear, in Git. Remove it from the URL and give the HelmRepository spec.secretRef, a Secret of the same namespace with username and password: name it in sourceSecrets (--source-secret URL=SECRET)`],
    ]);
    expect(JSON.stringify(r)).not.toMatch(/hunter2|ghp_abcdef|pw@|glpat|robot|tok@/);
  });

  test('an SSH user alone, and a query without secrets, are no credentials', () => {
    const r = all(site('site', ChartSource.git('ssh://git@e.org/r'), ChartSource.git('git@github.com:o/r.git'), ChartSource.git('https://e.org/r?ref=1')));
    expect(r.diagnostics).toEqual([]);
    expect(r.objects.filter((o) => o.kind === 'GitRepository').map((o) => (o.spec as { url: string }).url)).toEqual(['ssh://git@e.org/r', 'ssh://git@github.com/o/r.git', 'https://e.org/r?ref=1']);
  });
});

describe('Flux: releases in flux-system, Flux\'s namespace or kube-system', () => {
  test('warned, each with what lives there; other namespaces not', () => {
    const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(m, 'g');
    const src = ChartSource.git('https://e.org/r', { reference: '87aad18f7d8c6a1a08f3adc8866efd33bee6aa52' });
    for (const ns of ['flux-system', 'gitops', 'kube-system', 'openstack']) new Chart(g, ns, { namespace: ns, source: src });
    const flux = (ns: string) => `for Flux (helm.toolkit.fluxcd.io/v2): the release installs into "${ns}", Flux's own namespace: its objects sit beside Flux's controllers, which apply what they reconcile as cluster-admin, a change to its values in Git can replace their Secrets and ServiceAccounts, and flux uninstall deletes the namespace, and the release with it; give the chart a namespace of its own`;
    expect(all(m, { namespace: 'gitops' }).diagnostics).toEqual([
      ['warning', 'site/g/flux-system', 'namespace', flux('flux-system')],
      ['warning', 'site/g/gitops', 'namespace', flux('gitops')],
      ['warning', 'site/g/kube-system', 'namespace', 'for Flux (helm.toolkit.fluxcd.io/v2): the release installs into "kube-system", which holds the tokens of the cluster\'s own controllers: whoever can change this HelmRelease in Git acts with their power; keep it there only for a chart that belongs there (a CNI, a cluster add-on)'],
    ]);
  });
});

describe('HelmRelease names', () => {
  const twoCharts = (site: string, prefix: string, releases: [string, string]) => {
    const m = new ArmadaManifest(undefined, site, { releasePrefix: prefix });
    const g = new ChartGroup(m, 'g');
    releases.forEach((release, i) => new Chart(g, `c${i}`, { namespace: `ns${i}`, release, source: ChartSource.git('https://e.org/r') }));
    return m;
  };

  test('<site>.<release>: two sites with the same releasePrefix in one Flux namespace share no HelmRelease; releaseName stays the Helm release', () => {
    const a = fluxOf(twoCharts('east', 'osh', ['mariadb', 'keystone']));
    const b = fluxOf(twoCharts('west', 'osh', ['mariadb', 'keystone']));
    expect(a.releases.map((r) => [r.metadata.namespace, r.metadata.name, r.spec.releaseName, r.spec.storageNamespace])).toEqual([
      ['flux-system', 'east.osh-mariadb', 'osh-mariadb', 'ns0'],
      ['flux-system', 'east.osh-keystone', 'osh-keystone', 'ns1'],
    ]);
    expect(b.releases.map((r) => r.metadata.name)).toEqual(['west.osh-mariadb', 'west.osh-keystone']);
    expect(a.releases[1].spec.dependsOn).toBeUndefined();
  });

  test('at most 63 characters (helm-controller labels every object of the release with the name); a long release keeps a readable start and a hash of the whole', () => {
    const long = `r${'x'.repeat(45)}`;
    const r = fluxOf(twoCharts(`s${'y'.repeat(30)}`, 'p', [`${long}-one`, `${long}-two`]));
    expect(r.releases.map((x) => [x.metadata.name, x.metadata.name.length, x.spec.releaseName])).toEqual([
      [`syyyyyyyyyy-${shortHash(`s${'y'.repeat(30)}`)}.p-r${'x'.repeat(30)}-${shortHash(`p-${long}-one`)}`, 63, `p-${long}-one`],
      [`syyyyyyyyyy-${shortHash(`s${'y'.repeat(30)}`)}.p-r${'x'.repeat(30)}-${shortHash(`p-${long}-two`)}`, 63, `p-${long}-two`],
    ]);
    for (const o of r.objects) expect(fluxCrdErrors(o)).toEqual([]);
    // Deterministic.
    expect(fluxOf(twoCharts(`s${'y'.repeat(30)}`, 'p', [`${long}-one`, `${long}-two`])).releases.map((x) => x.metadata.name)).toEqual(r.releases.map((x) => x.metadata.name));
  });

  test('release names that differ never share a HelmRelease (db--a, db-a); one release name twice in one namespace is an error naming both charts', () => {
    const clash = all(twoCharts('site', 'p', ['db--a', 'db-a']));
    expect(clash.diagnostics).toEqual([]);
    const same = all(twoCharts('site', 'p', ['db', 'db']));
    expect(same.diagnostics).toEqual([
      ['error', 'site/g/c1', 'release', 'the HelmRelease "site.p-db" would be written twice in namespace "flux-system": chart "c0" (namespace "ns0") has the same Helm release name; use HelmReleasePlacement.CHART_NAMESPACE, or give one of them another release'],
    ]);
  });
});

describe('Flux sourceSecrets: spec.secretRef on the sources that need credentials', () => {
  const sources = () => site('site',
    ChartSource.git('https://e.org/private/r.git', { reference: 'main' }),
    ChartSource.git('git@github.com:o/r.git'),
    ChartSource.tar('https://charts.e.org/repo/mariadb-0.1.0.tgz'),
    ChartSource.git('https://e.org/public/p'),
  );

  test('named by spec.url, by a chart\'s location or by object name; written as secretRef {name}, valid against the CRDs; the rest untouched', () => {
    for (const given of [
      { 'https://e.org/private/r.git': 'git-creds', 'git@github.com:o/r.git': 'gh-key', 'https://charts.e.org/repo/mariadb-0.1.0.tgz': 'charts' },
      { 'site.r-main': 'git-creds', 'ssh://git@github.com/o/r.git': 'gh-key', 'https://charts.e.org/repo': 'charts' },
    ]) {
      const r = all(sources(), { sourceSecrets: given });
      expect(r.diagnostics).toEqual([]);
      const out = r.objects.filter((o) => o.kind !== 'HelmRelease');
      expect(out.map((o) => [o.kind, o.metadata.name, (o.spec as { secretRef?: unknown }).secretRef])).toEqual([
        ['GitRepository', 'site.r-main', { name: 'git-creds' }],
        ['GitRepository', 'site.r-master', { name: 'gh-key' }],
        ['HelmRepository', 'site.repo', { name: 'charts' }],
        ['GitRepository', 'site.p-master', undefined],
      ]);
      expect(Object.keys(out[0].spec as object)).toEqual(['url', 'ref', 'interval', 'secretRef']);
      for (const o of r.objects) expect(fluxCrdErrors(o)).toEqual([]);
    }
  });

  test('a name that matches no source, or a Secret name that is none, is an error (a URL quoted without credentials)', () => {
    const r = all(sources(), { sourceSecrets: { 'https://e.org/other': 'x', 'https://u:pw@e.org/private/r.git': 'y', 'https://e.org/public/p': 'Not_A_Name' } });
    expect(r.diagnostics).toEqual([
      ['error', 'site', undefined, 'Flux option sourceSecrets["https://e.org/public/p"]: received "Not_A_Name"; a Secret name must be a DNS-1123 subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit'],
      ['error', 'site', undefined, 'Flux option sourceSecrets["https://e.org/other"]: matches no source of the site; name one by its URL, a chart\'s source location or its object name: GitRepository site.r-main (https://e.org/private/r.git), GitRepository site.r-master (ssh://git@github.com/o/r.git), HelmRepository site.repo (https://charts.e.org/repo), GitRepository site.p-master (https://e.org/public/p)'],
      ['error', 'site', undefined, expect.stringMatching(/^Flux option sourceSecrets\["https:\/\/\*\*\*@e\.org\/private\/r\.git"\]: matches no source of the site;/)],
    ]);
    expect(JSON.stringify(r.diagnostics)).not.toContain('pw@');
  });
});
