import { printable, redactCredentials } from '../../model/safe-text';

/**
 * What went wrong while fetching or assembling a chart, as a stable identifier that callers and
 * tests can switch on without parsing messages.
 */
export type ChartSourceErrorCode =
  /** `source.type` is not `local`, `tar` or `git`. */
  | 'unsupported-type'
  /** An option or source field cannot be used (bad proxy URL, reference starting with `-`, ...). */
  | 'invalid-option'
  /** The chart directory (location + subpath) does not exist. */
  | 'not-found'
  /** The directory exists but has no `Chart.yaml`, or its `Chart.yaml` has no usable `name`. */
  | 'not-a-chart'
  /** The tarball could not be downloaded: network, TLS, proxy or a non-2xx status. */
  | 'download'
  /** The downloaded file is not a readable (gzip) tar archive. */
  | 'extract'
  /** A source costs more than its limit allows (download size or time, extracted size, entries). */
  | 'limit'
  /** A fetched chart holds a symbolic link that points outside it, or its subpath is one that leaves the source. */
  | 'unsafe-symlink'
  /** The git executable could not be started. */
  | 'git-not-installed'
  /** `git clone` or `git fetch` failed for a reason other than an unknown reference. */
  | 'git-clone'
  /** The repository has no such branch, tag, commit or ref. */
  | 'git-reference'
  /** `authMethod: ssh` was asked for but the SSH key file does not exist. */
  | 'git-ssh-key'
  /** A dependency handed to `assembleChart` cannot be placed under `charts/`. */
  | 'dependency';

/** Raised by `resolveChartSource` and `assembleChart`; the message names the source and the fix. */
export class ChartSourceError extends Error {
  /** git's or the server's own words, trimmed, credentials hidden and control characters escaped, when there are any. */
  public readonly detail?: string | undefined;
  public override readonly name = 'ChartSourceError';

  constructor(
    /** Stable identifier of the failure. */
    public readonly code: ChartSourceErrorCode,
    message: string,
    /** git's or the server's own words, trimmed, when there are any. */
    detail?: string | undefined,
    options?: { readonly cause?: unknown },
  ) {
    // Messages quote locations, server bodies and git's words: every one is made safe here, once.
    super(printableLines(redactCredentials(message)), options?.cause === undefined ? undefined : { cause: options.cause });
    if (detail !== undefined) this.detail = printableLines(redactCredentials(detail));
  }
}

/**
 * git and servers end their messages with newlines and progress noise; keep the part a user can
 * read, each line with its control characters (a server's ANSI sequences) escaped.
 */
export function trimDetail(text: string, max = 2000): string {
  const lines = text
    .split(/\r?\n|\r/)
    .map((l) => printable(l.trimEnd()))
    .filter((l) => l.trim() !== '');
  const joined = lines.join('\n').trim();
  return joined.length > max ? `${joined.slice(0, max)}…` : joined;
}

/**
 * Hides credentials in URLs, since locations may carry them and messages end up in CI logs (the
 * one redaction of the project, {@link redactCredentials}).
 */
export const redact = redactCredentials;

/** Each line of `text` made {@link printable}: git's several lines of explanation stay lines. */
export function printableLines(text: string): string {
  return text
    .split('\n')
    .map((l) => printable(l))
    .join('\n');
}
