/** The CLI's view of the process, injectable so that tests run commands in-process. */
export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly stdin: NodeJS.ReadableStream;
  readonly cwd: string;
}

/** Where the CLI writes: a process stream, or a test's recorder. */
export interface CliOutput {
  /** `false` when the text was buffered beyond what the stream wants held (Node's `write`). */
  write(s: string): unknown;
  readonly isTTY?: boolean | undefined;
  /**
   * Resolves once a buffer that `write` reported full has gone to the system: `true`, or `false`
   * when the stream can take nothing more (it failed, or its reader went away). Without it, a
   * large output is written without waiting.
   */
  drained?(): Promise<boolean>;
}

/**
 * Writes `pieces` one after another, taking the next only when the stream can take it. A pipe
 * takes what its reader has read (`convert | kubectl apply -f -`): without the wait, every piece
 * made faster than that is held in memory, and a large site's conversion held its whole output
 * and spent half as much CPU again copying it from one young generation to the next.
 */
export async function writePieces(out: CliOutput, pieces: Iterable<string>): Promise<void> {
  for (const piece of pieces) {
    // A stream that can take nothing more (`convert | head`) is not handed the rest to drop.
    if (out.write(piece) === false && out.drained && !(await out.drained())) return;
  }
}

/** Exit codes: 0 valid / done, 1 invalid input (diagnostics printed), 2 usage error. */
export const EXIT = { OK: 0, INVALID: 1, USAGE: 2 } as const;

/** A mistake in the command line itself: printed with a hint to `--help`, exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    public readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Output that could not be written (a full disk, a failed rename, an interrupt): reported as what
 * it is, not as a bug, with `exitCode` (1, or 128 + the signal number when interrupted).
 */
export class OutputError extends Error {
  constructor(
    message: string,
    public readonly exitCode: number = EXIT.INVALID,
  ) {
    super(message);
    this.name = 'OutputError';
  }
}

/** What `errno` codes of writes mean to the person who ran the command. */
export function ioErrorText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const known: Record<string, string> = {
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EIO: 'input/output error',
    EROFS: 'read-only file system',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENOENT: 'no such file or directory',
    ENOTDIR: 'a part of the path is not a directory',
    EISDIR: 'it is a directory',
    EEXIST: 'it already exists',
    ELOOP: 'it is a symbolic link',
    EFBIG: 'file too large',
    EXDEV: 'it is on another file system',
  };
  const code = typeof err?.code === 'string' ? err.code : undefined;
  if (code && Object.hasOwn(known, code)) return `${known[code]} (${code})`;
  return err instanceof Error ? err.message : String(e);
}

type Guarded = CliOutput & { drained(): Promise<boolean>; readonly failure: () => NodeJS.ErrnoException | undefined; readonly stream: NodeJS.WriteStream };
const guarded = new WeakSet<object>();

/**
 * A process stream that cannot crash the command: a reader that went away (`convert | head`,
 * EPIPE) ends the output quietly, and any other write error (`> /dev/full`, ENOSPC) is reported
 * once, as the user's problem, and makes the exit code 1 (see {@link settleOutput}). Later writes
 * are dropped.
 */
export function guard(stream: NodeJS.WriteStream, name: string): Guarded {
  let failed: NodeJS.ErrnoException | undefined;
  const fail = (e: unknown) => {
    if (failed) return;
    failed = e as NodeJS.ErrnoException;
    if (failed.code === 'EPIPE' || stream === process.stderr) return;
    try {
      process.stderr.write(`armada-cdk: cannot write to ${name}: ${ioErrorText(e)}\n`);
    } catch {
      // stderr is gone as well: the exit code still says it.
    }
  };
  stream.on('error', fail);
  const g: Guarded = {
    isTTY: stream.isTTY,
    write(s: string) {
      if (failed) return false;
      try {
        return stream.write(s);
      } catch (e) {
        fail(e);
        return false;
      }
    },
    drained() {
      if (failed || stream.destroyed) return Promise.resolve(false);
      if (!stream.writableNeedDrain) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const done = () => {
          stream.off('drain', done).off('error', done).off('close', done);
          resolve(!failed && !stream.destroyed);
        };
        stream.on('drain', done).on('error', done).on('close', done);
      });
    },
    failure: () => failed,
    stream,
  };
  guarded.add(g);
  return g;
}

/** The stdout a {@link processIo} built, if it built one (settling must not build it). */
const builtStdout = new WeakMap<CliIo, () => Guarded | undefined>();

export function processIo(): CliIo {
  // Node builds each process stream on first access, which costs milliseconds (a pipe loads the
  // net module): a run that writes nothing to one never builds it. Only `-` needs stdin.
  let stdout: Guarded | undefined;
  let stderr: Guarded | undefined;
  const io: CliIo = {
    get stdout() {
      return (stdout ??= guard(process.stdout, 'standard output'));
    },
    get stderr() {
      return (stderr ??= guard(process.stderr, 'standard error'));
    },
    get stdin() {
      return process.stdin;
    },
    cwd: process.cwd(),
  };
  builtStdout.set(io, () => stdout);
  return io;
}

/**
 * The exit code once the output has been handed to the system: write errors arrive as events
 * after the command returned, so they are waited for. EPIPE keeps the command's code (quiet);
 * another error on stdout makes it 1, and its message was printed when it happened.
 */
export async function settleOutput(io: CliIo, code: number): Promise<number> {
  const built = builtStdout.get(io);
  const out = (built ? built() : io.stdout) as Partial<Guarded> | undefined;
  if (!out || !guarded.has(out) || !out.stream || !out.failure) return code;
  const stream = out.stream;
  if (!out.failure() && stream.writableLength > 0) await new Promise<void>((resolve) => {
    const done = () => resolve();
    stream.once('drain', done);
    stream.once('error', done);
    stream.once('close', done);
  });
  await new Promise<void>((resolve) => setImmediate(resolve));
  const f = out.failure();
  return f && f.code !== 'EPIPE' && code === EXIT.OK ? EXIT.INVALID : code;
}
