/**
 * A copy of `s` that does not share its characters with a longer string. V8 makes a substring of
 * 13 characters or more a view of its parent (`text.slice(a, b)` keeps all of `text` alive), so a
 * key read from a 20 MB stream and stored in a module-wide cache would keep that whole stream for
 * as long as the process runs. Caches that outlive one run store detached keys.
 */
export function detached(s: string): string {
  // Slicing a concatenation makes V8 copy it into a string of its own first; shorter strings are
  // always copies.
  return s.length < 13 ? s : (' ' + s).slice(1);
}
