/**
 * `convert --to airship-v1` builds each ArmadaChart only when it writes it (airshipChartsAsRead),
 * so that a large site never holds them all: every finding exists before the first object is
 * read, reading finds nothing more, and each read builds the objects anew. The findings of one
 * chart keep the order they had when they were made while building it.
 */
import { execFileSync } from 'child_process';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, SchemaVersion, WaitResource } from '../../src';
import { resolveInputs } from '../../src/importer/resolve';
import { Diagnostic } from '../../src/model/diagnostics';
import { buildPlan } from '../../src/model/plan';
import { airshipChartsAsRead, toAirshipCharts } from '../../src/model/wire/airship-v1';
import { toYamlStream } from '../../src/model/wire/yaml';
import { cli, tmpdir, write } from '../helpers/cli';
import { corpusFiles, sharedPath } from '../helpers/shared';

const plain = (ds: readonly Diagnostic[]) => ds.map((d) => ({ severity: d.severity, location: d.location, field: d.field, code: d.code, message: d.message }));

async function compare(file: string): Promise<number> {
  const r = await resolveInputs([file]);
  if (r.spec === undefined) return 0;
  const lazy = airshipChartsAsRead(r.spec, buildPlan(r.spec), { syncWaves: true });
  const before = plain(lazy.diagnostics.all);
  const first = [...lazy.objects];
  // Nothing is found while the objects are read.
  expect(plain(lazy.diagnostics.all)).toEqual(before);
  const eager = toAirshipCharts(r.spec, buildPlan(r.spec), { syncWaves: true });
  expect(plain(eager.diagnostics.all)).toEqual(before);
  expect(first).toEqual(eager.objects);
  // Read again: equal objects, built anew (the writer lets each go once written).
  const second = [...lazy.objects];
  expect(second).toEqual(first);
  first.forEach((o) => expect(second).not.toContain(o));
  return first.length;
}

describe('airship ArmadaCharts as read', () => {
  test('every corpus site and the generated site: all findings first, the same objects on every read', async () => {
    let charts = 0;
    for (const { file } of corpusFiles()) charts += await compare(sharedPath('corpus', file));
    expect(charts).toBeGreaterThanOrEqual(20);
    const f = write(tmpdir(), 'site.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '60'], { encoding: 'utf8' }));
    expect(await compare(f)).toBe(60);
  });

  test("one chart's findings in the order of its fields: upgrade and the rest, then source, then wait", () => {
    for (const version of [SchemaVersion.V1, SchemaVersion.V2]) {
      const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p', schemaVersion: version });
      new Chart(new ChartGroup(site, 'g'), 'db', {
        namespace: 'ns',
        source: ChartSource.git('https://git.example.org/charts', { subpath: 'db' }),
        delete: { timeout: Duration.seconds(60) },
        upgrade: { noHooks: true },
        wait: { labels: { a: 'b' }, resources: [WaitResource.daemonSet({ minReady: '50%', required: true, allowAsyncUpdates: true }), WaitResource.pod()] },
      });
      const { spec, plan } = site.resolve();
      const out = airshipChartsAsRead(spec, plan);
      expect(out.diagnostics.all.map((d) => [d.code, d.field])).toEqual([
        ['not-expressible', 'upgrade.noHooks'],
        ['not-expressible', 'delete.timeout'],
        ['not-expressible', 'source.type'],
        ['operator-differs', 'wait'],
        ['not-expressible', 'wait.resources[0].required'],
        ['not-expressible', 'wait.resources[0].allowAsyncUpdates'],
        ['operator-differs', 'wait.resources[0].minReady'],
      ]);
      expect(out.diagnostics.all.map((d) => d.message)).toContain('the airship operator departs from Armada here: minReady "50%": the operator computes (50 / 100) * pods with integer division, which is 0: nothing is held back; write a count of pods instead');
      expect(out.diagnostics.all.find((d) => d.field === 'wait')!.message).toBe(
        'the airship operator departs from Armada here: Armada fails the chart when a required wait finds no pod by its timeout (a listed wait is required unless it says required: false); the operator skips a wait that finds nothing',
      );
    }
  });

  test('the CLI writes what toAirshipCharts makes', async () => {
    const dir = tmpdir();
    const f = write(dir, 'site.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '30'], { encoding: 'utf8' }));
    const r = await resolveInputs([f]);
    const out = await cli(['convert', f, '--to', 'airship-v1', '--sync-waves'], { cwd: dir });
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(toYamlStream(toAirshipCharts(r.spec!, buildPlan(r.spec!), { syncWaves: true }).objects));
  });
});
