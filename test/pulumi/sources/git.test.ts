import { promises as fs } from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { Duration } from '../../../src/model/duration';
import { ChartSource } from '../../../src/model/source';
import { ChartSourceError, resolveChartSource } from '../../../src/pulumi/sources';
import { cloneIntoCache } from '../../../src/pulumi/sources/git-source';
import { cleanup, git, isolateEnvironment, leftovers, pathExists, serveDirectory, startProxy, startServer, tempDir, TestProxy, TestServer, writeChart } from './helpers';

let work: string;
let repo: string;
const commits: Record<'A' | 'B' | 'C' | 'D', string> = { A: '', B: '', C: '', D: '' };
let wrapper: string;
let httpServer: TestServer;
let proxy: TestProxy;

const version = async (dir: string) => /version: (\S+)/.exec(await fs.readFile(path.join(dir, 'Chart.yaml'), 'utf8'))![1];

/** A git that records each invocation (and the auth-related environment) before running the real one. */
async function recordingGit(dir: string): Promise<string> {
  const file = path.join(dir, 'git-recording');
  await fs.writeFile(
    file,
    '#!/bin/sh\n' +
      'printf \'%s\\n\' "$*" >> "$ARMADA_TEST_GIT_LOG"\n' +
      'printf \'prompt=%s ssh=%s\\n\' "$GIT_TERMINAL_PROMPT" "$GIT_SSH_COMMAND" >> "$ARMADA_TEST_GIT_LOG.env"\n' +
      'exec git "$@"\n',
    { mode: 0o755 },
  );
  return file;
}

