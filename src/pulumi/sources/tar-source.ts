import { promises as fs } from 'fs';
import * as path from 'path';
import * as tar from 'tar';
import { Duration } from '../../model/duration';
import { dedupe, entryName, firstRefresh, isDirectory, publishDir, readPointer, tempPath, writePointer } from './cache';
import { discard, download } from './http-download';
import { ChartSourceError, redact } from './errors';
import { cacheRoot, logger, millis, ResolveChartSourceOptions } from './options';

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
 * `<sha256>/` (its extraction) and `current` (which sha256 the location last served). Versions are
 * never changed once renamed into place, so readers in other processes are never disturbed.
 */
export function fetchTarball(location: string, proxyServer: string | undefined, options: ResolveChartSourceOptions): Promise<TarballEntry> {
  const entry = path.join(cacheRoot(options), 'tar', entryName(location));
  return dedupe(`tar\0${entry}`, async () => {
    const log = logger(options);
    const refresh = options.refresh === true && firstRefresh(`tar\0${entry}`);
    if (!refresh) {
      const found = await current(entry);
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
      result = await download(location, tmpFile, {
        proxyServer,
        ca,
        insecure: options.insecure === true,
        timeoutMs: millis(options.httpTimeout, Duration.seconds(30), 'httpTimeout'),
      });
    } catch (e) {
      await discard(tmpFile);
      if (e instanceof ChartSourceError) throw new ChartSourceError(e.code, `tar source ${redact(location)}: ${e.message}`, e.detail, { cause: e });
      throw e;
    }
    const sha = result.sha256;
    const file = path.join(entry, `${sha}.tgz`);
    await fs.rename(tmpFile, file);
    const dir = path.join(entry, sha);
    if (!(await isDirectory(dir))) {
      const tmpDir = tempPath(entry, 'extract');
      await fs.mkdir(tmpDir);
      try {
        // strict turns tar's warnings (bad headers, truncation) into errors instead of a half tree.
        await tar.x({ file, cwd: tmpDir, strict: true, preserveOwner: false });
      } catch (e) {
        await fs.rm(tmpDir, { recursive: true, force: true });
        await discard(file);
        throw new ChartSourceError(
          'extract',
          `tar source ${redact(location)}: the download (${result.bytes} bytes from ${redact(result.finalUrl)}) is not a readable tar.gz archive: ${(e as Error).message}`,
          undefined,
          { cause: e },
        );
      }
      await publishDir(tmpDir, dir);
    }
    await writePointer(path.join(entry, 'current'), sha);
    log(`tar: ${redact(location)} extracted (${result.bytes} bytes, sha256 ${sha.slice(0, 12)})`);
    return { root: dir, sha256: sha, cached: false };
  });
}

async function current(entry: string): Promise<TarballEntry | undefined> {
  const sha = await readPointer(path.join(entry, 'current'));
  if (!sha) return undefined;
  const root = path.join(entry, sha);
  return (await isDirectory(root)) ? { root, sha256: sha, cached: true } : undefined;
}

async function readCa(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (e) {
    throw new ChartSourceError('invalid-option', `caFile ${file} cannot be read: ${(e as Error).message}`, undefined, { cause: e });
  }
}
