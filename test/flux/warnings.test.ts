/** Every finding of the Flux target, with its exact text and the field it names. */
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, SchemaVersion, WaitResource } from '../../src';
import { HelmReleasePlacement } from '../../src/model/wire/flux-v2';
import { BRANCH_NOTE, fluxOf, oneChart, TAR } from '../helpers/flux-site';

const LOST = 'cannot be expressed for Flux (helm.toolkit.fluxcd.io/v2): ';
const ON = "native wait on: the HelmRelease waits with Helm 3's wait (waitStrategy legacy, Jobs not waited on), as Armada's native wait did, before the post-install/post-upgrade hooks";
const OFF = 'native wait off: the HelmRelease is written with disableWait, so Helm returns after its hooks (hook Jobs complete), as under Armada, and the release is Ready then, after its tests';
const WHY = "Armada's own waits, after Helm returned, have no place in a HelmRelease (helm-controller waits only before the hooks, and a wait that times out there fails the release, which remediation uninstalls): ";
const TAIL = ". What follows in the plan waits for the HelmRelease to be Ready, not for these; add health checks of your own to the step's Kustomization (spec.healthChecks, by object name) where they matter";
const OWN = (type: string, rule: string) => `the release's own ${type} are ${rule} before its hooks run; ${type} created by the hooks or not of the release are not waited on`;
const CONTROLLER_RULE = "ready by Helm 3's rules (which Armada's native wait applied too)";

/** The findings other than the tar-source assumption every `oneChart` has and the one about waits (see waitFindings). */
function findings(...args: Parameters<typeof oneChart>) {
  const r = oneChart(...args);
  return r.diagnostics.filter((d) => !d.message.includes('a tar source becomes HelmRepository') && !BRANCH_NOTE.test(d.message) && d.field !== 'wait').map((d) => [d.severity, d.location, d.field, d.message]);
}

/** The one finding about waits, as `[field, message]`. */
function waitFindings(...args: Parameters<typeof oneChart>) {
  return oneChart(...args).diagnostics.filter((d) => d.field === 'wait').map((d) => [d.severity, d.location, d.field, d.message]);
}

describe('Flux warnings: waits (per wait, what Flux waits on instead)', () => {
  test('native wait on (v1 default): Helm 3\'s wait covers the release\'s own objects before the hooks; labels, jobs and required are said per wait', () => {
    expect(waitFindings({ wait: { labels: { release_group: 'x' }, resources: [WaitResource.pod({ labels: { component: 'api' } }), WaitResource.job({ required: true }), WaitResource.deployment({ minReady: 2 })] } })).toEqual([
      ['warning', 'site/g/mariadb', 'wait', `${LOST}${ON}. ${WHY}pod labelled release_group=x,component=api, required: ${OWN('pods', 'Ready')}; and a release without one is not a failure; job labelled release_group=x, required: not waited on (Helm 3's wait skips Jobs; hook Jobs are waited for as hooks); and a release without one is not a failure; deployment labelled release_group=x, min_ready 2, required: ${OWN('deployments', CONTROLLER_RULE)}; and a release without one is not a failure${TAIL}`],
    ]);
  });

  test('the v1 default waits without labels: every job and pod of the namespace', () => {
    expect(waitFindings()).toEqual([
      ['warning', 'site/g/mariadb', 'wait', `${LOST}${ON}. ${WHY}job (no labels: every job in namespace "openstack"): not waited on (Helm 3's wait skips Jobs; hook Jobs are waited for as hooks); pod (no labels: every pod in namespace "openstack"), required: ${OWN('pods', 'Ready')}; and a release without one is not a failure${TAIL}`],
    ]);
  });

  test('native wait off (v2 default): nothing after Helm returns; each of Armada\'s waits is named, with min_ready and async updates', () => {
    expect(waitFindings({ wait: { labels: { app: 'db' }, resources: [WaitResource.statefulSet({ minReady: '50%', allowAsyncUpdates: true, required: false }), WaitResource.daemonSet({ minReady: '100%', required: false })] } }, SchemaVersion.V2)).toEqual([
      ['warning', 'site/g/mariadb', 'wait', `${LOST}${OFF}. ${WHY}statefulset labelled app=db, min_ready "50%", async updates allowed: not waited on; daemonset labelled app=db: not waited on${TAIL}`],
    ]);
  });

  test('no wait resources: nothing lost, whether native wait is on or off', () => {
    expect(waitFindings({ wait: { resources: [] } })).toEqual([]);
    expect(waitFindings({ wait: { resources: [], native: { enabled: false } } })).toEqual([]);
  });

  test('no other wait finding: labels, minReady and flags are all in the one above', () => {
    expect(findings({ wait: { labels: { a: 'b' }, timeout: Duration.minutes(5), resources: [WaitResource.statefulSet({ minReady: 1 }), WaitResource.job({ required: true }), WaitResource.daemonSet({ allowAsyncUpdates: true })] } })).toEqual([]);
  });
});

