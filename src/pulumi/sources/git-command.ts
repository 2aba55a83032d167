import { spawn } from 'child_process';
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

/** How to run git. */
export interface GitRunOptions {
  readonly git: string;
  readonly cwd?: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
}

/**
 * Runs git without a shell, so locations and references are never interpreted by one; stdin is
 * closed so nothing can wait for an answer that will not come.
 */
export function runGit(args: readonly string[], options: GitRunOptions): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const child = spawn(options.git, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
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
      clearTimeout(timer);
      if (code === 0 && !timedOut) resolve(stdout);
      else reject(new GitCommandError(args.map(redact), code, redact(stderr), timedOut));
    });
  });
}
