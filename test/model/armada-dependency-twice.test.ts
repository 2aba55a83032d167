/**
 * Issue 45, class 4: a subchart dependency listed twice. Armada's ChartBuilder.from_chart_doc
 * (armada/handlers/chartbuilder.py) links each dependency into the chart's charts/ directory
 * under its Chart.yaml name with Path.symlink_to, so the second link of the same chart fails with
 * FileExistsError when the chart is built: refused here, with that message.
 */
import { cli, tmpdir, write } from '../helpers/cli';

const dir = tmpdir('armada-cdk-deps-twice-');

const chart = (name: string, extra = '') =>
  `---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: ${name}}\ndata:\n  chart_name: ${name}\n  release: ${name}\n  namespace: openstack\n  wait: {labels: {release_group: armada-${name}}}\n  source: {type: local, location: /charts, subpath: ${name}}\n${extra}`;

const site = (charts: string, groupCharts: string[]) => `${charts}---
schema: armada/ChartGroup/v1
metadata: {schema: metadata/Document/v1, name: infra}
data: {chart_group: ${JSON.stringify(groupCharts)}}
---
schema: armada/Manifest/v1
metadata: {schema: metadata/Document/v1, name: site}
data: {release_prefix: armada, chart_groups: [infra]}
`;

const errors = (out: string) => out.split('\n').filter((l) => / error: /.test(l));

describe('a dependency listed twice (chartbuilder.py ChartBuilder.from_chart_doc: FileExistsError)', () => {
  test('is refused at the second entry, once per chart, even when two deployed charts reach it', async () => {
    const file = write(
      dir,
      'twice.yaml',
      site(
        chart('helm-toolkit') +
          chart('mariadb', '  dependencies: [helm-toolkit, other, helm-toolkit]\n') +
          chart('other') +
          chart('keystone', '  dependencies: [mariadb]\n'),
        ['mariadb', 'keystone'],
      ),
    );
    const r = await cli(['validate', file]);
    expect(r.code).toBe(1);
    expect(errors(r.stdout + r.stderr)).toEqual([
      `${file}:19:39: error: armada/Chart/v1 mariadb: data.dependencies[2]: subchart dependency "helm-toolkit" is listed twice (also at dependencies[0]); Armada fails when it builds chart "mariadb": it links every dependency into the chart's charts/ directory under its Chart.yaml name, and the second link of the same chart raises FileExistsError ("[Errno 17] File exists: '.../charts/<name>'"); list it once`,
    ]);
  });

  test('a chart no deployed chart builds is not built by Armada either: no error', async () => {
    const file = write(dir, 'unused.yaml', site(chart('helm-toolkit') + chart('unused', '  dependencies: [helm-toolkit, helm-toolkit]\n') + chart('mariadb'), ['mariadb']));
    const r = await cli(['validate', file]);
    expect(errors(r.stdout + r.stderr)).toEqual([]);
    expect(r.code).toBe(0);
  });
});
