import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, SchemaVersion, Testing, WaitResource, ArmadaValidationError } from '../../src';
import { base, findings, smallSite } from '../helpers/site';
import { parseDocuments } from '../helpers/documents';
import { documentsToSpec } from '../../src/model/wire/from-documents';
import { validateManifest } from '../../src/model/validate';
import * as yaml from 'js-yaml';

function doc(kind: string, name: string, data: unknown): string {
  return `---\n${yaml.dump({ schema: `armada/${kind}/v1`, metadata: { schema: 'metadata/Document/v1', name }, data })}`;
}

describe('validation rules: each reports its path, the value received and what is allowed', () => {
  test('a valid site has no errors', () => {
    const { site } = smallSite();
    expect(Testing.validate(site).filter((d) => d.severity === 'error')).toEqual([]);
  });

  test('chart names: any non-empty string, since Armada only looks documents up by them (from the construct id by default)', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'MariaDB_2', base('x'));
    expect(findings(site, 'name')).toEqual([]);
  });

  test('namespaces are DNS-1123 labels', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'x', base('x', 'Open.Stack'));
    expect(findings(site, 'namespace')).toEqual([
      ['error', 'site/infra/x', 'namespace', 'namespace "Open.Stack" must be a DNS-1123 label: lower-case letters, digits and "-", starting and ending with a letter or digit'],
    ]);
  });

  test('Helm release names: at most 53 characters including the prefix', () => {
    const { site, infra } = smallSite('a-very-long-release-prefix');
    new Chart(infra, 'x', { ...base('x'), release: 'an-even-longer-release-name-here' });
    expect(findings(site, 'release')).toEqual([
      ['error', 'site/infra/x', 'release', 'Helm release "a-very-long-release-prefix-an-even-longer-release-name-here" (releasePrefix + "-" + release) is 59 characters long; Helm allows at most 53'],
    ]);
  });

  test('release prefix must be non-empty', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: '' });
    new Chart(new ChartGroup(site, 'g'), 'c', base('c'));
    expect(findings(site, 'release-prefix')).toEqual([
      ['error', 'site', 'releasePrefix', 'received ""; releasePrefix must be a non-empty string (Helm releases are named "<releasePrefix>-<release>")'],
    ]);
  });

  test('duplicate metadata.name per kind', () => {
    const { site, infra } = smallSite();
    const other = new ChartGroup(site, 'other');
    new Chart(other, 'mariadb-again', { ...base('mariadb'), name: 'mariadb', release: 'mariadb2' });
    expect(findings(site, 'duplicate-name')).toEqual([
      ['error', 'site/other/mariadb-again', 'name', 'another chart is already named "mariadb" (site/infra/mariadb); Armada would silently use the first one and ignore this one, so armada-cdk requires names unique per kind'],
    ]);
    expect(infra.charts).toHaveLength(2);
  });

  test('duplicate Helm release (namespace + prefixed name) across the manifest', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'mariadb-copy', { ...base('x'), release: 'mariadb' });
    expect(findings(site, 'duplicate-release')).toEqual([
      ['error', 'site/infra/mariadb-copy', 'release', 'Helm release "airship-mariadb" in namespace "openstack" is already installed by chart "mariadb"; Armada would install it for "mariadb" and then silently upgrade that same release to chart "mariadb-copy"; give one of them another release'],
    ]);
  });

  test('the same release in two namespaces is allowed (Helm 3 releases are namespaced)', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'mariadb-ceph', { ...base('x', 'ceph'), release: 'mariadb' });
    expect(findings(site, 'duplicate-release')).toEqual([]);
  });

  test('a chart listed in two groups is a warning: Armada deploys it twice', () => {
    const { site, mariadb } = smallSite();
    new ChartGroup(site, 'again', { charts: [mariadb] });
    expect(findings(site, 'chart-in-two-groups')).toEqual([
      ['warning', 'site/infra/mariadb', undefined, 'chart "mariadb" is listed in 2 groups ("infra", "again"); Armada deploys it once per group'],
    ]);
  });

  test('empty groups: an error when unsequenced (Armada fails), a warning when sequenced', () => {
    const { site } = smallSite();
    new ChartGroup(site, 'empty-parallel');
    new ChartGroup(site, 'empty-sequenced', { sequenced: true });
    expect(findings(site, 'empty-group')).toEqual([
      ['error', 'site/empty-parallel', 'charts', 'chart group "empty-parallel" has no charts; Armada fails on an empty unsequenced group (a thread pool of 0 workers)'],
      ['warning', 'site/empty-sequenced', 'charts', 'chart group "empty-sequenced" has no charts; it deploys nothing'],
    ]);
  });

  test('a manifest without groups', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    expect(findings(site, 'no-groups')).toEqual([
      ['error', 'site', 'chartGroups', 'the manifest lists no chart groups; Armada requires at least one ChartGroup and one Chart'],
    ]);
  });

  test('references to charts and groups outside the manifest', () => {
    const { site, infra } = smallSite();
    const elsewhere = new ArmadaManifest(undefined, 'elsewhere', { releasePrefix: 'x' });
    const foreignGroup = new ChartGroup(elsewhere, 'foreign-group');
    const foreign = new Chart(foreignGroup, 'foreign-chart', base('f'));
    infra.addChart(foreign);
    site.addChartGroup(foreignGroup);
    expect(findings(site, 'ARM001')).toEqual([
      ['error', 'site/infra', 'charts[2]', 'chart "foreign-chart" is not in the manifest (chart "foreign-chart" is defined at elsewhere/foreign-group/foreign-chart, outside this manifest)'],
      ['error', 'site', 'chartGroups[1]', 'chart group "foreign-group" is not in the manifest (chart group "foreign-group" is defined at elsewhere/foreign-group, outside this manifest)'],
    ]);
  });

  test('a chart that only serves as a subchart is allowed and not deployed; an unused one is a warning', () => {
    const { site } = smallSite();
    new Chart(site, 'unused', base('unused'));
    expect(findings(site, 'not-deployed')).toEqual([
      ['warning', 'site/unused', undefined, 'chart "unused" is in no chart group of the manifest and no deployed chart uses it as a subchart; it is not deployed'],
    ]);
    expect(Testing.plan(site).releases.map((r) => r.chart)).toEqual(['mariadb', 'memcached']);
  });

  test('minReady: an integer count or "N%" with N from 0 to 100', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'x', {
      ...base('x'),
      wait: {
        labels: { a: 'b' },
        resources: [
          WaitResource.deployment({ minReady: '150%' as `${number}%` }),
          WaitResource.statefulSet({ minReady: -1 }),
          WaitResource.daemonSet({ minReady: 1.5 }),
          WaitResource.of('deployment', { minReady: 'half' as never }),
          WaitResource.deployment({ minReady: '0%' }),
          WaitResource.deployment({ minReady: 0 }),
        ],
      },
    });
    const allowed = 'minReady must be a whole number of pods (0 or more) or a percentage "N%" with N from 0 to 100';
    expect(findings(site, 'min-ready')).toEqual([
      ['error', 'site/infra/x', 'wait.resources[0].minReady', `received "150%"; ${allowed}; Armada reads it as 150% and waits for ceil(pods × 1.5) ready pods, more than a controller has: the wait is never met while the controller has pods (it passes only with none), and the chart fails at its timeout`],
      ['error', 'site/infra/x', 'wait.resources[1].minReady', `received -1; ${allowed}; Armada accepts it and counts the wait as met at once (any number of ready pods is at least -1); armada-cdk refuses a negative or fractional count: write 0 for that`],
      ['error', 'site/infra/x', 'wait.resources[2].minReady', `received 1.5; ${allowed}; Armada compares the ready pods with it (ready >= 1.5), so it waits for 2; armada-cdk takes whole counts only: write 2`],
      ['error', 'site/infra/x', 'wait.resources[3].minReady', `received "half"; ${allowed}; Armada rejects it too, when it deploys the chart and before it installs it (ManifestException: "\`min_ready\` as string must be formatted as a percent")`],
    ]);
  });

  test('minReady on pods and jobs is rejected as Armada does', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'x', { ...base('x'), wait: { labels: { a: 'b' }, resources: [WaitResource.of('pod', { minReady: 1 })] } });
    expect(findings(site, 'min-ready')).toEqual([
      ['error', 'site/infra/x', 'wait.resources[0].minReady', 'minReady applies to deployment, daemonset and statefulset only; Armada rejects it for pod ("invalid config for item in wait.resources")'],
    ]);
  });

  test('timeouts must be positive whole seconds', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'x', {
      ...base('x'),
      wait: { timeout: Duration.seconds(0), labels: { a: 'b' } },
      test: { timeout: Duration.minutes(0.25 / 60 * 2) },
      delete: { timeout: Duration.seconds(-30) },
    });
    new Chart(infra, 'y', { ...base('y'), wait: { timeout: Duration.seconds(NaN), labels: { a: 'b' } } });
    expect(findings(site, 'timeout')).toEqual([
      ['error', 'site/infra/x', 'wait.timeout', 'received 0 seconds; a timeout must be a whole number of seconds greater than 0; Armada would accept it and fail the chart at its first wait ("Timed out waiting for resource"), its deadline having already passed'],
      ['error', 'site/infra/x', 'test.timeout', 'received 0.008333333333333333 minutes (0.5 s); a timeout must be a whole number of seconds greater than 0'],
      ['error', 'site/infra/x', 'delete.timeout', 'received -30 seconds; a timeout must be a whole number of seconds greater than 0'],
      ['error', 'site/infra/y', 'wait.timeout', 'received NaN seconds; a timeout must be a whole number of seconds greater than 0'],
    ]);
  });

  test('wait resource types Armada does not know', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'x', { ...base('x'), wait: { labels: { a: 'b' }, resources: [WaitResource.of('statefulsets'), WaitResource.of('armadachart')] } });
    expect(findings(site, 'wait-type')).toEqual([
      ['error', 'site/infra/x', 'wait.resources[0].type', 'received "statefulsets"; Armada waits only on pod, job, deployment, daemonset, statefulset (did you mean "statefulset"?)'],
      ['error', 'site/infra/x', 'wait.resources[1].type', 'received "armadachart"; Armada waits only on pod, job, deployment, daemonset, statefulset'],
    ]);
  });

  test('values that are not JSON, every one of them', () => {
    const { site, infra } = smallSite();
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    new Chart(infra, 'x', {
      ...base('x'),
      values: {
        u: undefined,
        f: () => 1,
        n: NaN,
        i: [1, Infinity],
        d: new Date(0),
        m: new Map(),
        c: cycle,
        ok: { nested: [null, true, 'x', 1.5] },
      },
    });
    expect(findings(site, 'values')).toEqual([
      ['error', 'site/infra/x', 'values.u', 'received undefined; use null to remove a key, or leave the key out'],
      ['error', 'site/infra/x', 'values.f', 'received a function; values must be JSON data'],
      ['error', 'site/infra/x', 'values.n', 'received NaN; JSON has no NaN or Infinity'],
      ['error', 'site/infra/x', 'values.i[1]', 'received Infinity; JSON has no NaN or Infinity'],
      ['error', 'site/infra/x', 'values.d', 'received an instance of Date; values must be plain objects, arrays and scalars'],
      ['error', 'site/infra/x', 'values.m', 'received an instance of Map; values must be plain objects, arrays and scalars'],
      ['error', 'site/infra/x', 'values.c.self', 'refers back to one of its own parents (a cycle); values must be a tree'],
    ]);
  });

  test('subchart dependency cycles print the whole loop', () => {
    // Props cannot form a loop (a chart must exist before another lists it), documents can.
    const text = [
      doc('Manifest', 'm', { release_prefix: 'p', chart_groups: ['g'] }),
      doc('ChartGroup', 'g', { chart_group: ['a'] }),
      ...['a', 'b', 'c'].map((n, i) => doc('Chart', n, { chart_name: n, release: n, namespace: 'ns', source: { type: 'local', location: '/c', subpath: n }, dependencies: [['b', 'c', 'a'][i]] })),
    ].join('');
    const { spec } = documentsToSpec(parseDocuments(text, 'loop.yaml'));
    const errors = validateManifest(spec!).errors.map((d) => [d.location, d.document, d.field, d.message]);
    expect(errors).toEqual([['loop.yaml#2', 'armada/Chart/v1 a', 'data.dependencies', 'subchart dependencies form a cycle: a -> b -> c -> a']]);
  });

  test('addDependency: not contradicting the group order, acyclic, both deployed', () => {
    const { site, mariadb, memcached, htk } = smallSite();
    const later = new ChartGroup(site, 'later');
    const keystone = new Chart(later, 'keystone', base('keystone'));
    const glance = new Chart(later, 'glance', base('glance'));
    keystone.addDependency(mariadb); // fine: earlier step
    mariadb.addDependency(keystone); // against the order
    keystone.addDependency(glance); // same parallel step: allowed
    glance.addDependency(keystone); // ... but not both ways
    memcached.addDependency(htk); // htk is not deployed
    expect(findings(site).filter((f) => f[3].includes('addDependency'))).toEqual([
      ['error', 'site/infra/mariadb', 'dependsOn[0]', 'addDependency: "mariadb" deploys in step 0 (group "infra") but "keystone" deploys later, in step 2 (group "later"); the dependency contradicts the manifest\'s order'],
      ['error', 'site/infra/memcached', 'dependsOn[0]', 'addDependency: chart "helm-toolkit" is not deployed by any chart group, so "memcached" cannot wait for it'],
      ['error', 'site/later/keystone', 'dependsOn', 'addDependency edges form a cycle: keystone -> mariadb -> keystone'],
      ['error', 'site/later/glance', 'dependsOn', 'addDependency edges form a cycle: glance -> keystone -> glance'],
    ]);
  });

  test('errors are collected, not first-error-only, and thrown together by Testing.plan', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'Bad', { ...base('x', 'Bad NS'), wait: { timeout: Duration.seconds(-1) } });
    let err: unknown;
    try {
      Testing.plan(site);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ArmadaValidationError);
    const e = err as ArmadaValidationError;
    expect(e.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(['namespace', 'release', 'timeout']);
    expect(e.message).toMatch(/^ArmadaManifest site failed with 3 errors:\n/);
    expect(e.message).toContain('error: site/infra/Bad: wait.timeout: received -1 seconds');
  });

  test('v1-only fields in a v2 manifest', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p', schemaVersion: SchemaVersion.V2 });
    const g = new ChartGroup(site, 'g', { testCharts: true });
    new Chart(g, 'c', { ...base('c'), chartName: 'c', test: true, timeout: Duration.seconds(10), upgrade: { post: { create: [] } } });
    expect(findings(site, 'v2-field')).toEqual([
      ['error', 'site/g', 'testCharts', 'testCharts is not part of armada/ChartGroup/v2 (the manifest uses schemaVersion 2; set schemaVersion: SchemaVersion.V1 on this definition to keep it a v1 document)'],
      ['error', 'site/g/c', 'chartName', 'chartName is not part of armada/Chart/v2 (the manifest uses schemaVersion 2; set schemaVersion: SchemaVersion.V1 on this definition to keep it a v1 document)'],
      ['error', 'site/g/c', 'timeout', 'the deprecated chart timeout is not part of armada/Chart/v2 (the manifest uses schemaVersion 2; set schemaVersion: SchemaVersion.V1 on this definition to keep it a v1 document)'],
      ['error', 'site/g/c', 'test', 'the boolean test form is not part of armada/Chart/v2 (the manifest uses schemaVersion 2; set schemaVersion: SchemaVersion.V1 on this definition to keep it a v1 document)'],
      ['error', 'site/g/c', 'upgrade.post', 'upgrade.post is not part of armada/Chart/v2 (the manifest uses schemaVersion 2; set schemaVersion: SchemaVersion.V1 on this definition to keep it a v1 document)'],
    ]);
  });

  test('labels must be valid Kubernetes labels', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'x', { ...base('x'), wait: { labels: { 'bad key!': 'ok', app: 'not ok!' } } });
    expect(findings(site, 'labels')).toEqual([
      ['error', 'site/infra/x', 'wait.labels.bad key!', 'label key "bad key!" is invalid: the name part must be 1-63 characters of letters, digits, "-", "_" and ".", starting and ending with a letter or digit'],
      ['error', 'site/infra/x', 'wait.labels.app', 'label value "not ok!" is invalid: at most 63 characters of letters, digits, "-", "_" and ".", starting and ending with a letter or digit'],
    ]);
  });

  test('tar sources must be HTTP(S) URLs', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'x', { ...base('x'), source: ChartSource.tar('/opt/charts/x.tgz') });
    expect(findings(site, 'source')).toEqual([
      ['error', 'site/infra/x', 'source.location', 'received "/opt/charts/x.tgz"; a tar source is downloaded over HTTP(S), so its location must be an http:// or https:// URL'],
    ]);
  });

  test('warns about charts that wait on every pod of the namespace', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'x', { namespace: 'openstack', source: ChartSource.local('/charts/x') });
    expect(findings(site, 'wait-no-labels')).toEqual([
      ['warning', 'site/infra/x', 'wait.labels', 'no wait labels select the job, pod waited on, so Armada waits on every one in namespace "openstack"; set wait.labels (e.g. { release_group: "airship-x" })'],
    ]);
  });

  test('protected: {} is not protected in Armada', () => {
    const { site, infra } = smallSite();
    new Chart(infra, 'x', { ...base('x'), protected: {} });
    expect(findings(site, 'protected-empty')).toEqual([
      ['warning', 'site/infra/x', 'protected', 'an empty protected block counts as not protected in Armada; set continueProcessing to true or false'],
    ]);
  });
});