async function gitLog(): Promise<{ file: string; lines: () => Promise<string[]>; env: () => Promise<string[]> }> {
  const file = path.join(await tempDir('gitlog'), 'log');
  process.env.ARMADA_TEST_GIT_LOG = file;
  const read = async (f: string) => (await fs.readFile(f, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  return { file, lines: () => read(file), env: () => read(`${file}.env`) };
}

beforeAll(async () => {
  await isolateEnvironment();
  work = await tempDir('git');
  repo = path.join(work, 'openstack-helm');
  await fs.mkdir(repo);
  await git(repo, 'init', '-q', '-b', 'master');
  await writeChart(path.join(repo, 'mariadb'), 'mariadb', { version: '1.0.0' });
  await writeChart(path.join(repo, 'keystone'), 'keystone');
  await fs.mkdir(path.join(repo, 'doc'));
  await fs.writeFile(path.join(repo, 'doc', 'README'), 'not a chart\n');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'A');
  commits.A = await git(repo, 'rev-parse', 'HEAD');
  await git(repo, 'tag', '-a', 'v1.0', '-m', 'release 1.0');

  await writeChart(path.join(repo, 'mariadb'), 'mariadb', { version: '2.0.0' });
  await git(repo, 'commit', '-q', '-am', 'B');
  commits.B = await git(repo, 'rev-parse', 'HEAD');

  await git(repo, 'checkout', '-q', '-b', 'feature');
  await writeChart(path.join(repo, 'mariadb'), 'mariadb', { version: '3.0.0' });
  await git(repo, 'commit', '-q', '-am', 'C');
  commits.C = await git(repo, 'rev-parse', 'HEAD');

  // A Gerrit change: a commit reachable only from refs/changes/…, which a clone does not bring.
  await git(repo, 'checkout', '-q', '-b', 'gerrit-tmp', commits.B);
  await writeChart(path.join(repo, 'mariadb'), 'mariadb', { version: '4.0.0' });
  await git(repo, 'commit', '-q', '-am', 'D');
  commits.D = await git(repo, 'rev-parse', 'HEAD');
  await git(repo, 'update-ref', 'refs/changes/01/1/1', commits.D);
  await git(repo, 'checkout', '-q', 'master');
  await git(repo, 'branch', '-q', '-D', 'gerrit-tmp');

  // The same repository over git's "dumb" HTTP protocol, which plain static files can serve.
  await git(work, 'clone', '-q', '--bare', repo, path.join(work, 'served', 'openstack-helm.git'));
  await git(path.join(work, 'served', 'openstack-helm.git'), 'update-ref', 'refs/changes/01/1/1', commits.D);
  await git(path.join(work, 'served', 'openstack-helm.git'), 'update-server-info');
  httpServer = await startServer(serveDirectory(path.join(work, 'served')));
  proxy = await startProxy();
  wrapper = await recordingGit(work);
});
afterAll(async () => {
  await Promise.all([httpServer?.close(), proxy?.close()]);
  await cleanup();
});

const fresh = () => tempDir('cache');

describe('git sources: references', () => {
  test('default reference is master; the chart is <clone>/<subpath>', async () => {
    const r = await resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb' }), { cacheDir: await fresh() });
    expect(r.commit).toBe(commits.B);
    expect(r.dir).toBe(path.join(r.root, 'mariadb'));
    expect(await version(r.dir)).toBe('2.0.0');
    expect(r.cached).toBe(false);
  });

  test.each([
    ['a branch', 'feature', 'C', '3.0.0'],
    ['an annotated tag', 'v1.0', 'A', '1.0.0'],
    ['a full commit SHA', () => commits.A, 'A', '1.0.0'],
    ['a Gerrit change ref', 'refs/changes/01/1/1', 'D', '4.0.0'],
  ] as const)('%s', async (_what, ref, commit, v) => {
    const reference = typeof ref === 'function' ? ref() : ref;
    const r = await resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb', reference }), { cacheDir: await fresh() });
    expect(r.commit).toBe(commits[commit]);
    expect(await version(r.dir)).toBe(v);
  });

  test('an abbreviated SHA, which git fetch refuses, is found in the clone', async () => {
    const r = await resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb', reference: commits.A.slice(0, 10) }), { cacheDir: await fresh() });
    expect(r.commit).toBe(commits.A);
  });

  test('a file:// URL works like a path', async () => {
    const r = await resolveChartSource(ChartSource.git(pathToFileURL(repo).href, { subpath: 'keystone', reference: 'feature' }), { cacheDir: await fresh() });
    expect(r.commit).toBe(commits.C);
  });
});

describe('git sources: one clone per (location, reference)', () => {
  test('concurrent charts of one repo and ref share one clone; later resolves reuse it', async () => {
    const cacheDir = await fresh();
    const log = await gitLog();
    const opts = { cacheDir, gitCommand: wrapper };
    const [a, b, c] = await Promise.all([
      resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb' }), opts),
      resolveChartSource(ChartSource.git(repo, { subpath: 'keystone' }), opts),
      resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb', reference: 'master' }), opts),
    ]);
    expect(new Set([a.root, b.root, c.root]).size).toBe(1);
    expect(b.dir).toBe(path.join(a.root, 'keystone'));
    const clones = () => log.lines().then((ls) => ls.filter((l) => / clone /.test(` ${l} `)));
    expect(await clones()).toHaveLength(1);

    const again = await resolveChartSource(ChartSource.git(repo, { subpath: 'keystone' }), opts);
    expect(again.cached).toBe(true);
    expect(again.root).toBe(a.root);
    expect(await clones()).toHaveLength(1);

    const other = await resolveChartSource(ChartSource.git(repo, { subpath: 'keystone', reference: 'feature' }), opts);
    expect(other.root).not.toBe(a.root);
    expect(await clones()).toHaveLength(2);
  });

  test('git is asked for clone, fetch origin <reference> and a detached checkout, never a prompt', async () => {
    const log = await gitLog();
    await resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb', reference: 'feature' }), { cacheDir: await fresh(), gitCommand: wrapper });
    const lines = await log.lines();
    expect(lines[0]).toMatch(new RegExp(`^clone --quiet --no-checkout -- ${repo} .*\\.tmp-clone-`));
    expect(lines).toContain('fetch --quiet origin -- feature');
    expect(lines).toContain('-c advice.detachedHead=false checkout --quiet --detach FETCH_HEAD');
    expect((await log.env()).every((l) => l.startsWith('prompt=0 '))).toBe(true);
  });

  test('two processes racing for one clone both end up with the same published directory', async () => {
    const cacheDir = await fresh();
    const entry = path.join(cacheDir, 'git', 'race');
    const request = { location: repo, reference: 'master' };
    const [x, y] = await Promise.all([cloneIntoCache(entry, request, { cacheDir }), cloneIntoCache(entry, request, { cacheDir })]);
    expect(x.root).toBe(y.root);
    expect(x.root).toBe(path.join(entry, commits.B));
    expect((await fs.readdir(entry)).sort()).toEqual([commits.B, `${commits.B}.digest`, 'current'].sort());
    expect(await leftovers(cacheDir)).toEqual([]);
  });

  test('refresh fetches again once per process and moves to the new commit; old clones stay', async () => {
    const upstream = path.join(await tempDir('moving'), 'repo');
    await git(work, 'clone', '-q', repo, upstream);
    const cacheDir = await fresh();
    const src = ChartSource.git(upstream, { subpath: 'mariadb' });
    const first = await resolveChartSource(src, { cacheDir });
    await writeChart(path.join(upstream, 'mariadb'), 'mariadb', { version: '5.0.0' });
    await git(upstream, 'commit', '-q', '-am', 'E');
    const e = await git(upstream, 'rev-parse', 'HEAD');

    expect((await resolveChartSource(src, { cacheDir })).commit).toBe(first.commit);
    const log = await gitLog();
    const refreshed = await resolveChartSource(src, { cacheDir, refresh: true, gitCommand: wrapper });
    expect(refreshed.commit).toBe(e);
    expect(await version(refreshed.dir)).toBe('5.0.0');
    expect(await pathExists(first.dir)).toBe(true);
    expect((await log.lines())[0]).toContain('--reference-if-able');
    await resolveChartSource(src, { cacheDir, refresh: true, gitCommand: wrapper });
    expect((await log.lines()).filter((l) => l.includes(' clone ') || l.startsWith('clone '))).toHaveLength(1);
    expect((await resolveChartSource(src, { cacheDir })).commit).toBe(e);
  });
});

describe('git sources: proxy and ssh', () => {
  test('proxyServer becomes http.proxy for clone and fetch, and is not left in the clone', async () => {
    const before = proxy.seen.length;
    const url = `${httpServer.url}/openstack-helm.git`;
    const r = await resolveChartSource(ChartSource.git(url, { subpath: 'mariadb', reference: 'refs/changes/01/1/1', proxyServer: proxy.url }), {
      cacheDir: await fresh(),
    });
    expect(r.commit).toBe(commits.D);
    const seen = proxy.seen.slice(before);
    expect(seen.some((s) => s.startsWith(`GET ${url}/info/refs`))).toBe(true);
    expect(seen.every((s) => s.startsWith(`GET ${url}/`))).toBe(true);
    expect(await fs.readFile(path.join(r.root, '.git', 'config'), 'utf8')).not.toContain('proxy');
  });

  test('authMethod ssh (any case) sets GIT_SSH_COMMAND with the key and no host key checking', async () => {
    const key = path.join(await tempDir('ssh'), 'id rsa');
    await fs.writeFile(key, 'not really a key\n', { mode: 0o600 });
    const log = await gitLog();
    await resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb', authMethod: 'SSH' }), { cacheDir: await fresh(), gitCommand: wrapper, sshKeyPath: key });
    const env = (await log.env())[0];
    expect(env).toContain(`ssh -i '${key}'`);
    expect(env).toContain('StrictHostKeyChecking=no');
    expect(env).toContain('BatchMode=yes');
  });

  test('authMethod ssh with a missing key fails before cloning', async () => {
    const err = (await resolveChartSource(ChartSource.git(repo, { authMethod: 'ssh' }), { cacheDir: await fresh(), sshKeyPath: path.join(work, 'no-key') }).catch(
      (e: unknown) => e,
    )) as ChartSourceError;
    expect(err.code).toBe('git-ssh-key');
    expect(err.message).toContain(path.join(work, 'no-key'));
  });

  test('without authMethod no GIT_SSH_COMMAND is set', async () => {
    const log = await gitLog();
    await resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb', reference: 'v1.0' }), { cacheDir: await fresh(), gitCommand: wrapper });
    expect((await log.env())[0]).toBe('prompt=0 ssh=');
  });
});

describe('git sources: failures', () => {
  test('a missing repository: git-clone with git\'s own words, and nothing left behind', async () => {
    const cacheDir = await fresh();
    const missing = path.join(work, 'no-such-repo');
    const err = (await resolveChartSource(ChartSource.git(missing), { cacheDir }).catch((e: unknown) => e)) as ChartSourceError;
    expect(err).toBeInstanceOf(ChartSourceError);
    expect(err.code).toBe('git-clone');
    expect(err.message).toContain(`git source ${missing}@master: git clone failed`);
    expect(err.message).toMatch(/does not exist|does not appear to be a git repository/);
    expect(err.detail).toMatch(/^fatal:/);
    expect(await leftovers(cacheDir)).toEqual([]);
  });

  test('a missing reference: git-reference, naming it', async () => {
    const cacheDir = await fresh();
    const err = (await resolveChartSource(ChartSource.git(repo, { reference: 'no-such-branch' }), { cacheDir }).catch((e: unknown) => e)) as ChartSourceError;
    expect(err.code).toBe('git-reference');
    expect(err.message).toContain('reference "no-such-branch" not found');
    expect(err.message).toContain("couldn't find remote ref no-such-branch");
    expect(await leftovers(cacheDir)).toEqual([]);
  });

  test('an unknown full SHA is a missing reference too', async () => {
    const err = (await resolveChartSource(ChartSource.git(repo, { reference: '0123456789abcdef0123456789abcdef01234567' }), { cacheDir: await fresh() }).catch(
      (e: unknown) => e,
    )) as ChartSourceError;
    expect(err.code).toBe('git-reference');
  });

  test('a missing subpath lists the charts at the root of the clone', async () => {
    const err = (await resolveChartSource(ChartSource.git(repo, { subpath: 'nova' }), { cacheDir: await fresh() }).catch((e: unknown) => e)) as ChartSourceError;
    expect(err.code).toBe('not-found');
    expect(err.message).toContain('subpath "nova" does not exist');
    expect(err.message).toContain('"keystone", "mariadb"');
  });

  test('a subpath that is not a chart', async () => {
    const err = (await resolveChartSource(ChartSource.git(repo, { subpath: 'doc' }), { cacheDir: await fresh() }).catch((e: unknown) => e)) as ChartSourceError;
    expect(err.code).toBe('not-a-chart');
    expect(err.message).toContain(path.join('doc', 'Chart.yaml'));
  });

  test('git not installed', async () => {
    const err = (await resolveChartSource(ChartSource.git(repo), { cacheDir: await fresh(), gitCommand: path.join(work, 'no-git-here') }).catch(
      (e: unknown) => e,
    )) as ChartSourceError;
    expect(err.code).toBe('git-not-installed');
    expect(err.message).toContain('install git');
  });

  test('a reference that git would read as an option is refused', async () => {
    await expect(resolveChartSource(ChartSource.git(repo, { reference: '--upload-pack=touch /tmp/x' }), { cacheDir: await fresh() })).rejects.toMatchObject({
      code: 'invalid-option',
    });
  });

  test('a git that hangs is stopped by gitTimeout', async () => {
    const hang = path.join(work, 'git-hang');
    await fs.writeFile(hang, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const cacheDir = await fresh();
    const err = (await resolveChartSource(ChartSource.git(repo), { cacheDir, gitCommand: hang, gitTimeout: Duration.seconds(0.3) }).catch(
      (e: unknown) => e,
    )) as ChartSourceError;
    expect(err.code).toBe('git-clone');
    expect(err.message).toContain('no result after 0.3 s (gitTimeout)');
    expect(await leftovers(cacheDir)).toEqual([]);
  });
});
