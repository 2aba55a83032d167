import { promises as fs } from 'fs';
import * as path from 'path';
import { Duration } from '../../model/duration';
import { discardEntry, entryName, firstRefresh, isDirectory, once, publishVerified, readPointer, removeTree, tempPath, verifyEntry, writePointer } from './cache';
import { discard, download } from './http-download';
import { ChartSourceError, redact } from './errors';
import { cacheRoot, logger, millis, ResolveChartSourceOptions, sourceLimits } from './options';
import { extractArchive, ExtractError, scanArchive } from './tar-extract';

/** A tarball extracted in the cache. */
export interface TarballEntry {
  /** The extracted tree. */
  readonly root: string;
  /** Hex SHA-256 of the tarball. */
  readonly sha256: string;
  /** True when nothing was downloaded. */
  readonly cached: boolean;
}

/**
 * Layout, under `<cacheDir>/tar/<name>-<hash of location>/`: `<sha256>.tgz` (the download),
 * `<sha256>/` (its extraction), `<sha256>.digest` (the digest of that tree, recorded when it was
 * extracted and checked before each use) and `current` (which sha256 the location last served).
 * Versions are never changed once renamed into place, so readers in other processes are never
 * disturbed, and one process keeps the version it saw first for its whole run.
 */
export function fetchTarball(location: string, proxyServer: string | undefined, options: ResolveChartSourceOptions): Promise<TarballEntry> {
  const entry = path.join(cacheRoot(options), 'tar', entryName(location));
  const key = `tar\0${entry}`;
  const refresh = options.refresh === true && firstRefresh(key);
  let ran = false;
  const result = once(
    key,
    () => {
      ran = true;
      return fetchIntoCache(entry, location, proxyServer, options, refresh);
    },
    refresh,
  );
  if (ran) return result;
  return result.then((r) => {
    logger(options)(`tar: using cached ${redact(location)} (sha256 ${r.sha256.slice(0, 12)}, the version this run already uses)`);
    return { ...r, cached: true };
  });
}

async function fetchIntoCache(entry: string, location: string, proxyServer: string | undefined, options: ResolveChartSourceOptions, refresh: boolean): Promise<TarballEntry> {
  const log = logger(options);
  const what = `tar source ${redact(location)}`;
  const cost = sourceLimits(options);
  const limits = { maxBytes: cost.maxExtractedBytes, maxEntries: cost.maxArchiveEntries };
  const downloadLimits = {
    timeoutMs: millis(options.httpTimeout, Duration.seconds(30), 'httpTimeout'),
    totalTimeoutMs: millis(options.downloadTimeout, Duration.minutes(10), 'downloadTimeout'),
    maxBytes: cost.maxDownloadBytes,
  };
  if (!refresh) {
    const found = await current(entry, what, log);
    if (found) {
      log(`tar: using cached ${redact(location)} (sha256 ${found.sha256.slice(0, 12)})`);
      return found;
    }
  }
  await fs.mkdir(entry, { recursive: true });
  const ca = options.caFile ? await readCa(options.caFile) : undefined;
  if (options.insecure) log(`tar: TLS verification is off for ${redact(location)} (insecure: true)`);
  const tmpFile = `${tempPath(entry, 'download')}.tgz`;
  log(`tar: downloading ${redact(location)}${proxyServer ? ` via proxy ${redact(proxyServer)}` : ''}`);
  let result;
  try {
    result = await download(location, tmpFile, { proxyServer, ca, insecure: options.insecure === true, ...downloadLimits });
  } catch (e) {
    await discard(tmpFile);
    if (e instanceof ChartSourceError) {
      const code = /\((maxDownloadBytes|downloadTimeout)\)/.test(e.message) ? 'limit' : e.code;
      throw new ChartSourceError(code, `${what}: ${e.message}`, e.detail, { cause: e });
    }
    throw e;
  }
  const sha = result.sha256;
  const file = path.join(entry, `${sha}.tgz`);
  await fs.rename(tmpFile, file);
  const dir = path.join(entry, sha);
  if (!(await verifyEntry(dir))) {
    const tmpDir = tempPath(entry, 'extract');
    try {
      const scan = await scanArchive(file, limits);
      for (const link of scan.escapingLinks) log(`tar: ${redact(location)}: left out the symbolic link ${link}, which points outside the archive`);
      await fs.mkdir(tmpDir);
      extractArchive(file, tmpDir);
      if (await isDirectory(dir)) await discardEntry(dir);
      await publishVerified(tmpDir, dir);
    } catch (e) {
      await removeTree(tmpDir);
      await discard(file);
      const fromScan = e instanceof ExtractError;
      throw new ChartSourceError(
        fromScan && e.limit ? 'limit' : 'extract',
        fromScan && e.limit
          ? `${what}: ${e.message}; nothing was extracted. Raise the limit if the archive is really that large`
          : `${what}: the download (${result.bytes} bytes from ${redact(result.finalUrl)}) is not a readable tar.gz archive: ${(e as Error).message}`,
        undefined,
        { cause: e },
      );
    }
  }
  await writePointer(path.join(entry, 'current'), sha);
  log(`tar: ${redact(location)} extracted (${result.bytes} bytes, sha256 ${sha.slice(0, 12)})`);
  return { root: dir, sha256: sha, cached: false };
}

async function current(entry: string, what: string, log: (m: string) => void): Promise<TarballEntry | undefined> {
  const sha = await readPointer(path.join(entry, 'current'));
  if (!sha) return undefined;
  const root = path.join(entry, sha);
  if (!(await isDirectory(root))) return undefined;
  if (!(await verifyEntry(root))) {
    log(`tar: ${what}: the cached copy ${root} no longer matches the digest recorded when it was extracted; downloading it again`);
    return undefined;
  }
  return { root, sha256: sha, cached: true };
}

async function readCa(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (e) {
    throw new ChartSourceError('invalid-option', `caFile ${file} cannot be read: ${(e as Error).message}`, undefined, { cause: e });
  }
}
