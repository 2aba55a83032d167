/**
 * Extracting a downloaded chart tarball within limits. A first pass reads the archive without
 * writing anything, so an archive over the limits, corrupt, or holding what a chart never does
 * (devices, links out of the archive) is refused before a byte reaches the disk; the second pass
 * writes it, synchronously, so a failure leaves no write in flight behind it.
 */
import { createReadStream } from 'fs';
import * as path from 'path';
import * as tar from 'tar';

/** What an archive may cost once extracted. */
export interface ExtractLimits {
  /** Sum of the sizes of the files, in bytes. */
  readonly maxBytes: number;
  /** Number of entries (files, directories, links). */
  readonly maxEntries: number;
}

/** An archive over a limit, or one that cannot be read; `message` says which and by how much. */
export class ExtractError extends Error {
  constructor(
    message: string,
    /** True for a limit, false for an unreadable archive. */
    public readonly limit: boolean,
  ) {
    super(message);
  }
}

/** What the first pass found. */
export interface ArchiveScan {
  readonly entries: number;
  readonly bytes: number;
  /** Symbolic links that point outside the archive (absolute, or climbing out with `..`): `path -> target`. */
  readonly escapingLinks: readonly string[];
}

/** Reads the archive without writing; rejects with {@link ExtractError} over a limit or on a damaged archive. */
export function scanArchive(file: string, limits: ExtractLimits): Promise<ArchiveScan> {
  return new Promise<ArchiveScan>((resolve, reject) => {
    let entries = 0;
    let bytes = 0;
    const escapingLinks: string[] = [];
    let failed = false;
    const input = createReadStream(file);
    const fail = (e: ExtractError) => {
      if (failed) return;
      failed = true;
      input.destroy();
      reject(e);
    };
    const parser = new tar.Parser({
      strict: true,
      onReadEntry: (entry) => {
        entries++;
        if (entry.type === 'File' || entry.type === 'OldFile' || entry.type === 'ContiguousFile') bytes += entry.size ?? 0;
        if (entries > limits.maxEntries) fail(new ExtractError(`the archive has more than ${limits.maxEntries} entries (maxArchiveEntries)`, true));
        else if (bytes > limits.maxBytes) fail(new ExtractError(`the archive holds more than ${limits.maxBytes} bytes once extracted (maxExtractedBytes)`, true));
        if (entry.type === 'SymbolicLink' && escapes(entry.path, String(entry.linkpath ?? ''))) escapingLinks.push(`${entry.path} -> ${entry.linkpath}`);
        entry.resume();
      },
    });
    parser.on('error', (e: Error) => fail(new ExtractError(e.message, false)));
    parser.on('end', () => {
      if (!failed) resolve({ entries, bytes, escapingLinks });
    });
    input.on('error', (e) => fail(new ExtractError(e.message, false)));
    input.pipe(parser);
  });
}

/**
 * Writes the archive under `cwd` (which must exist and be empty). Owners and the setuid, setgid and
 * sticky bits of the archive are never applied; symbolic links that leave the archive are left
 * out; paths with `..` or a leading `/` are refused (tar's default, made an error by `strict`).
 * Call only after {@link scanArchive} accepted the file.
 */
export function extractArchive(file: string, cwd: string): void {
  tar.x({
    file,
    cwd,
    sync: true,
    strict: true,
    preserveOwner: false,
    preservePaths: false,
    filter: (p, entry) => {
      if ('type' in entry && entry.type === 'SymbolicLink' && escapes(p, String(entry.linkpath ?? ''))) return false;
      if ('mode' in entry && typeof entry.mode === 'number') entry.mode &= 0o777;
      return true;
    },
  });
}

/** Whether a link at `linkPath` (archive-relative) to `target` resolves outside the archive root. */
function escapes(linkPath: string, target: string): boolean {
  if (target === '' || path.posix.isAbsolute(target) || /^[A-Za-z]:|^\\/.test(target)) return true;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(linkPath.replace(/\\/g, '/')), target.replace(/\\/g, '/')));
  return resolved === '..' || resolved.startsWith('../');
}
