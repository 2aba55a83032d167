import './mocks';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import type { ChartSpec } from '../../src/model/spec';
import { checkedValues } from '../../src/pulumi/checked-values';
import { checkLocalChartValues, checkResolvedChartValues } from '../../src/values-schema/check-charts';
import { REGISTER_TS } from '../helpers/ts-child';

const CHARTS = path.resolve(__dirname, '..', 'fixtures', 'charts');
const SCHEMA = path.join(CHARTS, 'mariadb', 'values.schema.json');

function site(values: Record<string, unknown>): ArmadaManifest {
  const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  new Chart(new ChartGroup(m, 'g'), 'mariadb', {
    namespace: 'openstack',
    source: ChartSource.local(CHARTS, { subpath: 'mariadb' }),
    wait: { labels: { release_group: 'p-mariadb' } },
    values,
  });
  return m;
}

function chartOf(m: ArmadaManifest): ChartSpec {
  return m.resolve({ opaqueValues: pulumi.Output.isInstance }).spec.charts.find((c) => c.name === 'mariadb')!;
}

/** The settled value of an output; `Output` has no public way to await one. */
async function settle(o: unknown): Promise<unknown> {
  return (o as { promise(): Promise<unknown> }).promise();
}

describe('values.schema.json with pulumi.secret values', () => {
  test('a valid secret passes: no diagnostic at synth, and the Release gets the plain values, still secret', async () => {
    const m = site({ images: { pull_policy: pulumi.secret('Always') } });
    expect(m.resolve({ opaqueValues: pulumi.Output.isInstance }).diagnostics.filter((d) => d.code === 'values-schema')).toEqual([]);
    const values = checkedValues(chartOf(m));
    expect(pulumi.Output.isInstance(values)).toBe(true);
    expect(await pulumi.isSecret(values as unknown as pulumi.Output<unknown>)).toBe(true);
    expect(await settle(values)).toEqual({ images: { pull_policy: 'Always' } });
  });

  /** Deploys the mariadb chart under mocks in a child process with `secret` as its pull policy (see the script). */
  function deployInvalid(secret: string, option?: 'pre-delete'): { registered: string[]; errors: string[]; logged: string[]; output: string } {
    const script = path.join(__dirname, 'secret-values.script.ts');
    const run = spawnSync(process.execPath, ['-r', REGISTER_TS, script, CHARTS, secret, ...(option ? [option] : [])], {
      cwd: path.join(__dirname, '..', '..'),
      encoding: 'utf8',
      timeout: 60_000,
    });
    const line = run.stdout.trim().split('\n').pop() ?? '';
    return { ...(JSON.parse(line) as { registered: string[]; errors: string[]; logged: string[] }), output: `${run.stdout}${run.stderr}` };
  }

  const failure = [
    'Error: chart "mariadb": its values break the chart\'s values.schema.json, so it was not deployed:',
    `  error: site/g/mariadb: values.images.pull_policy: received a hidden value; must be one of "Always", "IfNotPresent", "Never" (${SCHEMA})`,
  ];

  test('an invalid secret fails the deployment before the Release, once, naming the chart and the path, never the value', () => {
    const out = deployInvalid('Sometimes-s3cr3t');
    const types = out.registered.map((r) => r.split(' ').slice(0, 2).join(' '));
    expect(types).toContain('armada:index:Chart site/g/mariadb');
    expect(types.filter((t) => t.startsWith('kubernetes:helm.sh/v3:Release'))).toEqual([]);
    // One report: Pulumi's mocks see every rejection, and the values output alone used to reject
    // three times (its value, and whether it is known and secret).
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0].split('\n').slice(0, 2)).toEqual(failure);
    expect(out.output).not.toContain('s3cr3t');
  });

  test('with a pre-upgrade delete, the delete fails on the values, once, and neither it nor the Release is registered', () => {
    const out = deployInvalid('Sometimes-s3cr3t', 'pre-delete');
    const types = out.registered.map((r) => r.split(' ').slice(0, 2).join(' '));
    expect(types).toContain('armada:index:Chart site/g/mariadb');
    expect(types.filter((t) => /PreUpgradeDelete|helm\.sh\/v3:Release/.test(t))).toEqual([]);
    // The message as written: not prefixed with the input that failed (here the delete's fingerprint).
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0].split('\n').slice(0, 2)).toEqual(failure);
    expect(out.output).not.toContain('s3cr3t');
  });

  test('with a pre-upgrade delete, valid secret values reach the Release whole and secret', () => {
    const out = deployInvalid('Always', 'pre-delete');
    expect(out.errors).toEqual([]);
    const release = out.registered.find((r) => r.startsWith('kubernetes:helm.sh/v3:Release site/g/mariadb '))!;
    const inputs = JSON.parse(release.split(' ').slice(2).join(' ')) as { values: { value: unknown } };
    expect(inputs.values).toEqual({ '4dabf18193072939515e22adb298388d': '1b47061264138c4ac30d75fd1eb44270', value: { images: { pull_policy: 'Always' } } });
    expect(out.registered.map((r) => r.split(' ').slice(0, 2).join(' '))).toEqual(expect.arrayContaining(['pulumi-nodejs:dynamic/armada:PreUpgradeDelete site/g/mariadb']));
  });

  test('a secret object is checked inside, and a message that would quote a secret inside it is replaced whole', () => {
    const chart = chartOf(site({}));
    const values = { images: { tags: { mariadb: 42 } }, labels: { server: { node_selector_key: 'tok-s3cr3t' } } };
    const found = checkResolvedChartValues(chart, values, [['images'], ['labels']]).map((d) => [d.field, d.message.replace(` (${SCHEMA})`, '')]);
    expect(found).toEqual([['values.images.tags.mariadb', 'received a hidden value; must be string']]);
  });

  test('without outputs the synth check is unchanged, and a chart with one is left to the later check', () => {
    const plain = site({ images: { pull_policy: 'Sometimes' } });
    const spec = plain.resolve().spec;
    expect(checkLocalChartValues(spec).map((d) => d.message.replace(` (${SCHEMA})`, ''))).toEqual(['received "Sometimes"; must be one of "Always", "IfNotPresent", "Never"']);
    const withSecret = site({ images: { pull_policy: pulumi.secret('Sometimes') } }).resolve({ opaqueValues: pulumi.Output.isInstance }).spec;
    expect(checkLocalChartValues(withSecret, { opaqueValues: pulumi.Output.isInstance })).toEqual([]);
  });

  test('values without outputs, and charts without a local schema, are handed on unchanged', () => {
    const chart = chartOf(site({ images: { pull_policy: 'Always' } }));
    expect(checkedValues(chart)).toBe(chart.values);
  });
});
