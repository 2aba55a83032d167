import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Duration } from '../../model/duration';
import { discardEntry, entryName, firstRefresh, isDirectory, once, publishVerified, readPointer, removeTree, tempPath, verifyEntry, writePointer } from './cache';
import { ChartSourceError, redact, trimDetail } from './errors';
import { GitCommandError, GitLimitError, GitRunOptions, runGit } from './git-command';
import { cacheRoot, logger, millis, ResolveChartSourceOptions, sourceLimits } from './options';

/** What to clone and how. */
export interface GitRequest {
  readonly location: string;
  /** Branch, tag, commit SHA or any ref such as Gerrit's `refs/changes/…` (Armada's default is `master`). */
  readonly reference: string;
  readonly proxyServer?: string | undefined;
  readonly authMethod?: string | undefined;
}

/** A clone in the cache, checked out at the commit the reference named when it was fetched. */
export interface GitCheckout {
  /** The working tree (it contains `.git`). */
  readonly root: string;
  /** Full SHA of the checked-out commit. */
  readonly commit: string;
  /** True when nothing was cloned. */
  readonly cached: boolean;
}

/**
 * Layout, under `<cacheDir>/git/<name>-<hash of location and reference>/`: `<commit>/` (a clone
 * checked out at that commit) and `current` (which commit the reference resolved to last). A clone
 * is built in a temp directory and renamed into place, and never changed afterwards, so charts of
 * one repository share it and processes sharing the cache cannot see a half-made one.
 */
export function fetchGitRepository(request: GitRequest, options: ResolveChartSourceOptions): Promise<GitCheckout> {
  checkLocation(request.location, `git source ${describe(request)}`);
  // Keyed without credentials: a rotated token is the same repository.
  const entry = path.join(cacheRoot(options), 'git', entryName(splitCredentials(request.location).url, request.reference));
  const key = `git\0${entry}`;
  const refresh = options.refresh === true && firstRefresh(key);
  const log = logger(options);
  let ran = false;
  const result = once(
    key,
    async () => {
      ran = true;
      const found = await current(entry, describe(request), log);
      if (found && !refresh) {
        log(`git: using cached clone of ${describe(request)} (commit ${found.commit.slice(0, 12)})`);
        return found;
      }
      return cloneIntoCache(entry, request, options, found?.root);
    },
    refresh,
  );
  if (ran) return result;
  return result.then((r) => {
    log(`git: using cached clone of ${describe(request)} (commit ${r.commit.slice(0, 12)}, the commit this run already uses)`);
    return { ...r, cached: true };
  });
}

/**
 * Clones, fetches and checks out into a temp directory, then publishes it as `<entry>/<commit>`.
 * Exported for tests that race two of these as two processes would.
 * @internal
 */
