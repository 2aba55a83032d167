import { capture, Captured, registered, RELEASE, settled, valueOf } from './mocks';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import type { ChartSpec } from '../../src/model/spec';
import { ManifestDeployment } from '../../src/pulumi';
import { ChartPreparationError, chartResolver, fingerprint, needsRefresh, prepareCharts, publishChart } from '../../src/pulumi/chart-resolver';
import { resolveChartSource } from '../../src/pulumi/sources';

let tmp: string;
let cacheDir: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'armada-cdk-resolver-'));
  cacheDir = path.join(tmp, 'cache');
});
afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

async function writeChart(dir: string, name: string, extra: Record<string, string> = {}): Promise<string> {
  const files = { 'Chart.yaml': `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`, 'values.yaml': 'replicas: 1\n', 'templates/cm.yaml': `kind: ConfigMap\nmetadata:\n  name: ${name}\n`, ...extra };
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
  return dir;
}

/** Relative paths of every file under `dir`. */
async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, rel: string) => {
    for (const e of (await fs.readdir(d, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) await walk(path.join(d, e.name), rel ? `${rel}/${e.name}` : e.name);
      else out.push(rel ? `${rel}/${e.name}` : e.name);
    }
  };
  await walk(dir, '');
  return out;
}

/** A manifest of local charts: keystone (subchart helm-toolkit, which has its own subchart), ingress (own charts/ kept). */
async function localSite() {
  const charts = path.join(tmp, 'charts');
  await writeChart(path.join(charts, 'keystone'), 'keystone', { 'charts/stale/Chart.yaml': 'apiVersion: v2\nname: stale\nversion: 0.0.1\n' });
  await writeChart(path.join(charts, 'helm-toolkit'), 'helm-toolkit');
  await writeChart(path.join(charts, 'lib-base'), 'lib-base');
  await writeChart(path.join(charts, 'ingress'), 'ingress', { 'charts/own/Chart.yaml': 'apiVersion: v2\nname: own\nversion: 0.0.1\n' });
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  const base = new Chart(site, 'lib-base', { namespace: 'ns', source: ChartSource.local(charts, { subpath: 'lib-base' }) });
  const htk = new Chart(site, 'helm-toolkit', { namespace: 'ns', source: ChartSource.local(charts, { subpath: 'helm-toolkit' }), dependencies: [base] });
  const g = new ChartGroup(site, 'g');
  new Chart(g, 'keystone', { namespace: 'ns', source: ChartSource.local(charts, { subpath: 'keystone' }), dependencies: [htk], wait: { labels: { app: 'k' } } });
  new Chart(g, 'ingress', { namespace: 'ns', source: ChartSource.local(charts, { subpath: 'ingress' }), wait: { labels: { app: 'i' } } });
  return { site, charts };
}

const specOf = (site: ArmadaManifest, name: string) => site.resolve().spec.charts.find((c) => c.name === name)!;

