import { execFile } from 'child_process';
import { promises as fs } from 'fs';
import type * as http from 'http';
import * as path from 'path';
import * as tar from 'tar';
import { promisify } from 'util';
import { Duration } from '../../../src/model/duration';
import { ChartSource } from '../../../src/model/source';
import { ChartSourceError, resolveChartSource } from '../../../src/pulumi/sources';
import { redact } from '../../../src/pulumi/sources/errors';
import { cleanup, isolateEnvironment, leftovers, makeTgz, startServer, tempDir, TestServer, writeChart } from './helpers';
import { REGISTER_TS } from '../../helpers/ts-child';

let work: string;
let server: TestServer;
const routes = new Map<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>();
const open = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  await isolateEnvironment();
  work = await tempDir('hostile-tar');
  server = await startServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const route = routes.get(p);
    if (route) route(req, res);
    else res.writeHead(404).end('no such chart');
  });
});
afterAll(async () => {
  for (const t of open) clearInterval(t);
  await server?.close();
  await cleanup();
});

const fresh = () => tempDir('cache');
const serveFile = (route: string, body: Buffer) => routes.set(route, (_q, res) => res.writeHead(200, { 'content-type': 'application/gzip' }).end(body));

async function failure(p: Promise<unknown>): Promise<ChartSourceError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof ChartSourceError)) throw new Error(`expected a ChartSourceError, got ${String(e)}`);
  return e;
}

/** A tar stream without its trailing zero blocks, so another archive's entries can follow. */
function trimEnd(tarball: Buffer): Buffer {
  let end = tarball.length;
  while (end >= 512 && tarball.subarray(end - 512, end).every((b) => b === 0)) end -= 512;
  return tarball.subarray(0, end);
}

/** Every file under `dir`, relative, sorted. */
async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
      const abs = path.join(d, e.name);
      out.push(path.relative(dir, abs));
      if (e.isDirectory()) await walk(abs);
    }
  };
  await walk(dir);
  return out.sort();
}

