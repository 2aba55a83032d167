import { execFile } from 'child_process';
import { randomBytes } from 'crypto';
import { promises as fs } from 'fs';
import * as path from 'path';
import { promisify } from 'util';
import { ChartSource } from '../../../src/model/source';
import { ChartSourceError, resolveChartSource } from '../../../src/pulumi/sources';
import { credentialScope, splitCredentials } from '../../../src/pulumi/sources/git-source';
import { cleanup, git, isolateEnvironment, leftovers, serveDirectory, startServer, tempDir, TestServer, writeChart } from './helpers';
import { REGISTER_TS } from '../../helpers/ts-child';

let home: string;
let work: string;
let repo: string;
let served: string;
let authServer: TestServer;
const USER = 'ci-bot';
const PASSWORD = 'p@ss:w0rd/s3cr3t';
const authorized: string[] = [];

beforeAll(async () => {
  home = await isolateEnvironment();
  work = await tempDir('hostile-git');
  repo = path.join(work, 'charts');
  await fs.mkdir(repo);
  await git(repo, 'init', '-q', '-b', 'master');
  await writeChart(path.join(repo, 'mariadb'), 'mariadb');
  await writeChart(path.join(repo, 'leaky'), 'leaky');
  await fs.symlink('/etc/passwd', path.join(repo, 'leaky', 'templates', 'passwd.yaml'));
  await fs.symlink('../../mariadb/values.yaml', path.join(repo, 'leaky', 'templates', 'values.yaml'));
  await fs.symlink('/etc', path.join(repo, 'outside'));
  await fs.symlink('mariadb', path.join(repo, 'alias'));
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'charts');
  served = path.join(work, 'served');
  await git(work, 'clone', '-q', '--bare', repo, path.join(served, 'charts.git'));
  await git(path.join(served, 'charts.git'), 'update-server-info');
  const files = serveDirectory(served);
  const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
  authServer = await startServer((req, res) => {
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="charts"' }).end('authentication required');
      return;
    }
    authorized.push(req.url ?? '');
    files(req, res);
  });
});
afterAll(async () => {
  await authServer?.close();
  await cleanup();
});

const fresh = () => tempDir('cache');

async function failure(p: Promise<unknown>): Promise<ChartSourceError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof ChartSourceError)) throw new Error(`expected a ChartSourceError, got ${String(e)}`);
  return e;
}

/** The text of every file under `dir`, with its path, for searching. */
async function everything(dir: string): Promise<string> {
  let text = '';
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name);
      text += `${abs}\n`;
      if (e.isDirectory()) await walk(abs);
      else if (e.isFile()) text += (await fs.readFile(abs)).toString('latin1');
    }
  };
  await walk(dir);
  return text;
}

/** A git that logs the environment armada-cdk gives it, then runs the real one. */
async function envLoggingGit(): Promise<{ git: string; log: () => Promise<string> }> {
  const dir = await tempDir('gitenv');
  const file = path.join(dir, 'git');
  const log = path.join(dir, 'log');
  await fs.writeFile(file, `#!/bin/sh\nprintf 'allow=%s args=%s\\n' "$GIT_ALLOW_PROTOCOL" "$*" >> '${log}'\nexec git "$@"\n`, { mode: 0o755 });
  return { git: file, log: () => fs.readFile(log, 'utf8').catch(() => '') };
}

