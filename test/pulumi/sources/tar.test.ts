import { promises as fs } from 'fs';
import * as https from 'https';
import * as path from 'path';
import { Duration } from '../../../src/model/duration';
import { ChartSource } from '../../../src/model/source';
import { ChartSourceError, resolveChartSource } from '../../../src/pulumi/sources';
import { cleanup, isolateEnvironment, leftovers, makeTgz, startProxy, startServer, tempDir, TestProxy, TestServer, writeChart } from './helpers';

const FIXTURES = path.join(__dirname, 'fixtures');
let work: string;
let tgzV1: Buffer;
let tgzV2: Buffer;
let served: Buffer;
let server: TestServer;
let tlsServer: TestServer;
let proxy: TestProxy;

beforeAll(async () => {
  await isolateEnvironment();
  work = await tempDir('tar');
  await writeChart(path.join(work, 'src1', 'mariadb'), 'mariadb', { version: '1.0.0' });
  await writeChart(path.join(work, 'src2', 'mariadb'), 'mariadb', { version: '2.0.0' });
  tgzV1 = await makeTgz(path.join(work, 'src1'), ['mariadb'], path.join(work, 'v1.tgz'));
  tgzV2 = await makeTgz(path.join(work, 'src2'), ['mariadb'], path.join(work, 'v2.tgz'));
  served = tgzV1;
  const routes = (req: import('http').IncomingMessage, res: import('http').ServerResponse) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    if (p.startsWith('/chart')) res.writeHead(200, { 'content-type': 'application/gzip' }).end(served);
    else if (p === '/moved') res.writeHead(302, { location: '/chart-moved.tgz' }).end();
    else if (p === '/loop') res.writeHead(301, { location: '/loop' }).end();
    else if (p === '/garbage.tgz') res.writeHead(200).end('<html><body>Sign in to continue</body></html>');
    else if (p === '/hang.tgz') return; // never answers
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1><p>no such chart</p>');
  };
  server = await startServer(routes);
  const [cert, key] = await Promise.all([fs.readFile(path.join(FIXTURES, 'server-cert.pem')), fs.readFile(path.join(FIXTURES, 'server-key.pem'))]);
  tlsServer = await startServer(routes, (l) => https.createServer({ cert, key }, l));
  proxy = await startProxy();
});
afterAll(async () => {
  await Promise.all([server?.close(), tlsServer?.close(), proxy?.close()]);
  await cleanup();
});

const fresh = () => tempDir('cache');

