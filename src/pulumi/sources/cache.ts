import { createHash, randomBytes } from 'crypto';
import { promises as fs } from 'fs';
import * as path from 'path';

/** Hex SHA-256 of the parts; NUL-separated so that ('ab','c') and ('a','bc') differ. */
export function hashOf(...parts: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
}

/**
 * A cache entry name that a person browsing the cache can still recognise
 * (`openstack-helm-3f2a…`), with the hash keeping it unique.
 */
export function entryName(location: string, ...parts: readonly string[]): string {
  const base = location
    .replace(/[?#].*$/, '')
    .replace(/[/\\]+$/, '')
    .split(/[/\\:]/)
    .pop()!
    .replace(/\.(tgz|tar\.gz|tar|git)$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, 40);
  const hash = hashOf(location, ...parts).slice(0, 20);
  return base ? `${base}-${hash}` : hash;
}

/** A sibling name for work in progress; the leading dot keeps it out of entry listings. */
export function tempPath(dir: string, label: string): string {
  return path.join(dir, `.tmp-${label}-${process.pid}-${randomBytes(6).toString('hex')}`);
}

export async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Moves a finished temp directory into place. Rename is atomic, so a reader sees either no entry
 * or a complete one; when another process published the same entry first, ours is discarded and
 * theirs (identical by construction: entries are content- or commit-addressed) is used.
 * @returns true when this call published the entry
 */
export async function publishDir(tmp: string, final: string): Promise<boolean> {
  try {
    await fs.rename(tmp, final);
    return true;
  } catch (e) {
    if (await isDirectory(final)) {
      await fs.rm(tmp, { recursive: true, force: true });
      return false;
    }
    await fs.rm(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** Reads the small file that names an entry's current version, or undefined when there is none. */
export async function readPointer(file: string): Promise<string | undefined> {
  try {
    const v = (await fs.readFile(file, 'utf8')).trim();
    return /^[0-9a-f]{7,64}$/.test(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces the pointer atomically (write + rename), so a concurrent reader never sees half a name. */
export async function writePointer(file: string, value: string): Promise<void> {
  const tmp = tempPath(path.dirname(file), 'pointer');
  await fs.writeFile(tmp, `${value}\n`);
  await fs.rename(tmp, file);
}

const inflight = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` once for concurrent callers with the same key (several charts of one repository
 * resolved in parallel). The entry is dropped when it settles, so a failure can be retried and a
 * later call sees the disk, which is the source of truth.
 */
export function dedupe<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const running = inflight.get(key);
  if (running) return running as Promise<T>;
  const p = fn().finally(() => inflight.delete(key));
  inflight.set(key, p);
  return p;
}

const refreshed = new Set<string>();

/** True the first time it is asked about `key` in this process: `refresh` fetches once per run, not once per chart. */
export function firstRefresh(key: string): boolean {
  if (refreshed.has(key)) return false;
  refreshed.add(key);
  return true;
}

const settled = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` once per key for the life of the process and keeps its result: every chart of one
 * run that names a location gets the same version of it, even when another process fetches a
 * newer one meanwhile. `renew` runs `fn` again and keeps the new result (a refresh). A failure is
 * forgotten, so a later call tries again.
 */
export function once<T>(key: string, fn: () => Promise<T>, renew = false): Promise<T> {
  const known = renew ? undefined : settled.get(key);
  if (known) return known as Promise<T>;
  const p = fn();
  settled.set(key, p);
  p.catch(() => {
    if (settled.get(key) === p) settled.delete(key);
  });
  return p;
}

/** What {@link treeDigest} counts, beyond names, kinds, contents and symlink targets. */
export interface TreeDigestOptions {
  /**
   * Count each file's executable bit.
   * @default true
   */
  readonly executableBits?: boolean | undefined;
  /**
   * Count entries that are neither files, directories nor links (FIFOs, sockets, devices).
   * @default true
   */
  readonly otherEntries?: boolean | undefined;
  /**
   * Absolute paths left out, with everything under them.
   * @default - none
   */
  readonly skip?: ReadonlySet<string> | undefined;
}

/**
 * Hash of a tree as it is deployed: relative names, kinds, contents and symlink targets (and, by
 * default, the executable bit and other entries), in a stable order; `.git` is left out. Each
 * caller keeps the options its digests were recorded with, so that recorded digests stay valid.
 */
export async function treeDigest(root: string, options: TreeDigestOptions = {}): Promise<string> {
  const executableBits = options.executableBits ?? true;
  const otherEntries = options.otherEntries ?? true;
  const skip = options.skip ?? new Set<string>();
  const h = createHash('sha256');
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (e.name === '.git' || skip.has(abs)) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymbolicLink()) h.update(`l\0${r}\0${await fs.readlink(abs)}\0`);
      else if (e.isDirectory()) {
        h.update(`d\0${r}\0`);
        await walk(abs, r);
      } else if (e.isFile()) {
        const [st, content] = await Promise.all([executableBits ? fs.stat(abs) : undefined, fs.readFile(abs)]);
        const mode = st ? `${st.mode & 0o111 ? 'x' : '-'}\0` : '';
        h.update(`f\0${r}\0${mode}${content.length}\0`).update(content);
      } else if (otherEntries) {
        h.update(`o\0${r}\0`);
      }
    }
  };
  await walk(root, '');
  return h.digest('hex');
}

/** Where the digest of a published entry directory is kept: beside it, so a reader finds both. */
function digestFile(dir: string): string {
  return `${dir}.digest`;
}

/**
 * Publishes a finished temp directory as `final` together with its digest, written first so that
 * a directory a reader can see always has one. Entries are content- or commit-addressed, so two
 * publishers of one entry write the same digest.
 * @returns true when this call published the directory
 */
export async function publishVerified(tmp: string, final: string): Promise<boolean> {
  const digest = await treeDigest(tmp);
  await writePointer(digestFile(final), digest);
  return publishDir(tmp, final);
}

/**
 * Whether `dir` still holds what was published: its digest matches the one recorded then. An
 * entry changed since (edited by hand, half-deleted, tampered with) or without a digest is not used.
 */
export async function verifyEntry(dir: string): Promise<boolean> {
  const recorded = await readPointer(digestFile(dir));
  if (!recorded || !(await isDirectory(dir))) return false;
  try {
    return (await treeDigest(dir)) === recorded;
  } catch {
    return false;
  }
}

/** Moves a bad entry out of the way (rename, then delete), so a fresh copy can take its name. */
export async function discardEntry(dir: string): Promise<void> {
  const aside = tempPath(path.dirname(dir), 'discard');
  try {
    await fs.rename(dir, aside);
  } catch {
    return;
  }
  await removeTree(aside);
}

/**
 * Deletes a directory tree, retrying while something still writes into it (an extraction that
 * failed can leave writes in flight, which made a plain `rm` fail with ENOTEMPTY).
 */
export async function removeTree(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await fs.rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    } catch {
      // retried below
    }
    await new Promise((resolve) => setTimeout(resolve, attempt === 0 ? 20 : 100));
    if (!(await exists(dir))) return;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}