describe('credentials in a git location', () => {
  const encoded = () => authServer.url.replace('http://', `http://${USER}:${encodeURIComponent(PASSWORD)}@`) + '/charts.git';

  test('clone with them, but never write them into the clone, a credential store, a log line or an error', async () => {
    // A user's own helper that would store every credential git approves.
    await fs.writeFile(path.join(home, '.gitconfig'), '[credential]\n\thelper = store\n');
    try {
      const cacheDir = await fresh();
      const log: string[] = [];
      const r = await resolveChartSource(ChartSource.git(encoded(), { subpath: 'mariadb' }), { cacheDir, log: (m) => log.push(m) });
      expect(authorized.length).toBeGreaterThan(0);
      const config = await fs.readFile(path.join(r.root, '.git', 'config'), 'utf8');
      expect(config).toContain(`url = ${authServer.url}/charts.git`);
      const all = await everything(cacheDir);
      for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), USER, Buffer.from(`${USER}:${PASSWORD}`).toString('base64')]) {
        expect(all).not.toContain(secret);
        expect(log.join('\n')).not.toContain(secret);
      }
      await expect(fs.access(path.join(home, '.git-credentials'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await fs.writeFile(path.join(home, '.gitconfig'), '');
    }
  });

  test('a wrong password fails with a message that does not quote it', async () => {
    const wrong = authServer.url.replace('http://', `http://${USER}:${encodeURIComponent('n0t-it@all')}@`) + '/charts.git';
    const err = await failure(resolveChartSource(ChartSource.git(wrong, { subpath: 'mariadb' }), { cacheDir: await fresh() }));
    expect(err.code).toBe('git-clone');
    expect(err.message).toMatch(/^git source http:\/\/\*\*\*@127\.0\.0\.1:\d+\/charts\.git@master: git clone failed \(git: /);
    expect(`${err.message}\n${err.detail}\n${String((err.cause as Error)?.message)}`).not.toMatch(/n0t-it|all@|ci-bot/);
  });

  test('a redirect to another host or port gets no credentials, as with a plain git clone', async () => {
    // The repro: the chart host answers every request with a redirect to a host of its choosing,
    // which asks for credentials; git then asks the helper for that host.
    const sent: string[] = [];
    const other = await startServer((req, res) => {
      if (req.headers.authorization) sent.push(req.headers.authorization);
      res.writeHead(401, { 'www-authenticate': 'Basic realm="elsewhere"' }).end('who are you');
    });
    const redirecting = await startServer((req, res) => res.writeHead(302, { location: `${other.url}${req.url ?? '/'}` }).end());
    try {
      const location = redirecting.url.replace('http://', `http://${USER}:${encodeURIComponent(PASSWORD)}@`) + '/charts.git';
      const err = await failure(resolveChartSource(ChartSource.git(location, { subpath: 'mariadb' }), { cacheDir: await fresh() }));
      expect(err.code).toBe('git-clone');
      expect(other.hits.size).toBeGreaterThan(0);
      expect(sent).toEqual([]);
      expect(`${err.message}\n${err.detail}`).not.toContain(PASSWORD);
    } finally {
      await other.close();
      await redirecting.close();
    }
  });

  test('credentialScope names what git asks its helper for: scheme, and host with a non-default port', () => {
    expect(credentialScope('https://Charts.Example:8443/r.git')).toEqual({ protocol: 'https', host: 'charts.example:8443' });
    expect(credentialScope('https://charts.example:443/r.git')).toEqual({ protocol: 'https', host: 'charts.example' });
    expect(credentialScope('http://[::1]:8080/r.git')).toEqual({ protocol: 'http', host: '[::1]:8080' });
  });

  test('splitCredentials decodes what git would decode and leaves other locations alone', () => {
    expect(splitCredentials('https://u%40corp:p%40ss@h.example/r.git')).toEqual({ url: 'https://h.example/r.git', username: 'u@corp', password: 'p@ss' });
    expect(splitCredentials('https://glpat-token@h.example/r.git')).toEqual({ url: 'https://h.example/r.git', username: 'glpat-token', password: undefined });
    expect(splitCredentials('https://h.example/r.git')).toEqual({ url: 'https://h.example/r.git' });
    expect(splitCredentials('ssh://git@h.example/r.git')).toEqual({ url: 'ssh://git@h.example/r.git' });
  });
});

describe('transports that run commands', () => {
  test.each([
    ['ext::sh -c touch% pwned', 'ext::'],
    ['fd::7', 'fd::'],
    ['ftp://example.invalid/charts.git', 'ftp://'],
  ])('%s is refused before git runs', async (location, shown) => {
    const g = await envLoggingGit();
    const err = await failure(resolveChartSource(ChartSource.git(location), { cacheDir: await fresh(), gitCommand: g.git }));
    expect(err.code).toBe('invalid-option');
    expect(err.message).toBe(
      `git source ${location}@master: location uses the "${shown}" transport, which armada-cdk does not allow; use https://, ssh://, git://, file:// or a path`,
    );
    expect(await g.log()).toBe('');
  });

  test('every git command runs with GIT_ALLOW_PROTOCOL limited to transports that run nothing', async () => {
    const g = await envLoggingGit();
    await resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb' }), { cacheDir: await fresh(), gitCommand: g.git });
    const lines = (await g.log()).trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const l of lines) expect(l).toMatch(/^allow=file:git:http:https:ssh args=/);
  });
});

describe('symbolic links in a clone', () => {
  test('a subpath that is a link out of the clone is refused', async () => {
    const err = await failure(resolveChartSource(ChartSource.git(repo, { subpath: 'outside' }), { cacheDir: await fresh() }));
    expect(err.code).toBe('unsafe-symlink');
    expect(err.message).toBe(`git source ${repo}@master: subpath "outside" goes through a symbolic link to /etc, outside the fetched source; name the chart's real directory instead`);
  });

  test('a subpath that is a link inside the clone is fine', async () => {
    const r = await resolveChartSource(ChartSource.git(repo, { subpath: 'alias' }), { cacheDir: await fresh() });
    expect(await fs.readFile(path.join(r.dir, 'Chart.yaml'), 'utf8')).toContain('name: mariadb');
  });

  test('a chart with links out of it is refused, naming each', async () => {
    const err = await failure(resolveChartSource(ChartSource.git(repo, { subpath: 'leaky' }), { cacheDir: await fresh() }));
    expect(err.code).toBe('unsafe-symlink');
    expect(err.message).toMatch(
      /: the chart \S+\/leaky holds symbolic links that point outside it, which are refused: templates\/passwd\.yaml -> \/etc\/passwd, templates\/values\.yaml -> \.\.\/\.\.\/mariadb\/values\.yaml; replace each with the file or directory it points to$/,
    );
  });
});