export async function cloneIntoCache(entry: string, request: GitRequest, options: ResolveChartSourceOptions, previous?: string): Promise<GitCheckout> {
  const log = logger(options);
  const what = `git source ${describe(request)}`;
  checkReference(request.reference, what);
  checkLocation(request.location, what);
  const { url, username, password } = splitCredentials(request.location);
  const env = await gitEnv(request, options, what);
  // Configuration through the environment, for these commands only: nothing of it is written into
  // the clone's .git/config, and none of it shows in the process list.
  const config: [string, string][] = [];
  if (request.proxyServer) config.push(['http.proxy', request.proxyServer]);
  if (username !== undefined || password !== undefined) {
    // The URL's credentials reach git through a helper that reads them from the environment, so
    // the clone records the bare URL. The empty helper first drops any configured ones, which
    // would otherwise be asked to store the credentials.
    config.push(['credential.helper', ''], ['credential.helper', CREDENTIAL_HELPER]);
    const { protocol, host } = credentialScope(url);
    env.ARMADA_CDK_GIT_PROTOCOL = protocol;
    env.ARMADA_CDK_GIT_HOST = host;
    env.ARMADA_CDK_GIT_USERNAME = username ?? '';
    env.ARMADA_CDK_GIT_PASSWORD = password ?? '';
  }
  config.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  env.GIT_CONFIG_COUNT = String(config.length);
  const run = (args: readonly string[], cwd?: string, bounds?: Pick<GitRunOptions, 'watch' | 'maxOutputBytes'>) =>
    runGit(args, { git: options.gitCommand ?? 'git', cwd, env, timeoutMs: millis(options.gitTimeout, Duration.minutes(10), 'gitTimeout'), ...bounds });

  await fs.mkdir(entry, { recursive: true });
  const tmp = tempPath(entry, 'clone');
  // What the server sends lands under tmp: a clone and a fetch stop once it passes the limit.
  const download = { watch: { dir: tmp, maxBytes: sourceLimits(options).maxDownloadBytes } };
  try {
    log(`git: cloning ${describe(request)}${request.proxyServer ? ` via proxy ${redact(request.proxyServer)}` : ''}`);
    // Borrowing objects from the previous clone makes a refresh cheap; --dissociate then copies
    // them, so deleting old entries never breaks a newer one.
    const borrow = previous ? ['--reference-if-able', previous, '--dissociate'] : [];
    await run(['clone', '--quiet', '--no-checkout', ...borrow, '--', url, tmp], undefined, download).catch((e) => {
      throw explain(e, `${what}: git clone failed`, request, options);
    });
    let target = 'FETCH_HEAD';
    try {
      await run(['fetch', '--quiet', 'origin', '--', request.reference], tmp, download);
    } catch (e) {
      if (!(e instanceof GitCommandError) || !UNKNOWN_REF.test(e.stderr)) throw explain(e, `${what}: git fetch failed`, request, options);
      // Servers that refuse to serve a bare SHA (uploadpack.allowAnySHA1InWant off) or an
      // abbreviated one still sent it with the clone when a branch or tag contains it.
      const local = /^[0-9a-f]{4,40}$/i.test(request.reference) ? await run(['rev-parse', '--verify', '--quiet', `${request.reference}^{commit}`], tmp).catch(() => '') : '';
      if (!local.trim()) {
        throw new ChartSourceError(
          'git-reference',
          `${what}: reference "${request.reference}" not found; use a branch, tag, commit SHA or full ref (such as refs/changes/…) that exists in ${redact(request.location)} (git: ${trimDetail(e.stderr)})`,
          trimDetail(e.stderr),
          { cause: e },
        );
      }
      target = local.trim();
      log(`git: "${request.reference}" is not a ref the server will send; using commit ${target.slice(0, 12)} from the clone`);
    }
    await checkTreeSize(await treeListing(run, target, tmp, options, what), options, what);
    await run(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--detach', target], tmp).catch((e) => {
      throw explain(e, `${what}: git checkout of "${request.reference}" failed`, request, options);
    });
    const commit = (await run(['rev-parse', 'HEAD'], tmp)).trim();
    const root = path.join(entry, commit);
    if ((await isDirectory(root)) && !(await verifyEntry(root))) await discardEntry(root);
    await publishVerified(tmp, root);
    await writePointer(path.join(entry, 'current'), commit);
    log(`git: ${describe(request)} is commit ${commit.slice(0, 12)}`);
    return { root, commit, cached: false };
  } catch (e) {
    await removeTree(tmp);
    throw e;
  }
}

/**
 * The tree's `ls-tree` listing, bounded: a tree of millions of files would otherwise be read into
 * memory whole before its count is checked. A listing line is at most a path (4096 bytes on Linux)
 * and its mode, type, object and size.
 */
async function treeListing(
  run: (args: readonly string[], cwd?: string, bounds?: Pick<GitRunOptions, 'maxOutputBytes'>) => Promise<string>,
  target: string,
  cwd: string,
  options: ResolveChartSourceOptions,
  what: string,
): Promise<string> {
  const maxEntries = sourceLimits(options).maxArchiveEntries;
  try {
    return await run(['ls-tree', '-r', '-l', '-z', target], cwd, { maxOutputBytes: (maxEntries + 1) * 4200 });
  } catch (e) {
    if (e instanceof GitLimitError) throw new ChartSourceError('limit', `${what}: the checkout would hold more files than maxArchiveEntries (${maxEntries}) allows: its file list alone passed ${e.maxBytes} bytes; nothing was checked out`);
    throw e;
  }
}

/**
 * The checkout is the costly part of a clone on disk: the tree's entries and sizes are known
 * before it (`ls-tree -l`), so a tree over the limits is refused before a file is written.
 */