describe('what a tar source may cost', () => {
  test('a body over maxDownloadBytes is abandoned, announced by Content-Length or not', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 1);
    serveFile('/big.tgz', big);
    routes.set('/big-chunked.tgz', (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      res.write(big.subarray(0, 1024 * 1024));
      res.write(big.subarray(1024 * 1024, 2 * 1024 * 1024));
      res.end(big.subarray(2 * 1024 * 1024));
    });
    for (const route of ['/big.tgz', '/big-chunked.tgz']) {
      const cacheDir = await fresh();
      const err = await failure(resolveChartSource(ChartSource.tar(`${server.url}${route}`), { cacheDir, maxDownloadBytes: 1024 * 1024 }));
      expect(err.code).toBe('limit');
      expect(err.message).toBe(`tar source ${server.url}${route}: GET: the body is larger than 1048576 bytes (maxDownloadBytes)`);
      expect(await leftovers(cacheDir)).toEqual([]);
      expect((await listTree(path.join(cacheDir, 'tar'))).filter((f) => f.includes(path.sep))).toEqual([]);
    }
  });

  test('a server trickling bytes is stopped by downloadTimeout, which httpTimeout alone never does', async () => {
    routes.set('/trickle.tgz', (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      const t = setInterval(() => res.write('x'), 20);
      open.add(t);
      res.on('close', () => {
        clearInterval(t);
        open.delete(t);
      });
    });
    const cacheDir = await fresh();
    const started = Date.now();
    const err = await failure(
      resolveChartSource(ChartSource.tar(`${server.url}/trickle.tgz`), { cacheDir, httpTimeout: Duration.seconds(5), downloadTimeout: Duration.seconds(0.5) }),
    );
    expect(Date.now() - started).toBeLessThan(3000);
    expect(err.code).toBe('limit');
    expect(err.message).toBe(`tar source ${server.url}/trickle.tgz: GET: not finished after 0.5 s (downloadTimeout)`);
    expect(await leftovers(cacheDir)).toEqual([]);
  });

  test('an archive that expands past maxExtractedBytes is refused before anything is written', async () => {
    const src = path.join(work, 'bomb');
    await writeChart(path.join(src, 'mariadb'), 'mariadb');
    await fs.writeFile(path.join(src, 'mariadb', 'zeros.bin'), Buffer.alloc(4 * 1024 * 1024));
    const tgz = await makeTgz(src, ['mariadb'], path.join(work, 'bomb.tgz'));
    expect(tgz.length).toBeLessThan(64 * 1024);
    serveFile('/bomb.tgz', tgz);
    const cacheDir = await fresh();
    const err = await failure(resolveChartSource(ChartSource.tar(`${server.url}/bomb.tgz`, { subpath: 'mariadb' }), { cacheDir, maxExtractedBytes: 1024 * 1024 }));
    expect(err.code).toBe('limit');
    expect(err.message).toBe(
      `tar source ${server.url}/bomb.tgz: the archive holds more than 1048576 bytes once extracted (maxExtractedBytes); nothing was extracted. Raise the limit if the archive is really that large`,
    );
    expect(await leftovers(cacheDir)).toEqual([]);
    expect(await listTree(path.join(cacheDir, 'tar'))).toHaveLength(1); // the entry directory, empty
  });

  test('an archive with more entries than maxArchiveEntries is refused before anything is written', async () => {
    const src = path.join(work, 'many');
    await writeChart(path.join(src, 'mariadb'), 'mariadb');
    await Promise.all(Array.from({ length: 150 }, (_, i) => fs.writeFile(path.join(src, 'mariadb', 'templates', `f${i}.yaml`), '')));
    serveFile('/many.tgz', await makeTgz(src, ['mariadb'], path.join(work, 'many.tgz')));
    const cacheDir = await fresh();
    const err = await failure(resolveChartSource(ChartSource.tar(`${server.url}/many.tgz`, { subpath: 'mariadb' }), { cacheDir, maxArchiveEntries: 100 }));
    expect(err.code).toBe('limit');
    expect(err.message).toContain('the archive has more than 100 entries (maxArchiveEntries); nothing was extracted');
    // Within the limits it is fine.
    await expect(resolveChartSource(ChartSource.tar(`${server.url}/many.tgz`, { subpath: 'mariadb' }), { cacheDir, maxArchiveEntries: 1000 })).resolves.toMatchObject({
      cached: false,
    });
  });

  test('limits must be positive whole numbers and durations', async () => {
    const src = ChartSource.tar(`${server.url}/none.tgz`);
    await expect(resolveChartSource(src, { cacheDir: await fresh(), maxDownloadBytes: 0 })).rejects.toMatchObject({
      code: 'invalid-option',
      message: 'maxDownloadBytes must be a positive whole number; received 0',
    });
    await expect(resolveChartSource(src, { cacheDir: await fresh(), downloadTimeout: Duration.seconds(0) })).rejects.toMatchObject({
      code: 'invalid-option',
      message: 'downloadTimeout must be a positive duration; received 0 seconds',
    });
  });
});