describe('Flux warnings: upgrade, subcharts, protection', () => {
  test('upgrade.pre.delete, pre.update, pre.create, post.create', () => {
    const u = findings({
      upgrade: {
        pre: { delete: [{ type: 'job', labels: { a: 'b' } }, { type: 'cronjob' }], update: [{ type: 'daemonset', name: 'x' }], create: [{ type: 'job' }] },
        post: { create: [{ type: 'job' }] },
      },
    }).filter(([, , field]) => String(field).startsWith('upgrade'));
    expect(u).toEqual([
      ['warning', 'site/g/mariadb', 'upgrade.pre.delete', `${LOST}upgrade.pre.delete (job, cronjob): nothing in Flux runs before an upgrade; make those Jobs Helm hooks with helm.sh/hook-delete-policy: before-hook-creation, or give them ttlSecondsAfterFinished, so that an upgrade can recreate them`],
      ['warning', 'site/g/mariadb', 'upgrade.pre.update', `${LOST}upgrade.pre.update (Armada has ignored it since Helm 3, and Flux has no equivalent)`],
      ['warning', 'site/g/mariadb', 'upgrade.pre.create', `${LOST}upgrade.pre.create (never implemented by Armada, and Flux has no equivalent)`],
      ['warning', 'site/g/mariadb', 'upgrade.post', `${LOST}upgrade.post (ignored by Armada, and Flux has no equivalent)`],
    ]);
    expect(findings({ upgrade: { pre: { delete: [] } } })).toEqual([]);
  });

  test('subchart dependencies from other chart documents, and dependencies: []', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const htk = new Chart(site, 'helm-toolkit', { namespace: 'ns', source: ChartSource.git('https://e.org/infra', { subpath: 'helm-toolkit' }) });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'a', { namespace: 'ns', source: ChartSource.git('https://e.org/osh', { subpath: 'a' }), dependencies: [htk] });
    new Chart(g, 'b', { namespace: 'ns', source: ChartSource.git('https://e.org/osh', { subpath: 'b' }), dependencies: [] });
    const r = fluxOf(site);
    expect(r.findings).toEqual([
      ['dependencies', `${LOST}subchart dependencies ["helm-toolkit"] (Armada injects them into charts/): Flux builds the chart as its source has it (its charts/ and the dependencies its Chart.yaml lists); not checked whether it then renders the same objects, renders others or cannot be built: convert with --check-subcharts to know, or with --package-charts URL to deploy what Armada deploys`],
      ['dependencies', `${LOST}dependencies [] (Armada empties the chart's charts/ directory): Flux builds the chart as its source has it (its charts/ and the dependencies its Chart.yaml lists); not checked whether it then renders the same objects, renders others or cannot be built: convert with --check-subcharts to know, or with --package-charts URL to deploy what Armada deploys`],
    ]);
    // helm-toolkit is a subchart only: no HelmRelease.
    expect(r.releases.map((x) => x.metadata.name)).toEqual(['site.p-a', 'site.p-b']);
  });

  test('protected.continueProcessing: the dependants wait, where Armada carries on', () => {
    expect(findings({ protected: { continueProcessing: true } })).toEqual([
      ['warning', 'site/g/mariadb', 'protected.continueProcessing', `${LOST}continueProcessing=true: the release is left in place when it fails (no remediation), but the HelmReleases that depend on it wait until it is Ready, where Armada carries on with the group`],
    ]);
    expect(findings({ protected: { continueProcessing: false } })).toEqual([]);
  });
});

