import { spawn, SpawnOptions } from 'child_process';
import * as path from 'path';
import { cliPackages } from './cli-package';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The CLI as a real process, as a user runs it (`bin/armada-cdk.js` of the package built from the
 * sources, once per test run): for what only a process has (its own stdout hitting a full disk or
 * a closed pipe, an endless stdin). The first call of a run waits for that build.
 */
export function spawnCli(args: readonly string[], options: SpawnOptions = {}) {
  const bin = path.join(cliPackages().bundled, 'bin', 'armada-cdk.js');
  return spawn(process.execPath, [bin, ...args], { cwd: ROOT, ...options });
}

/**
 * For a test file that uses {@link spawnCli}: waits in `beforeAll` for the run's CLI build, so
 * that no single test's time limit has to cover it.
 */
export function buildCliFirst(): void {
  beforeAll(() => void cliPackages(), 600_000);
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
