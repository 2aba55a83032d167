import { createHash } from 'crypto';
import { promises as fs } from 'fs';
import * as path from 'path';
import { gunzipSync } from 'zlib';
import * as yaml from 'yaml';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import * as cdk8s from 'cdk8s';
import { FluxOutput } from '../../src/cdk8s';
import { ChartPackagingError, packageChart, packageCharts, packageFluxCharts, packagedVersion, repositoryUrlProblem } from '../../src/chart-repository/package-charts';
import type { Diagnostic } from '../../src/model/diagnostics';
import { chartArchive } from '../../src/chart-repository/chart-archive';
import { chartFiles, ignored, parseHelmIgnore } from '../../src/chart-repository/helmignore';
import { toFluxObjects } from '../../src/model/wire/flux-v2';
import { cleanup, isolateEnvironment, tempDir, writeChart } from '../pulumi/sources/helpers';

const URL = 'https://charts.example.com/site';

/** The entries of a .tgz: name, mode, mtime, owner and content, in archive order. */
function entries(tgz: Buffer): { name: string; mode: string; mtime: string; uid: string; data: string }[] {
  const tar = gunzipSync(tgz);
  const out = [];
  let pax: string | undefined;
  for (let at = 0; at + 512 <= tar.length; ) {
    const field = (o: number, l: number) => tar.toString('utf8', at + o, at + o + l).replace(/\0.*$/s, '');
    if (field(0, 100) === '') break;
    const size = parseInt(field(124, 12), 8);
    const data = tar.toString('utf8', at + 512, at + 512 + size);
    if (field(156, 1) === 'x') pax = /path=(.*)\n/.exec(data)![1];
    else {
      const prefix = field(345, 155);
      out.push({ name: pax ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100)), mode: field(100, 8), mtime: field(136, 12), uid: field(108, 8), data });
      pax = undefined;
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

let root: string;

/** A site: toolkit (a subchart only), app with it injected, plain without dependencies, twin of app from elsewhere. */
async function site(): Promise<ArmadaManifest> {
  const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  const toolkit = new Chart(m, 'toolkit', { namespace: 'ns', source: ChartSource.local(root, { subpath: 'toolkit' }) });
  const g = new ChartGroup(m, 'g');
  new Chart(g, 'app', { namespace: 'ns', source: ChartSource.local(root, { subpath: 'app' }), dependencies: [toolkit] });
  new Chart(g, 'plain', { namespace: 'ns', source: ChartSource.local(root, { subpath: 'plain' }) });
  new Chart(g, 'app-copy', { namespace: 'ns', source: ChartSource.local(root, { subpath: 'app-copy' }), dependencies: [] });
  return m;
}

beforeAll(async () => {
  await isolateEnvironment();
  root = await tempDir('pkg');
  await writeChart(path.join(root, 'toolkit'), 'toolkit');
  await writeChart(path.join(root, 'app'), 'app', { files: { '.helmignore': '*.bak\nsecret/\n', 'notes.bak': 'x', 'secret/key': 'k', 'templates/.hidden': 'h', 'charts/old/Chart.yaml': 'apiVersion: v2\nname: old\nversion: 9.9.9\n' } });
  await writeChart(path.join(root, 'plain'), 'plain', { version: '"1.2.3" # pinned' });
  // Same name and version as app, other files.
  await writeChart(path.join(root, 'app-copy'), 'app', { files: { 'templates/extra.yaml': 'kind: Secret\n' } });
});
afterAll(cleanup);

describe('packageCharts', () => {
  test('one archive per chart, its Armada dependencies in charts/, Helm-ignored files left out, versions unique', async () => {
    const { spec, plan } = (await site()).resolve();
    const cache = await tempDir('cache');
    const r = await packageCharts(spec, plan, { url: URL, cacheDir: cache, log: () => undefined });
    const appVersion = r.charts.app.version;
    expect(Object.keys(r.charts).sort()).toEqual(['app', 'app-copy', 'plain']);
    expect(r.charts.app.name).toBe('app');
    expect(r.charts['app-copy'].name).toBe('app');
    expect(appVersion).toMatch(/^0\.1\.0\+[0-9a-f]{12}$/);
    expect(r.charts['app-copy'].version).toMatch(/^0\.1\.0\+[0-9a-f]{12}$/);
    expect(r.charts['app-copy'].version).not.toBe(appVersion);
    expect(r.charts.plain.version).toMatch(/^1\.2\.3\+[0-9a-f]{12}$/);
    expect(r.files.map((f) => f.path)).toEqual(['index.yaml', ...[`app-${appVersion}.tgz`, `app-${r.charts['app-copy'].version}.tgz`].sort(), `plain-${r.charts.plain.version}.tgz`]);

    const app = entries(r.files.find((f) => f.path === `app-${appVersion}.tgz`)!.content);
    // charts/ replaced by the injected toolkit; .helmignore'd files and templates/.hidden left out.
    expect(app.map((e) => e.name)).toEqual(['app/.helmignore', 'app/Chart.yaml', 'app/charts/toolkit/Chart.yaml', 'app/charts/toolkit/templates/cm.yaml', 'app/charts/toolkit/values.yaml', 'app/templates/cm.yaml', 'app/values.yaml']);
    expect(new Set(app.map((e) => `${e.mode} ${e.mtime} ${e.uid}`))).toEqual(new Set(['0000644 00000000000 0000000']));
    expect(app.find((e) => e.name === 'app/Chart.yaml')!.data).toBe(`apiVersion: v2\nname: app\nversion: ${appVersion}\n`);
    // The version line alone is rewritten; a comment stays.
    const plain = entries(r.files.find((f) => f.path.startsWith('plain-'))!.content);
    expect(plain.find((e) => e.name === 'plain/Chart.yaml')!.data).toBe(`apiVersion: v2\nname: plain\nversion: ${r.charts.plain.version} # pinned\n`);
  });

  test('index.yaml: Helm\'s layout, sha256 digests, fixed times, relative URLs', async () => {
    const { spec, plan } = (await site()).resolve();
    const r = await packageCharts(spec, plan, { url: URL, cacheDir: await tempDir('cache'), log: () => undefined });
    const index = r.files[0].content.toString('utf8');
    const sha = (p: string) => createHash('sha256').update(r.files.find((f) => f.path === p)!.content).digest('hex');
    const [v1, v2] = [r.charts.app.version, r.charts['app-copy'].version].sort().reverse();
    const pv = r.charts.plain.version;
    expect(index).toBe(
      [
        'apiVersion: v1',
        'entries:',
        '  app:',
        ...[v1, v2].flatMap((v) => ['    - apiVersion: v2', '      created: "1970-01-01T00:00:00Z"', `      digest: ${sha(`app-${v}.tgz`)}`, '      name: app', '      urls:', `        - app-${v}.tgz`, `      version: ${v}`]),
        '  plain:',
        '    - apiVersion: v2',
        '      created: "1970-01-01T00:00:00Z"',
        `      digest: ${sha(`plain-${pv}.tgz`)}`,
        '      name: plain',
        '      urls:',
        `        - plain-${pv}.tgz`,
        `      version: ${pv}`,
        'generated: "1970-01-01T00:00:00Z"',
        '',
      ].join('\n'),
    );
  });

  test('byte-identical across runs and caches', async () => {
    const { spec, plan } = (await site()).resolve();
    const a = await packageCharts(spec, plan, { url: URL, cacheDir: await tempDir('cache'), log: () => undefined });
    const b = await packageCharts(spec, plan, { url: URL, cacheDir: await tempDir('cache'), log: () => undefined });
    expect(b.files.map((f) => [f.path, f.content.toString('base64')])).toEqual(a.files.map((f) => [f.path, f.content.toString('base64')]));
    expect(b.charts).toEqual(a.charts);
  });

  test('every chart that cannot be packaged is reported, with its location and the reason', async () => {
    const bad = await tempDir('bad');
    await writeChart(path.join(bad, 'noversion'), 'noversion', { version: 'latest' });
    const m = new ArmadaManifest(undefined, 'bad', { releasePrefix: 'p' });
    const g = new ChartGroup(m, 'g');
    new Chart(g, 'missing', { namespace: 'ns', source: ChartSource.local(bad, { subpath: 'nothing-here' }) });
    new Chart(g, 'noversion', { namespace: 'ns', source: ChartSource.local(bad, { subpath: 'noversion' }) });
    const { spec, plan } = m.resolve();
    const e = await packageCharts(spec, plan, { url: URL, cacheDir: await tempDir('cache'), log: () => undefined }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ChartPackagingError);
    expect((e as ChartPackagingError).failures.map((f) => [f.chart, f.location])).toEqual([['missing', 'bad/g/missing']]);
    expect((e as ChartPackagingError).failures[0].message).toContain('nothing-here');
    // The fetch failures come first (all together); a bad chart is reported once its source is there.
    const m2 = new ArmadaManifest(undefined, 'bad2', { releasePrefix: 'p' });
    new Chart(new ChartGroup(m2, 'g'), 'noversion', { namespace: 'ns', source: ChartSource.local(bad, { subpath: 'noversion' }) });
    const r2 = m2.resolve();
    const e2 = (await packageCharts(r2.spec, r2.plan, { url: URL, cacheDir: await tempDir('cache'), log: () => undefined }).catch((x: unknown) => x)) as ChartPackagingError;
    expect(e2.message).toBe(`1 chart could not be packaged, so no chart repository was written:\n  error: bad2/g/noversion: source: chart "noversion" cannot be packaged: its Chart.yaml: version "latest" is not a SemVer version, which Helm requires of a chart`);
    // The same findings as convert --package-charts reports (which names its option in front).
    expect(e2.diagnostics).toEqual([{ severity: 'error', location: 'bad2/g/noversion', field: 'source', code: 'flux-source', message: 'chart "noversion" cannot be packaged: its Chart.yaml: version "latest" is not a SemVer version, which Helm requires of a chart' }]);
    expect((e as ChartPackagingError).diagnostics.map((d) => [d.severity, d.location, d.field])).toEqual([['error', 'bad/g/missing', 'source']]);
  });

  test('a library user gets the warnings as diagnostics at the chart, and FluxOutput reports them at synth', async () => {
    const dir = await tempDir('ver');
    await writeChart(path.join(dir, 'ver'), 'ver', { version: '1.0.0', files: { 'templates/v.yaml': 'kind: ConfigMap\ndata:\n  v: {{ .Chart.Version }}\n' } });
    const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(m, 'g'), 'ver', { namespace: 'ns', source: ChartSource.local(dir, { subpath: 'ver' }) });
    const packaged = await packageFluxCharts(m, { url: URL, cacheDir: await tempDir('cache'), log: () => undefined });
    const version = packaged.charts.ver.version;
    const message = `packaged chart: templates/v.yaml reads .Chart.Version, which is ${JSON.stringify(version)} in the packaged chart, where Armada's Helm read "1.0.0": the objects that print it differ (the digest in the version makes every change of the chart's files a new version, which Flux installs)`;
    expect(packaged.diagnostics).toEqual([{ severity: 'warning', location: 'site/g/ver', field: 'source', code: 'flux-assumption', message }]);
    const app = new cdk8s.App({ outdir: await tempDir('out') });
    const seen: Diagnostic[] = [];
    new FluxOutput(new cdk8s.Chart(app, 'flux'), 'flux', { manifest: m, chartRepository: packaged, onWarning: (d) => seen.push(d) });
    app.synth();
    expect(seen.filter((d) => d.code === 'flux-assumption' && d.field === 'source')).toEqual(packaged.diagnostics);
  });

  test('an unreachable tarball source is an error that names it', async () => {
    const m = new ArmadaManifest(undefined, 'net', { releasePrefix: 'p' });
    new Chart(new ChartGroup(m, 'g'), 'far', { namespace: 'ns', source: ChartSource.tar('http://127.0.0.1:9/far-0.1.0.tgz') });
    const { spec, plan } = m.resolve();
    const e = (await packageCharts(spec, plan, { url: URL, cacheDir: await tempDir('cache'), log: () => undefined }).catch((x: unknown) => x)) as ChartPackagingError;
    expect(e).toBeInstanceOf(ChartPackagingError);
    expect(e.failures[0].message).toMatch(/^tar source http:\/\/127\.0\.0\.1:9\/far-0\.1\.0\.tgz: /);
  });

  test('the repository URL is checked', async () => {
    expect(repositoryUrlProblem('https://charts.example.com/x')).toBeUndefined();
    expect(repositoryUrlProblem('oci://registry/x')).toBe('received "oci://registry/x"; it must be an http:// or https:// URL without a query or fragment, where the repository\'s index.yaml will be served');
    expect(repositoryUrlProblem('https://user:pw@charts.example.com/x')).toBe('received "https://***@charts.example.com/x", which carries credentials before the host: the HelmRepository\'s spec.url would hold it in clear, in Git; give the HelmRepository spec.secretRef instead');
    const { spec, plan } = (await site()).resolve();
    await expect(packageCharts(spec, plan, { url: 'ftp://x' })).rejects.toThrow('the chart repository URL: received "ftp://x"; it must be');
  });
});

