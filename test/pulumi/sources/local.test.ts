import * as path from 'path';
import { ChartSource } from '../../../src/model/source';
import { ChartSourceError, defaultCacheDir, resolveChartSource } from '../../../src/pulumi/sources';
import { cleanup, isolateEnvironment, tempDir, writeChart } from './helpers';

let root: string;

beforeAll(async () => {
  await isolateEnvironment();
  root = await tempDir('local');
  await writeChart(path.join(root, 'charts-repo', 'mariadb'), 'mariadb');
  await writeChart(path.join(root, 'charts-repo', 'keystone'), 'keystone');
});
afterAll(cleanup);

describe('local sources', () => {
  test('the chart is location joined with subpath, used in place', async () => {
    const r = await resolveChartSource(ChartSource.local(path.join(root, 'charts-repo'), { subpath: 'mariadb' }));
    expect(r.dir).toBe(path.join(root, 'charts-repo', 'mariadb'));
    expect(r.root).toBe(path.join(root, 'charts-repo'));
    expect(r.cached).toBe(true);
  });

  test('without subpath the location itself is the chart (Armada default ".")', async () => {
    const r = await resolveChartSource(ChartSource.local(path.join(root, 'charts-repo', 'keystone')));
    expect(r.dir).toBe(path.join(root, 'charts-repo', 'keystone'));
  });

  test('a relative location is taken from the working directory', async () => {
    const rel = path.relative(process.cwd(), path.join(root, 'charts-repo'));
    const r = await resolveChartSource(ChartSource.local(rel, { subpath: 'mariadb' }));
    expect(path.isAbsolute(r.dir)).toBe(true);
    expect(r.dir).toBe(path.join(root, 'charts-repo', 'mariadb'));
  });

  test('a missing location says so, with the chart path it would have used', async () => {
    const loc = path.join(root, 'nowhere');
    const err = await resolveChartSource(ChartSource.local(loc, { subpath: 'mariadb' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChartSourceError);
    expect((err as ChartSourceError).code).toBe('not-found');
    expect((err as Error).message).toContain(`location ${loc} does not exist`);
    expect((err as Error).message).toContain(path.join(loc, 'mariadb'));
  });

  test('a missing subpath names both paths and lists the charts that are there', async () => {
    const loc = path.join(root, 'charts-repo');
    const err = (await resolveChartSource(ChartSource.local(loc, { subpath: 'nova' })).catch((e: unknown) => e)) as ChartSourceError;
    expect(err.code).toBe('not-found');
    expect(err.message).toContain(path.join(loc, 'nova'));
    expect(err.message).toContain(loc);
    expect(err.message).toContain('"keystone", "mariadb"');
  });

  test('a directory without Chart.yaml is not a chart', async () => {
    const loc = path.join(root, 'charts-repo');
    const err = (await resolveChartSource(ChartSource.local(loc)).catch((e: unknown) => e)) as ChartSourceError;
    expect(err.code).toBe('not-a-chart');
    expect(err.message).toContain(path.join(loc, 'Chart.yaml'));
    expect(err.message).toContain(`${loc} is not a Helm chart`);
  });

  test('a file where the chart directory should be', async () => {
    const err = (await resolveChartSource(ChartSource.local(path.join(root, 'charts-repo', 'mariadb'), { subpath: 'Chart.yaml' })).catch(
      (e: unknown) => e,
    )) as ChartSourceError;
    expect(err.code).toBe('not-found');
    expect(err.message).toContain('is a file, not a chart directory');
  });

  test('an unknown source type is refused with the accepted ones', async () => {
    const bogus = { type: 'dev', location: root, effectiveSubpath: '.' } as unknown as ChartSource;
    await expect(resolveChartSource(bogus)).rejects.toMatchObject({ code: 'unsupported-type', message: expect.stringContaining('local, tar and git') });
  });
});

describe('defaultCacheDir', () => {
  test('XDG_CACHE_HOME when absolute', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/var/cache/me' }, 'linux')).toBe(path.join('/var/cache/me', 'armada-cdk'));
  });
  test('a relative XDG_CACHE_HOME is ignored, as the XDG spec requires', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: 'rel', HOME: '/home/u' }, 'linux')).toBe(path.join('/home/u', '.cache', 'armada-cdk'));
  });
  test('~/.cache on Linux, ~/Library/Caches on macOS, LOCALAPPDATA on Windows', () => {
    expect(defaultCacheDir({ HOME: '/home/u' }, 'linux')).toBe(path.join('/home/u', '.cache', 'armada-cdk'));
    expect(defaultCacheDir({ HOME: '/Users/u' }, 'darwin')).toBe(path.join('/Users/u', 'Library', 'Caches', 'armada-cdk'));
    expect(defaultCacheDir({ LOCALAPPDATA: '/appdata' }, 'win32')).toBe(path.join('/appdata', 'armada-cdk', 'cache'));
  });
});