async function checkTreeSize(listing: string, options: ResolveChartSourceOptions, what: string): Promise<void> {
  const { maxArchiveEntries: maxEntries, maxExtractedBytes: maxBytes } = sourceLimits(options);
  let entries = 0;
  let bytes = 0;
  for (const line of listing.split('\0')) {
    if (line === '') continue;
    entries++;
    // `<mode> <type> <object> <size>\t<path>`; the size is `-` for submodules.
    const size = Number(/^\S+ \S+ \S+\s+(\d+)\t/.exec(line)?.[1] ?? 0);
    bytes += size;
  }
  if (entries > maxEntries) {
    throw new ChartSourceError('limit', `${what}: the checkout would hold ${entries} files, more than ${maxEntries} (maxArchiveEntries); nothing was checked out`);
  }
  if (bytes > maxBytes) {
    throw new ChartSourceError('limit', `${what}: the checkout would hold ${bytes} bytes, more than ${maxBytes} (maxExtractedBytes); nothing was checked out`);
  }
}

/**
 * A helper in git's `!command` form, run by git through the shell: it answers `get` with the
 * credentials this process put into the environment, and ignores `store` and `erase`. It answers
 * only when git asks for the protocol and host (with its port, as git's `host` attribute carries
 * it) the credentials were given for: a server that redirects the clone to another host, or to
 * plain http, must get nothing, as with a plain `git clone` of that URL. git sends `path` only
 * with `credential.useHttpPath`, so the path cannot be checked, and is not needed for that.
 */
const CREDENTIAL_HELPER =
  '!f() { test "$1" = get || exit 0; p=; h=; ' +
  'while IFS= read -r l; do case "$l" in protocol=*) p="${l#protocol=}" ;; host=*) h="${l#host=}" ;; "") break ;; esac; done; ' +
  'test "$p" = "$ARMADA_CDK_GIT_PROTOCOL" && test "$h" = "$ARMADA_CDK_GIT_HOST" || exit 0; ' +
  'printf \'username=%s\\npassword=%s\\n\' "$ARMADA_CDK_GIT_USERNAME" "$ARMADA_CDK_GIT_PASSWORD"; }; f';

/**
 * The `protocol` and `host` attributes git sends its credential helpers for `url` (an http(s)
 * URL without credentials, as {@link splitCredentials} returns it): the host in lower case with
 * its port when the URL names one other than the scheme's default, which WHATWG URLs drop, so
 * git, which is given this same URL, sees what this function sees.
 */
export function credentialScope(url: string): { protocol: string; host: string } {
  const u = new URL(url);
  return { protocol: u.protocol.slice(0, -1), host: u.host };
}

/** Transports that run no command of the remote's choosing; git's `ext::` and `fd::` do. */
const ALLOWED_PROTOCOLS = 'file:git:http:https:ssh';

/** The URL without its `user:password@`, and those, decoded as git decodes them. */
export function splitCredentials(location: string): { url: string; username?: string | undefined; password?: string | undefined } {
  if (!/^https?:\/\//i.test(location)) return { url: location };
  let u: URL;
  try {
    u = new URL(location);
  } catch {
    return { url: location };
  }
  if (!u.username && !u.password) return { url: location };
  const username = u.username ? decodeURIComponent(u.username) : undefined;
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  u.username = '';
  u.password = '';
  return { url: u.href, username, password };
}

/** Refuses locations that would make git run a command (`ext::sh -c …`) or use a transport armada-cdk does not allow. */
function checkLocation(location: string, what: string): void {
  const transport = /^([A-Za-z0-9][A-Za-z0-9+.-]*)::/.exec(location);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(location);
  const name = transport?.[1] ?? scheme?.[1]?.toLowerCase();
  const allowed = ['file', 'git', 'http', 'https', 'ssh', 'git+ssh', 'ssh+git'];
  if (transport || (name !== undefined && !allowed.includes(name))) {
    throw new ChartSourceError(
      'invalid-option',
      `${what}: location uses the "${name}${transport ? '::' : '://'}" transport, which armada-cdk does not allow; use https://, ssh://, git://, file:// or a path`,
    );
  }
}

/** Environment for git: never prompt (as Armada), messages in English so they can be recognised. */
async function gitEnv(request: GitRequest, options: ResolveChartSourceOptions, what: string): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GCM_INTERACTIVE: 'never',
    LC_ALL: 'C',
    LANGUAGE: '',
    // git's own default still allows ext:: for a user's command line; this allows only these.
    GIT_ALLOW_PROTOCOL: ALLOWED_PROTOCOLS,
  };
  // The configuration armada-cdk passes through the environment replaces any the caller set there.
  for (const k of Object.keys(env)) if (/^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)$/.test(k)) delete env[k];
  const method = request.authMethod?.trim();
  if (!method) return env;
  if (method.toLowerCase() !== 'ssh') {
    logger(options)(`git: authMethod "${method}" is not one Armada knows (only "ssh"); cloning ${redact(request.location)} without authentication, as Armada does`);
    return env;
  }
  const parts = ['ssh'];
  if (options.sshKeyPath) {
    const key = expandHome(options.sshKeyPath);
    let isFile = false;
    try {
      isFile = (await fs.stat(key)).isFile();
    } catch {
      // reported below
    }
    if (!isFile) {
      throw new ChartSourceError('git-ssh-key', `${what}: authMethod is ssh, but the SSH key ${key} (sshKeyPath) is not a file; point sshKeyPath at a private key`);
    }
    parts.push('-i', shellQuote(key));
  }
  // Armada's options: trust any host key and remember none. BatchMode is ours, so that a key with a
  // passphrase fails instead of waiting for one.
  parts.push('-o', 'ConnectionAttempts=20', '-o', 'ConnectTimeout=10', '-o', 'StrictHostKeyChecking=no', '-o', `UserKnownHostsFile=${shellQuote(os.devNull)}`, '-o', 'BatchMode=yes');
  env.GIT_SSH_COMMAND = parts.join(' ');
  return env;
}

