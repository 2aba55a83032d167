/**
 * A git server on 127.0.0.1 over the fixture repositories: git's smart HTTP protocol through
 * `git http-backend` run as a CGI program, so any client (git, Flux's go-git) clones as from a
 * real forge. Repositories are bare, made when the suite starts; read-only (no receive-pack).
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { listen, StaticServer } from './static-http';

/** A served set of repositories: `<url><name>.git`. */
export interface GitServer {
  readonly url: string;
  readonly root: string;
  readonly server: StaticServer;
  /** The clone URL of a repository. */
  repoUrl(name: string): string;
}

/** A commit author and date fixed so that the same fixtures always give the same commit ids. */
const FIXED_IDENTITY: NodeJS.ProcessEnv = {
  GIT_AUTHOR_NAME: 'armada-cdk e2e',
  GIT_AUTHOR_EMAIL: 'e2e@armada-cdk.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'armada-cdk e2e',
  GIT_COMMITTER_EMAIL: 'e2e@armada-cdk.invalid',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/**
 * Makes a bare repository `<root>/<name>.git` whose `main` branch (and tag `v1`) holds the files of
 * `contents`, each top-level entry of `contents` under `prefix` when given.
 */
export function makeRepository(root: string, name: string, contents: string, prefix = ''): string {
  const work = path.join(root, '.work', name);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(work), { recursive: true });
  fs.cpSync(contents, path.join(work, prefix), { recursive: true });
  const env = { ...process.env, ...FIXED_IDENTITY };
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, stdio: 'pipe' });
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', `fixture ${name}`);
  git(work, 'tag', 'v1');
  const bare = path.join(root, `${name}.git`);
  fs.rmSync(bare, { recursive: true, force: true });
  git(root, 'clone', '-q', '--bare', work, bare);
  // Dumb-HTTP clients and `git ls-remote` over dumb HTTP need the info files; smart HTTP does not, but it is cheap.
  git(bare, 'update-server-info');
  fs.rmSync(work, { recursive: true, force: true });
  return bare;
}

/** Serves the bare repositories under `root`. */
export async function startGitServer(root: string): Promise<GitServer> {
  const backend = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim() + '/git-http-backend';
  const server = await listen((req, res) => serveGit(backend, root, req, res));
  return { url: server.url, root, server, repoUrl: (name) => `${server.url}${name}.git` };
}

function serveGit(backend: string, root: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  // Read-only: a push would change the fixtures under every later test.
  if (url.pathname.endsWith('/git-receive-pack') || url.searchParams.get('service') === 'git-receive-pack') {
    res.writeHead(403, { 'content-type': 'text/plain' }).end('read-only fixture repository\n');
    return;
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GATEWAY_INTERFACE: 'CGI/1.1',
    SERVER_PROTOCOL: 'HTTP/1.1',
    REQUEST_METHOD: req.method ?? 'GET',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.replace(/^\?/, ''),
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    // Protocol v2 and gzip-compressed requests are passed as git expects them from a web server.
    ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
    ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
    ...(req.headers['content-length'] ? { CONTENT_LENGTH: String(req.headers['content-length']) } : {}),
  };
  const cgi = spawn(backend, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  req.pipe(cgi.stdin);
  let stderr = '';
  cgi.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let head = Buffer.alloc(0);
  let headersDone = false;
  cgi.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : head.indexOf('\n\n');
    if (end < 0) return;
    const sep = head.indexOf('\r\n\r\n') === end ? 4 : 2;
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
      const i = line.indexOf(':');
      if (i < 0) continue;
      const key = line.slice(0, i).trim();
      const value = line.slice(i + 1).trim();
      if (key.toLowerCase() === 'status') status = Number(value.split(' ')[0]) || 500;
      else headers[key] = value;
    }
    headersDone = true;
    res.writeHead(status, headers);
    res.write(head.subarray(end + sep));
  });
  cgi.on('close', (code) => {
    if (!headersDone) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`git http-backend failed (${code}): ${stderr.slice(0, 500)}\n`);
      return;
    }
    res.end();
  });
  cgi.on('error', (e) => {
    if (!res.headersSent) res.writeHead(500).end(`cannot run git http-backend: ${e.message}\n`);
  });
}
