/**
 * What Armada reads of a chart depends on how it is used (issue 45, classes 1 and 2): names only
 * find documents, a subchart's release and namespace are never read, and a source's subpath is
 * joined to its root with os.path.join. Real sites rely on each.
 */
import { cli, tmpdir, write } from '../helpers/cli';

const dir = tmpdir('armada-cdk-lookups-');

function chart(name: string, fields: string): string {
  return `---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: ${JSON.stringify(name)}}\ndata:\n  chart_name: ${JSON.stringify(name)}\n${fields}`;
}

const GROUP_AND_MANIFEST = (charts: string[], group = 'infra') => `---
schema: armada/ChartGroup/v1
metadata: {schema: metadata/Document/v1, name: ${JSON.stringify(group)}}
data: {chart_group: ${JSON.stringify(charts)}}
---
schema: armada/Manifest/v1
metadata: {schema: metadata/Document/v1, name: site}
data: {release_prefix: armada, chart_groups: [${JSON.stringify(group)}]}
`;

const WAIT = '  wait: {labels: {release_group: armada-mariadb}}\n';

const errors = (out: string) => out.split('\n').filter((l) => / error: /.test(l));

describe("chart names are only Armada's lookup keys (armada/handlers/manifest.py find_chart_document)", () => {
  // treasuremap v1.8-prime names its helm-toolkit copies like this.
  const site = write(dir, 'htk.yaml', [
    chart('prometheus_kube_state_metrics-htk', '  release: htk\n  namespace: Bad_NS\n  source: {type: local, location: /charts/helm-toolkit, subpath: .}\n'),
    chart('mariadb', `  release: mariadb\n  namespace: openstack\n  source: {type: local, location: /charts, subpath: mariadb}\n  dependencies: [prometheus_kube_state_metrics-htk]\n${WAIT}`),
    GROUP_AND_MANIFEST(['mariadb'], 'osh_infra'),
  ].join(''));

  test('a subchart named with "_", with a namespace Kubernetes would refuse, and a group named with "_" validate, plan and convert to Armada documents', async () => {
    const v = await cli(['validate', site]);
    expect(errors(v.stdout + v.stderr)).toEqual([]);
    expect(v.code).toBe(0);
    const p = await cli(['plan', site, '--format', 'json']);
    expect(p.code).toBe(0);
    const d = await cli(['convert', site, '--to', 'documents-v1']);
    expect(d.code).toBe(0);
    expect(d.stdout).toContain('name: prometheus_kube_state_metrics-htk');
    expect(d.stdout).toContain('namespace: Bad_NS');
  });

  test('the keleustes operator, which names its objects after charts and groups, refuses such names for what it creates, saying why', async () => {
    const deployed = write(dir, 'deployed.yaml', [
      chart('MariaDB_2', `  release: mariadb\n  namespace: openstack\n  source: {type: local, location: /charts, subpath: mariadb}\n${WAIT}`),
      GROUP_AND_MANIFEST(['MariaDB_2'], 'osh_infra'),
    ].join(''));
    const v = await cli(['validate', deployed]);
    expect(v.code).toBe(0);
    const k = await cli(['convert', deployed, '--to', 'keleustes-v1alpha1']);
    expect(k.code).toBe(1);
    expect(errors(k.stdout + k.stderr)).toEqual([
      expect.stringMatching(/deployed\.yaml:\d+:\d+: error: armada\/Chart\/v1 MariaDB_2: (data\.|metadata\.)?name: cannot be expressed for the keleustes operator: it names each ArmadaChart after its chart, and chart name "MariaDB_2" must be a DNS-1123 subdomain.*Armada itself uses the name only to find the document/),
      expect.stringMatching(/deployed\.yaml:\d+:\d+: error: armada\/ChartGroup\/v1 osh_infra: .*cannot be expressed for the keleustes operator: it names each ArmadaChartGroup after its group, and chart group name "osh_infra" must be a DNS-1123 subdomain/),
    ]);
  });

  test('a deployed chart still needs a valid namespace and Helm release name', async () => {
    const bad = write(dir, 'bad-ns.yaml', [chart('c', `  release: c\n  namespace: Bad_NS\n  source: {type: local, location: /charts, subpath: c}\n${WAIT}`), GROUP_AND_MANIFEST(['c'])].join(''));
    const v = await cli(['validate', bad]);
    expect(v.code).toBe(1);
    expect(errors(v.stdout + v.stderr)).toEqual([expect.stringContaining('namespace "Bad_NS" must be a DNS-1123 label')]);
  });
});

describe("source.subpath is joined as os.path.join(root, subpath) (armada/handlers/chart_download.py)", () => {
  const siteWith = (name: string, source: string) =>
    write(dir, `${name}.yaml`, [chart('c', `  release: c\n  namespace: ns\n  source: ${source}\n${WAIT}`), GROUP_AND_MANIFEST(['c'])].join(''));

  test.each([
    ['climbs', '{type: local, location: /opt/openstack-helm, subpath: ../openstack-helm-infra/mariadb}'],
    ['empty', '{type: local, location: /opt/charts/mariadb, subpath: ""}'],
    ['git-empty', '{type: git, location: "https://opendev.org/openstack/openstack-helm-infra", subpath: ""}'],
  ])('%s: accepted, as Armada deploys it', async (name, source) => {
    const v = await cli(['validate', siteWith(name, source)]);
    expect(errors(v.stdout + v.stderr)).toEqual([]);
    expect(v.code).toBe(0);
  });

  test('an absolute subpath of a local source: accepted with a warning that location is not used', async () => {
    const v = await cli(['validate', siteWith('absolute', '{type: local, location: /opt/charts, subpath: /srv/mariadb}')]);
    expect(v.code).toBe(0);
    expect(v.stdout + v.stderr).toContain('received "/srv/mariadb"; Armada joins location and subpath as os.path.join does, so an absolute subpath is the chart directory itself and location "/opt/charts" is not used');
  });

  test.each([
    ['git-climbs', '{type: git, location: "https://opendev.org/openstack/openstack-helm", subpath: ../mariadb}', 'received "../mariadb"; Armada would take the chart from outside the cloned repository (os.path.join of its download directory and the subpath); use a path inside the cloned repository'],
    ['tar-absolute', '{type: tar, location: "https://tarballs.example.org/mariadb-0.1.0.tgz", subpath: /mariadb}', 'received "/mariadb"; Armada would take the chart from "/mariadb" on the machine it runs on, not from the extracted tarball; use a path inside the extracted tarball'],
  ])('%s: refused, saying what Armada would do', async (name, source, message) => {
    const v = await cli(['validate', siteWith(name, source)]);
    expect(v.code).toBe(1);
    expect(errors(v.stdout + v.stderr)).toEqual([expect.stringContaining(message)]);
  });
});