describe('Flux warnings and errors: sources', () => {
  test('tar: the Helm repository assumption, a subpath naming another chart, a proxy', () => {
    const r = oneChart({ source: ChartSource.tar('https://charts.example.org/charts/mariadb-0.1.0.tgz', { subpath: 'mariadb/charts/galera', proxyServer: 'http://proxy:3128' }) });
    expect(r.diagnostics.filter((d) => d.field !== 'wait').map((d) => [d.code, d.field, d.message])).toEqual([
      ['flux-assumption', 'source.location', 'for Flux (helm.toolkit.fluxcd.io/v2): a tar source becomes HelmRepository "https://charts.example.org/charts" with chart "mariadb" version "0.1.0": this assumes that directory is a Helm repository (it serves an index.yaml listing that chart version, as helm repo index writes it); a plain directory of tarballs cannot be expressed'],
      ['not-expressible', 'source.subpath', `${LOST}subpath "mariadb/charts/galera": Flux installs chart "mariadb" as packaged, and cannot pick another chart inside the tarball`],
      ['not-expressible', 'source.proxyServer', `${LOST}proxyServer "http://proxy:3128": a HelmRepository has no proxy; set HTTPS_PROXY on the source-controller`],
    ]);
    expect(findings({ source: ChartSource.tar('https://charts.example.org/charts/mariadb-0.1.0.tgz', { subpath: './mariadb/' }) })).toEqual([]);
  });

  test('tar: a file name without a version (airskiff\'s chart server) is an error that says how to publish the chart', () => {
    for (const [location, chart] of [['http://control-plane.minikube.internal:8282/mariadb.tgz', 'mariadb'], ['https://charts.example.org/charts/latest.tar.gz', 'latest']]) {
      expect(oneChart({ source: ChartSource.tar(location) }).diagnostics.filter((d) => d.field !== 'wait').map((d) => [d.severity, d.code, d.field, d.message])).toEqual([
        ['error', 'flux-source', 'source.location', `received ${JSON.stringify(location)}, a tarball whose file name has no version: a Flux HelmRepository serves a chart by name and version from its index.yaml, and no Flux source downloads a single file. Publish the chart where Flux can read it: package it as helm package does ("${chart}-<version>.tgz") into a directory with an index.yaml (helm repo index), and point the location at that file, or push the chart to Git and give it a git source`],
      ]);
    }
  });

  test('tar: a URL that is no http(s) tarball is an error', () => {
    for (const location of ['https://charts.example.org/charts/mariadb', 'https://charts.example.org/']) {
      expect(oneChart({ source: ChartSource.tar(location) }).diagnostics.filter((d) => d.field !== 'wait' && d.severity === 'error').map((d) => [d.code, d.field, d.message])).toEqual([
        ['flux-source', 'source.location', `received ${JSON.stringify(location)}; a Flux HelmRepository serves a chart by name and version, which are taken from the tarball's file name, so a tar source must be an http(s) URL of a file named <chart>-<version>.tgz, as helm package names it`],
      ]);
    }
  });

  test('git: git:// is written as https:// with a warning; proxy and SSH auth are warnings; an unusable URL is an error', () => {
    expect(findings({ source: ChartSource.git('git://opendev.org/openstack/openstack-helm-infra.git', { proxyServer: 'http://proxy:3128', authMethod: 'SSH' }) })).toEqual([
      ['warning', 'site/g/mariadb', 'source.location', 'for Flux (helm.toolkit.fluxcd.io/v2): the git:// URL "git://opendev.org/openstack/openstack-helm-infra.git": Flux clones over HTTP(S) or SSH only, so it is written as "https://opendev.org/openstack/openstack-helm-infra.git"; check that the server serves the repository over HTTPS'],
      ['warning', 'site/g/mariadb', 'source.proxyServer', `${LOST}proxyServer "http://proxy:3128": Flux takes a Git proxy from a Secret (spec.proxySecretRef of the GitRepository) or from the source-controller's HTTPS_PROXY`],
      ['warning', 'site/g/mariadb', 'source.authMethod', `${LOST}authMethod "SSH": give the GitRepository spec.secretRef, a Secret with the SSH key (identity and known_hosts), and an ssh:// URL`],
    ]);
    expect(oneChart({ source: ChartSource.git('git://opendev.org/openstack/openstack-helm-infra.git') }).sources[0].spec.url).toBe('https://opendev.org/openstack/openstack-helm-infra.git');
    expect(findings({ source: ChartSource.git('/srv/git/charts') })).toEqual([
      ['error', 'site/g/mariadb', 'source.location', 'received "/srv/git/charts"; a Flux GitRepository URL must start with http://, https:// or ssh://'],
    ]);
  });

  test('local: a warning with the fix; the HelmRelease refers to the GitRepository to create, which is not written', () => {
    const r = oneChart({ source: ChartSource.local('/opt/charts/openstack-helm-infra', { subpath: 'libvirt' }) });
    expect(r.findings).toEqual([
      ['source.type', `${LOST}a local source ("/opt/charts/openstack-helm-infra"): no Flux source reads a directory of the machine that runs the deployment. The HelmRelease refers to GitRepository "site.local-opt-charts-openstack-helm-infra" in namespace "flux-system" (chart path "./libvirt"), which is not written: push that directory to a Git repository and create the GitRepository (or name the repository in localSources), or give the chart a git or tar source`],
    ]);
    expect(r.sources).toEqual([]);
    expect(r.spec.chart).toEqual({ spec: { chart: './libvirt', sourceRef: { kind: 'GitRepository', name: 'site.local-opt-charts-openstack-helm-infra' }, reconcileStrategy: 'Revision' } });
  });

  test('localSources: a local directory published as a Git repository becomes that GitRepository, without a warning', () => {
    const local = ChartSource.local('/opt/charts/openstack-helm-infra', { subpath: './libvirt' });
    const r = oneChart({ source: local }, SchemaVersion.V1, {
      localSources: { '/opt/charts/openstack-helm-infra': ChartSource.git('https://opendev.org/openstack/openstack-helm-infra', { reference: 'stable/2024.1', subpath: 'charts/' }) },
    });
    expect(r.findings).toEqual([]);
    expect(r.sources.map((s) => [s.metadata.name, s.spec])).toEqual([['site.openstack-helm-infra-stable-2024-1', { url: 'https://opendev.org/openstack/openstack-helm-infra', ref: { branch: 'stable/2024.1' }, interval: '10m' }]]);
    expect(r.spec.chart.spec).toEqual({ chart: './charts/libvirt', sourceRef: { kind: 'GitRepository', name: 'site.openstack-helm-infra-stable-2024-1' }, reconcileStrategy: 'Revision' });
    const bad = (source: unknown) => oneChart({ source: local }, SchemaVersion.V1, { localSources: { '/opt/charts/openstack-helm-infra': source as ChartSource } }).diagnostics.filter((d) => d.field !== 'wait').map((d) => [d.severity, d.field, d.message]);
    expect(bad(ChartSource.tar('https://e.org/x-0.1.0.tgz'))).toEqual([
      ['error', 'source.location', 'localSources["/opt/charts/openstack-helm-infra"]: received a tar source; it must be a git source (ChartSource.git), since a GitRepository is what Flux reads a directory tree from'],
    ]);
    expect(bad(ChartSource.git('file:///srv/git'))).toEqual([
      ['error', 'source.location', 'localSources["/opt/charts/openstack-helm-infra"]: received "file:///srv/git"; a Flux GitRepository URL must start with http://, https:// or ssh://'],
    ]);
  });
});

