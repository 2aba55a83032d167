/**
 * Input files (and stdin) as UTF-8 text. Armada decodes what it reads as UTF-8 (`d.decode()`
 * before `yaml.safe_load_all`), so anything else is refused here, with a diagnostic rather than
 * an exception: a wrong path is a user mistake, not a crash.
 */
import { isUtf8 } from 'buffer';
import * as fs from 'fs';
import { Diagnostic } from '../../model/diagnostics';
import { LoadCodes } from './codes';
import { SourceText } from './source';
import { MAX_INPUT_BYTES } from './limits';

/** How standard input (`-`) is named in diagnostics, unless told otherwise. */
export const STDIN_NAME = '<stdin>';

/** Options of {@link readInputs}. */
export interface ReadOptions {
  /**
   * Larger inputs are refused: reading one takes about ten times its size in memory, more for
   * some shapes (see `limits.ts`), and no manifest is that large. Counted on the bytes read, so it
   * holds for stdin and for files that grow or whose size the file system does not know.
   * @default 64 MiB
   */
  readonly maxBytes?: number | undefined;
  /**
   * How stdin (`-`) is named in diagnostics.
   * @default '<stdin>'
   */
  readonly stdinName?: string | undefined;
}

/** The inputs that could be read, in the order given, and what went wrong with the others. */
export interface ReadResult {
  readonly inputs: SourceText[];
  readonly diagnostics: Diagnostic[];
}

const MiB = 1024 * 1024;

// Standard input can be read once per process, and a run reads its inputs in several calls (one
// per file, then the override files): which streams are used up is known across them.
const streamsRead = new WeakSet<object>();

/**
 * Reads each path as UTF-8 text; `-` reads `stdin` (once: a second `-` gets a warning). Never
 * throws for a user mistake: a missing or unreadable path, a directory, a FIFO, device or socket
 * (only stdin may be one), an input over the size limit, an empty file, UTF-16 or UTF-32 text,
 * binary data (NUL bytes) or bytes that are not UTF-8 each give a diagnostic and the input is
 * left out.
 *
 * @param stdin the stream `-` reads.
 * @default stdin - `process.stdin`
 */
export async function readInputs(paths: readonly string[], stdin?: NodeJS.ReadableStream, options: ReadOptions = {}): Promise<ReadResult> {
  const maxBytes = options.maxBytes ?? MAX_INPUT_BYTES;
  const stdinName = options.stdinName ?? STDIN_NAME;
  const inputs: SourceText[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const p of paths) {
    const file = p === '-' ? stdinName : p;
    const fail = (code: string, message: string, location = file, severity: Diagnostic['severity'] = 'error') =>
      diagnostics.push({ severity, location, code, message });
    let bytes: Buffer;
    if (p === '-') {
      const stream = stdin ?? process.stdin;
      if (streamsRead.has(stream)) {
        fail(LoadCodes.READ_ERROR, `${stdinName} is given more than once; it is read only the first time`, file, 'warning');
        continue;
      }
      streamsRead.add(stream);
      try {
        bytes = await readStream(stream, maxBytes);
      } catch (e) {
        fail(LoadCodes.READ_ERROR, e instanceof TooLarge ? `${stdinName} is larger than ${formatSize(maxBytes)}; reading stopped there` : `cannot read ${stdinName}: ${errorText(e)}`);
        continue;
      }
    } else {
      try {
        const r = readFileBounded(p, maxBytes);
        if (typeof r === 'string') {
          fail(LoadCodes.READ_ERROR, r);
          continue;
        }
        bytes = r;
      } catch (e) {
        fail(LoadCodes.READ_ERROR, `cannot read ${p}: ${errorText(e)}`);
        continue;
      }
    }
    if (bytes.length === 0) {
      fail(LoadCodes.NO_DOCUMENTS, `${file} contains no YAML documents (it is empty)`, file, 'warning');
      continue;
    }
    const wide = unicodeEncoding(bytes);
    if (wide) {
      fail(
        LoadCodes.NOT_TEXT,
        `${file} is ${wide.name} text${wide.bom ? ' (it starts with its byte order mark)' : ''}, not UTF-8, which is what Armada reads; convert it first: iconv -f ${wide.iconv} -t UTF-8`,
      );
      continue;
    }
    const nul = bytes.indexOf(0);
    if (nul >= 0) {
      // binary data has no characters to count: the column is in bytes
      const at = bytePosition(bytes, nul, true);
      fail(LoadCodes.NOT_TEXT, `${file} is not a UTF-8 text file (NUL byte at line ${at.line}, column ${at.column}: binary data?)`, `${file}:${at.line}:${at.column}`);
      continue;
    }
    if (!isUtf8(bytes)) {
      const bad = firstInvalidUtf8(bytes);
      const at = bytePosition(bytes, bad);
      fail(LoadCodes.NOT_TEXT, `${file} is not a UTF-8 text file (invalid byte 0x${bytes[bad].toString(16).padStart(2, '0')} at line ${at.line}, column ${at.column})`, `${file}:${at.line}:${at.column}`);
      continue;
    }
    inputs.push({ file, text: bytes.toString('utf8') });
  }
  return { inputs, diagnostics };
}

class TooLarge extends Error {}

/**
 * Reads `stream` to its end, or stops at `maxBytes`: an endless producer (`yes | armada-cdk
 * validate -`) is cut off there, and the stream is destroyed so that nothing keeps the process
 * waiting for more.
 */
