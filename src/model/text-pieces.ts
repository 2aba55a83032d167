/**
 * `texts` joined into pieces of about `size` characters, each ending where a text ends, each made
 * only when the one before it has been taken: a large output is never held as one string, and a
 * slow reader can hold its writer back. A write per text would be a system call per line or
 * document.
 * @default size 65536
 */
export function* inPieces(texts: Iterable<string>, size = 65536): Generator<string, void, undefined> {
  let out = '';
  for (const t of texts) {
    out += t;
    if (out.length >= size) {
      yield out;
      out = '';
    }
  }
  if (out !== '') yield out;
}