describe('the HelmReleases of a packaged site', () => {
  test('every chart from one HelmRepository at the URL, by name and exact version; no subchart warning', async () => {
    const { spec, plan } = (await site()).resolve();
    const repo = { url: URL, charts: { app: { name: 'app', version: '0.1.0+aaaaaaaaaaaa' }, 'app-copy': { name: 'app', version: '0.1.0+bbbbbbbbbbbb' }, plain: { name: 'plain', version: '1.2.3+cccccccccccc' } } };
    const r = toFluxObjects(spec, plan, { chartRepository: repo });
    expect(r.objects.map((o) => `${o.kind} ${o.metadata.name}`)).toEqual(['HelmRepository site.site', 'HelmRelease site.p-app', 'HelmRelease site.p-plain', 'HelmRelease site.p-app-copy']);
    expect(r.objects[0].spec).toEqual({ url: URL, interval: '10m' });
    expect(r.objects.slice(1).map((o) => (o.spec as { chart: unknown }).chart)).toEqual([
      { spec: { chart: 'app', version: '0.1.0+aaaaaaaaaaaa', sourceRef: { kind: 'HelmRepository', name: 'site.site' } } },
      { spec: { chart: 'plain', version: '1.2.3+cccccccccccc', sourceRef: { kind: 'HelmRepository', name: 'site.site' } } },
      { spec: { chart: 'app', version: '0.1.0+bbbbbbbbbbbb', sourceRef: { kind: 'HelmRepository', name: 'site.site' } } },
    ]);
    // Local sources and dependencies need nothing more.
    expect(r.diagnostics.all.filter((d) => d.field === 'source.type' || d.field === 'dependencies')).toEqual([]);
  });

  test('a chart the repository lacks is an error', () => {
    const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(m, 'g'), 'app', { namespace: 'ns', source: ChartSource.local('/charts') });
    const { spec, plan } = m.resolve();
    const r = toFluxObjects(spec, plan, { chartRepository: { url: URL, charts: {} } });
    expect(r.diagnostics.all.filter((d) => d.severity === 'error').map((d) => `${d.location} ${d.field} ${d.message}`)).toEqual([
      `site/g/app source chart "app" is not in the packaged chart repository "${URL}", which lists no chart: package the charts of this manifest again`,
    ]);
  });
});

