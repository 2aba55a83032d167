import * as path from 'path';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Testing } from '../../src';

const CHARTS = path.resolve(__dirname, '..', 'fixtures', 'charts');

function site(values: Record<string, unknown>, chart = 'mariadb') {
  const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  new Chart(new ChartGroup(m, 'g'), chart, {
    namespace: 'openstack',
    source: ChartSource.local(CHARTS, { subpath: chart }),
    wait: { labels: { release_group: `p-${chart}` } },
    values,
  });
  return m;
}

describe("values against a local chart's values.schema.json, at synth", () => {
  test('one diagnostic per violation, with the chart path and the JSON path of the value', () => {
    const found = Testing.validate(site({ pod: { replicas: { server: 'three' } }, images: { pull_policy: 'Sometimes' } })).filter((d) => d.code === 'values-schema');
    const schema = path.join(CHARTS, 'mariadb', 'values.schema.json');
    expect(found.map((d) => [d.location, d.field, d.message.replace(` (${schema})`, '')])).toEqual([
      ['site/g/mariadb', 'values.images.pull_policy', 'received "Sometimes"; must be one of "Always", "IfNotPresent", "Never"'],
      ['site/g/mariadb', 'values.pod.replicas.server', 'received "three"; must be integer'],
    ]);
    expect(found.every((d) => d.message.endsWith(`(${schema})`))).toBe(true);
  });

  test('valid values and charts without a schema are not errors', () => {
    expect(Testing.validate(site({}, 'ingress')).filter((d) => d.code === 'values-schema')).toEqual([]);
  });
});