describe('chartResolver (the default chart resolution)', () => {
  test('dependencies replace charts/, recursively; no dependencies key keeps the chart\'s own; results are content-addressed', async () => {
    const { site, charts } = await localSite();
    const resolve = chartResolver(site.resolve().spec, { cacheDir });
    const keystone = await resolve(specOf(site, 'keystone'));
    expect(path.dirname(keystone)).toBe(path.join(cacheDir, 'charts'));
    expect(path.basename(keystone)).toMatch(/^keystone-[0-9a-f]{20}$/);
    expect(await tree(keystone)).toEqual([
      'Chart.yaml',
      'charts/helm-toolkit/Chart.yaml',
      'charts/helm-toolkit/charts/lib-base/Chart.yaml',
      'charts/helm-toolkit/charts/lib-base/templates/cm.yaml',
      'charts/helm-toolkit/charts/lib-base/values.yaml',
      'charts/helm-toolkit/templates/cm.yaml',
      'charts/helm-toolkit/values.yaml',
      'templates/cm.yaml',
      'values.yaml',
    ]);
    const ingress = await resolve(specOf(site, 'ingress'));
    expect(await tree(ingress)).toContain('charts/own/Chart.yaml');
    // The same chart again: the same directory, prepared once.
    expect(await resolve(specOf(site, 'keystone'))).toBe(keystone);
    expect(await chartResolver(site.resolve().spec, { cacheDir })(specOf(site, 'keystone'))).toBe(keystone);
    // A change anywhere in the chart or its subcharts gives a new directory (so the Release upgrades).
    await fs.writeFile(path.join(charts, 'lib-base', 'values.yaml'), 'replicas: 2\n');
    const changed = await chartResolver(site.resolve().spec, { cacheDir })(specOf(site, 'keystone'));
    expect(changed).not.toBe(keystone);
    expect(await fs.readFile(path.join(changed, 'charts/helm-toolkit/charts/lib-base/values.yaml'), 'utf8')).toBe('replicas: 2\n');
  });

  test('publishChart: names and contents count, timestamps and modes do not; .git is left out', async () => {
    const a = await writeChart(path.join(tmp, 'a'), 'x', { '.git/HEAD': 'ref: refs/heads/master\n' });
    const b = await writeChart(path.join(tmp, 'b'), 'x');
    await fs.chmod(path.join(b, 'values.yaml'), 0o755);
    expect(await fingerprint(a)).toBe(await fingerprint(b));
    const published = await publishChart(a, 'x', { cacheDir });
    expect(await publishChart(b, 'x', { cacheDir })).toBe(published);
    expect(await tree(published)).toEqual(['Chart.yaml', 'templates/cm.yaml', 'values.yaml']);
  });

  test('git references that move are fetched again once per run; a full SHA and tarballs are not', async () => {
    const chart = (source: ChartSource) => ({ source }) as ChartSpec;
    expect(needsRefresh(chart(ChartSource.git('https://example.org/r', { reference: 'master' })))).toBe(true);
    expect(needsRefresh(chart(ChartSource.git('https://example.org/r')))).toBe(true);
    expect(needsRefresh(chart(ChartSource.git('https://example.org/r', { reference: 'refs/changes/61/924261/3' })))).toBe(true);
    expect(needsRefresh(chart(ChartSource.git('https://example.org/r', { reference: 'v1.2.3' })))).toBe(true);
    expect(needsRefresh(chart(ChartSource.git('https://example.org/r', { reference: 'a'.repeat(40) })))).toBe(false);
    expect(needsRefresh(chart(ChartSource.git('https://example.org/r', { reference: 'abc1234' })))).toBe(true);
    expect(needsRefresh(chart(ChartSource.tar('https://example.org/c.tgz')))).toBe(false);
    expect(needsRefresh(chart(ChartSource.local('/c')))).toBe(false);
  });

  test('a branch that moved since the cache was filled is fetched again (git, against a local repository)', async () => {
    const env = { ...process.env, GIT_CONFIG_GLOBAL: path.join(tmp, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };
    await fs.writeFile(env.GIT_CONFIG_GLOBAL, '');
    const repo = path.join(tmp, 'repo');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, stdio: 'pipe' }).toString().trim();
    await writeChart(path.join(repo, 'mychart'), 'mychart');
    git('init', '-q', '-b', 'master');
    git('add', '.');
    git('commit', '-q', '-m', 'one');
    const source = ChartSource.git(repo, { subpath: 'mychart', reference: 'master' });
    const previousRun = await resolveChartSource(source, { cacheDir });
    await fs.writeFile(path.join(repo, 'mychart', 'values.yaml'), 'replicas: 5\n');
    git('commit', '-q', '-am', 'two');
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(site, 'g'), 'mychart', { namespace: 'ns', source, wait: { labels: { a: 'b' } } });
    const dir = await chartResolver(site.resolve().spec, { cacheDir })(specOf(site, 'mychart'));
    expect(await fs.readFile(path.join(previousRun.dir, 'values.yaml'), 'utf8')).toBe('replicas: 1\n');
    expect(await fs.readFile(path.join(dir, 'values.yaml'), 'utf8')).toBe('replicas: 5\n');
  });

  test('prepareCharts reports every chart that failed, with its construct path and the reason', async () => {
    const { site } = await localSite();
    const spec = site.resolve().spec;
    const broken = spec.charts.map((c) => (c.name === 'ingress' ? { ...c, source: ChartSource.local(path.join(tmp, 'nowhere')) } : c));
    const resolve = chartResolver({ ...spec, charts: broken }, { cacheDir });
    const failure = prepareCharts([...broken.filter((c) => c.name === 'ingress' || c.name === 'keystone'), { ...broken[0], name: 'empty' }], async (c) => (c.name === 'empty' ? '' : resolve(c)));
    await expect(failure).rejects.toBeInstanceOf(ChartPreparationError);
    const message = await failure.then(() => '', (e: Error) => e.message);
    expect(message.split('\n')[0]).toBe('2 charts could not be prepared, so nothing was deployed:');
    expect(message).toMatch(/\n {2}site\/g\/ingress: chart "ingress": local source .*nowhere.*\n/);
    expect(message).toMatch(/\n {2}site\/lib-base: chart "empty": resolveChart returned ""; it must return the chart's directory$/);
  });
});

describe('ManifestDeployment with the default resolution', () => {
  test('each Release installs the prepared directory', async () => {
    const { site } = await localSite();
    const seen: Captured[] = [];
    const d = new ManifestDeployment('site', { manifest: site, sources: { cacheDir } }, { transformations: [capture(seen)] });
    await settled(seen);
    await valueOf(d.releases);
    const charts = await Promise.all(seen.filter((c) => c.type === RELEASE).map((c) => valueOf<string>(c.props.chart)));
    expect(charts.map((c) => [path.dirname(c), path.basename(c).replace(/-[0-9a-f]{20}$/, '')])).toEqual([
      [path.join(cacheDir, 'charts'), 'keystone'],
      [path.join(cacheDir, 'charts'), 'ingress'],
    ]);
  });

  test('pre-flight: no Release registers before every chart is prepared, as Armada downloads everything first', async () => {
    const { site } = await localSite();
    let release!: (dir: string) => void;
    const slow = new Promise<string>((r) => (release = r));
    const before = registered.length;
    const d = new ManifestDeployment('site', { manifest: site, resolveChart: (c) => (c.name === 'ingress' ? slow : Promise.resolve(`/charts/${c.name}`)) });
    await new Promise((r) => setTimeout(r, 200));
    expect(registered.slice(before).filter((r) => r.type === RELEASE)).toEqual([]);
    release('/charts/ingress');
    await valueOf(d.releases);
    expect(registered.slice(before).filter((r) => r.type === RELEASE).map((r) => r.inputs.chart)).toEqual(['/charts/keystone', '/charts/ingress']);
  });
});
