/**
 * Input files (and stdin) as UTF-8 text. Armada decodes what it reads as UTF-8 (`d.decode()`
 * before `yaml.safe_load_all`), so anything else is refused here, with a diagnostic rather than
 * an exception: a wrong path is a user mistake, not a crash.
 */
import { Diagnostic } from '../../model/diagnostics';
import { errorText, formatSize, readRegularFile, textProblem } from '../../values-schema/read-file';
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
  /**
   * Who reads the inputs as UTF-8, for the message about text in another encoding.
   * @default 'Armada'
   */
  readonly reader?: string | undefined;
}

/** The inputs that could be read, in the order given, and what went wrong with the others. */
export interface ReadResult {
  readonly inputs: SourceText[];
  readonly diagnostics: Diagnostic[];
}

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
      const r = readRegularFile(p, { maxBytes, streamAdvice: STREAM_ADVICE });
      if ('problem' in r) {
        fail(LoadCodes.READ_ERROR, r.problem);
        continue;
      }
      bytes = r.bytes;
    }
    if (bytes.length === 0) {
      fail(LoadCodes.NO_DOCUMENTS, `${file} contains no YAML documents (it is empty)`, file, 'warning');
      continue;
    }
    const problem = textProblem(bytes, file, options.reader ?? 'Armada');
    if (problem) {
      fail(LoadCodes.NOT_TEXT, problem.message, problem.location);
      continue;
    }
    inputs.push({ file, text: bytes.toString('utf8') });
  }
  return { inputs, diagnostics };
}

/** What the CLI's inputs say about a stream or device given as a path. */
const STREAM_ADVICE = 'only stdin (-) may be a stream or a device: redirect it to stdin and pass -';

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

