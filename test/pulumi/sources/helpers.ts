import { execFile } from 'child_process';
import { promises as fs } from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import * as tar from 'tar';
import { promisify } from 'util';

const execFileP = promisify(execFile);

/** A fresh directory under the system temp dir, removed by `cleanup()`. */
export async function tempDir(label: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `armada-cdk-${label}-`));
  created.push(dir);
  return dir;
}
const created: string[] = [];
export async function cleanup(): Promise<void> {
  await Promise.all(created.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
}

/**
 * Keeps the tests away from the user's git config, proxies and cache: git reads only an empty
 * global config, and HOME/XDG point into a temp dir.
 */
export async function isolateEnvironment(): Promise<string> {
  const home = await tempDir('home');
  const gitconfig = path.join(home, '.gitconfig');
  await fs.writeFile(gitconfig, '');
  Object.assign(process.env, {
    HOME: home,
    XDG_CACHE_HOME: path.join(home, '.cache'),
    GIT_CONFIG_GLOBAL: gitconfig,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
  });
  for (const v of ['http_proxy', 'https_proxy', 'all_proxy', 'no_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'GIT_SSH_COMMAND', 'GIT_DIR', 'GIT_WORK_TREE']) {
    delete process.env[v];
  }
  return home;
}

/** Writes a minimal chart: Chart.yaml, values.yaml, one template, and optional extra files. */
export async function writeChart(
  dir: string,
  name: string,
  opts: { version?: string | undefined; files?: Record<string, string> | undefined; dependencies?: string[] | undefined } = {},
): Promise<string> {
  await fs.mkdir(path.join(dir, 'templates'), { recursive: true });
  const deps = opts.dependencies?.length ? `dependencies:\n${opts.dependencies.map((d) => `  - name: ${d}\n    version: "0.1.0"\n`).join('')}` : '';
  await fs.writeFile(path.join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: ${opts.version ?? '0.1.0'}\n${deps}`);
  await fs.writeFile(path.join(dir, 'values.yaml'), 'replicas: 1\n');
  await fs.writeFile(path.join(dir, 'templates', 'cm.yaml'), `kind: ConfigMap\nmetadata:\n  name: ${name}\n`);
  for (const [rel, text] of Object.entries(opts.files ?? {})) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
  return dir;
}

/** Packs `entries` of `cwd` into a gzip tarball, as `helm package` lays one out (`<chart>/...`). */
export async function makeTgz(cwd: string, entries: string[], file: string): Promise<Buffer> {
  await tar.c({ gzip: true, file, cwd, portable: true }, entries);
  return fs.readFile(file);
}

/** Runs git in `cwd` and returns its trimmed stdout. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await execFileP('git', args, { cwd, env: process.env });
  return stdout.trim();
}

/** A local HTTP server; `hits` counts requests per path. */
export interface TestServer {
  readonly url: string;
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startServer(handler: http.RequestListener, create: (l: http.RequestListener) => net.Server = http.createServer): Promise<TestServer> {
  const hits = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  const server = create((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(p, (hits.get(p) ?? 0) + 1);
    handler(req, res);
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const scheme = 'setSecureContext' in server ? 'https' : 'http';
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A minimal forward proxy: absolute-URI requests for http, CONNECT tunnels for https. */
export interface TestProxy {
  readonly url: string;
  /** `GET http://…` or `CONNECT host:port`, in arrival order. */
  readonly seen: string[];
  close(): Promise<void>;
}

export async function startProxy(): Promise<TestProxy> {
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const up = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: req.headers, agent: false },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const up = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    sockets.add(client);
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Serves the files under `root` (enough for git's "dumb" HTTP protocol). */
export function serveDirectory(root: string): http.RequestListener {
  return (req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(root, path.normalize(rel));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    fs.readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end('not found'),
    );
  };
}

/** Recursively lists the names under `dir` that start with `.tmp-` (leftovers of interrupted work). */
export async function leftovers(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.tmp-')) out.push(path.join(d, e.name));
      else if (e.isDirectory() && depth < 3 && e.name !== '.git') await walk(path.join(d, e.name), depth + 1);
    }
  };
  await walk(dir, 0);
  return out;
}

export async function pathExists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}