describe('Helm\'s chart files and archive', () => {
  test('.helmignore rules as Helm applies them', () => {
    const rules = parseHelmIgnore('# comment\n*.tgz\n/top.txt\ndocs/\nsub/*.md\n');
    const cases: [string, boolean, boolean][] = [
      ['a.tgz', false, true],
      ['charts/x/a.tgz', false, true],
      ['top.txt', false, true],
      ['x/top.txt', false, false],
      ['docs', true, true],
      ['docs', false, false],
      ['sub/a.md', false, true],
      ['other/sub/a.md', false, false],
      ['templates/.keep', false, true],
      ['templates/a.yaml', false, false],
    ];
    expect(cases.map(([p, dir]) => [p, dir, ignored(rules, p, dir)])).toEqual(cases);
    // Helm's negation: a path the !pattern does not match is ignored.
    const neg = parseHelmIgnore('!*.yaml\n');
    expect([ignored(neg, 'values.yaml', false), ignored(neg, 'README.md', false)]).toEqual([false, true]);
    expect(() => parseHelmIgnore('a/**/b')).toThrow('"a/**/b": Helm does not support ** in .helmignore');
    expect(() => parseHelmIgnore('[a')).toThrow('"[a": a character class is not closed with ]');
  });

  test('long names get a ustar prefix or a PAX header; the archive names the chart directory', async () => {
    const long = `templates/${'d'.repeat(90)}/${'f'.repeat(90)}.yaml`;
    const longer = `templates/${'x'.repeat(120)}.yaml`;
    const data = (s: string) => Buffer.from(s);
    const tgz = chartArchive('c', [{ name: long, data: data('a') }, { name: longer, data: data('b') }]);
    expect(entries(tgz).map((e) => [e.name, e.data])).toEqual([[`c/${long}`, 'a'], [`c/${longer}`, 'b']]);
    expect([tgz[0], tgz[1], tgz.readUInt32LE(4), tgz[9]]).toEqual([0x1f, 0x8b, 0, 3]);
  });

  test('a long non-ASCII name gets a PAX header whose length counts bytes; the same bytes on every Node.js', () => {
    const name = `templates/${'é'.repeat(60)}.yaml`;
    const tgz = chartArchive('c', [{ name, data: Buffer.from('a') }, { name: 'Chart.yaml', data: Buffer.from('name: c\nversion: 0.1.0\n') }]);
    expect(entries(tgz).map((e) => [e.name, e.data])).toEqual([[`c/${name}`, 'a'], ['c/Chart.yaml', 'name: c\nversion: 0.1.0\n']]);
    // Pinned: the archive, and so index.yaml's digest, must not depend on the machine (CI runs Node.js 22 and 24).
    expect(createHash('sha256').update(tgz).digest('hex')).toBe('29edf81568395aa6422831995538d27afda36640af36330fe9822c97e04c5980');
  });

  test('a symbolic link is followed, as Helm loads a chart', async () => {
    const dir = await tempDir('links');
    await writeChart(path.join(dir, 'c'), 'c');
    await fs.symlink(path.join(dir, 'c', 'values.yaml'), path.join(dir, 'c', 'linked.yaml'));
    expect((await chartFiles(path.join(dir, 'c'))).map((f) => f.name)).toEqual(['Chart.yaml', 'linked.yaml', 'templates/cm.yaml', 'values.yaml']);
  });

  test('a template that reads .Chart.Version is named', async () => {
    const dir = await tempDir('ver');
    await writeChart(path.join(dir, 'c'), 'c', { files: { 'templates/label.yaml': 'v: {{ .Chart.Version }}\n' } });
    const p = await packageChart(path.join(dir, 'c'));
    expect([p.versionReaders, p.version]).toEqual([['templates/label.yaml'], '0.1.0']);
  });

  test('a version with build metadata keeps it and gets the digest after it', () => {
    expect([packagedVersion('1.0.0', 'abc'), packagedVersion('1.0.0+build.1', 'abc')]).toEqual(['1.0.0+abc', '1.0.0+build.1.abc']);
  });

  test('the index reads back as YAML', async () => {
    const { spec, plan } = (await site()).resolve();
    const r = await packageCharts(spec, plan, { url: URL, cacheDir: await tempDir('cache'), log: () => undefined });
    const index = yaml.parse(r.files[0].content.toString('utf8')) as { entries: Record<string, { version: string }[]> };
    expect(Object.keys(index.entries)).toEqual(['app', 'plain']);
  });
});
