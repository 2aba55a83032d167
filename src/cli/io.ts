/** The CLI's view of the process, injectable so that tests run commands in-process. */
export interface CliIo {
  readonly stdout: { write(s: string): unknown; isTTY?: boolean };
  readonly stderr: { write(s: string): unknown; isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream;
  readonly cwd: string;
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

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Node builds process.stdin on first access, which costs milliseconds: only `-` needs it.
    get stdin() {
      return process.stdin;
    },
    cwd: process.cwd(),
  };
}
