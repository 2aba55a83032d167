/**
 * The build cache of the end-to-end stack: one directory per component and version, outside the
 * repository, that holds what was built and a stamp naming the recipe it was built by. A component
 * whose stamp matches is reused; any other state (missing, half-built, older recipe) is rebuilt.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The cache root: `ARMADA_CDK_E2E_CACHE`, else `~/.cache/armada-cdk-e2e`. */
export function cacheRoot(): string {
  const fromEnv = process.env.ARMADA_CDK_E2E_CACHE;
  return fromEnv && fromEnv.length > 0 ? path.resolve(fromEnv) : path.join(os.homedir(), '.cache', 'armada-cdk-e2e');
}

/** One cached component: where it lives and what the stamp must say for it to be reused. */
export interface CacheEntry {
  /** `<component>-<version>`, the directory name under the cache root. */
  readonly key: string;
  readonly dir: string;
  /** The stamp's expected contents: the version and everything else that changes the output. */
  readonly stamp: string;
}

const STAMP_FILE = 'stamp';

export function cacheEntry(component: string, version: string, recipe: Readonly<Record<string, string>>): CacheEntry {
  const key = `${component}-${version}`;
  // The stamp is JSON with sorted keys so that the same recipe always writes the same bytes.
  const stamp = JSON.stringify({ component, version, ...Object.fromEntries(Object.entries(recipe).sort(([a], [b]) => a.localeCompare(b))) }, null, 2) + '\n';
  return { key, dir: path.join(cacheRoot(), key), stamp };
}

export function isBuilt(entry: CacheEntry): boolean {
  try {
    return fs.readFileSync(path.join(entry.dir, STAMP_FILE), 'utf8') === entry.stamp;
  } catch {
    return false;
  }
}

/**
 * Builds `entry` unless its stamp matches: clears the directory (a build that died half-way leaves
 * no stamp), runs `build`, then writes the stamp last. Prints the cold build's time.
 */
export async function ensureBuilt(entry: CacheEntry, build: (dir: string) => Promise<void>, log: (line: string) => void): Promise<void> {
  if (isBuilt(entry)) return;
  const started = Date.now();
  log(`building ${entry.key} into ${entry.dir} ...`);
  fs.rmSync(path.join(entry.dir, STAMP_FILE), { force: true });
  fs.mkdirSync(entry.dir, { recursive: true });
  await build(entry.dir);
  fs.writeFileSync(path.join(entry.dir, STAMP_FILE), entry.stamp);
  log(`built ${entry.key} in ${formatSeconds(Date.now() - started)} (cold build)`);
}

export function formatSeconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

/** Options of {@link runTool}. */
export interface RunToolOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Where the command's output goes; its last lines are quoted when it fails. */
  readonly logFile: string;
  /**
   * Run under `nice -n 10`: builds share the machine with everything else.
   * @default true
   */
  readonly nice?: boolean | undefined;
}

/** Runs a build command to completion; rejects with the command, its exit status and its log's tail. */
export function runTool(command: string, args: readonly string[], options: RunToolOptions): Promise<void> {
  const nice = options.nice ?? true;
  const [file, argv] = nice ? ['nice', ['-n', '10', command, ...args]] : [command, [...args]];
  const out = fs.openSync(options.logFile, 'a');
  fs.writeSync(out, `$ ${[command, ...args].join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', out, out] });
    child.on('error', (e) => {
      fs.closeSync(out);
      reject(new Error(`Cannot run ${command}: ${e.message}`));
    });
    child.on('exit', (code, signal) => {
      fs.closeSync(out);
      if (code === 0) return resolve();
      const tail = fs.readFileSync(options.logFile, 'utf8').trimEnd().split('\n').slice(-25).join('\n');
      reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}); full log ${options.logFile}; its end:\n${tail}`));
    });
  });
}
