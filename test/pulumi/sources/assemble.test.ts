import { promises as fs } from 'fs';
import * as path from 'path';
import { ChartSource } from '../../../src/model/source';
import { assembleChart, ChartSourceError, resolveChartSource } from '../../../src/pulumi/sources';
import { cleanup, git, isolateEnvironment, leftovers, tempDir, writeChart } from './helpers';

let work: string;
let keystone: string;
let htk: string;
let mariadb: string;

const list = async (dir: string) => (await fs.readdir(dir)).sort();

beforeAll(async () => {
  await isolateEnvironment();
  work = await tempDir('assemble');
  // The chart ships its own subchart, which Armada's dependencies must replace.
  keystone = await writeChart(path.join(work, 'keystone'), 'keystone', { files: { 'charts/bundled/Chart.yaml': 'apiVersion: v2\nname: bundled\nversion: 0.1.0\n' } });
  // Directory names differ from chart names on purpose: the name comes from Chart.yaml.
  htk = await writeChart(path.join(work, 'helm-toolkit-src'), 'helm-toolkit', { files: { 'templates/_lib.tpl': '{{- define "x" -}}x{{- end -}}\n' } });
  mariadb = await writeChart(path.join(work, 'mariadb-src'), 'mariadb');
});
afterAll(cleanup);

const fresh = () => tempDir('cache');