function readStream(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer | string) => {
      const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      size += b.length;
      if (size > maxBytes) {
        stream.removeListener('data', onData);
        stream.pause();
        (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
        reject(new TooLarge());
        return;
      }
      parts.push(b);
    };
    stream.on('data', onData);
    stream.on('end', () => {
      // The listener stays on a stream that outlives the run (the process's standard input):
      // it must not keep the chunks too.
      stream.removeListener('data', onData);
      const all = Buffer.concat(parts, size);
      parts.length = 0;
      resolve(all);
    });
    // Kept after a rejection too: a destroyed stream may still report an error, which must not
    // become an uncaught exception.
    stream.on('error', reject);
  });
}

const KINDS: [(st: fs.Stats) => boolean, string][] = [
  [(st) => st.isFIFO(), 'a named pipe (FIFO)'],
  [(st) => st.isCharacterDevice(), 'a character device'],
  [(st) => st.isBlockDevice(), 'a block device'],
  [(st) => st.isSocket(), 'a socket'],
];

/** What a path is when it is not a regular file, for the refusal message. */
function notRegular(st: fs.Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a directory, not a file';
  const kind = KINDS.find(([test]) => test(st));
  return `${kind ? kind[1] : 'not a regular file'}, not a regular file; only stdin (-) may be a stream or a device: redirect it to stdin and pass -`;
}

/**
 * A regular file's bytes, counted as they are read: `st.size` says nothing about a device
 * (`/dev/zero` is 0 bytes) or a file that grows while it is read, so the limit is applied to the
 * bytes themselves. Returns the refusal message for something that is not a regular file or is
 * too large. The path is opened non-blocking, so that a FIFO swapped in after the check cannot
 * hang the open; the opened file is checked again (symbolic links are followed, to their target).
 * Synchronous: the inputs are read one after the other and parsed synchronously anyway, and each
 * asynchronous call would cost a round trip through the thread pool, which for a small file
 * takes longer than the read itself.
 */
function readFileBounded(p: string, maxBytes: number): Buffer | string {
  const before = fs.statSync(p);
  const kind = notRegular(before);
  if (kind) return `${p} is ${kind}`;
  if (before.size > maxBytes) return `${p} is larger than ${formatSize(maxBytes)} (${formatSize(before.size)})`;
  const fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    const kindNow = notRegular(st);
    if (kindNow) return `${p} is ${kindNow}`;
    const parts: Buffer[] = [];
    let size = 0;
    const chunkSize = Math.min(Math.max(st.size + 1, 64 * 1024), 16 * MiB);
    for (;;) {
      const buf = Buffer.allocUnsafe(chunkSize);
      const bytesRead = fs.readSync(fd, buf, 0, chunkSize, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > maxBytes) return `${p} is larger than ${formatSize(maxBytes)}; reading stopped there`;
      parts.push(bytesRead === chunkSize ? buf : buf.subarray(0, bytesRead));
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * UTF-16 or UTF-32 text, by its byte order mark or, without one, by the NUL bytes that every
 * ASCII character carries in those encodings (YAML is mostly ASCII): named as such, rather than
 * as binary data.
 */
function unicodeEncoding(b: Buffer): { name: string; iconv: string; bom: boolean } | undefined {
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) return { name: 'UTF-32 (little-endian)', iconv: 'UTF-32LE', bom: true };
  if (b.length >= 4 && b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) return { name: 'UTF-32 (big-endian)', iconv: 'UTF-32BE', bom: true };
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return { name: 'UTF-16 (little-endian)', iconv: 'UTF-16LE', bom: true };
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return { name: 'UTF-16 (big-endian)', iconv: 'UTF-16BE', bom: true };
  // Without a mark: look at the first units; ASCII in UTF-16 is one zero byte per character.
  const n = Math.min(b.length, 512) & ~3;
  if (n < 4) return undefined;
  const zeros = [0, 0, 0, 0];
  for (let i = 0; i < n; i++) if (b[i] === 0) zeros[i & 3]++;
  const quarter = n / 4;
  const most = (k: number) => zeros[k] >= quarter * 0.9;
  const few = (k: number) => zeros[k] <= quarter * 0.1;
  if (most(1) && most(2) && most(3) && few(0)) return { name: 'UTF-32 (little-endian)', iconv: 'UTF-32LE', bom: false };
  if (most(0) && most(1) && most(2) && few(3)) return { name: 'UTF-32 (big-endian)', iconv: 'UTF-32BE', bom: false };
  if (most(1) && most(3) && few(0) && few(2)) return { name: 'UTF-16 (little-endian)', iconv: 'UTF-16LE', bom: false };
  if (most(0) && most(2) && few(1) && few(3)) return { name: 'UTF-16 (big-endian)', iconv: 'UTF-16BE', bom: false };
  return undefined;
}

function errorText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    default:
      return err instanceof Error ? err.message : String(e);
  }
}

function formatSize(n: number): string {
  return n >= MiB ? `${Math.round((n / MiB) * 10) / 10} MiB` : `${n} bytes`;
}

/** 1-based line and column (in characters, or in bytes) of a byte offset; CR, LF and CRLF each end a line, as in YAML. */
function bytePosition(bytes: Buffer, offset: number, byteColumn = false): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = bytes[i];
    if (c === 10 || (c === 13 && bytes[i + 1] !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  if (byteColumn) return { line, column: offset - lineStart + 1 };
  let column = 1;
  for (let i = lineStart; i < offset; i++) if ((bytes[i] & 0xc0) !== 0x80) column++;
  return { line, column };
}

/** Offset of the first byte that breaks UTF-8 (only called once `isUtf8` said there is one). */
function firstInvalidUtf8(b: Buffer): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) [n, min] = [1, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [n, min] = [2, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      if (x === undefined || (x & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (x & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return b.length - 1;
}
