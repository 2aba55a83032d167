import { spawn, SpawnOptions } from 'child_process';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The CLI as a real process, from the sources: for what only a process has (its own stdout
 * hitting a full disk or a closed pipe, an endless stdin). Compiles on the fly, so the first start
 * takes a few seconds.
 */
export function spawnCli(args: readonly string[], options: SpawnOptions = {}) {
  const script = `require(${JSON.stringify(path.join(ROOT, 'src/cli/main'))}).main(process.argv.slice(1)).then((c) => { process.exitCode = c; })`;
  return spawn(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), '-e', script, '--', ...args], {
    cwd: ROOT,
    ...options,
    env: { ...process.env, TS_NODE_COMPILER_OPTIONS: JSON.stringify({ module: 'commonjs', moduleResolution: 'node' }), ...(options.env ?? {}) },
  });
}

/** Exit code (or signal) and stderr of a spawned CLI, bounded in time. */
export function finished(child: ReturnType<typeof spawnCli>, timeoutMs = 60_000): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; timedOut: boolean }> {
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, timedOut });
    });
  });
}
