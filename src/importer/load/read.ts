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

/** Options of {@link readInputs}. */
export interface ReadOptions {
  /**
   * Larger inputs are refused: a string that big cannot be held by the JavaScript engine anyway,
   * and no manifest is.
   * @default 256 MiB
   */
  readonly maxBytes?: number;
  /**
   * How stdin (`-`) is named in diagnostics.
   * @default '<stdin>'
   */
  readonly stdinName?: string;
}

/** The inputs that could be read, in the order given, and what went wrong with the others. */
export interface ReadResult {
  readonly inputs: SourceText[];
  readonly diagnostics: Diagnostic[];
}

const MiB = 1024 * 1024;

/**
 * Reads each path as UTF-8 text; `-` reads `stdin` (once: a second `-` gets a warning). Never
 * throws for a user mistake: a missing or unreadable path, a directory, an empty file, binary
 * data (NUL bytes) or bytes that are not UTF-8 each give a diagnostic and the input is left out.
 *
 * @param stdin the stream `-` reads.
 * @default stdin - `process.stdin`
 */
export async function readInputs(paths: readonly string[], stdin?: NodeJS.ReadableStream, options: ReadOptions = {}): Promise<ReadResult> {
  const maxBytes = options.maxBytes ?? 256 * MiB;
  const stdinName = options.stdinName ?? '<stdin>';
  const inputs: SourceText[] = [];
  const diagnostics: Diagnostic[] = [];
  let stdinRead = false;
  for (const p of paths) {
    const file = p === '-' ? stdinName : p;
    const fail = (code: string, message: string, location = file, severity: Diagnostic['severity'] = 'error') =>
      diagnostics.push({ severity, location, code, message });
    let bytes: Buffer;
    if (p === '-') {
      if (stdinRead) {
        fail(LoadCodes.READ_ERROR, `${stdinName} is given more than once; it is read only the first time`, file, 'warning');
        continue;
      }
      stdinRead = true;
      try {
        bytes = await readStream(stdin ?? process.stdin, maxBytes);
      } catch (e) {
        fail(LoadCodes.READ_ERROR, e instanceof TooLarge ? `${stdinName} is larger than ${formatSize(maxBytes)}` : `cannot read ${stdinName}: ${errorText(e)}`);
        continue;
      }
    } else {
      try {
        const st = await fs.promises.stat(p);
        if (st.isDirectory()) {
          fail(LoadCodes.READ_ERROR, `${p} is a directory, not a file`);
          continue;
        }
        if (st.size > maxBytes) {
          fail(LoadCodes.READ_ERROR, `${p} is larger than ${formatSize(maxBytes)} (${formatSize(st.size)})`);
          continue;
        }
        bytes = await fs.promises.readFile(p);
      } catch (e) {
        fail(LoadCodes.READ_ERROR, `cannot read ${p}: ${errorText(e)}`);
        continue;
      }
    }
    if (bytes.length === 0) {
      fail(LoadCodes.NO_DOCUMENTS, `${file} contains no YAML documents (it is empty)`, file, 'warning');
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

function readStream(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer | string) => {
      const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      size += b.length;
      if (size > maxBytes) {
        stream.removeAllListeners('data');
        reject(new TooLarge());
        return;
      }
      parts.push(b);
    });
    stream.on('end', () => resolve(Buffer.concat(parts)));
    stream.on('error', reject);
  });
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

/** 1-based line and column (in characters, or in bytes) of a byte offset. */
function bytePosition(bytes: Buffer, offset: number, byteColumn = false): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let nl = bytes.indexOf(10); nl >= 0 && nl < offset; nl = bytes.indexOf(10, nl + 1)) {
    line++;
    lineStart = nl + 1;
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
