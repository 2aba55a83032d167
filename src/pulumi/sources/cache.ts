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