describe('the git cache', () => {
  test('a clone changed since it was made is not used: the next run clones again', async () => {
    const cacheDir = await fresh();
    const first = await resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb' }), { cacheDir });
    await fs.appendFile(path.join(first.dir, 'values.yaml'), 'planted: true\n');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', REGISTER_TS, path.join(__dirname, 'resolve.script.ts'), JSON.stringify({ type: 'git', location: repo, subpath: 'mariadb', cacheDir })],
      { cwd: path.resolve(__dirname, '../../..'), timeout: 30_000, env: process.env },
    );
    const second = JSON.parse(stdout) as { dir: string; cached: boolean; commit: string; log: string[] };
    expect(second).toMatchObject({ dir: first.dir, cached: false, commit: first.commit });
    expect(second.log).toContain(
      `git: the cached clone ${first.root} of ${repo}@master no longer matches the digest recorded when it was cloned; cloning again`,
    );
    expect(await fs.readFile(path.join(second.dir, 'values.yaml'), 'utf8')).toBe('replicas: 1\n');
    expect(await leftovers(cacheDir)).toEqual([]);
  });
});

describe('what a git checkout may cost', () => {
  test('a tree with more files or bytes than the limits is refused before it is checked out', async () => {
    const cacheDir = await fresh();
    const many = await failure(resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb' }), { cacheDir, maxArchiveEntries: 5 }));
    expect(many.code).toBe('limit');
    expect(many.message).toBe(`git source ${repo}@master: the checkout would hold 10 files, more than 5 (maxArchiveEntries); nothing was checked out`);
    const big = await failure(resolveChartSource(ChartSource.git(repo, { subpath: 'mariadb' }), { cacheDir, maxExtractedBytes: 100 }));
    expect(big.code).toBe('limit');
    expect(big.message).toMatch(new RegExp(`^git source ${repo.replace(/[.]/g, '\\.')}@master: the checkout would hold \\d+ bytes, more than 100 \\(maxExtractedBytes\\); nothing was checked out$`));
    expect(await leftovers(cacheDir)).toEqual([]);
    expect(await fs.readdir(path.join(cacheDir, 'git', (await fs.readdir(path.join(cacheDir, 'git')))[0]))).toEqual([]);
  });

  test('a repository that sends more than maxDownloadBytes is cut off while it downloads', async () => {
    const big = path.join(work, 'big');
    await fs.mkdir(big);
    await git(big, 'init', '-q', '-b', 'master');
    await writeChart(path.join(big, 'chart'), 'chart');
    // incompressible, so the pack is as large as the file
    await fs.writeFile(path.join(big, 'chart', 'blob.bin'), randomBytes(1_000_000));
    await git(big, 'add', '-A');
    await git(big, 'commit', '-q', '-m', 'big');
    const cacheDir = await fresh();
    const cut = await failure(resolveChartSource(ChartSource.git(`file://${big}`, { subpath: 'chart' }), { cacheDir, maxDownloadBytes: 200_000 }));
    expect(cut.code).toBe('limit');
    expect(cut.message).toBe(`git source file://${big}@master: git clone failed: the repository sent more than 200000 bytes (maxDownloadBytes), and git was stopped; nothing was checked out`);
    expect(await leftovers(cacheDir)).toEqual([]);
    // within the limit, the same repository is fine
    const ok = await resolveChartSource(ChartSource.git(`file://${big}`, { subpath: 'chart' }), { cacheDir, maxDownloadBytes: 4_000_000 });
    expect((await fs.stat(path.join(ok.dir, 'blob.bin'))).size).toBe(1_000_000);
  });

  test('a tree whose file list alone is past what maxArchiveEntries allows is refused without reading all of it', async () => {
    const wide = path.join(work, 'wide');
    await fs.mkdir(wide);
    await git(wide, 'init', '-q', '-b', 'master');
    await writeChart(path.join(wide, 'chart'), 'chart');
    for (let i = 0; i < 40; i++) await fs.writeFile(path.join(wide, 'chart', `${'n'.repeat(240)}-${i}.txt`), `${i}\n`);
    await git(wide, 'add', '-A');
    await git(wide, 'commit', '-q', '-m', 'wide');
    const cacheDir = await fresh();
    const e = await failure(resolveChartSource(ChartSource.git(wide, { subpath: 'chart' }), { cacheDir, maxArchiveEntries: 1 }));
    expect(e.code).toBe('limit');
    expect(e.message).toBe(`git source ${wide}@master: the checkout would hold more files than maxArchiveEntries (1) allows: its file list alone passed 8400 bytes; nothing was checked out`);
    expect(await leftovers(cacheDir)).toEqual([]);
  });
});
