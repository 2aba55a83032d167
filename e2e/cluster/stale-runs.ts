/**
 * What a run killed outright (SIGKILL, a lost terminal) leaves behind: the next run removes it. Each
 * run's directory names its harness process (`owner`) and the process groups it started
 * (`process-groups`); a directory whose owner is gone has its groups killed (only those still
 * running one of the stack's binaries, so a reused id is never touched) and is removed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const RUN_DIR_PREFIX = 'armada-cdk-e2e-run-';
const OWNER = 'owner';
export const PROCESS_GROUPS = 'process-groups';

/** Marks `dir` as this process's run directory. */
export function claimRunDir(dir: string): void {
  fs.writeFileSync(path.join(dir, OWNER), `${process.pid}\n`);
}

/** Removes the directories and process groups of runs whose harness no longer exists. */
export function sweepStaleRuns(binaries: readonly string[], log: (line: string) => void): void {
  const tmp = os.tmpdir();
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(RUN_DIR_PREFIX)) continue;
    const dir = path.join(tmp, name);
    const owner = Number(readOr(path.join(dir, OWNER), '').trim());
    if (!Number.isInteger(owner) || owner <= 0 || alive(owner)) continue;
    for (const line of readOr(path.join(dir, PROCESS_GROUPS), '').split('\n')) {
      const pgid = Number(line.trim());
      if (!Number.isInteger(pgid) || pgid <= 0) continue;
      const cmd = readOr(`/proc/${pgid}/cmdline`, '').split('\0')[0] ?? '';
      if (!binaries.includes(cmd)) continue;
      try {
        process.kill(-pgid, 'SIGKILL');
        log(`stopped ${path.basename(cmd)} (process group ${pgid}) left by an interrupted run`);
      } catch {
        // already gone
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
    log(`removed ${dir}, left by an interrupted run`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
