/**
 * Runs the bundled CLI through a V8 code cache. About a third of a short run (`armada-cdk validate`
 * of a small file) is V8 parsing and compiling the 600 kB bundle; with the bytecode a previous run
 * left, that part is mostly gone. This is what Node's own compile cache (Node 22 and later) and
 * `v8-compile-cache` do; Node 20 has only `vm.Script`'s `cachedData`, so it is done here.
 *
 * Why it is safe to keep:
 * - The cache is used only when it was made by the same Node (version, architecture, V8) from
 *   byte-identical bundle source: the file name carries a SHA-256 of all of them. V8's own check
 *   compares only the source's length, so a cache of another bundle is never handed to it.
 * - A file that is truncated or altered is not used: it carries the SHA-256 of its bytecode.
 * - The directory must be the user's own and writable by no one else (on POSIX), since bytecode
 *   from it runs as the user; otherwise nothing is cached.
 * - Nothing here can fail a run: a cache that cannot be read, checked or written is skipped.
 *
 * One file per command (the bytecode of a run is what that run compiled, and a cache written by
 * `--version` would hold little of what `convert` runs), written once, by the first run that finds
 * none, after the command has finished; not by a run that raised V8's tier-up threshold
 * (`tier-up.ts`), since V8 refuses a cache made under other flags than its own.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';
import * as vm from 'vm';

/**
 * The commands with a cache of their own (main's, which this module cannot load without loading
 * them all; a test keeps the two lists equal); any other first argument shares `other`.
 */
export const CACHED_COMMANDS: ReadonlySet<string> = new Set(['validate', 'plan', 'convert', 'import', 'render', 'values-types']);

const MAGIC = Buffer.from('ACDKV8C1');
const DIGEST_BYTES = 32;

/** Caches older than this, of another bundle or Node, are removed when a cache is written. */
const STALE_MS = 7 * 24 * 3600 * 1000;

/**
 * Where the code cache lives, or undefined when it is turned off.
 *
 * - `ARMADA_CDK_DISABLE_COMPILE_CACHE=1` (or Node's own `NODE_DISABLE_COMPILE_CACHE=1`): no cache.
 * - `ARMADA_CDK_COMPILE_CACHE=<dir>`: that directory.
 * - Otherwise the user's cache directory: `$XDG_CACHE_HOME/armada-cdk/compile-cache` (default
 *   `~/.cache`), `~/Library/Caches/armada-cdk/compile-cache` on macOS,
 *   `%LOCALAPPDATA%\armada-cdk\compile-cache` on Windows.
 */
export function codeCacheDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: () => string = os.homedir): string | undefined {
  const on = (v: string | undefined) => v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
  if (on(env.ARMADA_CDK_DISABLE_COMPILE_CACHE) || on(env.NODE_DISABLE_COMPILE_CACHE)) return undefined;
  if (env.ARMADA_CDK_COMPILE_CACHE) return path.resolve(env.ARMADA_CDK_COMPILE_CACHE);
  let base: string | undefined;
  try {
    // Under the home directory only when it exists: a service account's HOME (often
    // /nonexistent) must not be created by a command line tool.
    const inHome = (...parts: string[]) => {
      const dir = home();
      return fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? path.join(dir, ...parts) : undefined;
    };
    if (platform === 'win32') base = env.LOCALAPPDATA || inHome('AppData', 'Local');
    else if (platform === 'darwin') base = inHome('Library', 'Caches');
    else base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : inHome('.cache');
  } catch {
    return undefined; // no home directory (a service account without one)
  }
  return base ? path.join(base, 'armada-cdk', 'compile-cache') : undefined;
}

/** The cache file of `command` for this source, this Node and this architecture. */
export function codeCacheFile(dir: string, source: Buffer, command: string | undefined): string {
  const key = createHash('sha256').update(`${process.version}\0${process.arch}\0${process.versions.v8}\0`).update(source).digest('hex').slice(0, 32);
  const name = command !== undefined && CACHED_COMMANDS.has(command) ? command : 'other';
  return path.join(dir, `cli-${key}-${name}.v8`);
}

/** What {@link runWithCodeCache} loaded. */
export interface CachedModule {
  /** The module's `module.exports`. */
  readonly exports: unknown;
  /** Whether V8 took its bytecode from the cache. */
  readonly fromCache: boolean;
  /** Writes the cache when there was none (or V8 refused it); call after the work, so that it holds what the run compiled. */
  save(): void;
}

/**
 * Loads the CommonJS file `file` as `require` would (its own `require`, `module`, `__dirname`),
 * compiled with the bytecode cached in `dir` for `command`. Without `dir`, a plain `require`.
 */
export function runWithCodeCache(file: string, dir: string | undefined, command: string | undefined): CachedModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (dir === undefined) return { exports: require(file), fromCache: false, save: () => undefined };
  const bytes = fs.readFileSync(file);
  const cacheFile = codeCacheFile(dir, bytes, command);
  const trusted = trustedDirectory(dir);
  const cachedData = trusted ? readCache(cacheFile) : undefined;
  // The wrapper CommonJS puts around a module (Node's `Module.wrap`).
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${bytes.toString('utf8')}\n});`, { filename: file, cachedData });
  const m = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const localRequire = createRequire(file);
  (script.runInThisContext() as (...a: unknown[]) => void).call(m.exports, m.exports, localRequire, m, file, path.dirname(file));
  m.loaded = true;
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  return {
    exports: m.exports,
    fromCache,
    save: () => {
      if (fromCache) return;
      try {
        if (!trusted && !makeDirectory(dir)) return;
        writeCache(cacheFile, script.createCachedData());
        pruneStale(dir, cacheFile);
      } catch {
        // a cache that cannot be written is only a slower next start
      }
    },
  };
}

/** The user's own directory, writable by no one else (on POSIX); false when it does not exist. */
function trustedDirectory(dir: string): boolean {
  try {
    const st = fs.lstatSync(dir);
    if (!st.isDirectory()) return false;
    if (typeof process.getuid !== 'function') return true;
    return st.uid === process.getuid() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function makeDirectory(dir: string): boolean {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return trustedDirectory(dir);
}

function readCache(file: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const head = MAGIC.length + DIGEST_BYTES;
  if (data.length <= head || !data.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const payload = data.subarray(head);
  const digest = createHash('sha256').update(payload).digest();
  return digest.equals(data.subarray(MAGIC.length, head)) ? payload : undefined;
}

/** Written beside and renamed, so that a run never reads half a file another run is writing. */
function writeCache(file: string, payload: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, Buffer.concat([MAGIC, createHash('sha256').update(payload).digest(), payload]), { mode: 0o600 });
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Removes caches of other bundles or Node versions (and left-over temporary files) not written for a week. */
function pruneStale(dir: string, keep: string): void {
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (file === keep || !/^cli-[0-9a-f]{32}-[a-z-]+\.v8(?:\.\d+\.tmp)?$/.test(name)) continue;
    if (name.slice(4, 36) === path.basename(keep).slice(4, 36) && !name.endsWith('.tmp')) continue;
    try {
      if (now - fs.statSync(file).mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
    } catch {
      // removed by another run meanwhile
    }
  }
}
