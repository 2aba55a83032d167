/**
 * Reading one file as UTF-8 text, bounded: the one way the CLI reads what it is given (Armada
 * documents, override files, a chart's Chart.yaml and values.schema.json), so that a device, a
 * FIFO or a huge file is refused with the same message wherever it is named. Here, because the
 * values schemas may import only the model and themselves, and the importer may import them; no
 * diagnostics, only messages that start with the path.
 */
import { isUtf8 } from 'buffer';
import * as fs from 'fs';

/**
 * The largest file read, in bytes: four times the 8,000-chart benchmark site (see
 * `importer/load/limits.ts` for what reading takes in memory).
 */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

const MiB = 1024 * 1024;

const KINDS: [(st: fs.Stats) => boolean, string][] = [
  [(st) => st.isFIFO(), 'a named pipe (FIFO)'],
  [(st) => st.isCharacterDevice(), 'a character device'],
  [(st) => st.isBlockDevice(), 'a block device'],
  [(st) => st.isSocket(), 'a socket'],
];

/** What a path is when it is not a regular file, for the refusal message. */
function notRegular(st: fs.Stats, streamAdvice: string | undefined): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a directory, not a file';
  const kind = KINDS.find(([test]) => test(st));
  return `${kind ? kind[1] : 'not a regular file'}, not a regular file${streamAdvice ? `; ${streamAdvice}` : ''}`;
}

/** Options of {@link readRegularFile}. */
export interface ReadFileOptions {
  /** @default 64 MiB ({@link MAX_INPUT_BYTES}) */
  readonly maxBytes?: number | undefined;
  /**
   * Appended to the refusal of a FIFO, device or socket (what to do instead).
   * @default - nothing
   */
  readonly streamAdvice?: string | undefined;
}

/**
 * The bytes of the regular file at `p` (symbolic links are followed), or why it cannot be read,
 * as a message that starts with the path: missing, a directory, a FIFO, device or socket, larger
 * than `maxBytes` (counted on the bytes read), no permission. Never throws, never blocks on a
 * FIFO and never reads more than `maxBytes` + one chunk: what every input of the CLI goes through,
 * Chart.yaml and values.schema.json included.
 */
export function readRegularFile(p: string, options: ReadFileOptions = {}): { bytes: Buffer } | { problem: string } {
  try {
    const r = readFileBounded(p, options.maxBytes ?? MAX_INPUT_BYTES, options.streamAdvice);
    return typeof r === 'string' ? { problem: r } : { bytes: r };
  } catch (e) {
    return { problem: `cannot read ${p}: ${errorText(e)}` };
  }
}

/**
 * Why `bytes` are not UTF-8 text, if they are not: UTF-16 or UTF-32 (named as such, with the
 * iconv command), binary data (a NUL byte) or an invalid UTF-8 sequence, each with its line and
 * column. `reader` is who reads the file as UTF-8, for the message (`Armada`, `Helm`).
 */
export function textProblem(bytes: Buffer, file: string, reader: string): { message: string; location: string; line?: number; column?: number } | undefined {
  const wide = unicodeEncoding(bytes);
  if (wide) {
    return {
      message: `${file} is ${wide.name} text${wide.bom ? ' (it starts with its byte order mark)' : ''}, not UTF-8, which is what ${reader} reads; convert it first: iconv -f ${wide.iconv} -t UTF-8`,
      location: file,
    };
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    // binary data has no characters to count: the column is in bytes
    const at = bytePosition(bytes, nul, true);
    return { message: `${file} is not a UTF-8 text file (NUL byte at line ${at.line}, column ${at.column}: binary data?)`, location: `${file}:${at.line}:${at.column}`, ...at };
  }
  if (!isUtf8(bytes)) {
    const bad = firstInvalidUtf8(bytes);
    const at = bytePosition(bytes, bad);
    return {
      message: `${file} is not a UTF-8 text file (invalid byte 0x${bytes[bad].toString(16).padStart(2, '0')} at line ${at.line}, column ${at.column})`,
      location: `${file}:${at.line}:${at.column}`,
      ...at,
    };
  }
  return undefined;
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
function readFileBounded(p: string, maxBytes: number, streamAdvice: string | undefined): Buffer | string {
  const before = fs.statSync(p);
  const kind = notRegular(before, streamAdvice);
  if (kind) return `${p} is ${kind}`;
  if (before.size > maxBytes) return `${p} is larger than ${formatSize(maxBytes)} (${formatSize(before.size)})`;
  const fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    const kindNow = notRegular(st, streamAdvice);
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

export function errorText(e: unknown): string {
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

export function formatSize(n: number): string {
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