describe('tar sources', () => {
  test('downloads, extracts and finds the chart at <extract>/<subpath>; a second resolve uses the cache', async () => {
    const cacheDir = await fresh();
    const log: string[] = [];
    const src = ChartSource.tar(`${server.url}/chart-a.tgz`, { subpath: 'mariadb' });
    const first = await resolveChartSource(src, { cacheDir, log: (m) => log.push(m) });
    expect(first.cached).toBe(false);
    expect(first.dir).toBe(path.join(first.root, 'mariadb'));
    expect(first.dir.startsWith(path.join(cacheDir, 'tar'))).toBe(true);
    await expect(fs.readFile(path.join(first.dir, 'Chart.yaml'), 'utf8')).resolves.toContain('version: 1.0.0');
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);

    const second = await resolveChartSource(src, { cacheDir, log: (m) => log.push(m) });
    expect(second).toEqual({ ...first, cached: true });
    expect(server.hits.get('/chart-a.tgz')).toBe(1);
    expect(log.some((l) => l.includes('using cached'))).toBe(true);
    expect(await leftovers(cacheDir)).toEqual([]);
  });

  test('concurrent resolves of one location download once', async () => {
    const cacheDir = await fresh();
    const src = ChartSource.tar(`${server.url}/chart-b.tgz`, { subpath: 'mariadb' });
    const all = await Promise.all([1, 2, 3, 4].map(() => resolveChartSource(src, { cacheDir })));
    expect(new Set(all.map((r) => r.dir)).size).toBe(1);
    expect(server.hits.get('/chart-b.tgz')).toBe(1);
  });

  test('follows redirects', async () => {
    const cacheDir = await fresh();
    const r = await resolveChartSource(ChartSource.tar(`${server.url}/moved`, { subpath: 'mariadb' }), { cacheDir });
    expect(server.hits.get('/moved')).toBe(1);
    expect(server.hits.get('/chart-moved.tgz')).toBe(1);
    await expect(fs.stat(path.join(r.dir, 'Chart.yaml'))).resolves.toBeTruthy();
  });

  test('a redirect loop stops with a clear error', async () => {
    const err = (await resolveChartSource(ChartSource.tar(`${server.url}/loop`), { cacheDir: await fresh() }).catch((e: unknown) => e)) as ChartSourceError;
    expect(err.code).toBe('download');
    expect(err.message).toContain('more than 10 redirects');
  });

  test('a 404 names the URL and the status, and leaves nothing in the cache', async () => {
    const cacheDir = await fresh();
    const url = `${server.url}/missing.tgz`;
    const err = (await resolveChartSource(ChartSource.tar(url), { cacheDir }).catch((e: unknown) => e)) as ChartSourceError;
    expect(err).toBeInstanceOf(ChartSourceError);
    expect(err.code).toBe('download');
    expect(err.message).toContain(`tar source ${url}`);
    expect(err.message).toContain('HTTP 404 Not Found');
    expect(err.message).toContain('no such chart');
    expect(await leftovers(cacheDir)).toEqual([]);
    // Failures are not cached: the next resolve asks again.
    await resolveChartSource(ChartSource.tar(url), { cacheDir }).catch(() => undefined);
    expect(server.hits.get('/missing.tgz')).toBe(2);
  });

  test('a body that is not a tarball is an extract error with the size and URL', async () => {
    const cacheDir = await fresh();
    const err = (await resolveChartSource(ChartSource.tar(`${server.url}/garbage.tgz`), { cacheDir }).catch((e: unknown) => e)) as ChartSourceError;
    expect(err.code).toBe('extract');
    expect(err.message).toMatch(/the download \(\d+ bytes from .*garbage\.tgz\) is not a readable tar\.gz archive/);
    expect(await leftovers(cacheDir)).toEqual([]);
  });

  test('the default subpath "." points at the tarball root and the error suggests the chart directory', async () => {
    const err = (await resolveChartSource(ChartSource.tar(`${server.url}/chart-c.tgz`), { cacheDir: await fresh() }).catch((e: unknown) => e)) as ChartSourceError;
    expect(err.code).toBe('not-a-chart');
    expect(err.message).toContain('charts found at subpath "mariadb"');
  });

  test('a missing subpath is reported with the extracted root', async () => {
    const err = (await resolveChartSource(ChartSource.tar(`${server.url}/chart-d.tgz`, { subpath: 'keystone' }), { cacheDir: await fresh() }).catch(
      (e: unknown) => e,
    )) as ChartSourceError;
    expect(err.code).toBe('not-found');
    expect(err.message).toContain('subpath "keystone" does not exist');
  });

  test('a subpath may not leave the extracted tarball', async () => {
    const err = (await resolveChartSource(ChartSource.tar(`${server.url}/chart-e.tgz`, { subpath: '../..' }), { cacheDir: await fresh() }).catch(
      (e: unknown) => e,
    )) as ChartSourceError;
    expect(err.code).toBe('invalid-option');
    expect(err.message).toContain('points outside the fetched source');
  });

  test('a server that never answers hits httpTimeout', async () => {
    const err = (await resolveChartSource(ChartSource.tar(`${server.url}/hang.tgz`), { cacheDir: await fresh(), httpTimeout: Duration.seconds(0.3) }).catch(
      (e: unknown) => e,
    )) as ChartSourceError;
    expect(err.code).toBe('download');
    expect(err.message).toContain('no response for 0.3 s');
  });

  test('refresh downloads again and moves to the new content; without it the first download stays', async () => {
    const cacheDir = await fresh();
    const src = ChartSource.tar(`${server.url}/chart-refresh.tgz`, { subpath: 'mariadb' });
    const v1 = await resolveChartSource(src, { cacheDir });
    served = tgzV2;
    try {
      const stale = await resolveChartSource(src, { cacheDir });
      expect(stale.sha256).toBe(v1.sha256);
      const v2 = await resolveChartSource(src, { cacheDir, refresh: true });
      expect(v2.cached).toBe(false);
      expect(v2.sha256).not.toBe(v1.sha256);
      await expect(fs.readFile(path.join(v2.dir, 'Chart.yaml'), 'utf8')).resolves.toContain('version: 2.0.0');
      // The old version is left for whoever still reads it.
      await expect(fs.readFile(path.join(v1.dir, 'Chart.yaml'), 'utf8')).resolves.toContain('version: 1.0.0');
      // Once per process: a second refresh in the same run does not download again.
      await resolveChartSource(src, { cacheDir, refresh: true });
      expect(server.hits.get('/chart-refresh.tgz')).toBe(2);
      // And plain resolves now see the new version.
      expect((await resolveChartSource(src, { cacheDir })).sha256).toBe(v2.sha256);
    } finally {
      served = tgzV1;
    }
  });

  test('an unsupported URL scheme is refused up front', async () => {
    await expect(resolveChartSource(ChartSource.tar('ftp://example.invalid/c.tgz'), { cacheDir: await fresh() })).rejects.toMatchObject({
      code: 'invalid-option',
      message: expect.stringContaining('only http and https'),
    });
  });

  test('credentials in the URL do not appear in messages', async () => {
    const url = server.url.replace('http://', 'http://user:s3cret@');
    const err = (await resolveChartSource(ChartSource.tar(`${url}/missing.tgz`), { cacheDir: await fresh() }).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain('HTTP 404');
    expect(err.message).not.toContain('s3cret');
  });
});

