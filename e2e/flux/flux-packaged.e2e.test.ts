/**
 * `convert --to flux-v2 --package-charts URL`: the site's charts, helm-toolkit injected from Git as
 * Armada injects it, packaged into a Helm repository served on 127.0.0.1, installed by the real
 * source- and helm-controller from one HelmRepository; each release's manifest (Helm's record) is
 * the one `helm template` renders from the chart assembled as Armada (and the Pulumi target)
 * assemble it: the fixture chart with its charts/ replaced by helm-toolkit.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, Testing } from 'armada-cdk';
import { listen, serveFiles, StaticServer } from '../servers/static-http';
import { createNamespace, runTool, stack } from '../stack';
import { gitChart } from '../pulumi/fixture-site';
import { FluxControllers, startFluxControllers } from './flux-controllers';
import { applyYaml, convertToFluxDir, waitForReady } from './flux-site';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'charts');
const VALUES = { pod: { replicas: { server: 1 } } };

/** One e2e-db chart from Git with helm-toolkit (also from Git) as its Armada dependency. */
function packagedSite(namespace: string): string {
  const site = new ArmadaManifest(undefined, 'pkg', { releasePrefix: 'fpkg' });
  const git = (chart: string) => gitChart(chart) as { url: string; subpath: string; reference: string };
  const toolkit = new Chart(site, 'helm-toolkit', { namespace, source: ChartSource.git(git('helm-toolkit').url, { subpath: git('helm-toolkit').subpath, reference: 'main' }) });
  new Chart(new ChartGroup(site, 'db', { sequenced: true }), 'db', {
    namespace,
    source: ChartSource.git(git('e2e-db').url, { subpath: git('e2e-db').subpath, reference: 'main' }),
    dependencies: [toolkit],
    values: VALUES,
    wait: { timeout: Duration.minutes(3), labels: { release_group: 'fpkg-db' }, native: { enabled: false } },
    test: { enabled: false },
  });
  return Testing.documents(site).map((d) => `---\n${yaml.dump(d, { noRefs: true, lineWidth: -1 })}`).join('');
}

/** A rendered manifest as objects by `Kind namespace/name`, keys sorted. */
function objects(text: string, namespace: string): Map<string, string> {
  const sorted = (v: unknown): unknown => (Array.isArray(v) ? v.map(sorted) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v);
  const out = new Map<string, string>();
  for (const o of yaml.loadAll(text) as { kind: string; metadata: { name: string; namespace?: string } }[]) {
    if (o === null || o === undefined) continue;
    out.set(`${o.kind} ${o.metadata.namespace ?? namespace}/${o.metadata.name}`, JSON.stringify(sorted(o)));
  }
  return out;
}

describe('flux-v2 output with packaged charts', () => {
  let flux: FluxControllers | undefined;
  let server: StaticServer | undefined;

  beforeAll(async () => {
    flux = await startFluxControllers('packaged');
  }, 600_000);
  afterAll(async () => {
    await server?.close();
    await flux?.stop();
  });

  test('the release installed from the packaged HelmRepository renders what Armada assembles', async () => {
    const namespace = await createNamespace('flux-packaged');
    const work = path.join(stack().dir, 'work', 'flux-packaged');
    fs.mkdirSync(path.join(work, 'out', 'pkg.charts'), { recursive: true });
    server = await listen(serveFiles(path.join(work, 'out', 'pkg.charts')));
    const url = server.url.replace(/\/$/, '');
    const stderr = await convertToFluxDir('packaged', packagedSite(namespace), work, 'out', ['--single-file', '--force', '--package-charts', url]);
    expect(stderr).toContain(`wrote out/pkg.charts/ (index.yaml, 1 chart archive): publish its files at ${url}, where the HelmRepository reads them`);
    const out = fs.readFileSync(path.join(work, 'out', 'pkg.flux-v2.yaml'), 'utf8');
    const docs = yaml.loadAll(out) as { kind: string; metadata: { name: string }; spec: Record<string, any> }[];
    expect(docs.map((d) => d.kind)).toEqual(['HelmRepository', 'HelmRelease']);
    expect(docs[0].spec.url).toBe(url);
    expect(docs[1].spec.chart.spec.version).toMatch(/^0\.1\.0\+[0-9a-f]{12}$/);
    await applyYaml(out);
    // The HelmRelease is named after the site (<manifest>.<release>); the Helm release keeps its name.
    await waitForReady(['pkg.fpkg-db'], 300_000);

    // What Armada installs: the chart from Git, charts/ replaced by helm-toolkit from Git.
    const armada = path.join(work, 'armada-e2e-db');
    fs.rmSync(armada, { recursive: true, force: true });
    fs.cpSync(path.join(FIXTURES, 'e2e-db'), armada, { recursive: true, filter: (p) => path.basename(p) !== 'charts' || path.dirname(p) !== path.join(FIXTURES, 'e2e-db') });
    fs.cpSync(path.join(FIXTURES, 'helm-toolkit'), path.join(armada, 'charts', 'helm-toolkit'), { recursive: true });
    const values = path.join(work, 'values.json');
    fs.writeFileSync(values, JSON.stringify(VALUES));
    const expected = await runTool('helm4', ['template', 'fpkg-db', armada, '--namespace', namespace, '--values', values, '--no-hooks']);
    const installed = await runTool('helm4', ['get', 'manifest', 'fpkg-db', '--namespace', namespace]);
    const want = objects(expected.stdout, namespace);
    // helm-controller's own post-renderer labels every object with the HelmRelease that owns it:
    // the one difference Flux adds to what Armada installs, taken out here after checking it.
    const origin = { 'helm.toolkit.fluxcd.io/name': 'pkg.fpkg-db', 'helm.toolkit.fluxcd.io/namespace': 'flux-system' };
    const got = new Map<string, string>();
    for (const [k, v] of objects(installed.stdout, namespace)) {
      const o = JSON.parse(v) as { metadata: { labels?: Record<string, string> } };
      expect([k, Object.fromEntries(Object.entries(o.metadata.labels ?? {}).filter(([l]) => l in origin))]).toEqual([k, origin]);
      for (const l of Object.keys(origin)) delete o.metadata.labels![l];
      if (Object.keys(o.metadata.labels!).length === 0) delete o.metadata.labels;
      got.set(k, JSON.stringify(o));
    }
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [k, v] of want) expect([k, got.get(k)]).toEqual([k, v]);
  }, 900_000);
});
