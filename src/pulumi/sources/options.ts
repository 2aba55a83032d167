import { safeText } from '../../model/safe-text';
import * as os from 'os';
import * as path from 'path';
import { Duration } from '../../model/duration';
import { ChartSourceError } from './errors';

/** Options shared by `resolveChartSource` and `assembleChart`. */
export interface CacheOptions {
  /**
   * Directory that holds downloaded tarballs, git clones and assembled charts. Entries are
   * immutable once written, so several processes can share one directory. Nothing is deleted
   * automatically: remove the directory (or old entries in it) to reclaim space.
   * @default - `defaultCacheDir()`: `$XDG_CACHE_HOME/armada-cdk`, else `~/Library/Caches/armada-cdk`
   * on macOS, `%LOCALAPPDATA%\armada-cdk\cache` on Windows, `~/.cache/armada-cdk` elsewhere
   */
  readonly cacheDir?: string | undefined;
  /**
   * Receives one line per notable step (download, clone, reuse of a cached entry, warnings).
   * @default - no logging
   */
  readonly log?: ((message: string) => void) | undefined;
}

/** Options of `resolveChartSource`. */
export interface ResolveChartSourceOptions extends CacheOptions {
  /**
   * Private key used for git sources with `authMethod: ssh` (Armada's `ssh_key_path`). It must
   * exist when such a source is resolved.
   * @default - ssh picks its own keys (`~/.ssh/id_*`, the agent); Armada defaults to `/home/user/.ssh/`
   */
  readonly sshKeyPath?: string | undefined;
  /**
   * PEM file of extra certificate authorities trusted for tarball downloads (Armada's `certs`),
   * added to Node's built-in list.
   * @default - Node's built-in certificate authorities only
   */
  readonly caFile?: string | undefined;
  /**
   * Skip TLS certificate verification for tarball downloads. Armada itself does not verify
   * unless its `certs` option is configured; this library verifies unless you opt out here.
   * @default false
   */
  readonly insecure?: boolean | undefined;
  /**
   * How long a tarball download may stay silent (connecting, TLS, waiting for bytes) before it
   * is abandoned. Armada uses 5 seconds.
   * @default Duration.seconds(30)
   */
  readonly httpTimeout?: Duration | undefined;
  /**
   * Limit on a whole tarball download, redirects included. `httpTimeout` only measures silence,
   * so a server that trickles bytes would otherwise hold the program forever.
   * @default Duration.minutes(10)
   */
  readonly downloadTimeout?: Duration | undefined;
  /**
   * Largest download accepted, in bytes: a tarball's body, or what a git clone or fetch receives
   * (the repository's objects, as they land in the clone); a download is abandoned as soon as it
   * is found past the limit.
   * @default 268435456 (256 MiB)
   */
  readonly maxDownloadBytes?: number | undefined;
  /**
   * Largest total size of the files of a tarball or a git checkout, in bytes, checked before
   * anything is written: a few megabytes of gzip can expand to gigabytes.
   * @default 1073741824 (1 GiB)
   */
  readonly maxExtractedBytes?: number | undefined;
  /**
   * Most entries a tarball (files, directories, links) or a git checkout (files) may hold,
   * checked before anything is written.
   * @default 20000
   */
  readonly maxArchiveEntries?: number | undefined;
  /**
   * Time limit for each git command (clone, fetch, checkout).
   * @default Duration.minutes(10)
   */
  readonly gitTimeout?: Duration | undefined;
  /**
   * The git executable, spawned directly (no shell).
   * @default 'git' (looked up on PATH)
   */
  readonly gitCommand?: string | undefined;
  /**
   * Fetch again even when the cache has an entry: a branch moves, and so can a tarball URL.
   * Without it the first commit or tarball seen for a (location, reference) is used until the
   * cache is cleared, whereas Armada fetches on every run. Done at most once per process per entry;
   * older entries stay on disk, so other processes reading them are not disturbed.
   * @default false
   */
  readonly refresh?: boolean | undefined;
}

/** The per-user cache directory used when `cacheDir` is not given; see `CacheOptions.cacheDir`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  // The XDG spec says relative values are invalid and must be ignored.
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'armada-cdk');
  if (platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'armada-cdk', 'cache');
  // HOME from the given environment first, so a caller that isolates HOME isolates the cache too.
  const home = (platform !== 'win32' && env.HOME) || os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'armada-cdk');
  return path.join(home, '.cache', 'armada-cdk');
}

/** @internal */
export function cacheRoot(options: CacheOptions): string {
  return path.resolve(options.cacheDir ?? defaultCacheDir());
}

/** @internal */
export function logger(options: CacheOptions): (message: string) => void {
  const log = options.log;
  // Log lines quote locations and names from archives: one line each, never a credential.
  return log ? (message) => log(safeText(message)) : () => undefined;
}

/** @internal milliseconds of an optional Duration, refusing values Node would silently misread. */
export function millis(value: Duration | undefined, fallback: Duration, option: string): number {
  const d = value ?? fallback;
  const ms = d.toSeconds() * 1000;
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new ChartSourceError('invalid-option', `${option} must be a positive duration; received ${d.toString()}`);
  }
  return Math.ceil(ms);
}

/** @internal a positive whole number of an optional limit, refusing values that would disable it by accident. */
/** What a source may cost, with the defaults the options document: tarballs and git alike. */
export function sourceLimits(options: ResolveChartSourceOptions): { maxDownloadBytes: number; maxExtractedBytes: number; maxArchiveEntries: number } {
  return {
    maxDownloadBytes: limit(options.maxDownloadBytes, 256 * 1024 ** 2, 'maxDownloadBytes'),
    maxExtractedBytes: limit(options.maxExtractedBytes, 1024 ** 3, 'maxExtractedBytes'),
    maxArchiveEntries: limit(options.maxArchiveEntries, 20_000, 'maxArchiveEntries'),
  };
}

export function limit(value: number | undefined, fallback: number, option: string): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v <= 0) {
    throw new ChartSourceError('invalid-option', `${option} must be a positive whole number; received ${String(value)}`);
  }
  return v;
}
