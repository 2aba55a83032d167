import { spawn } from 'child_process';
import { Dirent, promises as fs } from 'fs';
import * as path from 'path';
import { ChartSourceError, redact, trimDetail } from './errors';

/** A git command that exited non-zero; `stderr` is git's own explanation. */
export class GitCommandError extends Error {
  constructor(
    public readonly args: readonly string[],
    public readonly exitCode: number | null,
    public readonly stderr: string,
    public readonly timedOut: boolean,
  ) {
    super(`git ${args.join(' ')} ${timedOut ? 'timed out' : `exited with ${exitCode}`}: ${trimDetail(stderr)}`);
  }
}

/** A git command stopped because what it wrote passed a limit. */
export class GitLimitError extends Error {
  constructor(
    public readonly args: readonly string[],
    /** `download`: the bytes under the watched directory; `output`: its standard output. */
    public readonly kind: 'download' | 'output',
    public readonly maxBytes: number,
  ) {
    super(`git ${args.join(' ')} was stopped: its ${kind} passed ${maxBytes} bytes`);
  }
}

/** How to run git. */
export interface GitRunOptions {
  readonly git: string;
  readonly cwd?: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  /**
   * A directory the command fills (a clone's objects, as they arrive) and the most bytes it may
   * hold: the command is stopped as soon as a check finds more, since a server may send any amount
   * within the time limit.
   * @default - not watched
   */
  readonly watch?: { readonly dir: string; readonly maxBytes: number } | undefined;
  /**
   * The most bytes of standard output kept; the command is stopped past it.
   * @default - no limit
   */
  readonly maxOutputBytes?: number | undefined;
}

/** git's last words are the ones that explain a failure: this much of its stderr is kept. */
const STDERR_KEPT = 64 * 1024;
/** How often a watched directory is measured. */
const WATCH_MS = 100;

/** The bytes of the files under `dir` (missing files and directories count as nothing). */
async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await treeBytes(p);
    else if (e.isFile()) total += await fs.lstat(p).then((st) => st.size, () => 0);
  }
  return total;
}

/**
 * Runs git without a shell, so locations and references are never interpreted by one; stdin is
 * closed so nothing can wait for an answer that will not come.
 */
export function runGit(args: readonly string[], options: GitRunOptions): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let timedOut = false;
    let overLimit: GitLimitError | undefined;
    const child = spawn(options.git, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    // The helpers git runs (git-remote-https, index-pack) share its pipes and outlive a killed git
    // for a while: closing our ends lets the command end now, and makes their next write fail.
    const kill = () => {
      child.kill('SIGKILL');
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const stop = (e: GitLimitError) => {
      overLimit ??= e;
      kill();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    let measuring = false;
    const watch = options.watch;
    const watcher = watch
      ? setInterval(() => {
          if (measuring) return;
          measuring = true;
          void treeBytes(watch.dir).then((bytes) => {
            measuring = false;
            if (bytes > watch.maxBytes) stop(new GitLimitError(args.map(redact), 'download', watch.maxBytes));
          });
        }, WATCH_MS)
      : undefined;
    const done = () => {
      clearTimeout(timer);
      if (watcher) clearInterval(watcher);
    };
    child.stdout.on('data', (d: Buffer) => {
      stdoutBytes += d.length;
      if (options.maxOutputBytes !== undefined && stdoutBytes > options.maxOutputBytes) stop(new GitLimitError(args.map(redact), 'output', options.maxOutputBytes));
      else stdout.push(d);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (stderr.length > 2 * STDERR_KEPT) stderr = stderr.slice(-STDERR_KEPT);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      done();
      if (e.code === 'ENOENT' || e.code === 'EACCES') {
        reject(
          new ChartSourceError(
            'git-not-installed',
            `git sources need the git command-line client, but "${options.git}" could not be run (${e.code}); install git or pass gitCommand`,
            undefined,
            { cause: e },
          ),
        );
      } else {
        reject(e);
      }
    });
    child.on('close', (code) => {
      done();
      if (overLimit) return reject(overLimit);
      if (code !== 0 || timedOut) return reject(new GitCommandError(args.map(redact), code, redact(stderr.slice(-STDERR_KEPT)), timedOut));
      const out = Buffer.concat(stdout).toString('utf8');
      // A command quicker than the first check is measured once it is done.
      if (!watch) return resolve(out);
      void treeBytes(watch.dir).then((bytes) => (bytes > watch.maxBytes ? reject(new GitLimitError(args.map(redact), 'download', watch.maxBytes)) : resolve(out)));
    });
  });
}