describe('what a tarball may put on disk', () => {
  test('symbolic links out of the archive are left out with a log line; owners and setuid/setgid bits are not kept', async () => {
    const src = path.join(work, 'links');
    const chart = await writeChart(path.join(src, 'mariadb'), 'mariadb');
    await fs.symlink('/etc/passwd', path.join(chart, 'templates', 'passwd'));
    await fs.symlink('../../../outside', path.join(chart, 'climb'));
    await fs.symlink('values.yaml', path.join(chart, 'defaults.yaml'));
    await fs.writeFile(path.join(chart, 'run.sh'), '#!/bin/sh\n');
    await fs.chmod(path.join(chart, 'run.sh'), 0o6755);
    await fs.chmod(path.join(chart, 'templates'), 0o2775);
    if (process.getuid?.() === 0) await fs.chown(path.join(chart, 'run.sh'), 4321, 4321);
    const file = path.join(work, 'links.tgz');
    await tar.c({ gzip: true, file, cwd: src }, ['mariadb']);
    serveFile('/links.tgz', await fs.readFile(file));

    const log: string[] = [];
    const r = await resolveChartSource(ChartSource.tar(`${server.url}/links.tgz`, { subpath: 'mariadb' }), { cacheDir: await fresh(), log: (m) => log.push(m) });
    expect(log.filter((l) => l.includes('left out'))).toEqual([
      `tar: ${server.url}/links.tgz: left out the symbolic link mariadb/climb -> ../../../outside, which points outside the archive`,
      `tar: ${server.url}/links.tgz: left out the symbolic link mariadb/templates/passwd -> /etc/passwd, which points outside the archive`,
    ]);
    await expect(fs.lstat(path.join(r.dir, 'templates', 'passwd'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.lstat(path.join(r.dir, 'climb'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await fs.readlink(path.join(r.dir, 'defaults.yaml'))).toBe('values.yaml');
    const script = await fs.stat(path.join(r.dir, 'run.sh'));
    expect(script.mode & 0o7000).toBe(0);
    expect(script.mode & 0o100).toBe(0o100);
    expect((await fs.stat(path.join(r.dir, 'templates'))).mode & 0o7000).toBe(0);
    expect(script.uid).toBe(process.getuid?.());
  });

  test('a link that stays in the archive but leaves the chart is refused, naming every such link', async () => {
    const src = path.join(work, 'shared');
    const chart = await writeChart(path.join(src, 'mariadb'), 'mariadb');
    await fs.mkdir(path.join(src, 'common'), { recursive: true });
    await fs.writeFile(path.join(src, 'common', 'helpers.tpl'), '{{/* shared */}}\n');
    await fs.symlink('../../common/helpers.tpl', path.join(chart, 'templates', '_helpers.tpl'));
    const file = path.join(work, 'shared.tgz');
    await tar.c({ gzip: true, file, cwd: src }, ['mariadb', 'common']);
    serveFile('/shared.tgz', await fs.readFile(file));
    const err = await failure(resolveChartSource(ChartSource.tar(`${server.url}/shared.tgz`, { subpath: 'mariadb' }), { cacheDir: await fresh() }));
    expect(err.code).toBe('unsafe-symlink');
    expect(err.message).toMatch(
      new RegExp(
        `^tar source ${server.url.replace(/[.]/g, '\\.')}/shared\\.tgz: the chart \\S+/mariadb holds symbolic links that point outside it, which are refused: templates/_helpers\\.tpl -> \\.\\./\\.\\./common/helpers\\.tpl; replace each with the file or directory it points to$`,
      ),
    );
  });

  test('entries that climb out of the extraction directory, or write through a link out of it, change nothing outside', async () => {
    const src = path.join(work, 'climb', 'in');
    await writeChart(path.join(src, 'mariadb'), 'mariadb');
    await fs.writeFile(path.join(work, 'climb', 'escape.txt'), 'written by the archive\n');
    const climbing = path.join(work, 'climbing.tgz');
    await tar.c({ gzip: true, file: climbing, cwd: src, preservePaths: true }, ['mariadb', '../escape.txt']);
    serveFile('/climbing.tgz', await fs.readFile(climbing));

    // A link to a directory outside, then a file "inside" the link, as two archives back to back.
    const victim = await tempDir('victim');
    await fs.symlink(victim, path.join(src, 'mariadb', 'door'));
    const stage = path.join(work, 'climb', 'stage');
    await fs.mkdir(path.join(stage, 'mariadb', 'door'), { recursive: true });
    await fs.writeFile(path.join(stage, 'mariadb', 'door', 'planted.txt'), 'through the link\n');
    const raw = async (cwd: string, entry: string) => {
      const chunks: Buffer[] = [];
      await new Promise<void>((resolve) => {
        const pack = new tar.Pack({ cwd });
        pack.on('data', (b: Buffer) => chunks.push(b));
        pack.on('end', () => resolve());
        pack.add(entry);
        pack.end();
      });
      return Buffer.concat(chunks);
    };
    const head = await raw(src, 'mariadb');
    const zlib = await import('zlib');
    serveFile('/through.tgz', zlib.gzipSync(Buffer.concat([trimEnd(head), await raw(stage, 'mariadb/door/planted.txt')])));

    const cacheDir = await fresh();
    const err = await failure(resolveChartSource(ChartSource.tar(`${server.url}/climbing.tgz`, { subpath: 'mariadb' }), { cacheDir }));
    expect(err.code).toBe('extract');
    expect(err.message).toContain("path contains '..'");
    expect((await listTree(cacheDir)).filter((f) => f.includes('escape'))).toEqual([]);
    expect(await leftovers(cacheDir)).toEqual([]);

    const r = await resolveChartSource(ChartSource.tar(`${server.url}/through.tgz`, { subpath: 'mariadb' }), { cacheDir });
    expect(await fs.readdir(victim)).toEqual([]);
    expect((await fs.lstat(path.join(r.dir, 'door'))).isDirectory()).toBe(true);
    expect(await fs.readFile(path.join(r.dir, 'door', 'planted.txt'), 'utf8')).toBe('through the link\n');
  });

  test('a damaged archive leaves no temp directory behind', async () => {
    const src = path.join(work, 'damaged');
    await writeChart(path.join(src, 'mariadb'), 'mariadb');
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => fs.writeFile(path.join(src, 'mariadb', 'templates', `f${i}.bin`), Buffer.from(Array.from({ length: 20000 }, (_v, j) => (i * 7 + j * 13) % 251)))),
    );
    const whole = await makeTgz(src, ['mariadb'], path.join(work, 'damaged.tgz'));
    serveFile('/damaged.tgz', whole.subarray(0, Math.floor(whole.length / 2)));
    const cacheDir = await fresh();
    const err = await failure(resolveChartSource(ChartSource.tar(`${server.url}/damaged.tgz`, { subpath: 'mariadb' }), { cacheDir }));
    expect(err.code).toBe('extract');
    expect(err.message).toMatch(/is not a readable tar\.gz archive: .*unexpected end of file/);
    await new Promise((r) => setTimeout(r, 300));
    expect(await leftovers(cacheDir)).toEqual([]);
    expect(await listTree(path.join(cacheDir, 'tar'))).toHaveLength(1);
  });
});

describe('the tar cache', () => {
  const child = async (args: Record<string, unknown>) => {
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', REGISTER_TS, path.join(__dirname, 'resolve.script.ts'), JSON.stringify(args)], {
      cwd: path.resolve(__dirname, '../../..'),
      timeout: 30_000,
      env: process.env,
    });
    return JSON.parse(stdout) as { dir: string; sha256: string; cached: boolean; log: string[] };
  };

  test('an entry changed since it was extracted is not used: the next run downloads it again', async () => {
    const src = path.join(work, 'digest');
    await writeChart(path.join(src, 'mariadb'), 'mariadb', { version: '1.0.0' });
    serveFile('/digest.tgz', await makeTgz(src, ['mariadb'], path.join(work, 'digest.tgz')));
    const cacheDir = await fresh();
    const args = { type: 'tar', location: `${server.url}/digest.tgz`, subpath: 'mariadb', cacheDir };
    const first = await child(args);
    await fs.writeFile(path.join(first.dir, 'templates', 'cm.yaml'), 'kind: Secret # planted\n');
    const second = await child(args);
    expect(second.cached).toBe(false);
    expect(second.dir).toBe(first.dir);
    expect(second.log).toContain(
      `tar: tar source ${server.url}/digest.tgz: the cached copy ${path.dirname(first.dir)} no longer matches the digest recorded when it was extracted; downloading it again`,
    );
    expect(await fs.readFile(path.join(second.dir, 'templates', 'cm.yaml'), 'utf8')).toBe('kind: ConfigMap\nmetadata:\n  name: mariadb\n');
    expect((await child(args)).cached).toBe(true);
    expect(await leftovers(cacheDir)).toEqual([]);
  });

  test('one run keeps the version it saw first, while another run refreshes the location to new content', async () => {
    const v1 = path.join(work, 'moving1');
    const v2 = path.join(work, 'moving2');
    await writeChart(path.join(v1, 'mariadb'), 'mariadb', { version: '1.0.0' });
    await writeChart(path.join(v2, 'mariadb'), 'mariadb', { version: '2.0.0' });
    serveFile('/moving.tgz', await makeTgz(v1, ['mariadb'], path.join(work, 'moving1.tgz')));
    const cacheDir = await fresh();
    const src = ChartSource.tar(`${server.url}/moving.tgz`, { subpath: 'mariadb' });
    const here = await resolveChartSource(src, { cacheDir });

    serveFile('/moving.tgz', await makeTgz(v2, ['mariadb'], path.join(work, 'moving2.tgz')));
    const other = await child({ type: 'tar', location: `${server.url}/moving.tgz`, subpath: 'mariadb', cacheDir, refresh: true });
    expect(other.sha256).not.toBe(here.sha256);

    // A later chart of this run naming the same location: still the first version.
    const again = await resolveChartSource(src, { cacheDir });
    expect(again).toEqual({ ...here, cached: true });
    expect(await fs.readFile(path.join(again.dir, 'Chart.yaml'), 'utf8')).toContain('version: 1.0.0');
  });
});