describe('assembleChart', () => {
  test('no dependencies key: the chart is used as it is, with its own charts/', async () => {
    await expect(assembleChart(keystone, undefined, { cacheDir: await fresh() })).resolves.toBe(keystone);
  });

  test('an empty list still replaces charts/ with an empty one, in a copy', async () => {
    const cacheDir = await fresh();
    const out = await assembleChart(keystone, [], { cacheDir });
    expect(out).not.toBe(keystone);
    expect(out.startsWith(path.join(cacheDir, 'work'))).toBe(true);
    expect(await list(path.join(out, 'charts'))).toEqual([]);
    expect(await list(out)).toEqual(['Chart.yaml', 'charts', 'templates', 'values.yaml']);
    // The source is untouched.
    expect(await list(path.join(keystone, 'charts'))).toEqual(['bundled']);
  });

  test('each dependency goes to charts/<name from its Chart.yaml>', async () => {
    const out = await assembleChart(keystone, [htk, mariadb], { cacheDir: await fresh() });
    expect(await list(path.join(out, 'charts'))).toEqual(['helm-toolkit', 'mariadb']);
    await expect(fs.readFile(path.join(out, 'charts', 'helm-toolkit', 'templates', '_lib.tpl'), 'utf8')).resolves.toContain('define "x"');
  });

  test('two levels: a dependency assembled with its own dependency keeps it', async () => {
    const cacheDir = await fresh();
    const mariadbWithHtk = await assembleChart(mariadb, [htk], { cacheDir });
    const out = await assembleChart(keystone, [mariadbWithHtk, htk], { cacheDir });
    expect(await list(path.join(out, 'charts'))).toEqual(['helm-toolkit', 'mariadb']);
    expect(await list(path.join(out, 'charts', 'mariadb', 'charts'))).toEqual(['helm-toolkit']);
    await expect(fs.stat(path.join(out, 'charts', 'mariadb', 'charts', 'helm-toolkit', 'Chart.yaml'))).resolves.toBeTruthy();
  });

  test('the work directory is named after the inputs: same inputs reuse it, changed ones get a new one', async () => {
    const cacheDir = await fresh();
    const log: string[] = [];
    const chart = await writeChart(path.join(await tempDir('edit'), 'glance'), 'glance');
    const first = await assembleChart(chart, [htk, mariadb], { cacheDir, log: (m) => log.push(m) });
    expect(path.basename(first)).toMatch(/^glance-[0-9a-f]{20}$/);
    const inode = (await fs.stat(first)).ino;
    // Dependency order does not matter: each one has its own directory.
    expect(await assembleChart(chart, [mariadb, htk], { cacheDir, log: (m) => log.push(m) })).toBe(first);
    expect(log.some((l) => l.startsWith('assemble: reusing glance'))).toBe(true);
    expect((await fs.stat(first)).ino).toBe(inode);

    await fs.writeFile(path.join(chart, 'values.yaml'), 'replicas: 2\n');
    const changed = await assembleChart(chart, [htk, mariadb], { cacheDir });
    expect(changed).not.toBe(first);
    await expect(fs.readFile(path.join(changed, 'values.yaml'), 'utf8')).resolves.toBe('replicas: 2\n');
    // A different dependency set is a different directory too.
    expect(await assembleChart(chart, [htk], { cacheDir })).not.toBe(changed);
  });

  test('the chart\'s own charts/ does not take part in the name, since it is replaced', async () => {
    const cacheDir = await fresh();
    const chart = await writeChart(path.join(await tempDir('own'), 'nova'), 'nova');
    const before = await assembleChart(chart, [htk], { cacheDir });
    await writeChart(path.join(chart, 'charts', 'old'), 'old');
    expect(await assembleChart(chart, [htk], { cacheDir })).toBe(before);
  });

  test('concurrent calls with the same inputs build once', async () => {
    const cacheDir = await fresh();
    const outs = await Promise.all([1, 2, 3].map(() => assembleChart(keystone, [htk], { cacheDir })));
    expect(new Set(outs).size).toBe(1);
    expect((await fs.readdir(path.join(cacheDir, 'work'))).filter((n) => !n.startsWith('.')).sort()).toEqual([path.basename(outs[0]), `${path.basename(outs[0])}.digest`]);
  });

  test('a work directory changed since it was assembled is assembled again', async () => {
    const cacheDir = await fresh();
    const log: string[] = [];
    const first = await assembleChart(keystone, [htk], { cacheDir });
    const planted = path.join(first, 'templates', 'planted.yaml');
    await fs.writeFile(planted, 'kind: Secret\n');
    expect(await assembleChart(keystone, [htk], { cacheDir, log: (m) => log.push(m) })).toBe(first);
    expect(log).toContain(`assemble: ${first} no longer matches the digest recorded when it was assembled; assembling it again`);
    await expect(fs.stat(planted)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await leftovers(cacheDir)).toEqual([]);
  });

  test('git metadata is not copied, so a chart at the root of a clone stays small', async () => {
    const repo = await writeChart(path.join(await tempDir('repo'), 'cinder'), 'cinder');
    await git(repo, 'init', '-q', '-b', 'master');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'chart');
    const cacheDir = await fresh();
    const resolved = await resolveChartSource(ChartSource.git(repo), { cacheDir });
    expect(await list(resolved.dir)).toContain('.git');
    const out = await assembleChart(resolved.dir, [htk], { cacheDir });
    expect(await list(out)).toEqual(['Chart.yaml', 'charts', 'templates', 'values.yaml']);
    expect(await list(resolved.dir)).not.toContain('charts');
  });

  test('two dependencies with the same chart name are refused, naming both', async () => {
    const other = await writeChart(path.join(work, 'another-htk'), 'helm-toolkit');
    const err = (await assembleChart(keystone, [htk, other], { cacheDir: await fresh() }).catch((e: unknown) => e)) as ChartSourceError;
    expect(err.code).toBe('dependency');
    expect(err.message).toContain(htk);
    expect(err.message).toContain(other);
    expect(err.message).toContain('"helm-toolkit"');
  });

  test('a dependency that is not a chart, or missing', async () => {
    const notChart = path.join(work, 'not-a-chart');
    await fs.mkdir(notChart, { recursive: true });
    await expect(assembleChart(keystone, [notChart], { cacheDir: await fresh() })).rejects.toMatchObject({
      code: 'not-a-chart',
      message: expect.stringContaining(path.join(notChart, 'Chart.yaml')),
    });
    await expect(assembleChart(keystone, [path.join(work, 'gone')], { cacheDir: await fresh() })).rejects.toMatchObject({ code: 'dependency' });
  });

  test('a Chart.yaml without a name', async () => {
    const nameless = path.join(work, 'nameless');
    await fs.mkdir(nameless, { recursive: true });
    await fs.writeFile(path.join(nameless, 'Chart.yaml'), 'apiVersion: v2\nversion: 0.1.0\n');
    await expect(assembleChart(keystone, [nameless], { cacheDir: await fresh() })).rejects.toMatchObject({
      code: 'not-a-chart',
      message: expect.stringContaining('has no `name`'),
    });
  });

  test('Chart.yaml dependencies that Armada does not provide are reported in the log', async () => {
    const log: string[] = [];
    const chart = await writeChart(path.join(await tempDir('deps'), 'heat'), 'heat', { dependencies: ['helm-toolkit', 'rabbitmq'] });
    await assembleChart(chart, [htk], { cacheDir: await fresh(), log: (m) => log.push(m) });
    expect(log.find((l) => l.includes('"rabbitmq"'))).toContain('Helm will report them missing from charts/');
    expect(log.some((l) => l.includes('"helm-toolkit"'))).toBe(false);
  });
});
