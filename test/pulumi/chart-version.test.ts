import { capture, Captured, GATE, PRE_DELETE, RELEASE, settled, valueOf } from './mocks';
import * as pulumi from '@pulumi/pulumi';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, SchemaVersion } from '../../src';
import { ManifestDeployment } from '../../src/pulumi';

beforeEach(() => {
  jest.spyOn(pulumi.log, 'warn').mockImplementation(async () => undefined);
});
afterEach(() => jest.restoreAllMocks());

// Armada's wait and pre-upgrade actions read the chart document's schema, not the manifest's:
// the gate must skip pods (and repeat passes) by the chart's version.
test('each readiness gate and pre-upgrade delete gets the schema version of its own chart', async () => {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p', schemaVersion: SchemaVersion.V2 });
  const g = new ChartGroup(site, 'g');
  const upgrade = { pre: { delete: [{ type: 'job', labels: { app: 'x' } }] } };
  new Chart(g, 'old', { namespace: 'ns', schemaVersion: SchemaVersion.V1, source: ChartSource.tar('https://c.example.org/old.tgz'), wait: { labels: { app: 'old' } }, upgrade });
  new Chart(g, 'new', { namespace: 'ns', source: ChartSource.tar('https://c.example.org/new.tgz'), wait: { labels: { app: 'new' } }, upgrade });
  const seen: Captured[] = [];
  const deployment = new ManifestDeployment('site', { manifest: site, resolveChart: async (c) => `/charts/${c.name}` }, { transformations: [capture(seen)] });
  await settled(seen);
  await valueOf(deployment.releases);
  const version = (type: string, release: string) => seen.find((c) => c.type === type && c.props.target.release === release)!.props.target.schemaVersion;
  expect([version(GATE, 'p-old'), version(GATE, 'p-new')]).toEqual([SchemaVersion.V1, SchemaVersion.V2]);
  expect([version(PRE_DELETE, 'p-old'), version(PRE_DELETE, 'p-new')]).toEqual([SchemaVersion.V1, SchemaVersion.V2]);
  const oldGate = seen.find((c) => c.type === GATE && c.props.target.release === 'p-old')!;
  expect(oldGate.props.target.resources.map((r: { type: string; required: boolean }) => [r.type, r.required])).toEqual([['job', false], ['pod', true]]);
});

test('values read from Armada YAML: a timestamp reaches Helm as its text, an integer beyond 2^53 as the nearest double, with a warning', async () => {
  const warn = jest.spyOn(pulumi.log, 'warn').mockImplementation(async () => undefined);
  const { PyTimestamp } = await import('../../src/importer/load');
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  const values = { released: new PyTimestamp(2002, 12, 14), big: 9007199254740993n, nested: [{ at: new PyTimestamp(2001, 12, 14, 21, 59, 43, 100000, -300) }] };
  new Chart(new ChartGroup(site, 'g'), 'app', { namespace: 'ns', source: ChartSource.tar('https://c.example.org/app.tgz'), wait: { labels: { app: 'x' } }, values });
  const seen: Captured[] = [];
  const deployment = new ManifestDeployment('site', { manifest: site, resolveChart: async (c) => `/charts/${c.name}` }, { transformations: [capture(seen)] });
  await settled(seen);
  await valueOf(deployment.releases);
  const release = seen.find((c) => c.type === RELEASE)!;
  expect(await valueOf(release.props.values)).toEqual({ released: '2002-12-14', big: 9007199254740992, nested: [{ at: '2001-12-14 21:59:43.100000-05:00' }] });
  expect(warn.mock.calls.map((c) => c[0]).filter((m) => String(m).includes('2^53'))).toEqual([
    'site/g/app: values.big: the integer 9007199254740993 is beyond 2^53: Helm reads every number of a values file as a 64-bit float (Helm 3 and 4), so the chart receives 9007199254740992 however it is deployed, by Armada as by Pulumi',
  ]);
});
