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
  public override readonly name = 'ChartSourceError';

  constructor(
    /** Stable identifier of the failure. */
    public readonly code: ChartSourceErrorCode,
    message: string,
    /** git's or the server's own words, trimmed, when there are any. */
    public readonly detail?: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** git and servers end their messages with newlines and progress noise; keep the part a user can read. */
export function trimDetail(text: string, max = 2000): string {
  const lines = text
    .split(/\r?\n|\r/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  const joined = lines.join('\n').trim();
  return joined.length > max ? `${joined.slice(0, max)}…` : joined;
}

/**
 * Query parameters that carry a secret: API tokens (`private_token`, `access_token`), presigned
 * URL signatures and credentials (S3's `X-Amz-*`, GCS's `X-Goog-*`, Azure's `sig`), keys.
 */
const SECRET_PARAM = /^(?:x-amz-.*|x-goog-.*|.*token.*|.*secret.*|.*passw(?:or)?d.*|.*signature.*|sig|.*credential.*|.*key.*|auth.*|session.*|code)$/i;

/**
 * Hides credentials in URLs, since locations may carry them and messages end up in CI logs:
 * `user:password@` (up to the last `@` before the path, as a password may hold an unescaped `@`),
 * and the values of query parameters that carry tokens or signatures.
 */
export function redact(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#\s]*@/gi, '$1***@')
    .replace(/([?&;])([^=&#\s]+)=([^&#\s]*)/g, (all, sep: string, name: string) => {
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // keep the raw name
      }
      return SECRET_PARAM.test(decoded) ? `${sep}${name}=***` : all;
    });
}
