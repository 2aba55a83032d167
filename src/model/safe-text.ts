/**
 * Text from outside (a file's names and keys, a server's error body, git's stderr, a tar entry's
 * name, a chart location) on its way into a message, a log line or a diagnostic: the two helpers
 * every such path goes through. {@link printable} keeps it from writing lines or terminal
 * sequences of its own; {@link redactCredentials} keeps the credentials a URL may carry out of
 * CI logs. {@link safeText} is both.
 */

// Control characters, line breaks and bidirectional overrides: from a file's names and keys, they
// would let it write lines of its own into a report, move the terminal's cursor or reorder text.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `line` with control characters, line breaks and bidi overrides written as escapes (`\n`, `\x1b`, `\u2028`). */
export function printable(line: string): string {
  UNPRINTABLE.lastIndex = 0;
  if (!UNPRINTABLE.test(line)) return line;
  return line.replace(UNPRINTABLE, (c) => ESCAPES[c] ?? (c.charCodeAt(0) < 0x100 ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : `\\u${c.charCodeAt(0).toString(16)}`));
}

/**
 * Query and fragment parameters that carry a secret: API tokens (`private_token`, `access_token`,
 * `jwt`, GitLab's and GitHub's personal access tokens as `pat`), presigned URL signatures and
 * credentials (S3's `X-Amz-*`, GCS's `X-Goog-*`, Azure's `sig`), keys, passwords, one-time codes.
 */
const SECRET_PARAM =
  /^(?:x-amz-.*|x-goog-.*|.*token.*|.*secret.*|.*passw(?:or)?d.*|pass|pwd|.*signature.*|sig|.*credential.*|.*key.*|auth.*|.*bearer.*|session.*|code|.*jwt.*|pat|.*[_-]pat|pat[_-].*|otp|ticket|assertion|hmac)$/i;

/** Where a URL-like token ends in a message: whitespace, quotes and the brackets messages put around it. */
const TOKEN = String.raw`[^\s"'<>\x60(){}]*`;
/** `scheme://` and what follows it. */
const WITH_SCHEME = new RegExp(String.raw`\b([a-z][a-z0-9+.-]*:\/\/)(${TOKEN})`, 'gi');
/** `user:password@host` without a scheme, as a proxy setting may be written (`requests` reads it as http). */
const BARE_USERINFO = new RegExp(String.raw`(^|[\s"'(<=,])([^\s"'<>\x60/:@(){}]+:(?![:/])${TOKEN}@${TOKEN})`, 'g');
/** A parameter of a query (`?`, `&`, `;`) or a fragment (`#access_token=`, as OAuth's implicit flow puts it). */
const PARAM = /([?&;#])([^=&#\s"'<>]+)=([^&#\s"'<>]*)/g;

/**
 * `text` with credentials hidden: the `user:password@` of URLs (`***@`) and the values of
 * parameters that carry tokens, signatures or passwords (`=***`). A password may hold an
 * unescaped `@`, `/`, `#` or `?`, which makes the URL ambiguous: then more is hidden rather than
 * less (the end of the credentials is taken to be the last `@` before something that looks like
 * a host), since a location that reads oddly in a message costs nothing and a password in a CI log
 * has to be rotated. Applying it twice gives what applying it once gives.
 */
export function redactCredentials(text: string): string {
  if (!text.includes('@') && !text.includes('=')) return text;
  return text
    .replace(WITH_SCHEME, (_all, scheme: string, rest: string) => scheme + hideUserinfo(rest))
    .replace(BARE_USERINFO, (_all, before: string, rest: string) => before + hideUserinfo(rest, true))
    .replace(PARAM, (all, sep: string, name: string) => {
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // keep the raw name
      }
      return SECRET_PARAM.test(decoded) ? `${sep}${name}=***` : all;
    });
}

/** Both helpers: what a message quoting `text` should quote. */
export function safeText(text: string): string {
  return printable(redactCredentials(text));
}

/** A host name or bracketed IP address, and its port, as it follows the `@` of credentials. */
const AFTER_AT = /@(\[[0-9A-Fa-f:.]*\]|[A-Za-z0-9._~%-]+)(:\d+)?(?![A-Za-z0-9._~%-])/g;

/** `rest` (what follows `scheme://`, or a bare `user:password@host`) with its userinfo replaced by `***`. */
function hideUserinfo(rest: string, bare = false): string {
  if (rest.startsWith('***@') && !rest.slice(4).includes('@')) return rest;
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  // `host`, `host:port`, `host/path@x` (an npm scope): no credentials, nothing to hide.
  if (!bare && !authority.includes('@') && !authority.includes(':')) return rest;
  const candidates: { at: number; host: string }[] = [];
  AFTER_AT.lastIndex = 0;
  for (let m = AFTER_AT.exec(rest); m; m = AFTER_AT.exec(rest)) candidates.push({ at: m.index, host: m[0].slice(1) });
  if (candidates.length === 0) return rest;
  // A host with a dot, a port or brackets is surely one; `@master` after a location or `@scope`
  // in a path is not. Else the URL parser's rule (the last `@` of the authority), else the first.
  const hostLike = candidates.filter((c) => /[.:[\]]/.test(c.host) || c.host.toLowerCase() === 'localhost');
  // Without a scheme, only a proxy-like `user:password@host.example` or `@host:port` counts: `fd::7@master` does not.
  if (bare && hostLike.length === 0) return rest;
  const lastInAuthority = authority.lastIndexOf('@');
  const at = hostLike.length > 0 ? hostLike[hostLike.length - 1].at : lastInAuthority >= 0 ? lastInAuthority : candidates[0].at;
  return `***${rest.slice(at)}`;
}