const UNKNOWN_REF = /couldn't find remote ref|no such remote ref|not our ref|unadvertised object|invalid refspec|not a valid object name/i;

function explain(e: unknown, prefix: string, request: GitRequest, options: ResolveChartSourceOptions): unknown {
  if (e instanceof GitLimitError && e.kind === 'download') {
    return new ChartSourceError('limit', `${prefix}: the repository sent more than ${e.maxBytes} bytes (maxDownloadBytes), and git was stopped; nothing was checked out`, undefined, { cause: e });
  }
  if (!(e instanceof GitCommandError)) return e;
  const detail = trimDetail(e.stderr);
  if (e.timedOut) {
    const s = millis(options.gitTimeout, Duration.minutes(10), 'gitTimeout') / 1000;
    return new ChartSourceError('git-clone', `${prefix}: no result after ${s} s (gitTimeout)${detail ? ` (git: ${detail})` : ''}`, detail, { cause: e });
  }
  let hint = '';
  if (/could not resolve proxy|proxy connect|proxy/i.test(detail) && request.proxyServer) {
    hint = `; check proxyServer ${redact(request.proxyServer)}`;
  } else if (/could not read (username|password)|terminal prompts disabled|authentication failed/i.test(detail)) {
    hint = '; the repository wants credentials and git is not allowed to prompt: configure a credential helper, or use authMethod: ssh';
  } else if (/permission denied \(publickey|host key verification failed/i.test(detail)) {
    hint = '; the SSH server refused the key: check sshKeyPath and that the key is authorised for this repository';
  } else if (/does not appear to be a git repository|does not exist|repository .* not found|not found/i.test(detail)) {
    hint = `; check that ${redact(request.location)} is a git repository URL or path`;
  }
  return new ChartSourceError('git-clone', `${prefix}${detail ? ` (git: ${detail})` : ` with exit code ${e.exitCode}`}${hint}`, detail, { cause: e });
}

function checkReference(reference: string, what: string): void {
  // A leading dash would be read as an option by git; whitespace is never part of a ref name.
  if (reference.trim() === '' || reference.startsWith('-') || /[\s\0-\x1f\x7f]/.test(reference)) {
    throw new ChartSourceError('invalid-option', `${what}: reference ${JSON.stringify(reference)} is not a branch, tag, commit SHA or ref name`);
  }
}

async function current(entry: string, what: string, log: (m: string) => void): Promise<GitCheckout | undefined> {
  const commit = await readPointer(path.join(entry, 'current'));
  if (!commit) return undefined;
  const root = path.join(entry, commit);
  if (!(await isDirectory(path.join(root, '.git')))) return undefined;
  if (!(await verifyEntry(root))) {
    log(`git: the cached clone ${root} of ${what} no longer matches the digest recorded when it was cloned; cloning again`);
    return undefined;
  }
  return { root, commit, cached: true };
}

function describe(request: GitRequest): string {
  return `${redact(request.location)}@${request.reference}`;
}

function expandHome(p: string): string {
  return p === '~' ? os.homedir() : p.startsWith('~/') ? path.join(os.homedir(), p.slice(2)) : path.resolve(p);
}

/** GIT_SSH_COMMAND is run by a shell, so the key path must survive one. */
function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