describe('Flux warnings and errors: the site', () => {
  test('a chart deployed twice: one HelmRelease, a warning', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const a = new Chart(site, 'a', { namespace: 'ns', source: TAR });
    const g1 = new ChartGroup(site, 'g1', { charts: [a] });
    const g2 = new ChartGroup(site, 'g2');
    new Chart(g2, 'b', { namespace: 'ns', source: TAR });
    g2.addChart(a);
    const r = fluxOf(site);
    expect(r.releases.map((x) => x.metadata.name)).toEqual(['site.p-a', 'site.p-b']);
    expect(r.diagnostics.filter((d) => d.code === 'not-expressible' && d.field !== 'wait').map((d) => [d.location, d.field, d.message])).toEqual([
      ['site/a', undefined, `${LOST}the chart is deployed again in step 1 (group "g2"), but one HelmRelease exists per release; it is deployed once, in step 0, and the steps after 1 wait for that one and for every release of the steps before 1`],
    ]);
    expect(g1).toBeDefined();
  });

  test('GitRepositories that follow a branch: one warning for the site, naming the first three', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    ['one', 'two', 'three', 'four'].forEach((repo) => new Chart(g, repo, { namespace: 'ns', source: ChartSource.git(`https://e.org/${repo}`) }));
    new Chart(g, 'pinned', { namespace: 'ns', source: ChartSource.git('https://e.org/pinned', { reference: '87aad18f7d8c6a1a08f3adc8866efd33bee6aa52' }) });
    expect(fluxOf(site).diagnostics.filter((d) => BRANCH_NOTE.test(d.message)).map((d) => [d.location, d.code, d.message])).toEqual([
      ['site', 'flux-assumption', 'for Flux (helm.toolkit.fluxcd.io/v2): 4 GitRepositories follow a branch ("site.one-master", "site.two-master", "site.three-master" and 1 more): with reconcileStrategy Revision every commit to it, even one to another chart, is a new version of every chart read from it, and Flux upgrades each of those releases at once, out of the plan\'s order (dependsOn holds back only what is not Ready), where Armada deployed a branch\'s new commits only when applied; pin the references to commits'],
    ]);
    const pinned = new ArmadaManifest(undefined, 'pinned', { releasePrefix: 'p' });
    new Chart(new ChartGroup(pinned, 'g'), 'c', { namespace: 'ns', source: ChartSource.git('https://e.org/c', { reference: '87aad18f7d8c6a1a08f3adc8866efd33bee6aa52' }) });
    expect(fluxOf(pinned).diagnostics.filter((d) => BRANCH_NOTE.test(d.message))).toEqual([]);
  });

  test('a step of repeats only: the steps after it wait for every release of the steps before it, as Armada does', () => {
    // Armada: a and b together, then a again, then c, which starts once b is done too.
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g1 = new ChartGroup(site, 'g1');
    const a = new Chart(g1, 'a', { namespace: 'ns', source: TAR });
    new Chart(g1, 'b', { namespace: 'ns', source: TAR });
    new ChartGroup(site, 'again', { sequenced: true, charts: [a] });
    new Chart(new ChartGroup(site, 'g3'), 'c', { namespace: 'ns', source: TAR });
    // Sequenced: a, then b, then a again, then c.
    const seq = new ArmadaManifest(undefined, 'seq', { releasePrefix: 'p' });
    const s = new ChartGroup(seq, 's', { sequenced: true });
    const sa = new Chart(s, 'a', { namespace: 'ns', source: TAR });
    new Chart(s, 'b', { namespace: 'ns', source: TAR });
    new ChartGroup(seq, 'again', { charts: [sa] });
    new Chart(new ChartGroup(seq, 'last'), 'c', { namespace: 'ns', source: TAR });
    for (const m of [site, seq]) {
      const n = (r: string) => `${m.node.id}.${r}`;
      expect(fluxOf(m).releases.map((x) => [x.metadata.name, x.spec.dependsOn])).toEqual([
        [n('p-a'), undefined],
        [n('p-b'), m === seq ? [{ name: n('p-a') }] : undefined],
        [n('p-c'), [{ name: n('p-a') }, { name: n('p-b') }]],
      ]);
    }
  });

  test('single namespace: two releases of one name in different namespaces are an error; CHART_NAMESPACE takes them', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'ingress-a', { namespace: 'one', release: 'ingress', source: TAR });
    new Chart(g, 'ingress-b', { namespace: 'two', release: 'ingress', source: TAR });
    expect(fluxOf(site).diagnostics.filter((d) => d.severity === 'error').map((d) => [d.location, d.field, d.message])).toEqual([
      ['site/g/ingress-b', 'release', 'the HelmRelease "site.p-ingress" would be written twice in namespace "flux-system": chart "ingress-a" (namespace "one") has the same Helm release name; use HelmReleasePlacement.CHART_NAMESPACE, or give one of them another release'],
    ]);
    expect(fluxOf(site, { placement: HelmReleasePlacement.CHART_NAMESPACE }).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  test('CHART_NAMESPACE: dependsOn across namespaces is a warning that says what refuses it', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g', { sequenced: true });
    new Chart(g, 'a', { namespace: 'one', source: TAR });
    new Chart(g, 'b', { namespace: 'two', source: TAR });
    new Chart(g, 'c', { namespace: 'two', source: TAR });
    const r = fluxOf(site, { placement: HelmReleasePlacement.CHART_NAMESPACE });
    expect(r.diagnostics.filter((d) => d.code === 'flux-cross-namespace').map((d) => [d.location, d.field, d.message])).toEqual([
      ['site', undefined, '1 dependsOn reference crosses namespaces (two/site.p-b -> one/site.p-a): helm-controller follows dependsOn across namespaces, also when it runs with --no-cross-namespace-refs (that flag refuses cross-namespace chart sources), but a cluster policy that forbids cross-namespace references refuses it; HelmReleasePlacement.SINGLE_NAMESPACE keeps every reference inside one namespace'],
    ]);
    expect(r.releases.map((x) => x.spec.dependsOn)).toEqual([undefined, [{ name: 'site.p-a', namespace: 'one' }], [{ name: 'site.p-b' }]]);
    expect(fluxOf(site).diagnostics.filter((d) => d.code === 'flux-cross-namespace')).toEqual([]);
  });

  test('sources in another namespace than the HelmReleases: a warning about --no-cross-namespace-refs', () => {
    expect(oneChart({}, SchemaVersion.V1, { sourceNamespace: 'sources' }).diagnostics.filter((d) => d.code === 'flux-cross-namespace').map((d) => d.message)).toEqual([
      'HelmReleases in "flux-system" read their charts from sources in "sources": a helm-controller run with --no-cross-namespace-refs refuses that (AccessDenied, the HelmRelease stalls); leave sourceNamespace unset to write the sources beside the HelmReleases',
    ]);
  });

  test('bad options are errors that name the option', () => {
    expect(oneChart({}, SchemaVersion.V1, { namespace: 'Flux_System', interval: Duration.seconds(-1) }).diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual([
      'Flux option namespace: received "Flux_System"; a namespace must be a DNS-1123 label: lower-case letters, digits and "-", starting and ending with a letter or digit',
      'Flux option interval: received -1 seconds; an interval must be a whole number of seconds greater than 0',
      'Flux option sourceInterval: received -1 seconds; an interval must be a whole number of seconds greater than 0',
    ]);
  });
});
