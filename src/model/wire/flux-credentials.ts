/**
 * Credentials written into a chart URL: a GitRepository or HelmRepository would carry them in
 * `spec.url`, in clear, in the Git repository Flux reads. Flux takes them from a Secret
 * (`spec.secretRef`) instead.
 */
import { redactCredentials } from '../safe-text';

/**
 * What credentials `url` carries (and the URL without them, to quote), or undefined. A user name
 * alone is a credential over HTTP(S) (a token is often written so), not over SSH, where `git@` is
 * the account and the key is elsewhere.
 */
export function urlCredentials(url: string): { readonly what: string; readonly redacted: string } | undefined {
  const redacted = redactCredentials(url);
  // What redactCredentials hides before the host (it knows a password may hold "/", "#" or "?").
  if (/^[a-z][a-z0-9+.-]*:\/\/\*\*\*@/i.test(redacted)) {
    const sshUser = /^ssh:\/\/[^@/:?#]+@/i.exec(url);
    if (!sshUser) return { what: /^ssh:/i.test(url) ? 'a password' : 'credentials before the host', redacted };
    const rest = url.slice(sshUser[0].length);
    return redactCredentials(rest) !== rest ? { what: 'a secret query or fragment parameter', redacted } : undefined;
  }
  if (redacted !== url) return { what: 'a secret query or fragment parameter', redacted };
  return undefined;
}