describe('tar sources over a proxy', () => {
  test('http: the request goes through proxyServer with the absolute URL', async () => {
    const before = proxy.seen.length;
    const url = `${server.url}/chart-proxied.tgz`;
    const r = await resolveChartSource(ChartSource.tar(url, { subpath: 'mariadb', proxyServer: proxy.url }), { cacheDir: await fresh() });
    expect(proxy.seen.slice(before)).toEqual([`GET ${url}`]);
    expect(server.hits.get('/chart-proxied.tgz')).toBe(1);
    await expect(fs.stat(path.join(r.dir, 'Chart.yaml'))).resolves.toBeTruthy();
  });

  test('a proxy written as host:port is read as http', async () => {
    const before = proxy.seen.length;
    await resolveChartSource(ChartSource.tar(`${server.url}/chart-bare-proxy.tgz`, { subpath: 'mariadb', proxyServer: proxy.url.replace('http://', '') }), {
      cacheDir: await fresh(),
    });
    expect(proxy.seen.length).toBe(before + 1);
  });

  test('https: tunnels with CONNECT and still verifies the server', async () => {
    const before = proxy.seen.length;
    const host = new URL(tlsServer.url).host;
    const r = await resolveChartSource(ChartSource.tar(`${tlsServer.url}/chart-tunnel.tgz`, { subpath: 'mariadb', proxyServer: proxy.url }), {
      cacheDir: await fresh(),
      caFile: path.join(FIXTURES, 'server-cert.pem'),
    });
    expect(proxy.seen.slice(before)).toEqual([`CONNECT ${host}`]);
    expect(tlsServer.hits.get('/chart-tunnel.tgz')).toBe(1);
    await expect(fs.stat(path.join(r.dir, 'Chart.yaml'))).resolves.toBeTruthy();

    const err = (await resolveChartSource(ChartSource.tar(`${tlsServer.url}/chart-tunnel-untrusted.tgz`, { proxyServer: proxy.url }), {
      cacheDir: await fresh(),
    }).catch((e: unknown) => e)) as ChartSourceError;
    expect(err.code).toBe('download');
    expect(err.message).toContain('TLS verification is on');
  });

  test('credentials in the URL never reach the request line: an Authorization header carries them, over http and through CONNECT', async () => {
    const seen: { line: string; authorization: string | undefined }[] = [];
    const recording = (req: import('http').IncomingMessage, res: import('http').ServerResponse) => {
      seen.push({ line: `${req.method} ${req.url}`, authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/gzip' }).end(tgzV1);
    };
    const [cert, key] = await Promise.all([fs.readFile(path.join(FIXTURES, 'server-cert.pem')), fs.readFile(path.join(FIXTURES, 'server-key.pem'))]);
    const plain = await startServer(recording);
    const secure = await startServer(recording, (l) => https.createServer({ cert, key }, l));
    try {
      const basic = `Basic ${Buffer.from('ci-bot:s3cret/#?').toString('base64')}`;
      const withCreds = (u: string) => u.replace('://', `://ci-bot:${encodeURIComponent('s3cret/#?')}@`);
      const before = proxy.seen.length;
      await resolveChartSource(ChartSource.tar(`${withCreds(plain.url)}/chart-cred.tgz?ref=main`, { subpath: 'mariadb', proxyServer: proxy.url }), { cacheDir: await fresh() });
      await resolveChartSource(ChartSource.tar(`${withCreds(secure.url)}/chart-cred.tgz`, { subpath: 'mariadb', proxyServer: proxy.url }), {
        cacheDir: await fresh(),
        caFile: path.join(FIXTURES, 'server-cert.pem'),
      });
      // The repro: the proxy saw GET http://ci-bot:s3cret%2F%23%3F@127.0.0.1:…/chart-cred.tgz, and the https server no credentials at all.
      expect(proxy.seen.slice(before)).toEqual([`GET ${plain.url}/chart-cred.tgz?ref=main`, `CONNECT ${new URL(secure.url).host}`]);
      expect(seen).toEqual([
        { line: 'GET /chart-cred.tgz?ref=main', authorization: basic },
        { line: 'GET /chart-cred.tgz', authorization: basic },
      ]);
    } finally {
      await Promise.all([plain.close(), secure.close()]);
    }
  });

  test('an unreachable proxy is named', async () => {
    const err = (await resolveChartSource(ChartSource.tar(`${server.url}/chart-x.tgz`, { proxyServer: 'http://127.0.0.1:9' }), { cacheDir: await fresh() }).catch(
      (e: unknown) => e,
    )) as ChartSourceError;
    expect(err.code).toBe('download');
    expect(err.message).toContain('the proxy 127.0.0.1:9 cannot be reached');
  });

  test('only http proxies are accepted', async () => {
    await expect(
      resolveChartSource(ChartSource.tar(`${server.url}/chart-y.tgz`, { proxyServer: 'socks5://127.0.0.1:1080' }), { cacheDir: await fresh() }),
    ).rejects.toMatchObject({ code: 'invalid-option' });
  });
});

describe('tar sources over TLS', () => {
  test('verification is on by default: a self-signed server is refused with the two ways out', async () => {
    const err = (await resolveChartSource(ChartSource.tar(`${tlsServer.url}/chart-tls.tgz`), { cacheDir: await fresh() }).catch((e: unknown) => e)) as ChartSourceError;
    expect(err.code).toBe('download');
    expect(err.message).toContain('caFile');
    expect(err.message).toContain('insecure: true');
  });

  test('caFile trusts the server', async () => {
    const r = await resolveChartSource(ChartSource.tar(`${tlsServer.url}/chart-tls-ca.tgz`, { subpath: 'mariadb' }), {
      cacheDir: await fresh(),
      caFile: path.join(FIXTURES, 'server-cert.pem'),
    });
    await expect(fs.stat(path.join(r.dir, 'Chart.yaml'))).resolves.toBeTruthy();
  });

  test('insecure skips verification, and says so in the log', async () => {
    const log: string[] = [];
    const r = await resolveChartSource(ChartSource.tar(`${tlsServer.url}/chart-tls-insecure.tgz`, { subpath: 'mariadb' }), {
      cacheDir: await fresh(),
      insecure: true,
      log: (m) => log.push(m),
    });
    await expect(fs.stat(path.join(r.dir, 'Chart.yaml'))).resolves.toBeTruthy();
    expect(log.some((l) => l.includes('TLS verification is off'))).toBe(true);
  });

  test('an unreadable caFile is an option error', async () => {
    await expect(
      resolveChartSource(ChartSource.tar(`${tlsServer.url}/chart-tls-noca.tgz`), { cacheDir: await fresh(), caFile: path.join(FIXTURES, 'nope.pem') }),
    ).rejects.toMatchObject({ code: 'invalid-option', message: expect.stringContaining('caFile') });
  });
});