describe('control characters from a server or an archive', () => {
  const ESC = /\x1b|\x07|\u2028|\r/;

  test('an HTTP error body with terminal sequences and line breaks is escaped in the error', async () => {
    routes.set('/ansi.tgz', (_q, res) => res.writeHead(500).end('\x1b[2J\x1b[31mboom\x1b]0;pwned\x07\u2028forged: ok'));
    const err = await failure(resolveChartSource(ChartSource.tar(`${server.url}/ansi.tgz`), { cacheDir: await fresh() }));
    expect(err.message).toMatch(/HTTP 500 Internal Server Error: \\x1b\[2J\\x1b\[31mboom\\x1b\]0;pwned\\x07\\u2028forged: ok$/);
    expect(`${err.message}${err.detail}`).not.toMatch(ESC);
  });

  test('a tar entry name with terminal sequences is escaped in the log line that names it', async () => {
    const src = path.join(work, 'ansi-names');
    const chart = await writeChart(path.join(src, 'mariadb'), 'mariadb');
    await fs.symlink('/etc/passwd', path.join(chart, 'evil\x1b[8m\rname'));
    const file = path.join(work, 'ansi-names.tgz');
    await tar.c({ gzip: true, file, cwd: src }, ['mariadb']);
    serveFile('/ansi-names.tgz', await fs.readFile(file));
    const log: string[] = [];
    await resolveChartSource(ChartSource.tar(`${server.url}/ansi-names.tgz`, { subpath: 'mariadb' }), { cacheDir: await fresh(), log: (m) => log.push(m) });
    expect(log.filter((l) => l.includes('left out'))).toEqual([
      `tar: ${server.url}/ansi-names.tgz: left out the symbolic link mariadb/evil\\x1b[8m\\rname -> /etc/passwd, which points outside the archive`,
    ]);
    for (const l of log) expect(l).not.toMatch(ESC);
  });
});

describe('secrets in tar locations', () => {
  test('tokens in the query string and passwords with @ stay out of errors and logs', async () => {
    const cacheDir = await fresh();
    const log: string[] = [];
    const url = `${server.url.replace('http://', 'http://ci:p@ss@word@')}/api/v4/archive.tgz?private_token=glpat-s3cr3t&sha=main`;
    const err = await failure(resolveChartSource(ChartSource.tar(url), { cacheDir, log: (m) => log.push(m) }));
    expect(err.message).toContain('HTTP 404');
    for (const text of [err.message, ...log, JSON.stringify(await listTree(cacheDir))]) {
      expect(text).not.toMatch(/s3cr3t|p@ss|word@/);
    }
    expect(err.message).toContain('?private_token=***&sha=main');
  });

  test('redact hides user info up to the last @ and secret query parameters, and keeps the rest', () => {
    expect(redact('https://user:p@ss@word@host.example/repo.git')).toBe('https://***@host.example/repo.git');
    expect(redact('https://token@host.example/r')).toBe('https://***@host.example/r');
    expect(redact('https://gitlab.example/archive.tgz?private_token=glpat-x&sha=main')).toBe('https://gitlab.example/archive.tgz?private_token=***&sha=main');
    expect(redact('https://b.s3.amazonaws.com/c.tgz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F1&X-Amz-Signature=ab12&X-Amz-Expires=60')).toBe(
      'https://b.s3.amazonaws.com/c.tgz?X-Amz-Algorithm=***&X-Amz-Credential=***&X-Amz-Signature=***&X-Amz-Expires=***',
    );
    expect(redact('https://acct.blob.core.windows.net/c/chart.tgz?sv=2022-11-02&se=2026-12-04&sig=abc%3D')).toBe(
      'https://acct.blob.core.windows.net/c/chart.tgz?sv=2022-11-02&se=2026-12-04&sig=***',
    );
    expect(redact('https://storage.googleapis.com/b/c.tgz?X-Goog-Signature=ff&GoogleAccessId=x&access_token=ya29')).toBe(
      'https://storage.googleapis.com/b/c.tgz?X-Goog-Signature=***&GoogleAccessId=x&access_token=***',
    );
    expect(redact('git@github.com:org/repo.git and http://127.0.0.1:8080/chart.tgz?ref=main')).toBe('git@github.com:org/repo.git and http://127.0.0.1:8080/chart.tgz?ref=main');
  });
});
